#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-man.sh - the man page against the code and real documents: every key
# path of the recorded run documents (arrays' items merged, evidence's
# free-form keys left out) and every key the encoder writes is in the
# page's JSON section, which lists exactly docs/json.md's key index; its
# PROBES are `fsprobe list`'s probes, its VERDICTS the verdict table's
# names and its ROUTES the route table's.
. "$srcdir/tests/tap.sh"
F="$builddir/src/fsprobe"
M="$builddir/man/fsprobe.8"; [ -f "$M" ] || M="$srcdir/man/fsprobe.8"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# Cmp FILE-A FILE-B DESC: equal sorted sets, or the difference as diag.
same() {
	sort -u "$1" > "$T/a"; sort -u "$2" > "$T/b"
	[ -s "$T/a" ] && cmp -s "$T/a" "$T/b"; r=$?
	ok $r "$3 ($(wc -l < "$T/a"))"
	[ $r -eq 0 ] || diff "$T/a" "$T/b" | grep '^[<>]' |
		while IFS= read -r l; do diag "$l"; done
}
# The tags (.TP's next line) of man section $1, one name a line.
tags() {
	sed -n "/^\.SH $1\$/,/^\.SH /{/^\.TP/{n;p;}}" "$M" |
		sed -e 's/\\-/-/g' -e 's/\\f[BIR]//g' -e 's/^\.[BI][RI]* //' \
		    -e 's/ ", " /\n/g' -e 's/"//g'
}

tags JSON | sed 's/\[\]//g' > "$T/man-keys"
[ "$(wc -l < "$T/man-keys")" -ge 60 ]
ok $? "the JSON section lists keys ($(wc -l < "$T/man-keys"))"

# Key paths of the recorded documents.
python3 - "$srcdir"/tests/data/run-6.18.json \
	"$srcdir"/tests/data/run-6.18-default.json \
	"$srcdir"/tests/data/run-6.12-rothp.json > "$T/doc-keys" <<'PY'
import json, sys
paths = set()
def walk(v, p):
    if isinstance(v, dict):
        for k, x in v.items():
            paths.add(p + k)
            if not (k == "evidence" and p.endswith("probes.")):
                walk(x, p + k + ".")
    elif isinstance(v, list):
        for x in v:
            walk(x, p)
for f in sys.argv[1:]:
    walk(json.load(open(f)), "")
print("\n".join(sorted(paths)))
PY
ok $? "the recorded documents parse"
grep -vxFf "$T/man-keys" "$T/doc-keys" > "$T/missing"
[ "$(wc -l < "$T/doc-keys")" -ge 50 ] && [ ! -s "$T/missing" ]
ok $? "every key of the recorded documents is in the man page ($(wc -l < "$T/doc-keys"))"
while IFS= read -r k; do diag "not in the man page: $k"; done < "$T/missing"

# Every key the encoder can write, as a leaf of some listed path.
R="$srcdir/src/report/result.c"
{ grep -oE 'add\([a-z]+, "[a-z_]+"' "$R" | sed 's/.*"\(.*\)"/\1/'
  sed -n '/T(attach)/,/T(total)/p' "$R" | grep -oE 'T\([a-z_]+\)' |
	sed 's/T(\(.*\))/\1/'; } | sort -u > "$T/enc-keys"
sed 's/.*\.//' "$T/man-keys" | sort -u > "$T/man-leaves"
grep -vxFf "$T/man-leaves" "$T/enc-keys" > "$T/missing"
[ "$(wc -l < "$T/enc-keys")" -ge 50 ] && [ ! -s "$T/missing" ]
ok $? "every key result.c writes is in the man page ($(wc -l < "$T/enc-keys"))"
while IFS= read -r k; do diag "not in the man page: $k"; done < "$T/missing"

# docs/json.md's key index lists the same paths.
sed -n '/^## Every key/,/^## /{s/^- `\([^`]*\)`.*/\1/p;}' \
	"$srcdir/docs/json.md" | sed 's/\[\]//g' > "$T/md-keys"
same "$T/man-keys" "$T/md-keys" "docs/json.md's key index equals the man page's"

# Probes, verdicts, routes.
"$F" list | sed -n '/^Probes:/,$s/^  \([a-z-]*\) .*/\1/p' > "$T/probes"
[ "$(wc -l < "$T/probes")" -ge 10 ]; ok $? "fsprobe list lists probes"
tags PROBES > "$T/man-probes"
same "$T/probes" "$T/man-probes" "PROBES lists fsprobe list's probes"
grep -oE '\[FSP_V_[A-Z_]+\] = \{ "[a-z-]+"' "$srcdir/conformance/verdict.c" |
	sed 's/.*"\(.*\)"/\1/' > "$T/verdicts"
tags VERDICTS > "$T/man-verdicts"
same "$T/verdicts" "$T/man-verdicts" "VERDICTS lists verdict.c's verdicts"
sed -n '/fsp_route_names\[FSP_NR_ROUTES\] = {/,/};/p' \
	"$srcdir/conformance/verdict.c" | grep -oE '"[a-z]+"' | tr -d '"' \
	> "$T/routes"
tags ROUTES > "$T/man-routes"
same "$T/routes" "$T/man-routes" "ROUTES lists verdict.c's routes"

# The commands, exit statuses and files the page must have.
tags COMMANDS | sed 's/ .*//' > "$T/man-cmds"
printf '%s\n' env list run check compare cleanup vm matrix > "$T/cmds"
same "$T/cmds" "$T/man-cmds" "COMMANDS lists every command"
tags 'EXIT STATUS' > "$T/man-exit"
printf '%s\n' 0 1 2 128+N > "$T/exit"
same "$T/exit" "$T/man-exit" "EXIT STATUS lists 0, 1, 2, 128+N"
for f in /run/fsprobe/RUNID/ /run/fsprobe-knobs/ /var/cache/fsprobe/; do
	tags FILES | grep -qxF "$f"; ok $? "FILES lists $f"
done
done_testing
