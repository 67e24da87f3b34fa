# SPDX-License-Identifier: GPL-2.0-or-later
# render-lib.sh - what the renderer tests without root (t-kcidb,
# t-report-xml, t-html) start with: TAP, the render helper as R
# (RENDER overrides it), the fixtures' directory D, and a temporary
# directory T removed on exit.
. "$srcdir/tests/tap.sh"
R=${RENDER:-$builddir/tests/render}
D="$srcdir/tests/data"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
