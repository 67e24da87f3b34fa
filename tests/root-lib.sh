# SPDX-License-Identifier: GPL-2.0-or-later
# root-lib.sh - sourced by the r-* tests: TAP helpers, a private state
# directory per test, and the leak check every root test ends with.
. "$srcdir/tests/tap.sh"
FSPROBE="$builddir/src/fsprobe"
[ "$(id -u)" -eq 0 ] || plan_skip_all "needs root (loop devices, mounts)"
[ -x "$FSPROBE" ] || plan_skip_all "src/fsprobe not built"
TEST_NAME=$(basename "$0" .sh)
# One base per build tree: two make checks at once never see each other.
TEST_BASE=/run/fsprobe-test/$(printf %s "$builddir" | cksum | cut -d' ' -f1)
FSPROBE_STATE_DIR=$TEST_BASE/$TEST_NAME.$$
export FSPROBE_STATE_DIR
mkdir -p -m 700 /run/fsprobe-test "$TEST_BASE"
TMPD=$(mktemp -d "/tmp/fsprobe-$TEST_NAME.XXXXXX")
# remove_test_dirs: the EXIT trap's work; a test with a trap of its own
# ends it with this (after `fsprobe cleanup` where it wants that too).
remove_test_dirs() {
	rm -rf "$TMPD"
	rmdir "$FSPROBE_STATE_DIR" "$TEST_BASE" /run/fsprobe-test 2>/dev/null
	true
}
trap remove_test_dirs EXIT

# Loop devices bound to a file under DIR, one "DEV FILE" a line: by the
# backing file's device number (losetup's BACK-MAJ:MIN, from the kernel)
# and its path from that filesystem's root. Not by the path alone: once
# the mount namespace a file was opened in is gone (a killed run's), a
# file on a tmpfs shows as /path/from/the/tmpfs/root, and "(deleted)"
# when its directory was removed.
loops_under() {
	[ -d "$TEST_BASE" ] || return 0
	fsdev=$(stat -c '%Hd:%Ld' "$TEST_BASE") || return 0
	mnt=$(stat -c %m "$TEST_BASE")
	rel=$1; [ "$mnt" = / ] || rel=${1#"$mnt"}
	losetup -ln -O NAME,BACK-MAJ:MIN,BACK-FILE 2>/dev/null |
	while read -r name majmin back; do
		[ "$majmin" = "$fsdev" ] || continue
		back=${back% (deleted)}
		case $back in "$1"/*|"$rel"/*) echo "$name $back" ;; esac
	done
}

# ok if nothing of this test's state survives: loop devices backed by a
# file in its state dir, mounts from it, or run directories.
check_no_leaks() {
	loops=$(loops_under "$FSPROBE_STATE_DIR")
	[ -z "$loops" ]; ok $? "no loop device backed by our state dir${loops:+: $loops}"
	mnts=$(grep -F "$FSPROBE_STATE_DIR" /proc/self/mountinfo || true)
	[ -z "$mnts" ]; ok $? "no mount of ours${mnts:+: $mnts}"
	left=$(ls -A "$FSPROBE_STATE_DIR" 2>/dev/null || true)
	[ -z "$left" ]; ok $? "no run directory left${left:+: $left}"
}
