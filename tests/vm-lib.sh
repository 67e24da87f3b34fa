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
