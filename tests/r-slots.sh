#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-slots.sh - a worker slot's loop device (src/slots.h): with -j 1 one
# device serves every profile that writes one, btrfs then ext4 then xfs
# on the same device (each mkfs gets an emptied image and a dropped
# cache: libblkid and the verdicts see only the new filesystem); image
# builders attach their own and tmpfs none; -j 2 uses two; and at the
# end each device is detached with its write_cache as it was; with
# FSPROBE_SLOT_DEVICES=0 each profile attaches its own again; after a
# SIGKILL the device stays bound until cleanup restores and detaches it.
# With -j 2 slot i is bound to the i-th CPU the run may use (each worker
# reads its affinity back into worker_cpu); -j 1 and FSPROBE_PIN_CPUS=0
# bind none. A run changes the workqueues' default affinity scope (system-
# wide) only when asked: a default -j 2 run leaves it alone (resources:
# knobs [], workqueue_scope null); with --tune-workqueue and bound workers
# it is "cpu" for the run, listed in resources.knobs, and restored after
# it, or by cleanup after a SIGKILL.
# Profiles start longest first: image builders, then those on a loop
# device, memory filesystems last.
. "$srcdir/tests/root-lib.sh"
J="$TMPD/run.json"
# The first two CPUs this test may run on, as the kernel says.
cpus=$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0))[:2], sep=",")')
WQ=/sys/module/workqueue/parameters/default_affinity_scope
wq0=$(cat "$WQ" 2>/dev/null || true)
# What a bound run reports: the scope it found and set, or null where the
# kernel has no scopes (before 6.6) or someone set "cpu" already.
case $wq0 in
""|cpu) wq_expect=None; knobs_expect="[]" ;;
*) wq_expect="{'was': '$wq0', 'during': 'cpu'}"
   knobs_expect="[{'path': '$WQ', 'was': '$wq0', 'during': 'cpu', 'restored': True}]" ;;
esac
# released DEV DESC [LOG]: DEV, its run over and cleaned up, is detached
# with write_cache back to "write back" (a test named DESC, with the value
# and LOG's text), not still bound to our image (a failure); taken by
# someone else since, the test is skipped.
released() {
	q=/sys/block/${1#/dev/}
	if [ -e "$q/loop/backing_file" ]; then
		if loops_under "$FSPROBE_STATE_DIR" | grep -q "^$1 "; then
			ok 1 "$1 is still bound to our image after cleanup"
		else
			skip "$1 was taken by $(cat "$q/loop/backing_file") since"
		fi
	else
		wc=$(cat "$q/queue/write_cache")
		[ "$wc" = "write back" ]
		ok $? "$2 ($wc${3:+: $(cat "$3")})"
	fi
}
# Another fsprobe (a parallel make check) may hold the scope meanwhile.
others() { pgrep -x fsprobe > /dev/null; }

"$FSPROBE" run -v -j 1 -p btrfs-default -p ext4-default -p squashfs \
	-p xfs-default -p tmpfs-huge-always -P fault-pmd -f json -o "$J" \
	2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "run -j 1 exits 0 (got $rc: $(grep -v '^fsprobe: [[0-9]' "$TMPD/err" | head -c 300))"
# Longest first (src/cmd_run.c start_order): the image builder, then the
# profiles on a loop device in profile order, the memory filesystem last.
order=$(sed -n 's/^fsprobe: \[[0-9]*\/[0-9]*\] \([^:]*\): mkfs and mount$/\1/p' "$TMPD/err" | tr '\n' ' ')
[ "$order" = "squashfs btrfs-default ext4-default xfs-default tmpfs-huge-always " ]
ok $? "start order: squashfs first, tmpfs last (${order% })"
json_assert "$J" "all(p[n]['loop']['slot_device'] for n in ('btrfs-default', 'ext4-default', 'xfs-default')) and len(set(p[n]['loop']['device'] for n in ('btrfs-default', 'ext4-default', 'xfs-default'))) == 1" \
	"-j 1: btrfs, ext4 and xfs all ran on the slot's one device"
json_assert "$J" "p['squashfs']['loop']['slot_device'] is False and 'loop' not in p['tmpfs-huge-always']" \
	"squashfs attached a read-only device of its own, tmpfs none"
json_assert "$J" "p['ext4-default']['verdict'] == 'pmd' and p['xfs-default']['verdict'] == 'pmd' and p['btrfs-default']['verdict'] == 'base'" \
	"after btrfs on the same device, ext4 and xfs still measure pmd"
json_assert "$J" "p['btrfs-default']['timing_ms']['image_disk_kb'] < 81920 and p['xfs-default']['timing_ms']['image_disk_kb'] < 81920" \
	"the slot's image is emptied for each profile (each under 80 MiB)"
case $cpus in
*,*) json_assert "$J" "d['resources']['worker_cpus'] == [] and all(x['worker_cpu'] is None for x in d['profiles'])" \
	"-j 1: the worker is bound to no CPU" ;;
