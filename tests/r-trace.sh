#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-trace.sh - runs tests/r-trace (tracefs instance + pagemap walk on a
# cold file) on real xfs and btrfs loop filesystems, each mounted in a
# private mount namespace so that nothing can outlive the test. btrfs is
# there for its anonymous st_dev, which differs from the s_dev the
# tracepoint records. The TAP of the runs is merged and renumbered.
. "$srcdir/tests/root-lib.sh"
command -v unshare > /dev/null || plan_skip_all "unshare (util-linux) missing"
n=0
for fs in xfs btrfs; do
	img="$FSPROBE_STATE_DIR.$fs.img"
	mnt="$TMPD/mnt-$fs"
	mkdir -p "$mnt"
	truncate -s 512M "$img"
	"mkfs.$fs" -f -q "$img" > "$TMPD/mkfs.log" 2>&1 ||
		{ n=$((n + 1)); echo "not ok $n - mkfs.$fs: $(cat "$TMPD/mkfs.log")"; rm -f "$img"; continue; }
	# Private mounts; in a chroot whose root is no mount point "/"
	# cannot be made private, so each visible mount is (as fsprobe does).
	unshare -m --propagation unchanged sh -c '
		mount --make-rprivate / 2>/dev/null ||
			awk "{ print \$5 }" /proc/self/mountinfo |
			while read -r m; do mount --make-private "$m"; done
		mount -o loop "$1" "$2" || exit 99
		FSP_TEST_DIR="$2" "$3"
		rc=$?
		umount "$2"
		exit $rc' sh "$img" "$mnt" "$builddir/tests/r-trace" > "$TMPD/out" 2>&1
	rc=$?
	rm -f "$img"
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			pre=${line%%ok *}ok; rest=${line#"$pre" }; rest=${rest#* }
			echo "$pre $n - $fs: ${rest#- }" ;;
		"1..0"*) n=$((n + 1)); echo "ok $n # SKIP $fs: ${line#*SKIP }" ;;
		"1.."*) ;;
		*) echo "$line" ;;
		esac
	done < "$TMPD/out"
	n=$((n + 1))
	[ $rc -eq 0 ]; st=$?
	[ $st -eq 0 ] && echo "ok $n - $fs: r-trace exited 0" ||
		echo "not ok $n - $fs: r-trace exited $rc"
done
tap_n=$n
check_no_leaks
done_testing
