#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-safety.sh - fsprobe never touches what is not its own: a foreign loop
# device named by a forged stale journal survives `cleanup`; a state base
# that is a symlink or world-writable is refused; two concurrent runs do
# not share devices or state and give the same verdicts as one run;
# `check DIR` leaves the caller's mount table as it was.
. "$srcdir/tests/root-lib.sh"

# 1. A foreign loop device, and a stale journal that names it with
#    another image: cleanup must leave it alone.
truncate -s 64M "$TMPD/foreign.img"
dev=$(losetup -f --show "$TMPD/foreign.img")
[ -n "$dev" ]; ok $? "planted a foreign loop device ($dev)"
fake="$FSPROBE_STATE_DIR/1-1-dead"
mkdir -m 700 "$FSPROBE_STATE_DIR" "$fake"
wc=/sys/block/${dev#/dev/}/queue/write_cache
echo "write through" > "$wc"	# the foreign owner's own setting
thp=/sys/kernel/mm/transparent_hugepage/defrag
thp_was=$(sed 's/.*\[\(.*\)\].*/\1/' "$thp")
other=always; [ "$thp_was" = always ] && other=never
printf 'knob\t%s\t%s\n' "$thp" "$other" > "$fake/journal"
printf 'knob-restored\t%s\t\n' "$thp" >> "$fake/journal"
printf 'loop\t%s\t%s\n' "$dev" "$fake/image" >> "$fake/journal"
printf 'knob\t%s\twrite back\n' "$wc" >> "$fake/journal"
printf 'image\t%s\t\n' "$TMPD/foreign.img" >> "$fake/journal"
: > "$fake/lock"
"$FSPROBE" cleanup > "$TMPD/out" 2>&1; rc=$?
[ $rc -eq 0 ]; ok $? "cleanup exits 0 (rc $rc): $(cat "$TMPD/out")"
losetup "$dev" 2>/dev/null | grep -qF "$TMPD/foreign.img"
ok $? "the foreign loop device is still attached to its file"
[ "$(cat "$wc")" = "write through" ]
ok $? "its write_cache is still its owner's ($(cat "$wc"))"
grep -q "3 entries not ours left alone" "$TMPD/out"
ok $? "cleanup reports the three foreign entries it refused"
now=$(sed 's/.*\[\(.*\)\].*/\1/' "$thp")
[ "$now" = "$thp_was" ]
ok $? "a knob the journal marks restored is not written again ($thp: $now)"
[ "$now" = "$thp_was" ] || echo "$thp_was" > "$thp"
echo "write back" > "$wc"
losetup -d "$dev"
# A run killed between making its directory and renaming it into place
# leaves '.new-ID' with its lock: removed once it is a minute old, never
# younger (its creator may not hold the lock yet).
for n in old young; do
	mkdir -m 700 "$FSPROBE_STATE_DIR/.new-1-$n" && : > "$FSPROBE_STATE_DIR/.new-1-$n/lock"
done
touch -d '2 minutes ago' "$FSPROBE_STATE_DIR/.new-1-old"
"$FSPROBE" cleanup > /dev/null 2>&1
[ ! -e "$FSPROBE_STATE_DIR/.new-1-old" ] && [ -d "$FSPROBE_STATE_DIR/.new-1-young" ]
ok $? "cleanup removes a minute-old .new- directory, not a fresh one"
rm -rf "$FSPROBE_STATE_DIR/.new-1-young"
# The journal's 'image' line named a file outside the run: it is ours to
# remove only if it is inside the run directory.
[ -f "$TMPD/foreign.img" ]; ok $? "a file outside the run directory is not removed"
rm -f "$TMPD/foreign.img"

# 2. A state base that is a symlink, or not 0700, is refused.
ln -s "$TMPD" "$TMPD/link"
FSPROBE_STATE_DIR="$TMPD/link" "$FSPROBE" run -p xfs-default > /dev/null 2> "$TMPD/err"
rc=$?; [ $rc -eq 2 ] && grep -q 'refused: it is a symlink' "$TMPD/err"
ok $? "symlinked state base refused with exit 2 (rc $rc)"
mkdir -m 777 "$TMPD/open"
FSPROBE_STATE_DIR="$TMPD/open" "$FSPROBE" run -p xfs-default > /dev/null 2> "$TMPD/err"
rc=$?; [ $rc -eq 2 ]; ok $? "world-writable state base refused (rc $rc)"

# 3. Two runs at once give the verdicts of one run.
P="-p ext4-default -p xfs-default -p btrfs-default -p tmpfs-huge-always -P fault-pmd"
"$FSPROBE" run $P -f json -o "$TMPD/single.json" 2>/dev/null
WQ=/sys/module/workqueue/parameters/default_affinity_scope
wq0=$(cat "$WQ" 2>/dev/null || true)
# The second in a state dir of its own: the workqueue scope (set with
# --tune-workqueue) is shared all the same (fsprobe/knob.h), and
# whichever ends last restores it.
"$FSPROBE" run --tune-workqueue $P -f json -o "$TMPD/a.json" 2>/dev/null & a=$!
FSPROBE_STATE_DIR=$FSPROBE_STATE_DIR.b "$FSPROBE" run --tune-workqueue $P -f json \
	-o "$TMPD/b.json" 2>/dev/null & b=$!
wait $a; ra=$?; wait $b; rb=$?
rmdir "$FSPROBE_STATE_DIR.b" 2>/dev/null
[ $ra -eq 0 ] && [ $rb -eq 0 ]; ok $? "two concurrent runs exit 0 ($ra, $rb)"
rec=$(ls /run/fsprobe-knobs/*.rec 2>/dev/null || true)
[ "$(cat "$WQ" 2>/dev/null || true)" = "$wq0" ] && [ -z "$rec" ]
ok $? "after both, the workqueue scope is '$wq0' again ($(cat "$WQ" 2>/dev/null)), no knob recorded${rec:+: $rec}"
verdicts() { python3 -c 'import json,sys; print(" ".join(p["name"]+"="+p["verdict"]+":"+str([e for pr in p["probes"] for k, e in pr["evidence"].items() if k.endswith("pmd_mapped_kb")]) for p in json.load(open(sys.argv[1]))["profiles"]))' "$1"; }
s=$(verdicts "$TMPD/single.json")
va=$(verdicts "$TMPD/a.json"); vb=$(verdicts "$TMPD/b.json")
[ "$va" = "$s" ] && [ "$vb" = "$s" ]
ok $? "both concurrent runs measured what a single run did: $s"
# Why a run's verdicts differ: each profile's reason and its probes'.
reasons() { python3 -c 'import json,sys; print([(p["name"], p.get("reason"), [(q["name"], q["result"], q.get("reason")) for q in p["probes"]]) for p in json.load(open(sys.argv[1]))["profiles"]])' "$1"; }
[ "$va" = "$s" ] || diag "run a: $va; $(reasons "$TMPD/a.json")"
[ "$vb" = "$s" ] || diag "run b: $vb; $(reasons "$TMPD/b.json")"
# 4. check DIR works in a private mount namespace: the caller's mount
#    table is the same afterwards (read-order may mount tracefs), and
#    its own files in DIR are gone.
mkdir "$TMPD/checkdir"
findmnt -rn -o TARGET,FSTYPE | sort > "$TMPD/mounts.before"
"$FSPROBE" check "$TMPD/checkdir" -P read-order -P fault-pmd -f json \
	-o "$TMPD/check.json" 2> /dev/null
rc=$?; [ $rc -eq 0 ]; ok $? "check DIR exits 0 (rc $rc)"
findmnt -rn -o TARGET,FSTYPE | sort > "$TMPD/mounts.after"
cmp -s "$TMPD/mounts.before" "$TMPD/mounts.after"
ok $? "check DIR leaves the caller's mounts as they were$(diff "$TMPD/mounts.before" "$TMPD/mounts.after" | tr '\n' ' ')"
[ -z "$(ls -A "$TMPD/checkdir")" ]; ok $? "check DIR removed its own files"
check_no_leaks
done_testing
