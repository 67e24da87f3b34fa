# SPDX-License-Identifier: GPL-2.0-or-later
# cli-lib.sh - what the command-line tests without root (t-cli, t-vm,
# t-matrix) start with: TAP, the fsprobe binary as F, a temporary
# directory T removed on exit, and expect2, a usage error's check.
. "$srcdir/tests/tap.sh"
F="$builddir/src/fsprobe"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# expect2 DESC PATTERN ARGS...: fsprobe ARGS exits 2 and its stderr
# has PATTERN (its stdout in $T/out, its stderr in $T/err).
expect2() {
	desc=$1; pat=$2; shift 2
	"$F" "$@" > "$T/out" 2> "$T/err"; rc=$?
	[ $rc -eq 2 ] && grep -q -- "$pat" "$T/err"
	ok $? "$desc: exit 2 (got $rc), stderr has '$pat'"
}
