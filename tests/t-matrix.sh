#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-matrix.sh - `fsprobe matrix` without booting anything: usage errors
# exit 2 with one clear line; with tests/fake-qemu.py as qemu, two fake
# kernels (documents from tests/data) run as guests at once and come
# back as one {"fsprobe", "kernels"} document in the order given, an
# oops on one guest's console turns that kernel's profiles into error,
# a guest that panics before writing its document becomes a column of
# error profiles, the table shows the grid and the changes, compare
# takes two matrices, and no temporary directory survives. `-k host`
# (a real run) needs root and is left to the final demonstration.
. "$srcdir/tests/cli-lib.sh"
command -v python3 > /dev/null || plan_skip_all "python3 not installed"

"$F" --help > "$T/help"
grep -q "^  matrix  *the same profiles on several kernels" "$T/help"
ok $? "--help lists matrix"
expect2 "matrix without -k" "matrix needs -k SPEC" matrix
expect2 "matrix -f ktap" "matrix writes -f table, json, html or kcidb" \
	matrix -k host -f ktap
expect2 "matrix -k debian:../x" "debian:../x: not a kernel version" \
	matrix -k debian:../x
expect2 "matrix -k a missing file" "nonexistent: No such file" \
	matrix -k /nonexistent
expect2 "matrix --deb" "does not apply to 'matrix'" matrix --deb x.deb
expect2 "vm with two -k" "vm takes one --kernel" vm -k a -k b
expect2 "matrix, unknown profile" "unknown profile 'nope'" \
	matrix -k "$srcdir/README.md" -p nope
if [ "$(id -u)" -ne 0 ]; then
	expect2 "-k host without root" "needs root" matrix -k host
elif command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$F" matrix -k host \
		> /dev/null 2> "$T/err"
	rc=$?; [ $rc -eq 2 ] && grep -q "needs root" "$T/err"
	ok $? "-k host as nobody: exit 2 before anything runs (got $rc)"
else
	skip "-k host without root: running as root, no setpriv"
fi

command -v busybox > /dev/null || [ -x /bin/busybox ] ||
	{ skip "busybox not installed: fake boots not run"; done_testing; }

mkdir "$T/log" "$T/tmp" "$T/cache" "$T/docs"
mkbz "$T/docs/bzA" 6.12.57-rothp
mkbz "$T/docs/bzB" 6.18.0
mkbz "$T/docs/bzC" 6.99.0-c
cp "$srcdir/tests/data/run-6.12-rothp.json" "$T/docs/bzA.json"
cp "$srcdir/tests/data/run-6.18.json" "$T/docs/bzB.json"
echo panic > "$T/docs/bzC.mode"
export FSPROBE_QEMU="$srcdir/tests/fake-qemu.py" FAKE_QEMU_LOG="$T/log" \
	FAKE_QEMU_DOC="$T/docs" FSPROBE_CACHE_DIR="$T/cache" TMPDIR="$T/tmp"

"$F" matrix -k "$T/docs/bzA" -k "$T/docs/bzB" -j 2 -p xfs-default \
	-P fault-pmd -f json -o "$T/m.json" 2> "$T/err"
rc=$?; [ $rc -eq 1 ]; ok $? "two guests: exit 1 like 6.18.0's document (got $rc)"
[ $rc -eq 1 ] || tail -5 "$T/err" | while IFS= read -r l; do diag "$l"; done
python3 - "$T/m.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert list(m) == ["fsprobe", "kernels"], list(m)
k = m["kernels"]
assert [d["kernel"] for d in k] == ["6.12.57-rothp", "6.18.0"], k
assert all(d["vm"]["kernel_image"].endswith("/bz" + c) for d, c in zip(k, "AB"))
assert [p["verdict"] for p in k[1]["profiles"]][:2] == ["pmd", "pmd"]
PY
ok $? "one document, the kernels in the order given, each a vm run document"

echo oops > "$T/docs/bzB.mode"
"$F" matrix -k "$T/docs/bzA" -k "$T/docs/bzB" -k "$T/docs/bzC" \
	-p xfs-default -f json -o "$T/oops.json" 2> "$T/err"
