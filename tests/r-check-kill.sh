#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-check-kill.sh - `fsprobe check DIR` stopped by a signal leaves
# nothing (issue 30): SIGINT, SIGTERM and SIGHUP make it remove its work
# directory DIR/.fsprobe-PID and its tracefs instance itself and exit
# 128+N; after SIGKILL both stay until `fsprobe cleanup`, which removes
# them from check's journal. The worker is stopped (SIGSTOP) once both
# exist, so that every signal falls while they do; it is let go
# (SIGCONT) after the signal.
# tracefs is mounted, if it is not, in a mount namespace of the test's,
# its mounts private: in a chroot whose root is no mount point "/"
# cannot be made private (unshare --propagation private fails there), so
# each visible mount is, as fsprobe and r-trace.sh do.
if [ "$(id -u)" -eq 0 ] && [ -z "$FSP_TEST_NS" ] &&
   command -v unshare > /dev/null; then
	FSP_TEST_NS=1 exec unshare -m --propagation unchanged sh -c '
		mount --make-rprivate / 2>/dev/null ||
			awk "{ print \$5 }" /proc/self/mountinfo |
			while read -r m; do mount --make-private "$m"; done
		exec sh "$@"' sh "$0" "$@"
fi
. "$srcdir/tests/root-lib.sh"
command -v pgrep > /dev/null || plan_skip_all "pgrep missing"

TR=/sys/kernel/tracing
[ -d "$TR/instances" ] || mount -t tracefs tracefs "$TR" 2> /dev/null
[ -d "$TR/instances" ] || plan_skip_all "no tracefs"

cleanup() {
	[ -n "$cpid" ] && kill -KILL "$cpid" 2> /dev/null
	[ -n "$w" ] && kill -CONT "$w" 2> /dev/null
	"$FSPROBE" cleanup > /dev/null 2>&1
	remove_test_dirs
}
trap cleanup EXIT

# A traced probe first (the instance lives from it to the end), then
# some that take a while; none that changes a system-wide knob.
PROBES="-P read-order -P exec-text -P write-open -P truncate-split"

# gone PID: 0 once PID has exited (within 10 s).
gone() {
	for _ in $(seq 100); do
		[ -d "/proc/$1" ] || return 0
		sleep 0.1
	done
	return 1
}

# has_workdir: is there a DIR/.fsprobe-* directory?
has_workdir() {
	for f in "$D"/.fsprobe-*; do
		[ -d "$f" ] && return 0
	done
	return 1
}

# start NAME: a check of $TMPD/NAME in the background, its worker held
# (SIGSTOP) once its work directory and tracefs instance exist; cpid and
# w are the check and its worker, 1 if that never happened (20 s).
start() {
	D=$TMPD/$1; mkdir -p "$D"
	"$FSPROBE" check "$D" $PROBES -f json -o "$TMPD/$1.json" \
		2> "$TMPD/$1.err" &
	cpid=$!; w=
	end=$(($(date +%s) + 20))
	while [ "$(date +%s)" -lt $end ] && kill -0 "$cpid" 2> /dev/null; do
		[ -n "$w" ] || w=$(pgrep -P "$cpid" | head -n 1)
		if [ -n "$w" ] && [ -d "$TR/instances/fsprobe-$w" ] &&
		   has_workdir; then
			kill -STOP "$w"
			return 0
		fi
	done
	return 1
}

for sig in INT TERM HUP; do
	case $sig in INT) n=2 ;; TERM) n=15 ;; HUP) n=1 ;; esac
	if ! start "$sig"; then
		ok 1 "SIG$sig: the check's work directory and tracefs instance appeared"
		wait "$cpid"; cpid=
		continue
	fi
	kill -"$sig" "$cpid"; kill -CONT "$w"
	wait "$cpid"; rc=$?; cpid=
	[ $rc -eq $((128 + n)) ]
	ok $? "SIG$sig: check exits $((128 + n)) (got $rc)"
	left=$(ls -A "$D")
	[ -z "$left" ]; ok $? "SIG$sig: no $D/.fsprobe-* left${left:+: $left}"
	gone "$w"
	[ ! -d "$TR/instances/fsprobe-$w" ]
	ok $? "SIG$sig: no tracefs instance fsprobe-$w left"
	left=$(ls -A "$FSPROBE_STATE_DIR" 2> /dev/null)
	[ -z "$left" ]; ok $? "SIG$sig: no run directory left${left:+: $left}"
	grep -q "check interrupted by signal $n" "$TMPD/$sig.json"
	ok $? "SIG$sig: the document says the check was interrupted"
	sed 's/^/# /' "$TMPD/$sig.err"
done

# SIGKILL runs no code: the worker dies with check (PDEATHSIG), what
# they made stays, journalled, and cleanup removes it.
if start KILL; then
	kill -KILL "$cpid"; wait "$cpid" 2> /dev/null; c=$cpid; cpid=
	gone "$w"; ok $? "SIGKILL: the worker died with check"
	has_workdir && [ -d "$TR/instances/fsprobe-$w" ]
	ok $? "SIGKILL: the work directory and tracefs instance are left"
	"$FSPROBE" cleanup > "$TMPD/cleanup.out" 2>&1; rc=$?
	sed 's/^/# /' "$TMPD/cleanup.out"
	[ $rc -eq 0 ] && grep -q "1 stale run(s) unwound" "$TMPD/cleanup.out" &&
		grep -q "1 tracefs instance(s)" "$TMPD/cleanup.out" &&
		grep -q " 0 entries not ours" "$TMPD/cleanup.out"
	ok $? "SIGKILL: cleanup unwinds check's run (rc $rc)"
	left=$(ls -A "$D")
	[ -z "$left" ]; ok $? "SIGKILL: cleanup removed $D/.fsprobe-$c${left:+: left $left}"
	[ ! -d "$TR/instances/fsprobe-$w" ]
	ok $? "SIGKILL: cleanup removed tracefs instance fsprobe-$w"
	w=
else
	ok 1 "SIGKILL: the check's work directory and tracefs instance appeared"
fi
check_no_leaks
done_testing
