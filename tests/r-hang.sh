#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-hang.sh - the step watchdog (--step-timeout) against a FUSE server
# this test serves (tests/fuse-srv --hang-read) that never answers its
# first READ, so whoever reads file data waits in D state, unkillable:
# - check: a probe hangs; the verdict is error, "probe NAME did not
#   finish in 3 s", with the stuck task's state, stack and the kernel log,
#   and fsprobe exits 1 within seconds, leaving the stuck task behind and
#   its run directory to `fsprobe cleanup`, which unwinds it once the
#   task is gone;
# - run: one profile's mkfs (cp from the FUSE file onto our device)
#   hangs; it is error, the other profile of the run gets its verdict,
#   the run directory stays, `fsprobe cleanup` says what it cannot
#   release and exits 2; once the server is killed, cleanup leaves
#   nothing (loops, mounts, run directories);
# - run: the worker itself stuck with its ext4 mounted on our loop device
#   (its payload is read from the FUSE mount): the same, and cleanup
#   waits for the worker, which holds the run's lock;
# - --step-timeout 0: no limit, check waits until the server goes.
. "$srcdir/tests/root-lib.sh"
. "$srcdir/tests/fuse-lib.sh"
command -v python3 > /dev/null || plan_skip_all "python3 missing"
TO=3

# What we started, by pid; the mount whatever state it is in (killed
# server: the kernel aborted the connection, the mount stays).
cleanup() {
	[ -n "$srv_pid" ] && kill -TERM "$srv_pid" 2>/dev/null
	sleep 0.5
	[ -n "$srv_pid" ] && kill -KILL "$srv_pid" 2>/dev/null
	mounted && umount -l "$MNT"
	"$FSPROBE" cleanup > /dev/null 2>&1
	remove_test_dirs
}
trap cleanup EXIT

# gone PID: 0 once PID has exited (within 5 s).
gone() {
	for _ in $(seq 50); do
		[ -d "/proc/$1" ] || return 0
		sleep 0.1
	done
	return 1
}

# unstick PID OUT GONE-DESC WHAT: kill the server; PID, stuck reading
# from it, must go (a test named GONE-DESC), then `fsprobe cleanup` must
# exit 0 having unwound the run (WHAT: ...), its output in $TMPD/OUT.*;
# the dead mount is let go.
unstick() {
	kill -KILL "$srv_pid"; wait "$srv_pid" 2>/dev/null; srv_pid=
	gone "$1"; ok $? "$3"
	"$FSPROBE" cleanup > "$TMPD/$2.out" 2> "$TMPD/$2.err"; rc=$?
	[ $rc -eq 0 ] && grep -q "1 stale run(s) unwound" "$TMPD/$2.out"
	ok $? "$4: exit 0 (got $rc), the run unwound"
	sed 's/^/# /' "$TMPD/$2.out" "$TMPD/$2.err"
	mounted && umount -l "$MNT"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }
