#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-statedir.sh - a local user cannot make root's `run` or `cleanup` act
# outside the state dir: a state dir below a directory another user owns
# or can write is refused (exit 2, one line naming that directory), also
# while that user swaps a planted run directory in and out of its place;
# a journal naming a path through a symlink or with '..', '.' or an empty
# name is refused entry by entry; a journal too large to be a run's, or
# not a file at all, is left alone unread, and cleanup says so.
. "$srcdir/tests/root-lib.sh"
command -v setpriv > /dev/null || plan_skip_all "needs setpriv"
U=65534
SETPRIV="setpriv --reuid=$U --regid=$U --clear-groups"
asuser() { $SETPRIV "$@"; }

# A directory the user cannot even list, with what it must keep.
chmod 711 "$TMPD"
V="$TMPD/rootonly"
make_victim() {
	mkdir -p -m 700 "$V" "$V/victimdir"
	echo precious > "$V/victimdir/file"
	echo precious > "$V/victimfile"
}
make_victim
victim_intact() {
	[ -f "$V/victimdir/file" ] && [ -f "$V/victimfile" ]
}
# refused_line ERRFILE DIR: exactly one line, naming DIR.
refused_line() {
	[ "$(wc -l < "$1")" -eq 1 ] && grep -q "refused: its parent $2 " "$1"
}

# 1. A state dir whose parent another user owns, or can write.
mkdir -m 755 "$TMPD/u"
chown $U:$U "$TMPD/u"
S="$TMPD/u/state"
mkdir -m 700 "$S"	# root's, as an earlier run made it
FSPROBE_STATE_DIR=$S "$FSPROBE" cleanup > "$TMPD/out" 2> "$TMPD/err"
rc=$?; [ $rc -eq 2 ] && refused_line "$TMPD/err" "$TMPD/u" &&
	grep -q "owned by uid $U" "$TMPD/err"
ok $? "cleanup refuses a state dir whose parent uid $U owns (rc $rc): $(cat "$TMPD/err")"
FSPROBE_STATE_DIR=$S "$FSPROBE" run -p xfs-default > /dev/null 2> "$TMPD/err"
rc=$?; [ $rc -eq 2 ] && refused_line "$TMPD/err" "$TMPD/u"
ok $? "run refuses it the same way (rc $rc): $(cat "$TMPD/err")"
mkdir -m 777 "$TMPD/w"
mkdir -m 700 "$TMPD/w/state"
FSPROBE_STATE_DIR=$TMPD/w/state "$FSPROBE" cleanup > /dev/null 2> "$TMPD/err"
rc=$?; [ $rc -eq 2 ] && refused_line "$TMPD/err" "$TMPD/w" &&
	grep -q "writable by group or others without the sticky bit" "$TMPD/err"
ok $? "a world-writable parent is refused (rc $rc): $(cat "$TMPD/err")"
chmod 1777 "$TMPD/w"
FSPROBE_STATE_DIR=$TMPD/w/state "$FSPROBE" cleanup > /dev/null 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "a sticky one, as /tmp, is not (rc $rc)"
ln -s "$TMPD/w" "$TMPD/wl"
FSPROBE_STATE_DIR=$TMPD/wl/state "$FSPROBE" cleanup > /dev/null 2> "$TMPD/err"
rc=$?; [ $rc -eq 2 ] && refused_line "$TMPD/err" "$TMPD/wl" &&
	grep -q "is a symlink" "$TMPD/err"
ok $? "a symlink above the state dir is refused (rc $rc): $(cat "$TMPD/err")"

# 2. The attack: the user plants a run directory whose journal names
#    RUNID/l/victimdir, l -> the root-only directory, and swaps it with
#    root's state dir (renameat2 RENAME_EXCHANGE) as fast as it can
#    while root cleans up: each path lookup of root's may land in
#    either. Refused outright, the victim stays.
R=1-1-dead
asuser sh -c "mkdir -m 755 '$S.x' '$S.x/$R' && ln -s '$V' '$S.x/$R/l' &&
	: > '$S.x/$R/lock' &&
	printf 'dir\t%s\t\nimage\t%s\t\n' '$S/$R/l/victimdir' \
		'$S/$R/l/victimfile' > '$S.x/$R/journal'"
ok $? "uid $U planted a run directory with a journal naming $S/$R/l/victimdir"
# The system's python: a python of root's own (pyenv) may be closed to U.
# Started directly, not through asuser: $! is then the swapper itself
# (setpriv execs it), which the kill below must reach; its output goes
# nowhere, so that it could never hold the test's output open.
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
$SETPRIV "$PY" -c '
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
while True:
    libc.renameat2(-100, a, -100, b, 2)	# AT_FDCWD, RENAME_EXCHANGE
