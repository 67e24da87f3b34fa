#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-inputs.sh - files a user names are read only when they are regular
# files, and never past a cap: a FIFO, a device or a directory given as a
# profile (-p FILE), an fstests config (-p fstests:PATH) or a compare
# argument is refused with one line and exit 2, without hanging on an
# open or reading /dev/zero until memory runs out; a regular file over
# its cap says so. Every command runs under timeout: a hang is a failure.
. "$srcdir/tests/cli-lib.sh"

DOC="$srcdir/tests/data/run-6.18.json"
mkfifo "$T/fifo.conf" "$T/fifo.json" "$T/fifo.config"
mkdir "$T/dir.conf"
ln -s fifo.conf "$T/link.conf"

# refused DESC PATTERN ARGS...: fsprobe ARGS exits 2 within 20 s, its
# stderr's first line has PATTERN, and the whole message is one line
# (plus the profile hint where there is one).
refused() {
	desc=$1; pat=$2; shift 2
	timeout 20 "$F" "$@" > "$T/out" 2> "$T/err" < /dev/null; rc=$?
	[ $rc -eq 2 ] && head -n 1 "$T/err" | grep -q -- "$pat" &&
		! sed 1d "$T/err" | grep -qv '^Fix the profile'
	ok $? "$desc: exit 2 (got $rc), one line with '$pat'"
	[ $rc -eq 2 ] || diag "$(head -c 300 "$T/err")"
}

NOTREG="not a regular file: name one"
refused "FIFO as a profile" "fifo.conf: $NOTREG" list -p "$T/fifo.conf"
refused "symlink to a FIFO as a profile" "link.conf: $NOTREG" \
	list -p "$T/link.conf"
refused "directory as a profile" "dir.conf: $NOTREG" list -p "$T/dir.conf"
refused "FIFO as an fstests config" "fifo.config: $NOTREG" \
	list -p "fstests:$T/fifo.config"
refused "/dev/zero as an fstests config" "/dev/zero: $NOTREG" \
	list -p fstests:/dev/zero
refused "directory as an fstests config" "$T: $NOTREG" list -p "fstests:$T"
refused "FIFO as compare's old document" "fifo.json: $NOTREG" \
	compare "$T/fifo.json" "$DOC"
refused "FIFO as compare's new document" "fifo.json: $NOTREG" \
	compare "$DOC" "$T/fifo.json"
refused "/dev/zero as a compare document" "/dev/zero: $NOTREG" \
	compare /dev/zero "$DOC"
refused "directory as a compare document" "$T: $NOTREG" compare "$T" "$DOC"

# A FIFO in the profile directory is refused too, by name.
mkdir "$T/pdir"; mkfifo "$T/pdir/x.conf"
FSPROBE_PROFILE_DIR="$T/pdir" timeout 20 "$F" list > /dev/null 2> "$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q "x.conf: $NOTREG" "$T/err"
ok $? "FIFO in FSPROBE_PROFILE_DIR: exit 2 (got $rc), named"

# Regular files over the caps: said, not read whole.
{ echo "fs = ext4"; head -c 70000 /dev/zero | tr '\0' '#'; echo; } \
	> "$T/big.conf"
refused "profile over 64 KiB" "big.conf: larger than 64 KiB" \
	list -p "$T/big.conf"
truncate -s 17M "$T/big.config"
refused "fstests config over 16 MiB" "big.config: larger than 16 MiB" \
	list -p "fstests:$T/big.config"
truncate -s 65M "$T/big.json"
refused "compare document over 64 MiB" "big.json: larger than 64 MiB" \
	compare "$T/big.json" "$DOC"

# What is regular still reads, through a symlink too.
ln -s "$DOC" "$T/doc.json"
timeout 20 "$F" compare "$T/doc.json" "$DOC" > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ]; ok $? "compare of a document (via a symlink) with itself: exit 0 (got $rc)"
printf 'fs = xfs\nmkfs = mkfs.xfs\n' > "$T/good.conf"
timeout 20 "$F" list -p "$T/good.conf" > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ]; ok $? "a regular profile lists: exit 0 (got $rc)"
done_testing
