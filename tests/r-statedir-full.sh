#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-statedir-full.sh - a state directory on a filesystem with no room
# (a 64 KiB tmpfs) is refused before the run makes anything there: one
# line naming the state directory and ENOSPC ("No space left on
# device"), exit 2, and nothing left on that filesystem, whether the
# state directory existed before or not.
. "$srcdir/tests/root-lib.sh"
FULL="$TMPD/full"
mkdir -m 700 "$FULL"
mount -t tmpfs -o size=64k,mode=700 fsprobe-test-full "$FULL" ||
	plan_skip_all "cannot mount a tmpfs"
trap 'umount "$FULL"; remove_test_dirs' EXIT

# full_run DESC: run with the state dir $FULL/state; check the result.
full_run() {
	FSPROBE_STATE_DIR="$FULL/state" "$FSPROBE" run -p tmpfs-huge-never \
		> "$TMPD/out" 2> "$TMPD/err"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l < "$TMPD/err")" -eq 1 ] &&
		grep -q "^fsprobe: state directory $FULL/state: No space left on device" \
		"$TMPD/err"
	ok $? "$1: exit 2 (got $rc), one line naming it and ENOSPC"
	[ $rc -eq 2 ] || diag "$(head -c 400 "$TMPD/err")"
}

full_run "a state dir to be made on a full fs"
left=$(ls -A "$FULL")
[ -z "$left" ]; ok $? "nothing made on the full fs${left:+: $left}"

mkdir -p -m 700 "$FULL/state"
full_run "an existing state dir on a full fs"
left=$(ls -A "$FULL/state")
[ -z "$left" ]; ok $? "nothing made in it${left:+: $left}"
rmdir "$FULL/state"
check_no_leaks
done_testing
