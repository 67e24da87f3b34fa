#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-matrix.sh - `fsprobe matrix -k host` is an ordinary run, for real:
# two host columns one after the other (-j 1) with real loop devices,
# mkfs and mounts, each the document `run` writes (same profiles, same
# verdicts as a plain run just before), the table with no change between
# the two, compare of the matrix with itself, and nothing left behind.
# --debian with apt unable to reach the mirror and nothing cached: every
# series a column of error with the reason, the host column a real run.
. "$srcdir/tests/root-lib.sh"
command -v python3 > /dev/null || plan_skip_all "python3 not installed"
OPTS="-p tmpfs-huge-advise -p xfs-default -P read-order"

"$FSPROBE" run $OPTS -f json -o "$TMPD/run.json" 2> "$TMPD/err"
rc_run=$?
"$FSPROBE" matrix -k host -k host -j 1 $OPTS -f json -o "$TMPD/m.json" \
	2> "$TMPD/err"
rc=$?; [ $rc -eq $rc_run ]
ok $? "matrix -k host -k host exits as run does ($rc, run $rc_run)"
python3 - "$TMPD/run.json" "$TMPD/m.json" "$(uname -r)" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
m = json.load(open(sys.argv[2]))
assert list(m) == ["fsprobe", "kernels"] and len(m["kernels"]) == 2, list(m)
for d in m["kernels"]:
    assert d["kernel"] == sys.argv[3], d["kernel"]
    assert list(d) == list(run), (list(d), list(run))
    assert "resources" in d and "vm" not in d
    v = [(p["name"], p["verdict"]) for p in d["profiles"]]
    assert v == [(p["name"], p["verdict"]) for p in run["profiles"]], v
    assert [q["name"] for q in d["profiles"][0]["probes"]] == ["read-order"]
PY
ok $? "two host run documents with run's keys, profiles and verdicts"
"$FSPROBE" matrix -k host $OPTS > "$TMPD/table" 2> "$TMPD/err"
grep -q "^  K1  $(uname -r)  *(host, " "$TMPD/table" &&
	grep -q "^xfs-default  *[a-z]" "$TMPD/table"
ok $? "the table: the host's release and a cell per profile"
"$FSPROBE" compare "$TMPD/m.json" "$TMPD/m.json" > "$TMPD/cmp"
rc=$?; [ $rc -eq 0 ] && [ "$(grep -c "^== kernel $(uname -r) ==$" "$TMPD/cmp")" -eq 2 ]
ok $? "compare of the matrix with itself: both kernels paired, exit 0 ($rc)"
# The guests' part needs qemu (./bootstrap-deps --vm): without it matrix
# refuses every guest kernel up front (a fresh machine's make check).
if ! command -v "${FSPROBE_QEMU:-qemu-system-x86_64}" > /dev/null; then
	skip "matrix --debian offline: qemu-system-x86_64 not installed"
	skip "--debian columns: qemu-system-x86_64 not installed"
else
mkdir -p "$TMPD/nonet" "$TMPD/cache"
printf '#!/bin/sh\necho "E: Could not resolve mirror.invalid" >&2\nexit 100\n' \
	> "$TMPD/nonet/apt-get"
chmod +x "$TMPD/nonet/apt-get"
# The series and the host only: a READ_ONLY_THP_FOR_FS=y kernel built on
# this machine would join the set as ro-thp.
PATH="$TMPD/nonet:$PATH" FSPROBE_CACHE_DIR="$TMPD/cache" \
	FSPROBE_RO_THP_KERNEL="$TMPD/no-such-bzImage" "$FSPROBE" matrix \
	--debian -p xfs-default -P read-order -f json -o "$TMPD/d.json" \
	2> "$TMPD/err"
rc=$?; [ $rc -eq 1 ] && grep -q "apt cannot reach the mirror" "$TMPD/err"
ok $? "matrix --debian offline, nothing cached: exit 1, and says why ($rc)"
python3 - "$TMPD/d.json" "$(uname -r)" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernels"]
assert [d["kernel"] for d in k] == ["debian:6.1", "debian:6.12", "debian:6.17",
    "debian:7.2", "debian:7.3-rc", sys.argv[2]], [d["kernel"] for d in k]
for d, s in zip(k[:5], ["6.1", "6.12", "6.17", "7.2", "7.3-rc"]):
    p = d["profiles"][0]
    assert p["verdict"] == "error", p
    assert "offline, and no release of %s cached" % s in json.dumps(p), p
assert k[5]["profiles"][0]["verdict"] != "error", k[5]["profiles"][0]
PY
ok $? "--debian: five series columns of error with their reason, then the host's run"
fi
check_no_leaks
done_testing