*) skip "one CPU allowed: every worker reads back CPU $cpus" ;;
esac
dev=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(next(x["loop"]["device"] for x in d["profiles"] if x["name"] == "xfs-default"))' "$J")
q=/sys/block/${dev#/dev/}
back=$(cat "$q/loop/backing_file" 2>/dev/null || true)
case " $(loops_under "$FSPROBE_STATE_DIR" | cut -d' ' -f1) " in
*" $dev "*) back=ours ;;
esac
case $back in
ours) ok 1 "$dev is still backed by our image" ;;
"") wc=$(cat "$q/queue/write_cache")
    [ "$wc" = "write back" ]; ok $? "$dev detached, write_cache restored ($wc)" ;;
*) ok 0 "# SKIP $dev was taken by $back since" ;;
esac

"$FSPROBE" run -j 2 -p ext4-default -p xfs-default -p ext4-nojournal \
	-p xfs-1k -P fault-pmd -f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "run -j 2 exits 0 (got $rc: $(head -c 300 "$TMPD/err"))"
json_assert "$J" "all(x['loop']['slot_device'] for x in d['profiles']) and len(set(x['loop']['device'] for x in d['profiles'])) == 2 and all(x['verdict'] == 'pmd' for x in d['profiles'])" \
	"-j 2: four profiles on the two slots' devices, all pmd"
case $cpus in
*,*) json_assert "$J" "d['resources']['worker_cpus'] == [$cpus] and sorted(set(x['worker_cpu'] for x in d['profiles'])) == [$cpus]" \
	"-j 2: the slots bound to CPUs $cpus, and the workers ran there"
json_assert "$J" "d['resources']['knobs'] == [] and d['resources']['workqueue_scope'] is None" \
	"-j 2 without --tune-workqueue: no system-wide knob changed, scope untouched"
"$FSPROBE" run -j 2 --tune-workqueue -p ext4-default -p xfs-default \
	-P fault-pmd -f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "-j 2 --tune-workqueue: exits 0 (got $rc: $(head -c 300 "$TMPD/err"))"
json_assert "$J" "d['resources']['workqueue_scope'] == $wq_expect" \
	"-j 2 --tune-workqueue: workqueue scope reported as $wq_expect"
json_assert "$J" "d['resources']['knobs'] == $knobs_expect" \
	"-j 2 --tune-workqueue: knobs lists $knobs_expect"
if others; then skip "another fsprobe runs: it may hold the scope"
else
	[ "$(cat "$WQ" 2>/dev/null || true)" = "$wq0" ]
	ok $? "-j 2 --tune-workqueue: the scope is '$wq0' again after the run"
fi
FSPROBE_PIN_CPUS=0 "$FSPROBE" run -j 2 -p ext4-default -p xfs-default \
	-P fault-pmd -f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "FSPROBE_PIN_CPUS=0 -j 2: exits 0 (got $rc: $(head -c 300 "$TMPD/err"))"
json_assert "$J" "d['resources']['worker_cpus'] == [] and d['resources']['workqueue_scope'] is None and all(x['worker_cpu'] is None and x['verdict'] == 'pmd' for x in d['profiles'])" \
	"FSPROBE_PIN_CPUS=0: no worker bound to a CPU, scope untouched, both pmd"
# SIGKILL while the scope is "cpu": it stays so until cleanup restores it.
if [ "$wq_expect" = None ] || others; then
	skip "no scope to change here ('$wq0'), or another fsprobe runs"
	skip "(nothing to restore)"
else
	"$FSPROBE" run -j 2 --tune-workqueue -p ext4-default -p xfs-default \
		-p ext4-nojournal -p xfs-1k > /dev/null 2>&1 &
	pid=$!; i=0
	while [ "$(cat "$WQ")" != cpu ] && [ $i -lt 300 ] &&
	      kill -0 $pid 2>/dev/null; do
		sleep 0.01; i=$((i + 1))
	done
	kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
	[ "$(cat "$WQ")" = cpu ]
	ok $? "after SIGKILL the scope is still cpu (the run's to restore)"
	"$FSPROBE" cleanup > "$TMPD/cleanup" 2>&1
	[ "$(cat "$WQ")" = "$wq0" ]
	ok $? "cleanup restored the scope: $(cat "$WQ") ($(cat "$TMPD/cleanup"))"
