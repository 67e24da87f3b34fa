#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-report-xml.sh - the JUnit renderer's output, rendered from the fixture
# documents by tests/render, is well-formed XML (xmllint --noout) and has
# the shape Jenkins reads (tests/data/junit.xsd); the schema itself
# rejects a testcase without classname, so it is not vacuous. Also the
# render helper's compare exit status (1: measured regression), and that
# KTAP, JUnit and compare of the two recorded runs are byte for byte what
# the renderers wrote before they read the typed model (tests/data/golden,
# written by the json-c renderers of commit cb78ebe).
. "$srcdir/tests/render-lib.sh"
command -v xmllint >/dev/null 2>&1 || plan_skip_all "xmllint not installed"
XSD="$D/junit.xsd"

# check DESC CMD...: ok if CMD succeeds; its stderr as diagnostics if not.
check() {
	desc=$1; shift
	"$@" > /dev/null 2> "$T/err"; rc=$?
	ok $rc "$desc"
	[ $rc -eq 0 ] || sed 's/^/# /' "$T/err" | head -5
}

# Raw bytes no fixture holds: invalid UTF-8, a surrogate, U+FFFE, C0 codes.
printf '{"fsprobe":"0","kernel":"k\377\300\257","profiles":'\
'[{"name":"p\355\240\200","verdict":"skip",'\
'"reason":"\001\033 \357\277\276 \342\202"}]}\n' > "$T/bytes.json"
cp "$D/run-6.18.json" "$D/run-6.12-rothp.json" "$D/escape.json" "$T/"
for f in run-6.18 run-6.12-rothp escape bytes; do
	"$R" junit "$T/$f.json" > "$T/$f.xml"
	ok $? "render junit $f.json"
	check "$f: well-formed XML" xmllint --noout "$T/$f.xml"
	check "$f: valid against junit.xsd" \
		xmllint --noout --schema "$XSD" "$T/$f.xml"
	"$R" ktap "$T/$f.json" > "$T/$f.ktap"
	ok $? "render ktap $f.json"
done

sed 's/ classname="[^"]*"//' "$T/run-6.18.xml" > "$T/bad.xml"
xmllint --noout --schema "$XSD" "$T/bad.xml" > /dev/null 2>&1
[ $? -ne 0 ]; ok $? "junit.xsd rejects a testcase without classname"

"$R" compare "$D/run-6.12-rothp.json" "$D/run-6.18.json" > "$T/cmp"
[ $? -eq 1 ]; ok $? "compare 6.12 -> 6.18 exits 1 (measured regression)"
"$R" compare "$D/run-6.18.json" "$D/run-6.18.json" > "$T/cmp"
ok $? "compare of a run with itself exits 0"
"$R" compare "$D/run-6.18.json" "$D/junit.xsd" > "$T/cmp" 2> "$T/err"
[ $? -eq 2 ] && grep -q "junit.xsd.*not a JSON document" "$T/err"
ok $? "compare with a non-JSON file exits 2 and names the file"
# golden NAME CMD...: CMD's stdout is tests/data/golden/NAME, byte for byte
# (recorded before the typed model; since then only compare's probe lines
# for a profile one side did not run are gone).
golden() {
	name=$1; shift
	"$@" > "$T/golden" 2> "$T/err"
	cmp -s "$T/golden" "$D/golden/$name"
	ok $? "$name: same bytes as tests/data/golden/$name"
	cmp -s "$T/golden" "$D/golden/$name" ||
		diff "$D/golden/$name" "$T/golden" | head -5 | sed 's/^/# /'
}
for f in run-6.18 run-6.12-rothp; do
	golden $f.ktap "$R" ktap "$D/$f.json"
	golden $f.xml "$R" junit "$D/$f.json"
done
golden compare-6.12-6.18.txt "$R" compare "$D/run-6.12-rothp.json" \
	"$D/run-6.18.json"
golden compare-6.18-6.12.txt "$R" compare "$D/run-6.18.json" \
	"$D/run-6.12-rothp.json"
done_testing