rc=$?; [ $rc -eq 1 ]; ok $? "an oops and a panic: exit 1 (got $rc)"
grep -q "console shows 2 splat lines, from: \[   41.207713\] BUG: kernel NULL" "$T/err"
ok $? "the oops is reported on stderr"
python3 - "$T/oops.json" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernels"]
assert k[0]["profiles"][1]["verdict"] == "pmd"
b = k[1]["profiles"]
assert b and all(p["verdict"] == "error" for p in b), b
assert all(p["reason"].startswith("the guest kernel's console shows a splat: "
                                  "[   41.207713] BUG: kernel NULL") for p in b)
assert all("Oops: 0000 [#1]" in p["kernel_log"] for p in b)
c = k[2]
assert c["kernel"] == "6.99.0-c", c["kernel"]
assert [p["name"] for p in c["profiles"]] == ["xfs-default"]
p = c["profiles"][0]
assert p["verdict"] == "error" and "the guest wrote no result" in p["reason"], p
assert "Kernel panic - not syncing: fake" in p["kernel_log"], p
assert "probes" not in p
PY
ok $? "oops: that kernel's profiles error with the excerpt; panic: a column of error"

rm "$T/docs/bzB.mode"
"$F" matrix -k "$T/docs/bzA" -k "$T/docs/bzB" -p xfs-default > "$T/table" 2> "$T/err"
rc=$?; [ $rc -eq 1 ] && grep -q "^  K1  6.12.57-rothp  (vm, tcg" "$T/table" &&
	grep -q "^  K2  6.18.0         (vm, tcg" "$T/table" &&
	grep -q "^xfs-default  *pmd fault,collapse 2M  *pmd fault 2M$" "$T/table" &&
	grep -q "^Changes K1 → K2 (6.12.57-rothp → 6.18.0):$" "$T/table" &&
	grep -q "^PMD text lost:$" "$T/table"
ok $? "table: legend, grid, changes, PMD text lost (rc $rc)"
"$F" compare "$T/m.json" "$T/oops.json" > "$T/cmp"; rc=$?
[ $rc -eq 0 ] && grep -q "^== kernel 6.18.0 ==$" "$T/cmp" &&
	grep -q "^== kernel 6.99.0-c: only in the new matrix$" "$T/cmp" &&
	grep -q "xfs-default: pmd → error (not measured" "$T/cmp"
ok $? "compare takes two matrices, paired by release (rc $rc)"
"$F" compare "$T/m.json" "$srcdir/tests/data/run-6.18.json" > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 2 ] && grep -q "not one of each" "$T/err"
ok $? "compare of a matrix and a run: exit 2 (rc $rc)"
"$F" matrix -k "$T/docs/bzA" -p xfs-default -f html -o "$T/m.html" 2> /dev/null
grep -q '<table id="matrix">' "$T/m.html"; ok $? "-f html: the grid"
"$F" matrix -k "$T/docs/bzA" -p xfs-default -f json -o "$T/a.json" 2> /dev/null
want=$?
"$F" matrix -k "$T/docs/bzA" -p xfs-default -f json -o /dev/null \
	> "$T/out" 2> "$T/err"
rc=$?; [ $rc -eq $want ] && [ -s "$T/a.json" ] && [ ! -s "$T/out" ] && [ ! -s "$T/err" ]
ok $? "-o /dev/null: a device is written, not emptied first (rc $rc as to a file, $want: $(head -c 200 "$T/err"))"
"$F" matrix -k "$T/docs/bzA" -k "$T/docs/bzB" -p xfs-default -f kcidb \
	2> /dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["checkouts"]) == 2 and len(d["builds"]) == 2, d.keys()
assert {c["id"] for c in d["checkouts"]} == {"fsprobe:6.12.57-rothp",
                                             "fsprobe:6.18.0"}, d["checkouts"]'
ok $? "-f kcidb: a checkout and a build per kernel"
[ -z "$(ls "$T/tmp")" ]; ok $? "no temporary directory left ($(ls "$T/tmp"))"
done_testing
