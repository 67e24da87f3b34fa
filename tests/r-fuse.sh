#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-fuse.sh - `fsprobe check` on a FUSE filesystem this test serves
# (tests/fuse-srv): a working one gives a measured verdict, and one
# mounted for a user (user_id) runs no payload (its server decides what
# root would execute: exec-text and dso-text skip, write-open measures all
# but its exec part); one whose reads or writes fail with EIO gives
# `error` naming EIO and the step, without a crash and without leaving
# files. Then the server's hang mode,
# which the watchdog tests will need: a request it swallowed leaves its
# caller stuck (SIGKILL does not help) until the server dies, and a
# server killed with SIGKILL leaves a dead mount that `umount -l` removes.
. "$srcdir/tests/root-lib.sh"
. "$srcdir/tests/fuse-lib.sh"
reader_pid=

# Kill what we started, by pid, and take the mount away whatever state
# it is in; the server's own exit (SIGTERM) aborts the connection first.
cleanup() {
	[ -n "$srv_pid" ] && kill -TERM "$srv_pid" 2>/dev/null
	sleep 0.5
	[ -n "$srv_pid" ] && kill -KILL "$srv_pid" 2>/dev/null
	[ -n "$reader_pid" ] && kill -KILL "$reader_pid" 2>/dev/null
	mounted && umount -l "$MNT"
	remove_test_dirs
}
trap cleanup EXIT

# stop_srv SIGNAL: the server's exit status (128 + n when killed).
stop_srv() {
	kill "-$1" "$srv_pid"
	wait "$srv_pid" 2>/dev/null
	rc=$?
	srv_pid=
	return $rc
}

# gone PID: 0 if PID exits within 5 s.
gone() {
	for _ in $(seq 50); do
		kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null; return 0; }
		sleep 0.1
	done
	return 1
}

check_mode() { # check_mode NAME [SERVER OPTIONS]: fsprobe check on it
	name=$1; shift
	start_srv "$@"; ok $? "$name: the server mounts $MNT"
	"$FSPROBE" check "$MNT" -f json -o "$TMPD/$name.json" 2> "$TMPD/$name.err"
	rc=$?
	[ $rc -lt 128 ]; ok $? "$name: fsprobe check ends by itself (rc $rc)"
	left=$(ls -A "$MNT")
	[ -z "$left" ]; ok $? "$name: fsprobe removed its files${left:+: $left}"
	stop_srv TERM; rc=$?
	[ $rc -eq 0 ]; ok $? "$name: the server exits 0 on SIGTERM (rc $rc)"
	! mounted; ok $? "$name: the server took its mount away"
	sed 's/^/# /' "$TMPD/$name.err"
}

check_mode normal
json_assert "$TMPD/normal.json" "d['profiles'][0]['verdict'] not in ('error', 'skip') and not any(x['result'] == 'error' for x in d['profiles'][0]['probes']) and sum(x['result'] == 'pass' for x in d['profiles'][0]['probes']) >= 3" \
	"normal: a measured verdict, no probe error, probes passed"
python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['profiles'][0]; print('# verdict:', p['verdict'], '-', p['reason']); [print('#  ', x['name'], x['result'], x.get('reason') or '') for x in p['probes']]" "$TMPD/normal.json"

json_assert "$TMPD/normal.json" "'not run' not in probe(d['profiles'][0]['name'], 'exec-text')['reason'] and probe(d['profiles'][0]['name'], 'write-open')['result'] == 'pass' and not (probe(d['profiles'][0]['name'], 'write-open').get('evidence') or {}).get('exec_not_run')" \
	"normal: a server root started runs the payloads (write-open passes, its exec part ran)"

