#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-html.sh - the -f html page in a real browser, no root: recorded
# documents (a default run's profiles from 6.18, the older fixture with a
# failed probe, hostile text, and a vm document made from the first) are
# rendered by tests/render with fsprobe's renderer and loaded in headless
# chromium. Checked: no console message (script error, CSP refusal of
# anything the page tried to fetch); the DOM has a verdict cell per
# profile holding its name and verdict as the JSON has them (so escaping
# kept hostile names intact and made no element of them); every SVG
# histogram has one bar per order the evidence observed, with its count;
# and a screenshot at 1280 px is not blank. A matrix document's page too:
# its grid of profiles x kernels and the links into each kernel's part.
# Skipped only without a browser.
. "$srcdir/tests/render-lib.sh"
B=
for c in ${CHROMIUM:-} chromium chromium-browser google-chrome; do
	command -v "$c" >/dev/null 2>&1 && { B=$c; break; }
done
[ -n "$B" ] || plan_skip_all "no chromium found (./bootstrap-deps installs it)"

browser() { # browser LOG ARGS...: headless, its own profile, logs to LOG
	log=$1; shift
	timeout 120 "$B" --headless --disable-gpu --no-sandbox \
		--disable-dev-shm-usage --user-data-dir="$T/profile" \
		--enable-logging=stderr --v=0 "$@" 2> "$log"
}

python3 - "$D/run-6.18-default.json" "$T/vm.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["vm"] = {"kernel_image": "/boot/vmlinuz-7.2.0 <test>", "deb": None,
           "initramfs": "/var/cache/fsprobe/initrd", "accel": "kvm",
           "memory": "2G", "qemu_ms": 61234, "guest_exit": 0}
json.dump(d, open(sys.argv[2], "w"))
EOF
cp "$D/run-6.18-default.json" "$D/run-6.18.json" "$D/escape.json" "$T/"

for f in run-6.18-default run-6.18 escape vm; do
	"$R" html "$T/$f.json" > "$T/$f.html"
	ok $? "render html $f.json"
	sed 's|xmlns="http://www.w3.org/2000/svg"||g' "$T/$f.html" |
		grep -Eiq '<(script|link|img|iframe)|src=|url\(|@import|//[a-z]'
	[ $? -eq 1 ]
	ok $? "$f: self-contained (no script, link, src, url() or import)"
	browser "$T/$f.log" --dump-dom "file://$T/$f.html" > "$T/$f.dom"
	ok $? "$f: chromium loads the page and dumps the DOM"
	! grep -E ':CONSOLE|Uncaught' "$T/$f.log" > "$T/$f.console"
	ok $? "$f: no console message"
	[ -s "$T/$f.console" ] && sed 's/^/# /' "$T/$f.console" | head -5
	python3 - "$T/$f.json" "$T/$f.dom" > "$T/$f.tap" <<'EOF'
import html.parser, json, re, sys
doc = json.load(open(sys.argv[1]))
dom = open(sys.argv[2], encoding="utf-8").read()

class Page(html.parser.HTMLParser):
    """Verdict cells, SVG bars by figure, elements seen."""
    def __init__(self):
        super().__init__()
        self.cells, self.figs, self.tags = [], [], set()
        self.cell = self.fig = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        if tag == "td" and a.get("class") == "verdict":
            self.cell = [a.get("data-profile"), ""]
        elif tag == "section" and a.get("class") == "profile":
            self.section = a["id"]
        elif tag == "figure":
            self.fig = {"what": a.get("class"), "bars": {},
                        "section": self.section, "svg": 0}
        elif tag == "svg" and self.fig is not None:
            self.fig["svg"] += 1
        elif tag == "rect" and self.fig is not None and \
                "bar" in a.get("class", "").split():
            self.fig["bars"][int(a["data-order"])] = int(a["data-count"])
    def handle_endtag(self, tag):
        if tag == "td" and self.cell:
            self.cells.append(tuple(self.cell))
            self.cell = None
        elif tag == "figure" and self.fig is not None:
            self.figs.append(self.fig)
            self.fig = None
    def handle_data(self, data):
        if self.cell:
            self.cell[1] += data

