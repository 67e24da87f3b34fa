#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-zz-leaks.sh - runs after every other root test: no loop device backed
# by a state directory of this build's tests, no mount from one, no
# state left, and `fsprobe cleanup` finds nothing stale.
. "$srcdir/tests/root-lib.sh"
loops=$(losetup -a | grep -F "$TEST_BASE/" || true)
[ -z "$loops" ]; ok $? "no loop device of any test run${loops:+: $loops}"
mnts=$(grep -F "$TEST_BASE/" /proc/self/mountinfo || true)
[ -z "$mnts" ]; ok $? "no mount of any test run${mnts:+: $mnts}"
left=$(find "$TEST_BASE" -mindepth 2 2>/dev/null | head -5)
[ -z "$left" ]; ok $? "no test run directory left${left:+: $left}"
FSPROBE_STATE_DIR=$TEST_BASE/all "$FSPROBE" cleanup > "$TMPD/out"
ok $? "cleanup runs"
grep -q '^cleanup: 0 stale run' "$TMPD/out"; ok $? "cleanup found nothing stale: $(cat "$TMPD/out")"
rmdir "$TEST_BASE/all" 2>/dev/null
check_no_leaks
done_testing
