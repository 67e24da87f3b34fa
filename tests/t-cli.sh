#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-cli.sh - the command line without root: --help comes from the option
# table (every option and command listed), the man page lists the same
# options with the same arguments and the same environment variables, each
# one the code reads, usage errors exit 2 with the "Try" line, bad profiles
# are named with file and line.
. "$srcdir/tests/cli-lib.sh"

"$F" --help > "$T/help"; ok $? "--help exits 0"
for w in env list run check compare cleanup --profile --probe --jobs \
	 --format --output --size --keep --verbose --version; do
	grep -q -- "$w" "$T/help"; ok $? "--help mentions $w"
done
v=$("$F" --version); [ "$v" = "fsprobe $(sed -n 's/^AC_INIT(\[fsprobe\], \[\([^]]*\)\].*/\1/p' "$srcdir/configure.ac")" ]
ok $? "--version prints the configure.ac version ($v)"

# The option and environment lists of --help and of the man page.
M="$builddir/man/fsprobe.8"; [ -f "$M" ] || M="$srcdir/man/fsprobe.8"
sed -n '/^Options:/,/^$/{/^ /p;}' "$T/help" | grep -v '^ \{10\}' |
	sed -e 's/^ *//' -e 's/  .*//' -e 's/,//' > "$T/help-opts"
sed -n '/^\.SH OPTIONS/,/^\.SH /{/^\.TP/{n;p;}}' "$M" |
	sed -e 's/\\-/-/g' -e 's/\\f[BIR]//g' -e 's/^\.BR* //' \
	    -e 's/ ", " / /' -e 's/ =/=/' > "$T/man-opts"
[ -s "$T/help-opts" ] && [ "$(wc -l < "$T/help-opts")" -ge 14 ] &&
	cmp -s "$T/help-opts" "$T/man-opts"
r=$?; ok $r "the man page lists --help's options, same arguments ($(wc -l < "$T/man-opts"))"
[ $r -eq 0 ] || diff "$T/help-opts" "$T/man-opts" | while IFS= read -r l; do diag "$l"; done
# Every "FSPROBE_*" string in the C sources is a variable the code reads
# (getenv directly or through a helper), except in the table that
# documents them (options.c).
grep -rhoE --include='*.c' '"FSPROBE_[A-Z_]+"' "$srcdir/src" "$srcdir/fsprobe" \
	"$srcdir/conformance" --exclude=options.c | tr -d '"' | sort -u > "$T/env-code"
sed -n '/^Environment:/,/^$/p' "$T/help" | grep -o '^  FSPROBE_[A-Z_]*' |
	sed 's/^ *//' | sort > "$T/env-help"
sed -n '/^\.SH ENVIRONMENT/,/^\.SH /{/^\.TP/{n;p;}}' "$M" | sed 's/^\.B //' |
	grep '^FSPROBE_' | sort > "$T/env-man"
[ "$(wc -l < "$T/env-code")" -ge 9 ] && cmp -s "$T/env-code" "$T/env-help" &&
	cmp -s "$T/env-code" "$T/env-man"
r=$?; ok $r "--help and the man page list each FSPROBE_* the code reads ($(wc -l < "$T/env-code"))"
[ $r -eq 0 ] || cat "$T/env-help" "$T/env-man" | sort | diff "$T/env-code" - | while IFS= read -r l; do diag "$l"; done

expect2 "no command" "no command given"
expect2 "unknown command" "unknown command 'frob'" frob
expect2 "unknown option" "Try 'fsprobe --help'" run --frob
expect2 "bad -j" "-j takes a number" run -j 0
expect2 "bad --size" "size takes MiB" run --size 3
expect2 "bad format" "unknown format 'xml'" run -f xml
expect2 "option of another command" "does not apply to 'list'" list --keep
expect2 "check needs DIR" "'check' takes" check
expect2 "unknown probe" "unknown probe 'nope'" run -P nope
# --step-timeout: seconds from 0 (no limit) to 86400, else one line and 2.
for v in x -1 5s 1.5 86401 ""; do
	"$F" check /tmp --step-timeout "$v" > "$T/out" 2> "$T/err"; rc=$?
	first=$(head -n 1 "$T/err")
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] &&
	[ "$first" = "fsprobe: --step-timeout takes seconds from 0 to 86400, not '$v'" ] &&
	[ "$(grep -c . "$T/err")" -eq 2 ] && grep -q "^Try 'fsprobe --help'" "$T/err"
	ok $? "--step-timeout '$v': exit 2 (got $rc), one line saying why, then Try"
