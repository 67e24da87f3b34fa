# SPDX-License-Identifier: GPL-2.0-or-later
# cli-lib.sh - what the command-line tests without root (t-cli, t-vm,
# t-matrix) start with: TAP, the fsprobe binary as F, a temporary
# directory T removed on exit, expect2, a usage error's check, and mkbz,
# a fake kernel image for the vm and matrix tests.
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

# mkbz PATH RELEASE: a file with a bzImage setup header naming RELEASE,
# all that fsprobe's kernel image checks look at (needs python3).
mkbz() {
	python3 - "$1" "$2" <<'EOF'
import sys
b = bytearray(4096)
b[0x202:0x206] = b"HdrS"
b[0x20e:0x210] = (0x400 - 0x200).to_bytes(2, "little")
v = sys.argv[2].encode() + b" (nobody@nowhere) #1\0"
b[0x400:0x400 + len(v)] = v
open(sys.argv[1], "wb").write(b)
EOF
}
