#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-errors.sh - bad environments give a verdict with a reason, never a
# crash: a missing mkfs tool and a filesystem not in the kernel are
# `skip`, a failing mkfs, a mount the kernel refuses and a full filesystem
# are `error` with the cause (the refused mount: with the kernel's own line),
# the other profiles still run, and nothing is left behind. An `error`
# verdict (nothing measured) makes `run` and `check` exit 1; `skip`
# verdicts alone exit 0.
. "$srcdir/tests/root-lib.sh"
P="$TMPD/profiles"; mkdir "$P"
printf 'fs = ext4\nmkfs = mkfs.nosuchtool -q\n' > "$P/no-tool.conf"
printf 'fs = nosuchfs\nmkfs = mkfs.ext4 -F -q\n' > "$P/no-fs.conf"
printf 'fs = ext4\nmkfs = mkfs.ext4 -F -q -O nosuchfeature\n' > "$P/bad-mkfs.conf"
printf 'fs = ext4\nmkfs = mkfs.ext4 -F -q\nsize = 16\n' > "$P/full.conf"
printf 'fs = xfs\nmkfs = mkfs.xfs -f -q\n' > "$P/good.conf"
printf 'fs = ext4\nmkfs = mkfs.ext4 -F -q\nmount_options = journal_async_commit\n' > "$P/bad-mount.conf"
printf 'fs = tmpfs\nmount_options = huge=always,size=4m\n' > "$P/full-tmpfs.conf"
J="$TMPD/out.json"
FSPROBE_PROFILE_DIR="$P" "$FSPROBE" run -f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 1 ]; ok $? "run exits 1 with error verdicts among them (got $rc)"
json_assert "$J" "p['no-tool']['verdict'] == 'skip' and 'mkfs.nosuchtool not found' in p['no-tool']['reason']" \
	"missing tool: skip, reason names the tool"
json_assert "$J" "p['no-fs']['verdict'] == 'skip' and \"'nosuchfs' is not in this kernel\" in p['no-fs']['reason']" \
	"fs not in the kernel: skip, reason names it"
json_assert "$J" "p['bad-mkfs']['verdict'] == 'error' and 'mkfs.ext4 failed' in p['bad-mkfs']['reason'] and 'nosuchfeature' in p['bad-mkfs']['reason']" \
	"failing mkfs: error with mkfs's own message"
json_assert "$J" "p['full']['verdict'] == 'error' and 'No space left' in p['full']['reason']" \
	"full filesystem: error, ENOSPC named"
json_assert "$J" "p['full-tmpfs']['verdict'] == 'error' and 'No space left' in p['full-tmpfs']['reason']" \
	"full tmpfs: error, ENOSPC named"
json_assert "$J" "p['bad-mount']['verdict'] == 'error' and \"Invalid argument (kernel: EXT4-fs (loop\" in p['bad-mount']['reason'] and 'journal_async_commit in data=ordered' in p['bad-mount']['reason']" \
	"refused mount: error, with what the kernel logged about our device"
json_assert "$J" "p['good']['verdict'] == 'pmd'" "the good profile still ran: pmd"
check_no_leaks

FSPROBE_PROFILE_DIR="$P" "$FSPROBE" run -p no-tool -p no-fs -f json \
	-o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "run with skip verdicts only exits 0 (got $rc)"
json_assert "$J" "[x['verdict'] for x in d['profiles']] == ['skip', 'skip']" \
	"both verdicts are skip"
printf 'fs = ext4\nmkfs = mkfs.ext4 -F -q -O no_such_feature_xyz\n' \
	> "$P/no-feature.conf"
FSPROBE_PROFILE_DIR="$P" "$FSPROBE" run -p no-feature -f json -o "$J" \
	2> "$TMPD/err"
rc=$?; [ $rc -eq 1 ]; ok $? "run whose only profile's mkfs fails exits 1 (got $rc)"
json_assert "$J" "p['no-feature']['verdict'] == 'error' and 'mkfs.ext4 failed' in p['no-feature']['reason']" \
	"failing mkfs alone: verdict error, mkfs named"
"$FSPROBE" run -p "$P/no-feature.conf" -f ktap > "$TMPD/ktap" 2> "$TMPD/err"
rc=$?; [ $rc -eq 1 ] && grep -q '^not ok 1 no-feature # ERROR mkfs.ext4 failed' "$TMPD/ktap"
ok $? "ktap of it: 'not ok 1 no-feature # ERROR ...', exit 1 (got $rc)"
"$FSPROBE" check /proc -f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 1 ]; ok $? "check /proc exits 1 (got $rc)"
json_assert "$J" "d['profiles'][0]['verdict'] == 'error'" \
	"check /proc: verdict error"
check_no_leaks

FSPROBE_PROFILE_DIR="$P" "$FSPROBE" run -p good -p nosuch > /dev/null 2> "$TMPD/err"
rc=$?; [ $rc -eq 2 ] && grep -q "unknown profile 'nosuch'" "$TMPD/err"
ok $? "unknown profile: exit 2, nothing run (rc $rc)"
printf 'fs = xfs\nmkfs = mkfs.xfs -f /dev/sda\n' > "$TMPD/foreign.conf"
"$FSPROBE" run -p "$TMPD/foreign.conf" > /dev/null 2> "$TMPD/err"
rc=$?; [ $rc -eq 2 ] && grep -q "names a device" "$TMPD/err"
ok $? "a profile naming a device is refused: exit 2 (rc $rc)"
check_no_leaks
done_testing
