#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-in-chroot.sh: the README's two commands on a freshly debootstrapped
# Debian bookworm system, as a standard installation has it: /run is a tmpfs
# (fsprobe's state directory, its slot images and its knob journal live
# there), nothing but what debootstrap and ./bootstrap-deps install. The host
# kernel is shared, so this tests the user space side of a fresh machine:
# packages, paths, /run on tmpfs, a root that is no mount point.
#
# Usage: sudo contrib/check-in-chroot.sh [DIR]   (default /var/tmp/fsprobe-chroot)
# Needs: debootstrap, network access to the mirror of the system's apt sources.
# A DIR that already holds a system is reused (delete it for a fresh one).
# Run it under the lock the root tests take if other root tests may run:
#   flock /tmp/fsprobe-root.lock contrib/check-in-chroot.sh
set -eu

ROOT=${1:-/var/tmp/fsprobe-chroot}
SRC=$(cd "$(dirname "$0")/.." && pwd)
MIRROR=${FSPROBE_MIRROR:-http://deb.debian.org/debian}

say() { echo "check-in-chroot: $*" >&2; }

if [ "$(id -u)" != 0 ]; then
	say "must be run as root (it mounts /proc, /sys, /dev and a tmpfs /run in $ROOT)"
	exit 2
fi
if [ ! -x "$ROOT/bin/sh" ]; then
	command -v debootstrap >/dev/null 2>&1 || {
		say "debootstrap missing: apt-get install debootstrap"
		exit 2
	}
	say "debootstrap bookworm into $ROOT from $MIRROR"
	debootstrap --include=git,ca-certificates bookworm "$ROOT" "$MIRROR"
fi

# Mounts this script made, undone in reverse order on every exit.
MOUNTED=
undo() {
	for m in $MOUNTED; do
		umount -R "$m" 2>/dev/null || umount -lR "$m" || true
	done
}
trap undo EXIT
trap 'exit 130' INT TERM

bind() {		# bind TYPE-or-rbind SOURCE TARGET
	if [ "$1" = rbind ]; then
		mount --rbind "$2" "$3"
		mount --make-rslave "$3"
	else
		mount -t "$1" -o "${4:-defaults}" "$2" "$3"
	fi
	MOUNTED="$3 $MOUNTED"
}

bind proc proc "$ROOT/proc"
bind rbind /sys "$ROOT/sys"
bind rbind /dev "$ROOT/dev"
# As on every standard Debian installation: /run is a tmpfs.
bind tmpfs tmpfs "$ROOT/run" mode=755,nosuid,nodev
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"

rm -rf "$ROOT/root/fsprobe"
git clone -q "$SRC" "$ROOT/root/fsprobe"
say "fresh clone of $(git -C "$SRC" rev-parse --short HEAD) in $ROOT/root/fsprobe"

# The README's two commands, as root in the chroot.
chroot "$ROOT" /bin/sh -c 'cd /root/fsprobe && findmnt -n -o FSTYPE /run &&
	./fsprobe-quickstart && make check'
