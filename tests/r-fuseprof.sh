#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-fuseprof.sh - the fuse profiles (fs = fuse.SUBTYPE, `server`): a FUSE
# server the run starts, journals and owns serves an image mkfs made.
# - fuse2fs, squashfuse, erofsfuse (matrix = extended: named with -p):
#   each whose server is installed gets a measured verdict (not error,
#   not skip), no probe error, its server started again for the cold
#   cycle and exited 0 after its unmount; one
#   not installed is `skip` naming the package; afterwards no server of
#   ours runs and nothing of ours is mounted in any mount namespace;
# - SIGKILL of the run while a server serves, then `fsprobe cleanup`: no
#   server, no mount, no loop device, no run directory (6 trials, at
#   least 2 of them killing a run still going);
# - cleanup kills a dead run's journalled server only while its pid has
#   the journalled start time: a process with another start time, or a
#   line naming a mount point outside the run, is left alone;
# - the step watchdog with a server that stops answering (tests/fuse-srv
#   --hang-after): error "did not finish", the server gone, nothing left.
. "$srcdir/tests/root-lib.sh"
command -v python3 > /dev/null || plan_skip_all "python3 missing"
[ -c /dev/fuse ] || plan_skip_all "no /dev/fuse"
grep -qw fuse /proc/filesystems || plan_skip_all "fuse is not in this kernel"
PROFS=
for s in fuse2fs squashfuse erofsfuse; do
	command -v "$s" > /dev/null && PROFS="$PROFS -p $s"
done
[ -n "$PROFS" ] || plan_skip_all "no FUSE server installed (fuse2fs, squashfuse, erofsfuse: ./bootstrap-deps)"
SRV="$builddir/tests/fuse-srv"
spare_pids=

cleanup() {
	for p in $spare_pids; do kill -KILL "$p" 2>/dev/null; done
	"$FSPROBE" cleanup > /dev/null 2>&1
	remove_test_dirs
}
trap cleanup EXIT

# Live processes whose command line names our state dir: the servers a
# run started ({image} and {mnt} are in it; a zombie's is empty).
servers_of_ours() {
	pgrep -f -- "$FSPROBE_STATE_DIR/" | tr '\n' ' '
	true
}
# Mounts under our state dir in any mount namespace (the workers' too).
mounts_anywhere() {
	cat /proc/[0-9]*/mountinfo 2>/dev/null | grep -F "$FSPROBE_STATE_DIR/" |
		awk '{ print $5 }' | sort -u
}
# ok unless a server of ours lives or a mount of ours exists anywhere.
nothing_left() {
	s=$(servers_of_ours); m=$(mounts_anywhere)
	[ -z "$s" ]; ok $? "$1: no server of ours running${s:+: pids $s}"
	[ -z "$m" ]; ok $? "$1: nothing of ours mounted anywhere${m:+: $m}"
}

# 1. The profiles, measured.
"$FSPROBE" run -p fuse2fs -p squashfuse -p erofsfuse -f json \
	-o "$TMPD/run.json" 2> "$TMPD/run.err"
rc=$?
[ $rc -eq 0 ]; ok $? "run exits 0 (rc $rc)"
for s in fuse2fs squashfuse erofsfuse; do
	if ! command -v "$s" > /dev/null; then
		json_assert "$TMPD/run.json" "p['$s']['verdict'] == 'skip' and p['$s']['reason'] == '$s not installed: apt-get install $s'" \
			"$s: not installed here: skip, naming the package"
		continue
	fi
	json_assert "$TMPD/run.json" "p['$s']['verdict'] not in ('error', 'skip') and p['$s']['fs'].startswith('fuse.') and p['$s']['max_order']['read'] is not None" \
		"$s: a measured verdict on a fuse.* mount"
	json_assert "$TMPD/run.json" "not any(x['result'] == 'error' for x in p['$s']['probes'])" \
		"$s: no probe error"
	json_assert "$TMPD/run.json" "p['$s']['server']['starts'] >= 2 and p['$s']['server']['exit_status'] == 0 and p['$s']['server']['argv'][0] == '$s'" \
		"$s: the server was started again for the cold cycle and exited 0 after its unmount"
done
python3 -c "
import json, sys
for p in json.load(open(sys.argv[1]))['profiles']:
    print('# %-11s %-16s %-6s %s %s' % (p['name'], p['fs'], p['verdict'], p.get('max_order'), p.get('server', p.get('reason'))))
" "$TMPD/run.json"
nothing_left "after the run"
check_no_leaks

