# SPDX-License-Identifier: GPL-2.0-or-later
# fuse-lib.sh - sourced after root-lib.sh by the root tests that serve a
# FUSE filesystem themselves (tests/fuse-srv): the skips when it cannot
# run, its mount point MNT and the server's pid, mounted and start_srv.
SRV="$builddir/tests/fuse-srv"
[ -x "$SRV" ] || plan_skip_all "tests/fuse-srv not built"
[ -c /dev/fuse ] || plan_skip_all "no /dev/fuse"
grep -qw fuse /proc/filesystems || plan_skip_all "fuse is not in this kernel"
MNT="$TMPD/mnt"
mkdir "$MNT"
srv_pid=

mounted() { grep -q " $MNT [^ ]* [^-]*- fuse.fsprobe-test " /proc/self/mountinfo; }

# start_srv [OPTIONS]: serve MNT; 0 once it is mounted.
start_srv() {
	"$SRV" "$@" "$MNT" 2>> "$TMPD/srv.log" &
	srv_pid=$!
	for _ in $(seq 50); do
		mounted && return 0
		kill -0 "$srv_pid" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}
