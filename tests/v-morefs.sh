#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# v-morefs.sh - `make check-vm`: the profiles whose filesystems only a
# distribution kernel has (issue 21), on Debian's 7.2 kernel under qemu
# TCG: each must get a verdict other than error, those the kernel lacks
# (ntfs3 and bcachefs, gone in 7.x) or whose mkfs bookworm lacks
# (hfsplus) a skip with the reason. The guest loads the modules the
# profiles name, their nls tables, and carries each profile's mkfs with
# its libraries. hfs lost every file across the cold remount on 7.2.13:
# measured, or an error saying so (src/run/survive.c). The package:
# $FSPROBE_VM_DEB72 (the three sid .debs, blank-separated), else `-k
# debian:7.2` (apt, cached). A few minutes of TCG. The attribute
# profiles (ext4-encrypt, ext4-verity, f2fs-immutable,
# f2fs-compress-attr) must also show what the kernel read back: every
# file sealed, encrypted or compressed, the key gone. nfs is NFS v4.2
# from the run's own nfsd (fsprobe/nfsd.h); ext4-16k needs a kernel that
# mounts ext4 blocks above the page size; fuse2fs and squashfuse are
# FUSE servers the guest carries with their libraries.
. "$srcdir/tests/vm-lib.sh"

K="-k debian:7.2"
if [ -n "${FSPROBE_VM_DEB72:-}" ]; then
	K=
	for d in $FSPROBE_VM_DEB72; do K="$K --deb $d"; done
fi
MEASURED="f2fs-default f2fs-compress jfs nilfs2 vfat exfat ntfs udf minix
	  gfs2 ocfs2 iso9660 romfs ext4-encrypt ext4-verity f2fs-immutable
	  f2fs-compress-attr nfs ext4-16k fuse2fs squashfuse"
SKIPPED="ntfs3 hfsplus bcachefs"
LOSES="hfs"
args=
for p in $MEASURED $SKIPPED $LOSES; do args="$args -p $p"; done
diag "booting $K"
# shellcheck disable=SC2086
vm_doc "0 1" $K $args -P fault-pmd -P read-order
json_assert "$J" 'd["kernel"].startswith("7.2.")' \
	"the document is the guest's: kernel 7.2.*"
for p in $MEASURED; do
	json_assert "$J" "p['$p']['verdict'] not in ('error', 'skip', 'unknown') and p['$p']['max_order']['read'] is not None" \
		"$p: measured, a verdict other than error ($(python3 -c "import json; print(next(x['verdict'] + ' ' + str(x.get('reason')) for x in json.load(open('$J'))['profiles'] if x['name'] == '$p'))" 2>/dev/null))"
done
json_assert "$J" "p['ext4-16k']['max_order'].get('min') == 2" \
	"ext4-16k: max_order.min is 2 (16 KiB blocks over 4 KiB pages)"
json_assert "$J" "p['nfs']['fs'] == 'nfs4' and len(p['nfs']['probes']) > 0 and all(x['result'] != 'error' for x in p['nfs']['probes'])" \
	"nfs: every probe ran on the NFS client's mount, none error"
ae() { printf "p['%s']['attribute_evidence']" "$1"; }
json_assert "$J" "$(ae ext4-verity)['files'] > 0 and $(ae ext4-verity)['files_sealed'] == $(ae ext4-verity)['files']" \
	"ext4-verity: every probe file fs-verity sealed"
json_assert "$J" "$(ae f2fs-immutable)['files_sealed'] == $(ae f2fs-immutable)['files'] == $(ae f2fs-immutable)['flags_cleared']" \
	"f2fs-immutable: every probe file immutable, every flag cleared again"
json_assert "$J" "$(ae f2fs-compress-attr)['dir_compr_fl'] and $(ae f2fs-compress-attr)['files_compr_fl'] == $(ae f2fs-compress-attr)['files']" \
	"f2fs-compress-attr: every probe file inherited FS_COMPR_FL"
json_assert "$J" "$(ae ext4-encrypt)['files_encrypted'] == $(ae ext4-encrypt)['files'] and $(ae ext4-encrypt)['key_status_after_removal'] == 'absent'" \
	"ext4-encrypt: every probe file encrypted, the key removed"
json_assert "$J" "p['ntfs3']['verdict'] == 'skip' and \"'ntfs3' is not in this kernel\" in p['ntfs3']['reason']" \
	"ntfs3: skip, 7.2 has the ntfs driver instead"
json_assert "$J" "p['hfsplus']['verdict'] == 'skip' and p['hfsplus']['reason']" \
	"hfsplus: skip with a reason (no mkfs.hfsplus in bookworm)"
json_assert "$J" "p['hfs']['verdict'] not in ('error', 'skip') or 'files written before the cold remount are gone after it' in p['hfs']['reason']" \
	"hfs: measured, or an error saying it lost the files across the cold remount ($(python3 -c "import json; print(next(x['verdict'] + ': ' + str(x.get('reason')) for x in json.load(open('$J'))['profiles'] if x['name'] == 'hfs'))" 2>/dev/null))"
json_assert "$J" "p['bcachefs']['verdict'] == 'skip' and \"'bcachefs' is not in this kernel\" in p['bcachefs']['reason']" \
	"bcachefs: skip, gone from the kernel in 6.18"

# nfs, its worker killed mid-step: nfsd is in the worker's network
# namespace and stops with it; the soft client lets the killed worker's
# last call give up (src/run/fsenv.c), so no nfsd thread is left.
# shellcheck disable=SC2086
"$F" vm -v $K -p nfs -P read-order -P fault-pmd --step-timeout 1 \
	-f json -o "$T/kill.json" 2> "$T/kill.err"
if grep -q 'nfs: .* did not finish in 1 s' "$T/kill.err"; then
	tr -d '\r' < "$T/kill.err" | grep -q '^fsprobe-vm: nfsd threads left: 0$'
	ok $? "nfs: a worker killed by the watchdog leaves no nfsd thread"
else
	skip "every nfs step finished within 1 s: no worker was killed"
fi
done_testing
