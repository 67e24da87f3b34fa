#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-signals.sh - SIGINT/SIGTERM at random moments of a real run, then
# SIGKILL followed by `fsprobe cleanup`: after every trial no loop device
# backed by our state (by device, root-lib.sh loops_under), no mount, no
# state directory, THP sysfs and the workqueues' affinity scope (set to
# "cpu" by runs with bound workers and --tune-workqueue, as here)
# exactly as before, and no system-wide knob left in the registry
# (fsprobe/knob.h). FSPROBE_SIGNAL_TRIALS / FSPROBE_KILL_TRIALS set the
# counts (make check-stress raises them).
. "$srcdir/tests/root-lib.sh"
TRIALS=${FSPROBE_SIGNAL_TRIALS:-20}
KILLS=${FSPROBE_KILL_TRIALS:-8}
PROFILES="--tune-workqueue -p ext4-default -p xfs-default -p btrfs-default -p tmpfs-huge-always"

knobs() {
	for f in /sys/kernel/mm/transparent_hugepage/enabled \
		 /sys/kernel/mm/transparent_hugepage/shmem_enabled \
		 /sys/kernel/mm/transparent_hugepage/defrag \
		 /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled \
		 /sys/module/workqueue/parameters/default_affinity_scope; do
		[ -e "$f" ] || continue
		printf '%s=%s\n' "$f" "$(cat "$f")"
	done
}
knobs > "$TMPD/knobs.before"

# A pseudo-random delay in [0, MAX) ms, from /dev/urandom.
rand_ms() { echo $(( $(od -An -N4 -tu4 /dev/urandom) % $1 )); }
sleep_ms() { sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"; }

leaks=0
count_leaks() {
	l=$(loops_under "$FSPROBE_STATE_DIR" | wc -l)
	m=$(grep -cF "$FSPROBE_STATE_DIR" /proc/self/mountinfo || true)
	d=$(ls -A "$FSPROBE_STATE_DIR" 2>/dev/null | wc -l)
	k=0; knobs | cmp -s - "$TMPD/knobs.before" || k=1
	ls /run/fsprobe-knobs/*.rec > /dev/null 2>&1 && k=$((k + 1))
	n=$((l + m + d + k))
	[ $n -eq 0 ] || diag "leak: loops=$l mounts=$m dirs=$d knobs=$k"
	leaks=$((leaks + n))
	return $n
}

i=0; bad_rc=0
while [ $i -lt "$TRIALS" ]; do
	i=$((i + 1))
	sig=INT; [ $((i % 2)) -eq 0 ] && sig=TERM
	delay=$(rand_ms 900)
	"$FSPROBE" run $PROFILES -f json -o "$TMPD/out.json" 2> "$TMPD/err" &
	pid=$!
	sleep_ms "$delay"
	kill -$sig $pid 2>/dev/null
	wait $pid; rc=$?
	want=130; [ $sig = TERM ] && want=143
	# rc 0: the run finished before the signal arrived.
	if [ $rc -ne $want ] && [ $rc -ne 0 ]; then
		diag "trial $i: SIG$sig after ${delay} ms: rc $rc: $(tail -c 300 "$TMPD/err")"
		bad_rc=$((bad_rc + 1))
	fi
	count_leaks
done
[ $bad_rc -eq 0 ]; ok $? "$TRIALS SIGINT/SIGTERM trials: exit 128+signal or 0 ($bad_rc bad)"
[ $leaks -eq 0 ]; ok $? "$TRIALS SIGINT/SIGTERM trials: leaks found = $leaks"

# A second Ctrl-C while the first is being handled still cleans up.
i=0; leaks=0; bad_rc=0
while [ $i -lt 4 ]; do
	i=$((i + 1))
	"$FSPROBE" run $PROFILES -f json -o "$TMPD/out.json" 2> /dev/null &
	pid=$!
	sleep_ms "$(rand_ms 600)"
	kill -INT $pid 2>/dev/null; sleep_ms 30; kill -INT $pid 2>/dev/null
	wait $pid; rc=$?
	[ $rc -eq 130 ] || [ $rc -eq 0 ] || bad_rc=$((bad_rc + 1))
	count_leaks
done
[ $bad_rc -eq 0 ] && [ $leaks -eq 0 ]
ok $? "4 double-SIGINT trials: exit 130 or 0 ($bad_rc bad), leaks found = $leaks"

# SIGKILL at any point of a run, its last moments included (the knobs'
# restore, the run directory's removal): delays up to 110 % of how long
# an uninterrupted run of the same profiles takes here.
t0=$(date +%s%N)
"$FSPROBE" run $PROFILES > /dev/null 2>&1
span=$(( ($(date +%s%N) - t0) / 1000000 * 11 / 10 ))
[ $span -ge 100 ] || span=100
i=0; leaks=0; cleanup_bad=0
count_leaks || diag "after an uninterrupted run"
while [ $i -lt "$KILLS" ]; do
	i=$((i + 1))
	delay=$(rand_ms $span)
	"$FSPROBE" run $PROFILES > /dev/null 2>&1 &
	pid=$!
	sleep_ms "$delay"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	"$FSPROBE" cleanup > "$TMPD/cleanup" 2>&1 || cleanup_bad=$((cleanup_bad + 1))
	count_leaks || diag "after SIGKILL at ${delay} ms: $(cat "$TMPD/cleanup"; knobs | diff "$TMPD/knobs.before" - | grep '^>')"
done
[ $cleanup_bad -eq 0 ]; ok $? "cleanup after SIGKILL exits 0 ($KILLS trials)"
[ $leaks -eq 0 ]; ok $? "$KILLS SIGKILL + cleanup trials over 0-$span ms: leaks found = $leaks"
check_no_leaks
done_testing