done
expect2 "--step-timeout for env" "--step-timeout does not apply to 'env'" env --step-timeout 5
"$F" --help | grep -q -- "--step-timeout=SEC"; ok $? "--help lists --step-timeout=SEC"
expect2 "unknown profile" "did you mean: xfs-default" list -p xfs-defualt

printf 'fs = xfs\nmkfs = mkfs.xfs\nsize = lots\n' > "$T/bad.conf"
expect2 "malformed profile" "bad.conf:3: size 'lots'" list -p "$T/bad.conf"
mkdir "$T/dir"; printf 'fs = xfs\nbogus = 1\n' > "$T/dir/x.conf"
FSPROBE_PROFILE_DIR="$T/dir" "$F" list > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "x.conf:2: unknown key 'bogus'" "$T/err"
ok $? "malformed profile in FSPROBE_PROFILE_DIR named (rc $rc)"

# A newline in an fstests config's name adds no profile key: refused,
# one line with the name shown printable, exit 2.
nl='
'
printf '[a]\nFSTYP=ext4\n' > "$T/c${nl}requires = injected${nl}#"
"$F" list -p "fstests:$T/c${nl}requires = injected${nl}#" > "$T/out" \
	2> "$T/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 2 ] &&
	grep -q "c?requires = injected?#: the config's file name has a control character" "$T/err" &&
	! grep -q injected "$T/out"
ok $? "fstests config named with a newline: refused in one line (rc $rc)"

# list runs no program a profile names: `requires = TOOL:WORD` runs
# TOOL --help only in a run, TOOL looked up on root's path, not PATH.
mkdir "$T/bin"
printf '#!/bin/sh\ntouch "%s/ran"\necho word\n' "$T" > "$T/bin/fsprobe-t-req"
chmod +x "$T/bin/fsprobe-t-req"
printf 'fs = tmpfs\nrequires = fsprobe-t-req:word\n' > "$T/req.conf"
PATH="$T/bin:$PATH" "$F" list -p "$T/req.conf" > "$T/out" 2> "$T/err"; rc=$?
[ $rc -eq 0 ] && [ ! -e "$T/ran" ] &&
	grep -q "^  req .* maybe .*not checked: fsprobe-t-req:word" "$T/out"
ok $? "list -p: requires TOOL:WORD not run, shown as not checked (rc $rc)"
printf 'fs = tmpfs\nrequires = %s/bin/fsprobe-t-req:word\n' "$T" > "$T/req2.conf"
"$F" list -p "$T/req2.conf" > "$T/out" 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$T/ran" ] &&
	grep -q "req2.conf:2: requires '$T/bin/fsprobe-t-req:word': name a tool" "$T/err"
ok $? "list -p: requires naming a path refused, not run (rc $rc)"

"$F" list > "$T/list"; ok $? "list exits 0"
grep -q '^  xfs-default ' "$T/list"; ok $? "list shows xfs-default"
grep -q '^  fault-pmd ' "$T/list"; ok $? "list shows the fault-pmd probe"

# env says where profiles and payloads were found, and from what.
FSPROBE_PROFILE_DIR="$T/dir" FSPROBE_PAYLOAD_DIR="$T/none" "$F" env \
	> "$T/env"; ok $? "env exits 0"
