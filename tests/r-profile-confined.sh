#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-profile-confined.sh - a profile's mkfs runs in the profile's own run
# directory: a bare file name among its words (`truncate -s 0 fakedisk
# {image}`) is that directory's file, never one in the cwd fsprobe was
# started from, and goes with the run. A path is refused by the parser
# (t-profile); this is what is left, a name without one.
. "$srcdir/tests/root-lib.sh"
P="$TMPD/profiles"; mkdir "$P" "$TMPD/cwd"
printf 'fs = ext4\nmkfs = truncate -s 0 fakedisk {image}\n' > "$P/trunc.conf"
echo "not to be touched" > "$TMPD/cwd/fakedisk"
(cd "$TMPD/cwd" && FSPROBE_PROFILE_DIR="$P" "$FSPROBE" run -p trunc -f json \
	-o "$TMPD/out.json" > /dev/null 2> "$TMPD/err"); rc=$?
[ $rc -eq 1 ]; ok $? "run exits 1: the image was truncated, nothing to mount (got $rc)"
[ "$(cat "$TMPD/cwd/fakedisk")" = "not to be touched" ]
ok $? "the cwd's fakedisk is untouched"
[ "$(ls -A "$TMPD/cwd")" = fakedisk ]; ok $? "nothing else made in the cwd"
json_assert "$TMPD/out.json" "p['trunc']['verdict'] == 'error'" \
	"the profile's verdict is error"
check_no_leaks
done_testing
