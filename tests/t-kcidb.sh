#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-kcidb.sh - the -f kcidb and -f lava renderers on the recorded
# documents (tests/render): the KCIDB document passes t-kcidb.py, the
# rules of the KCIDB v5.3 schema (kernelci/kcidb-io v05_03.py), and maps
# paths, statuses, numbers, environment and ids as docs/kernelci.md says;
# the validator rejects broken documents (not vacuous); every LAVA line
# is one that Linaro's send-to-lava.sh turns into a lava-test-case call.
. "$srcdir/tests/render-lib.sh"
command -v python3 >/dev/null 2>&1 || plan_skip_all "python3 not installed"
V="$srcdir/tests/t-kcidb.py"

# kq FILE EXPR DESC: EXPR on k (the KCIDB doc), t (path -> test).
kq() {
	python3 - "$1" "$2" <<'PYEOF'
import json, sys
k = json.load(open(sys.argv[1]))
t = {x["path"]: x for x in k.get("tests", [])}
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)
PYEOF
	ok $? "$3"
}

for f in run-6.18 run-6.12-rothp escape; do
	"$R" kcidb "$D/$f.json" > "$T/$f.k.json"
	ok $? "render kcidb $f.json"
	python3 "$V" "$T/$f.k.json" > "$T/err"
	ok $? "$f: KCIDB v5.3 rules hold"
	sed 's/^/# /' "$T/err" | head -5
done

K="$T/run-6.18.k.json"
kq "$K" 'k["version"] == {"major": 5, "minor": 3}' "version 5.3"
kq "$K" 'len(k["tests"]) == 40' "one test per profile x probe (39) + erofs"
kq "$K" 't["fsprobe.ext4-default.fault-pmd"]["status"] == "PASS"' \
	"pass -> PASS"
kq "$K" 't["fsprobe.xfs-default.truncate-split"]["status"] == "FAIL"' \
	"fail -> FAIL"
kq "$K" 't["fsprobe.ext4-default.collapse"]["status"] == "SKIP" and
	"number" not in t["fsprobe.ext4-default.collapse"]' \
	"skip -> SKIP, no number"
kq "$K" 't["fsprobe.erofs-lz4"]["status"] == "SKIP"' \
	"a profile without probes is one SKIP test"
kq "$K" 't["fsprobe.ext4-default.fault-pmd"]["number"] ==
	{"value": 8192 * 1024, "unit": "B", "prefix": "binary"}' \
	"fault-pmd: FilePmdMapped in bytes, binary prefix"
kq "$K" 't["fsprobe.tmpfs-huge-always.fault-pmd"]["number"]["value"] ==
	8192 * 1024' "tmpfs: ShmemPmdMapped"
kq "$K" 't["fsprobe.xfs-default.read-order"]["number"] ==
	{"value": 9, "unit": "order"}' "read-order: the largest order"
kq "$K" 't["fsprobe.ext4-default.fault-pmd"]["environment"]["misc"]
	["kernel_release"] == "6.18.0" and k["builds"][0]["architecture"]
	== "x86_64"' "kernel release and arch"
kq "$K" 'k["checkouts"][0]["id"] == "fsprobe:6.18.0" and
	t["fsprobe.ext4-default.fault-pmd"]["id"] ==
	"fsprobe:6.18.0:x86_64:fsprobe.ext4-default.fault-pmd"' \
	"default origin fsprobe, checkout = kernel release"
kq "$K" 't["fsprobe.ext4-default.fault-pmd"]["duration"] == 0.084' \
	"duration in seconds"

KCIDB_ORIGIN=mylab KCIDB_CHECKOUT=abc123 "$R" kcidb "$D/run-6.18.json" \
	> "$T/o.json"
kq "$T/o.json" 'all(x["origin"] == "mylab" for x in
	k["checkouts"] + k["builds"] + k["tests"]) and
	k["checkouts"][0]["id"] == "mylab:abc123"' "origin and checkout given"
KCIDB_ORIGIN=My-Lab "$R" kcidb "$D/run-6.18.json" > /dev/null 2>&1
[ $? -eq 2 ]; ok $? "an origin outside [a-z0-9_]+ is refused"

# A matrix: two kernels, two checkouts and builds, all tests.
"$R" kcidb "$D/run-6.18.json" "$D/run-6.12-rothp.json" > "$T/m.json"
ok $? "render kcidb of two documents"
python3 "$V" "$T/m.json" > "$T/err"; ok $? "matrix: rules hold"
n612=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(sum(max(len(p.get("probes") or []), 1) for p in d["profiles"]))' \
	"$D/run-6.12-rothp.json")
kq "$T/m.json" "len(k['checkouts']) == 2 and len(k['builds']) == 2 and
	len(k['tests']) == 40 + $n612" "matrix: 2 checkouts, 2 builds"

# The validator is not vacuous: each breakage is caught.
for bad in 'k["tests"][0]["status"] = "pass"' \
	'del k["tests"][0]["build_id"]' 'k["tests"][0]["comment"] = None' \
	'k["tests"][0]["path"] = "a b"' 'k["version"]["major"] = 4' \
	'k["tests"][0]["number"] = {"unit": "B"}' \
	'k["builds"][0]["architecture"] = "X86-64"' \
	'k["tests"][0]["build_id"] = "fsprobe:nope"'; do
	python3 -c "import json,sys; k=json.load(open(sys.argv[1])); $bad
json.dump(k, open(sys.argv[2], 'w'))" "$K" "$T/bad.json"
	python3 "$V" "$T/bad.json" > /dev/null
	[ $? -eq 1 ]; ok $? "validator rejects: $bad"
done

# LAVA: the lines send-to-lava.sh reads (its two egrep patterns).
"$R" lava "$D/run-6.18.json" > "$T/lava.txt"
ok $? "render lava run-6.18.json"
[ "$(wc -l < "$T/lava.txt")" -eq 40 ]; ok $? "lava: 40 lines"
bad=$(grep -vcE '^[A-Za-z0-9_.-]+ (pass|fail|skip)( [0-9]+ [A-Za-z]+)?$' \
	"$T/lava.txt")
[ "$bad" -eq 0 ]; ok $? "lava: every line is NAME RESULT [MEASUREMENT UNITS]"
grep -qx 'ext4-default.fault-pmd pass 8192 kB' "$T/lava.txt"
ok $? "lava: fault-pmd with its FilePmdMapped kB"
grep -qx 'xfs-default.truncate-split fail 9 order' "$T/lava.txt"
ok $? "lava: a failure with its order"
grep -qx 'ext4-default.collapse skip' "$T/lava.txt"; ok $? "lava: skip"
grep -qx 'erofs-lz4 skip' "$T/lava.txt"; ok $? "lava: profile without probes"
# What send-to-lava.sh would call, with its own parsing (awk fields).
awk '{ print $1, $2, $3, $4 }' "$T/lava.txt" | grep -c ' kB$' \
	> "$T/n"; [ "$(cat "$T/n")" -eq 9 ]
ok $? "lava: 9 measurements in kB"
"$R" lava "$D/escape.json" > "$T/esc.txt"
bad=$(grep -vcE '^[A-Za-z0-9_.-]+ (pass|fail|skip)( [0-9]+ [A-Za-z]+)?$' \
	"$T/esc.txt")
[ "$bad" -eq 0 ]; ok $? "lava: odd names become one word"
done_testing
