#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-compare-scale.sh - compare of two documents of 1M profiles each
# (gen-compare-docs.py: shuffled orders, some removed, added, worse,
# and probes changed) finishes, with every change found and nothing
# else reported. No time is asserted: pairing that is quadratic in the
# profiles (1.8M ran past 300 s) runs into the harness's timeout.
# FSPROBE_COMPARE_SCALE_N sets the count (default 1000000).
. "$srcdir/tests/cli-lib.sh"

N=${FSPROBE_COMPARE_SCALE_N:-1000000}
python3 "$srcdir/tests/gen-compare-docs.py" "$N" "$T/old.json" \
	"$T/new.json" > "$T/expect"
ok $? "generated two documents of $N profiles"
t0=$(date +%s)
"$F" compare "$T/old.json" "$T/new.json" > "$T/out" 2> "$T/err"; rc=$?
diag "compare of $N profiles took $(($(date +%s) - t0)) s"
[ $rc -eq 1 ] && [ ! -s "$T/err" ]
ok $? "compare exits 1 (something got worse), nothing on stderr (rc $rc)"
[ $rc -eq 1 ] || diag "$(head -c 300 "$T/err")"

# One line per profile of either side, beside the header and summary.
n=$(grep -c '^  [pq][0-9a-f]*: ' "$T/out")
[ "$n" -eq $((N + 4)) ]
ok $? "a line for each of the $N old profiles and the 4 added ($n)"
grep -v '(unchanged)$' "$T/out" | grep '^  [pq][0-9a-f]*: ' |
	sed 's/^  \([pq][0-9a-f]*\): .*/\1/' | sort > "$T/changed"
sed -n 's/^\(worse\|gone\|added\|probe\) //p' "$T/expect" | sort \
	> "$T/want"
# The profiles with a changed probe keep their verdict: not in changed.
sed -n 's/^probe //p' "$T/expect" | sort > "$T/probed"
comm -23 "$T/want" "$T/probed" | cmp -s - "$T/changed"
ok $? "exactly the worse, removed and added profiles have changed lines"
while read -r what name; do
	case $what in
	worse) grep -qx "  $name: pmd → base (WORSE)" "$T/out" ;;
	gone) grep -q "^  $name: removed (was " "$T/out" ;;
	added) grep -qx "  $name: added (pmd)" "$T/out" ;;
	probe) grep -A1 "^  $name: " "$T/out" |
		grep -qx "      fault-pmd: pass → fail (WORSE)" ;;
	esac
	ok $? "$what $name reported"
done < "$T/expect"
grep -qx "  result: WORSE, 5 measured regressions" "$T/out"
ok $? "summary: 5 measured regressions (3 verdicts, 2 probes)"
done_testing
