#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-nonroot.sh - fsprobe run/cleanup without root: dropped to nobody in a
# child (setpriv), they must refuse with exit 2 and say why.
. "$srcdir/tests/root-lib.sh"
command -v setpriv > /dev/null || plan_skip_all "setpriv (util-linux) missing"
cp "$FSPROBE" "$TMPD/fsprobe" && chmod 755 "$TMPD" "$TMPD/fsprobe"
for cmd in run cleanup; do
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TMPD/fsprobe" $cmd > "$TMPD/out" 2> "$TMPD/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "$cmd needs root" "$TMPD/err"
	ok $? "$cmd as nobody: exit 2 (got $rc), '$(cat "$TMPD/err")'"
done
setpriv --reuid=65534 --regid=65534 --clear-groups "$TMPD/fsprobe" env \
	> "$TMPD/out" 2>&1
ok $? "env works without root"
grep -q 'root: false' "$TMPD/out"; ok $? "env says root: false"
check_no_leaks
done_testing
