#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-zz-leaks.sh - runs after every other root test: no loop device backed
# by a state directory of this build's tests, no mount from one, no
# state left, no loop device left in the "write through" mode fsprobe
# gives its own, no tracefs instance of ours, and `fsprobe cleanup` finds
# nothing stale.
. "$srcdir/tests/root-lib.sh"
loops=$(loops_under "$TEST_BASE")
[ -z "$loops" ]; ok $? "no loop device of any test run${loops:+: $loops}"
mnts=$(grep -F "$TEST_BASE/" /proc/self/mountinfo || true)
[ -z "$mnts" ]; ok $? "no mount of any test run${mnts:+: $mnts}"
left=$(find "$TEST_BASE" -mindepth 2 2>/dev/null | head -5)
[ -z "$left" ]; ok $? "no test run directory left${left:+: $left}"
# A free device last attached read-only shows "write through" too; only
# a read-write attach shows whether the user setting stuck to it.
wt=
truncate -s 16M "$TMPD/wc.img"
for f in $(grep -l "write through" /sys/block/loop*/queue/write_cache 2>/dev/null); do
	n=${f#/sys/block/}; n=${n%%/*}
	[ -z "$(cat "/sys/block/$n/loop/backing_file" 2>/dev/null)" ] || continue
	losetup "/dev/$n" "$TMPD/wc.img" 2> /dev/null || continue
	grep -q "write through" "$f" && wt="$wt $n"
	losetup -d "/dev/$n"
done
rm -f "$TMPD/wc.img"
[ -z "$wt" ]; ok $? "no loop device left in write-through mode${wt:+:$wt}"
rec=$(ls /run/fsprobe-knobs/*.rec 2>/dev/null || true)
[ -z "$rec" ]; ok $? "no system-wide knob recorded as changed${rec:+: $rec}"
inst=$(ls /sys/kernel/tracing/instances 2>/dev/null | grep '^fsprobe-' || true)
[ -z "$inst" ]; ok $? "no tracefs instance of ours left${inst:+: $inst}"
FSPROBE_STATE_DIR=$TEST_BASE/all "$FSPROBE" cleanup > "$TMPD/out"
ok $? "cleanup runs"
grep -q '^cleanup: 0 stale run' "$TMPD/out"; ok $? "cleanup found nothing stale: $(cat "$TMPD/out")"
rmdir "$TEST_BASE/all" 2>/dev/null
check_no_leaks
done_testing
