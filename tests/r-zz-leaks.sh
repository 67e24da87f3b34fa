#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-zz-leaks.sh - runs after every other root test: no loop device backed
# by any test state directory, no mount from one, no state left, and
# `fsprobe cleanup` finds nothing stale.
. "$srcdir/tests/root-lib.sh"
loops=$(losetup -a | grep -F /run/fsprobe-test || true)
[ -z "$loops" ]; ok $? "no loop device of any test run${loops:+: $loops}"
mnts=$(grep -F /run/fsprobe-test /proc/self/mountinfo || true)
[ -z "$mnts" ]; ok $? "no mount of any test run${mnts:+: $mnts}"
left=$(find /run/fsprobe-test -mindepth 2 2>/dev/null | head -5)
[ -z "$left" ]; ok $? "no test run directory left${left:+: $left}"
FSPROBE_STATE_DIR=/run/fsprobe-test/all "$FSPROBE" cleanup > "$TMPD/out"
ok $? "cleanup runs"
grep -q '^cleanup: 0 stale run' "$TMPD/out"; ok $? "cleanup found nothing stale: $(cat "$TMPD/out")"
rmdir /run/fsprobe-test/all 2>/dev/null
check_no_leaks
done_testing