grep -qx "profiles: $T/dir (environment)" "$T/env"
ok $? "env: profiles from FSPROBE_PROFILE_DIR"
grep -qx "payloads: $T/none (environment, missing)" "$T/env"
ok $? "env: payloads from FSPROBE_PAYLOAD_DIR, missing"
env -u FSPROBE_PROFILE_DIR -u FSPROBE_PAYLOAD_DIR "$F" env -f json \
	> "$T/env.json"
ok $? "env -f json without the variables exits 0"
python3 - "$T/env.json" "$srcdir" "$builddir" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile_dir"] == {"path": sys.argv[2] + "/mkfs-profiles",
			    "from": "build-tree", "exists": True}, d["profile_dir"]
assert d["payload_dir"] == {"path": sys.argv[3] + "/conformance/payload",
			    "from": "build-tree", "exists": True}, d["payload_dir"]
assert list(d)[-2:] == ["profile_dir", "payload_dir"], list(d)
EOF2
ok $? "env -f json: the build tree's directories, keys last"
cp "$F" "$T/fsprobe"
env -u FSPROBE_PROFILE_DIR -u FSPROBE_PAYLOAD_DIR "$T/fsprobe" env > "$T/env"
grep -q '^profiles: /.*/fsprobe/profiles (installed' "$T/env" &&
	grep -q '^payloads: /.*/fsprobe (installed' "$T/env"
ok $? "env: a copy outside the build tree uses the installed directories"
WQ=/sys/module/workqueue/parameters/default_affinity_scope
python3 - "$T/env.json" "$WQ" <<'EOF2'
import json, os, sys
k = json.load(open(sys.argv[1]))["knobs"]
wq = sys.argv[2]
kh = "/sys/kernel/mm/transparent_hugepage/khugepaged/"
want = [wq] + [kh + n for n in ("scan_sleep_millisecs",
	"alloc_sleep_millisecs", "pages_to_scan")]
assert list(k) == want, k
for p in want:
	now = open(p).read().strip() if os.path.exists(p) else None
	assert k[p]["value"] == now, (p, k)
	assert k[p]["pending"] in ((True, False) if os.geteuid() == 0 else (None,)), k
EOF2
ok $? "env -f json: the workqueue scope and khugepaged's three knobs, their values now, and whether a killed run's change is pending"
grep -q "^  $WQ " "$T/env"
ok $? "env: the table shows the workqueue scope"

# -o is opened before any work: a path that cannot be written fails at
# once, with one line, exit 2, and no run state made.
mkdir -m 700 "$T/state"
for c in run "check $T" vm; do
	t0=$(date +%s%N)
	FSPROBE_STATE_DIR="$T/state" "$F" $c -o /nonexistent/dir/x \
		> "$T/out" 2> "$T/err"
	rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ $rc -eq 2 ] && [ "$(cat "$T/err")" = "fsprobe: cannot write /nonexistent/dir/x: No such file or directory" ] &&
		[ ! -s "$T/out" ] && [ -z "$(ls -A "$T/state")" ]
	ok $? "${c%% *} -o /nonexistent/dir/x: exit 2 at once ($rc, $ms ms), one line: $(head -c 200 "$T/err"), no run directory"
done
"$F" run -o "$T" > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 2 ] && grep -q "^fsprobe: cannot write $T: Is a directory$" "$T/err"
ok $? "run -o DIR: exit 2, the reason named ($rc: $(head -c 200 "$T/err"))"
# A run that stops before rendering leaves an existing -o file as it was
# and creates none.
echo keep > "$T/old"
FSPROBE_STATE_DIR="$T/state" "$F" run -p nosuch -o "$T/old" > /dev/null 2>&1
FSPROBE_STATE_DIR="$T/state" "$F" run -p nosuch -o "$T/new" > /dev/null 2>&1
rc=$?; [ $rc -eq 2 ] && [ "$(cat "$T/old")" = keep ] && [ ! -e "$T/new" ]
ok $? "run -p nosuch: exit 2 ($rc), an existing -o file untouched, none created"
done_testing