# 2. SIGKILL while a server serves, then cleanup.
# A fuse run takes about a second here: the kills land within it.
i=0; bad=0; hits=0
for delay in 0 0.05 0.1 0.2 0.3 0.45; do
	i=$((i + 1))
	"$FSPROBE" run $PROFS > /dev/null 2>&1 &
	pid=$!
	for _ in $(seq 200); do
		[ -n "$(servers_of_ours)" ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	seen=$(servers_of_ours)
	sleep "$delay"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	"$FSPROBE" cleanup > "$TMPD/cleanup" 2>&1 || bad=$((bad + 1))
	grep -q "^cleanup: 1 stale run" "$TMPD/cleanup" && hits=$((hits + 1))
	diag "trial $i: server(s) ${seen:-none seen} at the kill (+${delay} s): $(cat "$TMPD/cleanup")"
	s=$(servers_of_ours); m=$(mounts_anywhere)
	l=$(loops_under "$FSPROBE_STATE_DIR"); d=$(ls -A "$FSPROBE_STATE_DIR" 2>/dev/null)
	if [ -n "$s$m$l$d" ]; then
		diag "trial $i leak: servers=$s mounts=$m loops=$l dirs=$d"
		bad=$((bad + 1))
	fi
done
[ $bad -eq 0 ]; ok $? "$i SIGKILL + cleanup trials: no server, mount, loop device or run directory left ($bad bad)"
[ $hits -ge 2 ]; ok $? "$hits of the $i kills hit a run that was still going (cleanup unwound it)"

# 3. A dead run's journal: only the process that is still the journal's
# server is killed.
run="$FSPROBE_STATE_DIR/1-1-dead"
mkdir -p "$run/p00/mnt"
: > "$run/lock"
sleep 300 & ours=$!
sleep 300 & other=$!
sleep 300 & outside=$!
spare_pids="$ours $other $outside"
start_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
printf 'dir\t%s/p00\t\nfuse-server\t%s/%s\t%s/p00/mnt\nfuse-server\t%s/%s\t%s/p00/mnt\nfuse-server\t%s/%s\t/tmp/elsewhere\n' \
	"$run" "$ours" "$(start_of $ours)" "$run" \
	"$other" "$(( $(start_of $other) + 1 ))" "$run" \
	"$outside" "$(start_of $outside)" > "$run/journal"
"$FSPROBE" cleanup > "$TMPD/cleanup" 2>&1; rc=$?
diag "$(cat "$TMPD/cleanup")"
[ $rc -eq 0 ] && grep -q "1 FUSE server(s) killed" "$TMPD/cleanup"
ok $? "cleanup kills the journalled server whose pid and start time match (rc $rc)"
st=$(sed 's/.*) //' "/proc/$ours/stat" 2>/dev/null | cut -d' ' -f1)
[ -z "$st" ] || [ "$st" = Z ]; ok $? "that process is gone (state ${st:-none})"
kill -0 "$other" 2>/dev/null; ok $? "a process whose start time differs from the journal's is left alone"
kill -0 "$outside" 2>/dev/null && grep -q "1 entry not ours" "$TMPD/cleanup"
ok $? "a server line naming a mount point outside the run is refused, its process left alone"
kill -KILL $ours $other $outside 2>/dev/null
wait $ours $other $outside 2>/dev/null
spare_pids=

# 4. The watchdog: a server that stops answering during prepare.
if [ -x "$SRV" ]; then
	cat > "$TMPD/fuse-hang.conf" <<EOF
fs = fuse.fsprobe-test
mkfs = mkfs.ext4 -F -q {image}
size = 16
server = $SRV -f --hang-after 40 {mnt}
EOF
	t0=$(date +%s)
	"$FSPROBE" run -p "$TMPD/fuse-hang.conf" --step-timeout 3 -f json \
		-o "$TMPD/hang.json" 2> "$TMPD/hang.err"
	rc=$?; t=$(( $(date +%s) - t0 ))
	[ $rc -eq 1 ] && [ $t -lt 60 ]; ok $? "hung server: run exits 1 in ${t} s (rc $rc)"
	json_assert "$TMPD/hang.json" "p['fuse-hang']['verdict'] == 'error' and 'did not finish in 3 s' in p['fuse-hang']['reason']" \
		"hung server: error, the step did not finish in 3 s"
	sed 's/^/# /' "$TMPD/hang.err"
	"$FSPROBE" cleanup > /dev/null 2>&1
	nothing_left "after the hung server"
else
	skip "tests/fuse-srv not built"
	skip "tests/fuse-srv not built"
	skip "tests/fuse-srv not built"
	skip "tests/fuse-srv not built"
fi
check_no_leaks
done_testing
