#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel-with-ro-thp.sh: build a small x86_64 kernel from Debian's
# linux-source-6.12 with CONFIG_READ_ONLY_THP_FOR_FS=y, so that
# `fsprobe vm --kernel OUT/bzImage` can show the MADV_COLLAPSE route where it
# still exists (pmd-collapse-only verdicts). Distro kernels never set that
# option, so this is the only way to see what its removal takes away.
# Everything the fsprobe matrix needs is built in (no modules, no --modules):
# loop, ext2/3/4, xfs (with v4), btrfs, tmpfs, squashfs, erofs, overlay,
# fs-verity, virtio console, 8250 serial console, devtmpfs, gzip initrd,
# THP, tracefs events, /proc/config.gz, /proc/kpageflags, cachestat.
#
# Usage: contrib/kernel-with-ro-thp.sh [OUTDIR]     (default /var/tmp/fsprobe-kernel)
# Needs: linux-source-6.12 build-essential flex bison bc libelf-dev
#        (apt-get install ...). Does not need root once those are installed.
# Result: OUTDIR/bzImage and OUTDIR/config. Build tree: OUTDIR/linux-source-6.12.
#
# Build time on this project's 2-vCPU VM, `nice make -j2 bzImage` from a
# fresh tree (6.12.118, tinyconfig + the options below, ~1500 objects):
# 43 min wall (2570 s) while the same two CPUs ran qemu guests, the build
# getting 37% of them; 837 s user + 137 s system CPU, so about 8-9 min on
# two idle cores. Unpacking the source adds ~1 min. Result: a 2.9 MB
# bzImage, no modules.
set -eu

OUT=${1:-/var/tmp/fsprobe-kernel}
SRC_TAR=/usr/src/linux-source-6.12.tar.xz
JOBS=$(nproc 2>/dev/null || echo 2)

if [ ! -r "$SRC_TAR" ]; then
	echo "kernel-with-ro-thp: $SRC_TAR missing: apt-get install linux-source-6.12" >&2
	exit 2
fi
for t in gcc make flex bison bc; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "kernel-with-ro-thp: '$t' missing: apt-get install build-essential flex bison bc libelf-dev" >&2
		exit 2
	}
done

mkdir -p "$OUT"
cd "$OUT"
if [ ! -f linux-source-6.12/Makefile ]; then
	echo "kernel-with-ro-thp: unpacking $SRC_TAR" >&2
	tar -xJf "$SRC_TAR"
fi
cd linux-source-6.12

# tinyconfig is the smallest base that still boots; everything the guest
# /init and the fsprobe matrix touch is switched on explicitly, so the
# result does not depend on what x86_64_defconfig happens to contain.
make -s ARCH=x86_64 tinyconfig

ENABLE="64BIT SMP PRINTK BUG TTY SERIAL_8250 SERIAL_8250_CONSOLE
	BINFMT_ELF BINFMT_SCRIPT MULTIUSER FUTEX EPOLL SIGNALFD TIMERFD EVENTFD
	POSIX_TIMERS FILE_LOCKING AIO IO_URING ADVISE_SYSCALLS MEMBARRIER
	FHANDLE CACHESTAT_SYSCALL SHMEM TMPFS TMPFS_XATTR PROC_FS PROC_SYSCTL
	PROC_PAGE_MONITOR SYSFS DEVTMPFS DEVTMPFS_MOUNT
	BLK_DEV_INITRD RD_GZIP IKCONFIG IKCONFIG_PROC
	ACPI PCI VIRTIO_MENU VIRTIO VIRTIO_PCI VIRTIO_CONSOLE
	BLOCK BLK_DEV BLK_DEV_LOOP
	EXT4_FS EXT4_USE_FOR_EXT2 XFS_FS XFS_SUPPORT_V4 BTRFS_FS
	MISC_FILESYSTEMS SQUASHFS SQUASHFS_FILE_DIRECT SQUASHFS_ZLIB SQUASHFS_LZ4 SQUASHFS_LZO
	SQUASHFS_XZ SQUASHFS_ZSTD EROFS_FS EROFS_FS_ZIP OVERLAY_FS FS_VERITY
	MIGRATION COMPACTION TRANSPARENT_HUGEPAGE TRANSPARENT_HUGEPAGE_MADVISE
	READ_ONLY_THP_FOR_FS
	FTRACE TRACING SCHED_TRACER"
# shellcheck disable=SC2046,SC2086
set -- $(for o in $ENABLE; do printf -- '--enable %s ' "$o"; done)
./scripts/config "$@" --disable TRANSPARENT_HUGEPAGE_ALWAYS \
	--disable TRANSPARENT_HUGEPAGE_NEVER \
	--set-str LOCALVERSION "-fsprobe-rothp" --disable LOCALVERSION_AUTO
make -s ARCH=x86_64 olddefconfig

# olddefconfig silently drops options whose dependencies are missing: check
# that the ones fsprobe's verdicts depend on survived.
missing=
for o in READ_ONLY_THP_FOR_FS TRANSPARENT_HUGEPAGE BLK_DEV_LOOP EXT4_FS XFS_FS \
	BTRFS_FS TMPFS SQUASHFS EROFS_FS OVERLAY_FS VIRTIO_CONSOLE \
	SERIAL_8250_CONSOLE DEVTMPFS RD_GZIP IKCONFIG_PROC EVENT_TRACING \
	PROC_PAGE_MONITOR ACPI; do
	grep -q "^CONFIG_$o=y" .config || missing="$missing $o"
done
if [ -n "$missing" ]; then
	echo "kernel-with-ro-thp: olddefconfig dropped:$missing" >&2
	exit 1
fi

start=$(date +%s)
nice make -s ARCH=x86_64 -j"$JOBS" bzImage
end=$(date +%s)
cp arch/x86/boot/bzImage "$OUT/bzImage"
cp .config "$OUT/config"
echo "kernel-with-ro-thp: $OUT/bzImage ($(make -s kernelrelease)), built in $((end - start)) s with -j$JOBS" >&2