' "$S" "$S.x" > /dev/null 2>&1 & swapper=$!
sleep 0.5
kill -0 $swapper 2>/dev/null; ok $? "uid $U swaps $S and $S.x as fast as it can"
bad=0 n=0
while [ $n -lt 200 ] && victim_intact; do
	FSPROBE_STATE_DIR=$S "$FSPROBE" cleanup > /dev/null 2>&1
	[ $? -eq 2 ] || bad=$((bad + 1))
	n=$((n + 1))
done
FSPROBE_STATE_DIR=$S "$FSPROBE" run -p xfs-default > /dev/null 2>&1
rc=$?
kill $swapper; wait $swapper 2>/dev/null
victim_intact; ok $? "the root-only directory survives $n cleanups and a run under the swap"
[ $bad -eq 0 ] && [ $rc -eq 2 ]
ok $? "each refused with exit 2 ($bad cleanups did not; run: rc $rc)"

# 3. Root's own state dir is fine, but a dead run's journal names paths
#    through a symlink inside the run directory, or with '..', '.' or
#    an empty name: each entry is refused and counted not ours; the one
#    plain entry is removed, without following the symlink in it.
make_victim	# whatever section 2 did to it
D="$FSPROBE_STATE_DIR/$R"
mkdir -m 700 "$FSPROBE_STATE_DIR" "$D" "$D/sub" "$FSPROBE_STATE_DIR/.keep"
echo keep > "$FSPROBE_STATE_DIR/.keep/file"
ln -s "$V" "$D/l"
ln -s "$V" "$D/sub/link"
: > "$D/lock"
# Replayed backwards: the symlinked entries first, so that what the
# others would do cannot hide what they do.
{
	printf 'dir\t%s\t\n' "$D/sub"
	printf 'dir\t%s\t\n' "$D/.."
	printf 'image\t%s\t\n' "$D/sub/x/.."
	printf 'dir\t%s\t\n' "$D/sub/."
	printf 'dir\t%s\t\n' "$D//sub"
	printf 'image\t%s\t\n' "$D/l/victimfile"
	printf 'dir\t%s\t\n' "$D/l/victimdir"
} > "$D/journal"
"$FSPROBE" cleanup > "$TMPD/out" 2>&1; rc=$?
[ $rc -eq 0 ]; ok $? "cleanup of the hostile journal exits 0 (rc $rc): $(cat "$TMPD/out")"
victim_intact; ok $? "nothing through the symlinked component was removed"
[ -f "$FSPROBE_STATE_DIR/.keep/file" ]
ok $? "nothing through '..' was removed (the state dir's .keep/file)"
grep -q "6 entries not ours left alone" "$TMPD/out"
ok $? "the six entries are counted not ours"
grep -q "1 file(s)/dir(s) removed" "$TMPD/out" && [ ! -e "$D" ]
ok $? "the plain entry and the run directory are removed"
rm -rf "$FSPROBE_STATE_DIR/.keep"

# 4. A journal of 64 MiB (sparse; past the 16 MiB cap), or a FIFO as
#    journal and as lock: not read whole, never waited on; left alone
#    and said, exit 2.
mkdir -m 700 "$D"
: > "$D/lock"
truncate -s 64M "$D/journal"
mkdir -m 700 "$FSPROBE_STATE_DIR/2-2-dead"
mkfifo -m 600 "$FSPROBE_STATE_DIR/2-2-dead/journal" \
	"$FSPROBE_STATE_DIR/2-2-dead/lock"
timeout 20 "$FSPROBE" cleanup > "$TMPD/out" 2> "$TMPD/err"; rc=$?
[ $rc -eq 2 ] && grep -q "left 2 run(s) alone" "$TMPD/err" &&
	grep -q "journal" "$TMPD/err"
ok $? "cleanup leaves a huge and a FIFO journal unread, and says so (rc $rc): $(cat "$TMPD/err")"
[ -e "$D/journal" ] && [ -p "$FSPROBE_STATE_DIR/2-2-dead/journal" ]
ok $? "their run directories are kept"
rm -rf "$D" "$FSPROBE_STATE_DIR/2-2-dead"
"$FSPROBE" cleanup > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ]; ok $? "then cleanup has nothing left (rc $rc)"
check_no_leaks
done_testing
