#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-morefs.sh - the profiles of issue 21 that the host kernel can mount:
# compressed erofs and squashfs images, XFS with 16 KiB and 64 KiB
# blocks (whose minimum folio order max_order.min reports, from the
# block size and the folios measured), ext4 casefold and inline_data,
# overlay on ext4 and on tmpfs. Every one gets a verdict of its own, not
# error; a read-only image makes collapse-writable skip with its reason;
# profiles of filesystems this kernel lacks skip, saying so, and the
# erofs compressors bookworm's mkfs.erofs lacks (lzma, zstd) skip too.
. "$srcdir/tests/root-lib.sh"
J="$TMPD/run.json"
HAVE="erofs-lz4 erofs-lz4hc squashfs-zstd xfs-16k xfs-64k ext4-inline-data
      ext4-casefold overlay-ext4 overlay-tmpfs ramfs"
TOOLS="erofs-lzma erofs-zstd"
ABSENT="f2fs-default vfat exfat jfs nilfs2 ntfs3 udf hfs minix gfs2 ocfs2"
args=
for p in $HAVE $ABSENT $TOOLS; do args="$args -p $p"; done
# shellcheck disable=SC2086
"$FSPROBE" run $args -f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ] || [ $rc -eq 1 ]
ok $? "run exits 0 or 1 (got $rc: $(head -c 300 "$TMPD/err"))"

in_kernel() { grep -qw "$1" /proc/filesystems; }
for p in $HAVE; do
	if [ "$p" = ext4-casefold ] &&
	   ! { zcat /proc/config.gz 2>/dev/null ||
	       cat "/boot/config-$(uname -r)" 2>/dev/null; } |
	   grep -q '^CONFIG_UNICODE=y'; then
		json_assert "$J" "p['$p']['verdict'] == 'skip' and 'CONFIG_UNICODE is not set' in p['$p']['reason']" \
			"$p: skip, CONFIG_UNICODE is not set here"
		continue
	fi
	json_assert "$J" "p['$p']['verdict'] not in ('error', 'skip', 'unknown')" \
		"$p: a verdict of its own ($(python3 -c "import json; print(next(x['verdict'] + ' ' + str(x.get('reason')) for x in json.load(open('$J'))['profiles'] if x['name'] == '$p'))" 2>/dev/null))"
done

# Large block sizes: every folio at least a block, reported as the minimum.
json_assert "$J" "p['xfs-16k']['max_order'].get('min') == 2 and p['xfs-16k']['max_order']['read'] >= 2" \
	"xfs-16k: max_order.min is 2 (16 KiB blocks over 4 KiB pages)"
json_assert "$J" "p['xfs-64k']['max_order'].get('min') == 4 and p['xfs-64k']['max_order']['read'] >= 4" \
	"xfs-64k: max_order.min is 4 (64 KiB blocks)"
json_assert "$J" "'min' not in p['ext4-inline-data']['max_order'] and 'min' not in p['squashfs-zstd']['max_order']" \
	"no max_order.min where the block is the page (ext4) or only squashfs's compression block is large"

# Read-only images: no file can be open for write.
for p in erofs-lz4 erofs-lz4hc squashfs-zstd; do
	json_assert "$J" "probe('$p', 'collapse-writable')['result'] == 'skip' and 'read-only' in probe('$p', 'collapse-writable')['reason']" \
		"$p: collapse-writable skips: a read-only image"
done
json_assert "$J" "all(x['result'] != 'error' for x in p['erofs-lz4']['probes'])" \
	"erofs-lz4: no probe errors"

# Overlay on tmpfs: the data is tmpfs's, shmem counters.
json_assert "$J" "p['overlay-tmpfs']['verdict'].startswith('shmem-')" \
	"overlay-tmpfs: a shmem verdict (the files live in tmpfs)"
json_assert "$J" "p['ramfs']['verdict'].startswith('shmem-') and all(x['result'] != 'error' for x in p['ramfs']['probes'])" \
	"ramfs: a shmem verdict, no probe errors (no blocks is no size limit)"
json_assert "$J" "p['overlay-ext4']['verdict'] in ('pmd', 'large', 'base', 'pmd-collapse-only')" \
	"overlay-ext4: a file verdict"

# A compressor mkfs.erofs was built without: skip, naming it; with it,
# the profile runs (requires = mkfs.erofs:WORD reads its --help).
for p in $TOOLS; do
	z=${p#erofs-}
	if mkfs.erofs --help 2>&1 | grep -qw "$z"; then
		json_assert "$J" "p['$p']['verdict'] != 'error'" \
			"$p: mkfs.erofs names $z: measured, not error"
	else
		json_assert "$J" "p['$p']['verdict'] == 'skip' and 'mkfs.erofs here has no $z' in p['$p']['reason']" \
			"$p: skip, mkfs.erofs here has no $z"
	fi
done
for p in $ABSENT; do
	fs=$(sed -n 's/^fs = //p' "$srcdir/mkfs-profiles/$p.conf")
	if in_kernel "$fs"; then
		json_assert "$J" "p['$p']['verdict'] != 'error'" "$p: $fs is in this kernel: not error"
	else
		json_assert "$J" "p['$p']['verdict'] == 'skip' and \"'$fs' is not in this kernel\" in p['$p']['reason']" \
			"$p: skip, '$fs' is not in this kernel"
	fi
done
check_no_leaks
done_testing