p = Page()
p.feed(dom)
n = 0
def ok(cond, desc):
    global n
    n += 1
    print(("ok %d - " if cond else "not ok %d - ") % n + desc)

def hist(v):
    """The evidence's histogram: "0:512 9:4" or {"0": 3}; {} if none."""
    if isinstance(v, dict):
        return {int(k): c for k, c in v.items() if c}
    if isinstance(v, str):
        return {int(o): int(c) for o, c in re.findall(r"(\d+):(\d+)", v)}
    return {}

def expect(prof, what):
    keys = {"read": [("read-order", "read_orders_trace"),
                     ("read-order", "read_orders_pagemap"),
                     ("read-order", "orders")],
            "fault": [("fault-pmd", "folio_orders"),
                      ("read-order", "fault_hint_orders_trace"),
                      ("read-order", "fault_hint_orders_pagemap")]}[what]
    probes = {x["name"]: x for x in prof.get("probes") or []
              if x["result"] != "error"}
    for probe, key in keys:
        h = hist(((probes.get(probe) or {}).get("evidence") or {}).get(key))
        if h:
            return h
    return {}

profs = doc["profiles"]
want = [(x["name"], x["verdict"]) for x in profs]
ok(p.cells == want, "a verdict cell per profile with its name and "
   "verdict (%d cells, %d profiles)" % (len(p.cells), len(want)))
if p.cells != want:
    print("# got  %r\n# want %r" % (p.cells[:4], want[:4]))
ok(not p.tags & {"script", "iframe", "img", "link", "object"},
   "no element made of the document's text (%s)" % sorted(p.tags)[:12])
ok(doc["kernel"] in dom.replace("&lt;", "<").replace("&gt;", ">")
   .replace("&amp;", "&").replace("&quot;", '"'),
   "the kernel string appears as text: %r" % doc["kernel"])
bars = svgs = 0
for i, prof in enumerate(profs):
    for what in ("read", "fault"):
        figs = [f for f in p.figs if f["section"] == "p%d" % i and
                f["what"] == what]
        h = expect(prof, what)
        if not prof.get("probes"):
            ok(not figs, "%s: no %s figure without probes" %
               (prof["name"], what))
            continue
        got = figs[0]["bars"] if figs else None
        ok(got == h and (not h or figs[0]["svg"] == 1),
           "%s: %s histogram has a bar per observed order %s" %
           (prof["name"], what, sorted(h.items())))
        if got != h:
            print("# got %r" % got)
        bars += len(h)
        svgs += bool(h)
print("# %d histograms, %d bars" % (svgs, bars))
if "run-6.18-default" in sys.argv[1]:
    ok(svgs == 10 and bars == 20, "the default run has 10 histograms with "
       "20 bars (got %d, %d)" % (svgs, bars))
if "vm" in doc:
    ok("/boot/vmlinuz-7.2.0 &lt;test&gt;" in dom and "kvm" in dom,
       "the vm's kernel image and accelerator in the environment")
print("1..%d" % n)
EOF
	r=$?
	grep -c '^ok' "$T/$f.tap" > "$T/n.ok"
	! grep -q '^not ok' "$T/$f.tap" && [ $r -eq 0 ] &&
		[ "$(cat "$T/n.ok")" -ge 3 ]
	ok $? "$f: DOM checks ($(cat "$T/n.ok") passed)"
	grep -E '^(not ok|#)' "$T/$f.tap" | sed 's/^#*/#/' | head -8
done