fi ;;
*) skip "one CPU allowed: -j 2 binds no worker"
skip "(no scope)"
skip "(no scope)"
skip "(no scope)"
skip "(no scope)"
skip "(no scope)"
skip "one CPU allowed: nothing to unbind"
skip "(no SIGKILL trial)"
skip "(no SIGKILL trial)" ;;
esac
# The slot's last profile starts removing the slot's tracefs instance
# after its last traced case (collapse), while truncate-split still runs:
# both profiles' traced cases have their events, and nothing is left.
"$FSPROBE" run -j 1 -p ext4-default -p xfs-default -P read-order \
	-P collapse -P truncate-split -f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "traced cases, -j 1: exits 0 (got $rc: $(head -c 300 "$TMPD/err"))"
json_assert "$J" "all(dict((q['name'], q) for q in x['probes'])['read-order']['evidence'].get('method') == 'tracefs+pagemap' and 'trace_collapse_events' in dict((q['name'], q) for q in x['probes'])['collapse']['evidence'] for x in d['profiles'])" \
	"both profiles' read-order and collapse read the slot's events"
json_assert "$J" "all(dict((q['name'], q) for q in x['probes'])['truncate-split']['result'] == 'pass' for x in d['profiles'])" \
	"truncate-split passes after the instance's removal began"
ls /sys/kernel/tracing/instances 2>/dev/null | grep -q "^fsprobe-"
[ $? -ne 0 ]; ok $? "no fsprobe tracefs instance left after the run"
# Without slot devices every profile attaches its own, and measures the same.
FSPROBE_SLOT_DEVICES=0 "$FSPROBE" run -j 1 -p ext4-default -p xfs-default \
	-P fault-pmd -f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "FSPROBE_SLOT_DEVICES=0: exits 0 (got $rc: $(head -c 300 "$TMPD/err"))"
json_assert "$J" "all(x['loop']['slot_device'] is False and x['verdict'] == 'pmd' for x in d['profiles'])" \
	"FSPROBE_SLOT_DEVICES=0: each profile on a device of its own, both pmd"
for dev in $(python3 -c 'import json,sys; print(" ".join(x["loop"]["device"] for x in json.load(open(sys.argv[1]))["profiles"]))' "$J"); do
	released "$dev" "own device $dev: detached, write_cache restored"
done
# SIGKILL while the slot's device is write-through: it stays bound to our
# image (no AUTOCLEAR), so it cannot go free with the setting still on,
# and cleanup restores the setting before it detaches the device.
# Five profiles: finding the device polls every loop device, which on a
# busy machine takes most of a second, and three profiles can be over
# by then (then the trial is skipped, not failed).
"$FSPROBE" run -j 1 -p ext4-default -p xfs-default -p ext4-nojournal \
	-p xfs-1k -p btrfs-default > /dev/null 2>&1 &
pid=$!
dev=; i=0
while [ -z "$dev" ] && [ $i -lt 200 ] && kill -0 $pid 2>/dev/null; do
	for q in /sys/block/loop*; do
		case $(cat "$q/loop/backing_file" 2>/dev/null) in
		"$FSPROBE_STATE_DIR"/*/slot0.img)
			grep -q "write through" "$q/queue/write_cache" &&
				dev=/dev/${q#/sys/block/} ;;
		esac
	done
	sleep 0.01; i=$((i + 1))
done
kill -KILL $pid 2>/dev/null || dev=
wait $pid 2>/dev/null
if [ -z "$dev" ]; then
	skip "the run ended before its slot device was seen and killed"
	skip "(no device)"
	"$FSPROBE" cleanup > /dev/null 2>&1
else
	sleep 0.3	# the workers die by PDEATHSIG, their mounts go
	q=/sys/block/${dev#/dev/}
	back=$(cat "$q/loop/backing_file" 2>/dev/null || true)
	# The kill may land after the run released the device (no profile
	# left wanted it: write_cache restored, then detached): that is no
	# leak. What must never be is a free device left write-through.
	r=1
	case " $(loops_under "$FSPROBE_STATE_DIR" | cut -d' ' -f1) " in
	*" $dev "*) r=0 ;;
	*) [ -z "$back" ] && grep -q "write back" "$q/queue/write_cache" && r=0 ;;
	esac
	ok $r "after SIGKILL $dev is bound to our image (${back:-free}) or was released with write_cache restored, never free with write-through on"
	"$FSPROBE" cleanup > "$TMPD/cleanup" 2>&1
	released "$dev" "cleanup restored write_cache before detaching $dev" \
		"$TMPD/cleanup"
fi
check_no_leaks
done_testing