# Mounted for a user (user_id=65534, as fusermount does): the server
# decides what a file holds, so nothing of it is executed as root.
check_mode user --user-id 65534
json_assert "$TMPD/user.json" "all(probe(d['profiles'][0]['name'], n)['result'] == 'skip' and 'uid 65534' in probe(d['profiles'][0]['name'], n)['reason'] for n in ('exec-text', 'dso-text')) and 'uid 65534' in (probe(d['profiles'][0]['name'], 'write-open').get('evidence') or {}).get('exec_not_run', '') and probe(d['profiles'][0]['name'], 'read-order')['result'] == 'pass'" \
	"user: exec-text, dso-text skip, write-open's exec part not run (the server is uid 65534's); read-order passes"
python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['profiles'][0]; [print('#  ', x['name'], x['result'], x.get('reason') or '') for x in p['probes']]" "$TMPD/user.json"

check_mode eio-read --eio-read
json_assert "$TMPD/eio-read.json" "d['profiles'][0]['verdict'] == 'error' and 'EIO' in d['profiles'][0]['reason']" \
	"eio-read: verdict error, the reason names EIO"
json_assert "$TMPD/eio-read.json" "all(x['result'] in ('error', 'skip') for x in d['profiles'][0]['probes']) and sum(x['result'] == 'error' and 'EIO' in x['reason'] for x in d['profiles'][0]['probes']) >= 5" \
	"eio-read: no probe passes; the probes' errors name EIO"
python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['profiles'][0]; print('# verdict:', p['verdict'], '-', p['reason'])" "$TMPD/eio-read.json"

check_mode eio-write --eio-write
json_assert "$TMPD/eio-write.json" "d['profiles'][0]['verdict'] == 'error' and 'preparing files' in d['profiles'][0]['reason'] and '(EIO)' in d['profiles'][0]['reason']" \
	"eio-write: verdict error, the reason names the step and EIO"

# Hung on SIGUSR1: the server reads requests and never answers.
start_srv; ok $? "hang: the server mounts $MNT"
echo data > "$MNT/f"
kill -USR1 "$srv_pid"
sleep 0.2
cat "$MNT/f" > /dev/null 2>&1 &
reader_pid=$!
sleep 1
kill -KILL "$reader_pid"
sleep 1
state=$(awk '{print $3}' "/proc/$reader_pid/stat" 2>/dev/null)
[ "$state" = D ]; ok $? "hang: a reader stays in D state after SIGKILL (state '$state')"
stop_srv TERM; rc=$?
[ $rc -eq 0 ]; ok $? "hang: the hung server exits 0 on SIGTERM (rc $rc)"
gone "$reader_pid"; ok $? "hang: the server's exit freed the reader"
reader_pid=
! mounted; ok $? "hang: the server took its mount away"

# Hung from the start and killed: the kernel ends the connection, the
# mount stays (ENOTCONN) until umount -l.
start_srv --hang-after 0; ok $? "hang-after 0: the server mounts $MNT"
stat "$MNT/x" > /dev/null 2>&1 &
reader_pid=$!
sleep 1
kill -0 "$reader_pid" 2>/dev/null; ok $? "hang-after 0: the first lookup gets no answer"
stop_srv KILL; rc=$?
[ $rc -eq 137 ]; ok $? "hang-after 0: SIGKILL ends the server (rc $rc)"
gone "$reader_pid"; ok $? "hang-after 0: the aborted connection freed the lookup"
reader_pid=
mounted; ok $? "hang-after 0: the dead mount stays"
umount -l "$MNT" && ! mounted; ok $? "hang-after 0: umount -l removes it"

# --hang-unread: requests stay queued, so their callers can be killed.
start_srv --hang-after 0 --hang-unread; ok $? "hang-unread: the server mounts $MNT"
timeout 2 stat "$MNT/x" > /dev/null 2>&1; rc=$?
[ $rc -eq 124 ]; ok $? "hang-unread: stat times out and is killed (rc $rc)"
stop_srv TERM; rc=$?
[ $rc -eq 0 ] && ! mounted; ok $? "hang-unread: exit 0 and no mount left (rc $rc)"

kill -0 $(jobs -p) 2>/dev/null; [ $? -ne 0 ]; ok $? "no process of ours left"
check_no_leaks
done_testing