# A matrix document (three kernels): the grid, a cell per profile and
# kernel with the verdict of that kernel's document, each linking to a
# profile section the page has; then each kernel's own verdict table.
cp "$D/matrix-a.json" "$T/"
"$R" html "$T/matrix-a.json" > "$T/matrix-a.html"
ok $? "render html matrix-a.json"
browser "$T/matrix-a.log" --dump-dom "file://$T/matrix-a.html" > "$T/matrix-a.dom"
ok $? "matrix: chromium loads the page and dumps the DOM"
! grep -E ':CONSOLE|Uncaught' "$T/matrix-a.log" > /dev/null
ok $? "matrix: no console message"
python3 - "$T/matrix-a.json" "$T/matrix-a.dom" <<'EOF2'
import html.parser, json, sys
m = json.load(open(sys.argv[1]))
dom = open(sys.argv[2], encoding="utf-8").read()

class Grid(html.parser.HTMLParser):
    """Rows of table#matrix (profile, cell texts, links), ids, verdicts."""
    def __init__(self):
        super().__init__()
        self.rows, self.ids, self.vcells = [], set(), 0
        self.grid = self.cell = self.link = False
        self.row = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "table" and a.get("id") == "matrix":
            self.grid = True
        elif self.grid and tag == "tr":
            self.row = {"cells": [], "links": []}
        elif self.grid and tag == "td" and self.row is not None:
            self.row["cells"].append("")
            self.cell = True
        elif self.grid and tag == "a" and self.cell:
            self.row["links"].append(a.get("href", "")[1:])
            self.row["cells"][-1] = ""
            self.link = True
        elif tag == "td" and a.get("class") == "verdict":
            self.vcells += 1
    def handle_endtag(self, tag):
        if tag == "table" and self.grid:
            self.grid = False
        elif tag == "a":
            self.link = False
        elif tag == "td":
            self.cell = False
        elif tag == "tr" and self.row and self.row["cells"]:
            self.rows.append(self.row)
            self.row = None
    def handle_data(self, data):
        # A cell's verdict is its link's text (routes and size follow).
        if self.cell and self.row is not None and \
                (self.link or not self.row["links"]):
            self.row["cells"][-1] += data

g = Grid()
g.feed(dom)
names = []
for k in m["kernels"]:
    names += [p["name"] for p in k["profiles"] if p["name"] not in names]
want = [[p] + [next((x["verdict"] for x in k["profiles"]
                     if x["name"] == p), "") for k in m["kernels"]]
        for p in names]
got = [r["cells"] for r in g.rows]
assert got == want, (got, want)
links = [l for r in g.rows for l in r["links"]]
assert links and all(l in g.ids for l in links), \
    [l for l in links if l not in g.ids]
total = sum(len(k["profiles"]) for k in m["kernels"])
assert g.vcells == total, (g.vcells, total)
print("# %d rows x %d kernels, %d links, %d verdict cells" %
      (len(g.rows), len(m["kernels"]), len(links), g.vcells))
EOF2
ok $? "matrix: the grid has a row per profile and the verdict of each kernel's document in its cell, every cell links to a section of the page, and each kernel's verdict table is there"

# The screenshot at 1280 px: a PNG with colour, not a blank page.
browser "$T/shot.log" --screenshot="$T/shot.png" --window-size=1280,1400 \
	--hide-scrollbars "file://$T/run-6.18-default.html" > /dev/null
ok $? "chromium takes a screenshot at 1280x1400"
python3 - "$T/shot.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4}[ctype]
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, ink = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else
                                  b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 2):
        px = bytes(line[x:x + 3])
        colours.add(px)
        ink += px != b"\xff\xff\xff"
    prev = line
share = ink / (w * h / 2)
print("# %dx%d, %d colours, %.0f%% not white" % (w, h, len(colours),
                                                  100 * share))
sys.exit(0 if w == 1280 and len(colours) > 50 and share > 0.05 else 1)
EOF
ok $? "the screenshot is 1280 px wide, has colour and is not blank"
[ -n "${FSP_KEEP_SCREENSHOT:-}" ] && cp "$T/shot.png" "$FSP_KEEP_SCREENSHOT"
done_testing
