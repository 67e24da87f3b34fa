# SPDX-License-Identifier: GPL-2.0-or-later
# vm-lib.sh - what every check-vm test (tests/v-*.sh) starts with: TAP,
# the fsprobe binary as F, a temporary directory T removed on exit, a
# whole-file skip without qemu or python3, and sid_kernel, the newest
# sid kernel `fsprobe list --debian` resolves (debian:7.2 offline).
. "$srcdir/tests/tap.sh"
F="$builddir/src/fsprobe"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
command -v qemu-system-x86_64 > /dev/null ||
	plan_skip_all "qemu-system-x86_64 not installed (./bootstrap-deps --vm)"
command -v python3 > /dev/null || plan_skip_all "python3 not installed"

sid_kernel() {
	"$F" list --debian 2>/dev/null |
		awk '$2 == "sid" { k = $3 } END { print k ? k : "debian:7.2" }'
}

# vm_doc RCS ARGS...: fsprobe vm ARGS -f json -o $J, its stderr in
# $T/err (TMPDIR from VM_TMPDIR if set); the time it took as a
# diagnostic, one test that it exited with one of RCS ("0", "0 1"), its
# stderr's tail where not. A run that left no document ends the test.
vm_doc() {
	want=$1; shift
	J="$T/vm.json"
	start=$(date +%s)
	TMPDIR="${VM_TMPDIR:-${TMPDIR:-/tmp}}" "$F" vm "$@" -f json -o "$J" \
		2> "$T/err"
	rc=$?
	diag "fsprobe vm took $(($(date +%s) - start)) s"
	case " $want " in *" $rc "*) good=0 ;; *) good=1 ;; esac
	ok $good "fsprobe vm $* exits $(echo "$want" | sed 's/ / or /g') (got $rc)"
	[ $good -eq 0 ] ||
		tail -n 40 "$T/err" | while IFS= read -r l; do diag "$l"; done
	[ -s "$J" ] || { skip "no document: no verdicts to check"; done_testing; }
}