field() { python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['profiles'][int(sys.argv[2])]; print((p.get('watchdog') or {}).get(sys.argv[3]))" "$@"; }

# 1. check: a probe that never comes back.
start_srv --hang-read; ok $? "check: the server mounts $MNT"
t0=$(now_ms)
"$FSPROBE" check "$MNT" --step-timeout $TO -f json -o "$TMPD/check.json" \
	2> "$TMPD/check.err"
rc=$?; ms=$(($(now_ms) - t0))
[ $rc -eq 1 ]; ok $? "check: exit 1 (got $rc)"
[ $ms -ge $((TO * 1000)) ] && [ $ms -lt $((TO * 1000 + 4000)) ]
ok $? "check: ends soon after the $TO s limit ($ms ms)"
json_assert "$TMPD/check.json" "(q := d['profiles'][0])['verdict'] == 'error' and __import__('re').fullmatch(r'probe [a-z-]+ did not finish in $TO s', q['reason']) and q['watchdog']['step'] == q['reason'].split(' did')[0]" \
	"check: verdict error, 'probe NAME did not finish in $TO s'"
json_assert "$TMPD/check.json" "sorted(w := d['profiles'][0]['watchdog']) == sorted(['step', 'timeout_s', 'pid', 'comm', 'state', 'wchan', 'stack', 'dmesg']) and w['timeout_s'] == $TO and w['state'] == 'D' and w['pid'] > 0" \
	"check: watchdog has step, timeout_s, pid, comm, state D, wchan, stack, dmesg"
json_assert "$TMPD/check.json" "isinstance((w := d['profiles'][0]['watchdog'])['stack'], str) and len(w['stack'].splitlines()) >= 3 and isinstance(w['wchan'], str) and isinstance(w['dmesg'], str)" \
	"check: as root the kernel stack (3+ frames), wchan and kernel log are read"
stuck=$(field "$TMPD/check.json" 0 pid)
st=$(awk '{print $3}' "/proc/$stuck/stat" 2>/dev/null)
[ "$st" = D ]; ok $? "check: the stuck task $stuck is still in D state after fsprobe ended ('$st')"
grep -q "did not finish in $TO s (task $stuck " "$TMPD/check.err"
ok $? "check: stderr names the stuck task"
grep -qs "^stuck	$stuck/" "$FSPROBE_STATE_DIR"/*/journal &&
	grep -q "left for 'fsprobe cleanup'" "$TMPD/check.err"
ok $? "check: its run directory is left for cleanup, the journal naming the stuck task"
sed 's/^/# /' "$TMPD/check.err"
python3 -c "import json,sys; w=json.load(open(sys.argv[1]))['profiles'][0]['watchdog']; print('# stack of', w['comm'], w['pid'], 'in', w['step'] + ':'); [print('#   ' + l) for l in w['stack'].splitlines()[:6]]" "$TMPD/check.json"
kill -TERM "$srv_pid"; wait "$srv_pid"; rc=$?; srv_pid=
[ $rc -eq 0 ]; ok $? "check: the server exits 0 on SIGTERM (rc $rc)"
gone "$stuck"; ok $? "check: the server's exit freed the stuck task"
! mounted; ok $? "check: the server's mount is gone"
"$FSPROBE" cleanup > "$TMPD/c0.out" 2> "$TMPD/c0.err"; rc=$?
[ $rc -eq 0 ] && grep -q "1 stale run(s) unwound" "$TMPD/c0.out" &&
	[ -z "$(ls -A "$FSPROBE_STATE_DIR")" ]
ok $? "check: cleanup then unwinds its run (rc $rc)"
sed 's/^/# /' "$TMPD/c0.out" "$TMPD/c0.err"

# --step-timeout 0: no limit; the check waits until the server goes.
start_srv --hang-read; ok $? "no limit: the server mounts $MNT"
"$FSPROBE" check "$MNT" --step-timeout 0 -f json -o "$TMPD/zero.json" \
	2> "$TMPD/zero.err" &
chk=$!
sleep $((TO + 2))
kill -0 "$chk" 2>/dev/null
ok $? "no limit: check still waits after $((TO + 2)) s"
kill -TERM "$srv_pid"; wait "$srv_pid"; srv_pid=
for _ in $(seq 100); do kill -0 "$chk" 2>/dev/null || break; sleep 0.1; done
kill -0 "$chk" 2>/dev/null && kill -KILL "$chk"
wait "$chk"; rc=$?
[ $rc -eq 1 ]; ok $? "no limit: check ends once the server is gone (rc $rc)"
json_assert "$TMPD/zero.json" "'watchdog' not in (q := d['profiles'][0]) and q['verdict'] == 'error' and 'did not finish' not in q['reason']" \
	"no limit: no watchdog; error from the aborted connection ($(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['profiles'][0]['reason'][:60])" "$TMPD/zero.json" 2>/dev/null))"

# 2. run: one profile's mkfs hangs, the other profile goes on.
start_srv --hang-read; ok $? "run: the server mounts $MNT"
head -c 1048576 /dev/zero > "$MNT/f"
printf 'fs = ext4\nmkfs = cp %s {dev}\nsize = 64\ndescription = mkfs reads a FUSE file that never answers\n' \
	"$MNT/f" > "$TMPD/hang.conf"
t0=$(now_ms)
"$FSPROBE" run -p "$TMPD/hang.conf" -p tmpfs-huge-advise -P fault-pmd \
	--step-timeout $TO -f json -o "$TMPD/run.json" 2> "$TMPD/run.err"
rc=$?; ms=$(($(now_ms) - t0))
[ $rc -eq 1 ]; ok $? "run: exit 1 (got $rc)"
[ $ms -lt $((TO * 1000 + 8000)) ]; ok $? "run: ends within seconds of the limit ($ms ms)"
json_assert "$TMPD/run.json" "(q := p['hang'])['verdict'] == 'error' and q['reason'] == 'mkfs did not finish in $TO s' and q['watchdog']['step'] == 'mkfs'" \
	"run: the hung profile is error, 'mkfs did not finish in $TO s'"
json_assert "$TMPD/run.json" "(w := p['hang']['watchdog'])['comm'] == 'cp' and w['state'] == 'D' and isinstance(w['stack'], str) and 'read' in w['stack'] and 'dmesg' in w" \
	"run: watchdog names mkfs's own process (cp) in D state, its stack reading"
json_assert "$TMPD/run.json" "(q := p['tmpfs-huge-advise'])['verdict'] not in ('error', 'skip') and 'watchdog' not in q and probe('tmpfs-huge-advise', 'fault-pmd')['result'] == 'pass'" \
	"run: the other profile got its verdict ($(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['profiles'][1]['verdict'])" "$TMPD/run.json" 2>/dev/null))"
cp_pid=$(field "$TMPD/run.json" 0 pid)
"$builddir/tests/render" table "$TMPD/run.json" > "$TMPD/run.table"
grep -q "^hang: mkfs did not finish: task $cp_pid (cp), state D, waiting in " "$TMPD/run.table" &&
	[ "$(grep -c '^    [a-z_0-9.]*+0x' "$TMPD/run.table")" -ge 3 ]
ok $? "run: the table (from the JSON read back) shows the stuck task and its stack"
grep -q "left for 'fsprobe cleanup'" "$TMPD/run.err"
ok $? "run: stderr says the run directory is left for cleanup"
sed 's/^/# /' "$TMPD/run.err"
grep -qs "^stuck	$cp_pid/" "$FSPROBE_STATE_DIR"/*/journal
ok $? "run: the journal names the stuck task ($cp_pid)"

"$FSPROBE" cleanup > "$TMPD/c1.out" 2> "$TMPD/c1.err"; rc=$?
[ $rc -eq 2 ] && grep -q "could not release 1 run(s): .*task $cp_pid (cp: mkfs) is stuck" "$TMPD/c1.err"
ok $? "cleanup while the task is stuck: exit 2 (got $rc), naming task $cp_pid"
sed 's/^/# /' "$TMPD/c1.err"
[ -n "$(ls -A "$FSPROBE_STATE_DIR" 2>/dev/null)" ]
ok $? "cleanup left the run directory in place"

unstick "$cp_pid" c2 "run: killing the server freed the stuck cp" \
	"cleanup after"

# 3. run: the worker itself stuck in D state, its ext4 mounted on our
# loop device: the payload it copies onto the filesystem is on the FUSE
# mount (FSPROBE_PAYLOAD_DIR). The worker holds the run's lock too.
start_srv --hang-read; ok $? "held: the server mounts $MNT"
mkdir "$MNT/payload"
cp "$builddir/conformance/payload/bigtext" \
	"$builddir/conformance/payload/libbigtext.so" "$MNT/payload/"
FSPROBE_PAYLOAD_DIR="$MNT/payload" "$FSPROBE" run -p ext4-default \
	-P exec-text --step-timeout $TO -f json -o "$TMPD/held.json" \
	2> "$TMPD/held.err"
rc=$?
[ $rc -eq 1 ]; ok $? "held: exit 1 (got $rc)"
json_assert "$TMPD/held.json" "(q := p['ext4-default'])['verdict'] == 'error' and q['reason'] == 'prepare exec-text did not finish in $TO s' and q['watchdog']['comm'] == 'fsprobe'" \
	"held: error, 'prepare exec-text did not finish in $TO s', the worker itself"
sed 's/^/# /' "$TMPD/held.err"
w=$(field "$TMPD/held.json" 0 pid)
st=$(awk '{print $3}' "/proc/$w/stat" 2>/dev/null)
[ "$st" = D ] && grep -qF "$FSPROBE_STATE_DIR" "/proc/$w/mountinfo" &&
	[ -n "$(loops_under "$FSPROBE_STATE_DIR")" ]
ok $? "held: worker $w in D state ('$st') holds its mount and our loop device"
"$FSPROBE" cleanup > "$TMPD/c3.out" 2> "$TMPD/c3.err"; rc=$?
[ $rc -eq 2 ] && grep -q "task $w (fsprobe: prepare exec-text) is stuck" "$TMPD/c3.err"
ok $? "held: cleanup exits 2 (got $rc) naming worker $w"
unstick "$w" c4 "held: killing the server ends the worker" \
	"held: cleanup after"
! mounted; ok $? "the dead FUSE mount is gone"
check_no_leaks
done_testing
