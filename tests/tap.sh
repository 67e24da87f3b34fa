# SPDX-License-Identifier: GPL-2.0-or-later
# tap.sh - TAP helpers for the shell tests (sourced): plan_skip_all prints
# "1..0 # SKIP why" and exits 0, as automake's tap-driver wants;
# json_assert checks a fsprobe JSON document.
tap_n=0
tap_fail=0
plan_skip_all() { echo "1..0 # SKIP $*"; exit 0; }
ok() { # ok COND-EXIT-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"
	else echo "not ok $tap_n - $2"; tap_fail=$((tap_fail + 1)); fi
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }
diag() { printf '# %s\n' "$*"; }
done_testing() { echo "1..$tap_n"; exit 0; }

# json_assert FILE PYTHON-EXPR DESCRIPTION: evaluates EXPR with d = doc,
# p = {profile name: profile}, probe(name, probe) = that probe and
# ev(name, probe) = its evidence.
json_assert() {
	python3 - "$1" "$2" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
p = {x["name"]: x for x in d["profiles"]}
def probe(name, pr):
    return next(x for x in p[name]["probes"] if x["name"] == pr)
def ev(name, pr):
    return probe(name, pr).get("evidence", {})
r = eval(sys.argv[2])
sys.exit(0 if r else 1)
PYEOF
	ok $? "$3"
}
