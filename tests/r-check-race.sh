#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-check-race.sh - root's `fsprobe check DIR` in a DIR that a local user
# (uid 65534) owns, against that user's tests/check-racer (issue 30): it
# renames root's fresh DIR/.fsprobe-PID away and puts a directory of its
# own there, then
# - exec: renames a shell script over exec-text once the payload's cold
#   run shows; the script would write `id` to a file: it must never run;
# - write: replaces write-open.text with a symlink to a root-only 0600
#   file after root's K-th open of it (K = 1, 2, 3 in turn: how many
#   opens come before the open for write depends on the code), and that
#   file must stay as it was.
# FSPROBE_RACE_TRIALS trials of each (default 10). Each trial is bounded:
# the racer goes when check ends, check is killed after 120 s.
. "$srcdir/tests/root-lib.sh"
command -v setpriv > /dev/null || plan_skip_all "setpriv missing"
RACER=$builddir/tests/check-racer
[ -x "$RACER" ] || plan_skip_all "tests/check-racer not built"
TRIALS=${FSPROBE_RACE_TRIALS:-10}
NOBODY=65534

# DIR's parent must be reachable by the user: not $TMPD (0700).
R=$(mktemp -d /tmp/fsprobe-race.XXXXXX) || exit 1
chmod 755 "$R"
cp "$RACER" "$R/racer" && chmod 755 "$R/racer"
cleanup() {
	[ -n "$rpid" ] && kill -KILL "$rpid" 2> /dev/null
	rm -rf "$R"
	"$FSPROBE" cleanup > /dev/null 2>&1
	remove_test_dirs
}
trap cleanup EXIT

VICTIM=$TMPD/victim
head -c 65536 /dev/urandom > "$VICTIM"
chmod 600 "$VICTIM"
sum0=$(sha256sum < "$VICTIM")

# trial MODE PROBE ARG N [K]: one check of a fresh DIR, the racer against
# it; its output in $TMPD/MODE-N.*.
trial() {
	rm -rf "$R/d"; mkdir "$R/d"; chown $NOBODY:$NOBODY "$R/d"
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups \
		"$R/racer" "$1" "$R/d" "$3" 130 $5 > "$TMPD/$1-$4.racer" 2>&1 &
	rpid=$!
	for _ in $(seq 100); do	# its inotify watch in place
		[ -s "$TMPD/$1-$4.racer" ] && break
		sleep 0.05
	done
	timeout -k 5 120 "$FSPROBE" check "$R/d" -P "$2" -f json \
		-o "$TMPD/$1-$4.json" 2> "$TMPD/$1-$4.err"
	crc=$?
	kill "$rpid" 2> /dev/null; wait "$rpid"; rrc=$?; rpid=
	racer="$(sed 1d "$TMPD/$1-$4.racer")"
	[ $rrc -eq 0 ] && won=$((won + 1))
}

won=0
for i in $(seq "$TRIALS"); do
	out=$TMPD/id-$i
	trial exec exec-text "$out" "$i"
	what=; [ -e "$out" ] && what=": it wrote '$(cat "$out")'"
	[ -z "$what" ]
	ok $? "exec $i: the user's script never ran (check rc $crc; racer: ${racer:-killed at check's end})$what"
done
diag "exec: the racer had its script in place in $won of $TRIALS trials"

won=0
for i in $(seq "$TRIALS"); do
	trial write write-open "$VICTIM" "$i" $(((i - 1) % 3 + 1))
	[ "$(sha256sum < "$VICTIM")" = "$sum0" ]
	ok $? "write $i: the root-only file is unchanged (check rc $crc; racer: ${racer:-killed at check's end})"
	if [ "$(sha256sum < "$VICTIM")" != "$sum0" ]; then
		head -c 65536 /dev/urandom > "$VICTIM"
		sum0=$(sha256sum < "$VICTIM")
	fi
done
diag "write: the racer had its symlink in place in $won of $TRIALS trials"
rm -rf "$R/d"
check_no_leaks
done_testing
