#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-profile-confined.sh - a profile's mkfs and FUSE server run in the
# profile's own run directory: a bare file name among their words
# (`truncate -s 0 fakedisk {image}`) is that directory's file, never one
# in the cwd fsprobe was started from, and goes with the run. A path is
# refused by the parser (t-profile); this is what is left, a name
# without one.
. "$srcdir/tests/root-lib.sh"
P="$TMPD/profiles"; mkdir "$P" "$TMPD/cwd"
printf 'fs = ext4\nmkfs = truncate -s 0 fakedisk {image}\n' > "$P/trunc.conf"
echo "not to be touched" > "$TMPD/cwd/fakedisk"
(cd "$TMPD/cwd" && FSPROBE_PROFILE_DIR="$P" "$FSPROBE" run -p trunc -f json \
	-o "$TMPD/out.json" > /dev/null 2> "$TMPD/err"); rc=$?
[ $rc -eq 1 ]; ok $? "run exits 1: the image was truncated, nothing to mount (got $rc)"
[ "$(cat "$TMPD/cwd/fakedisk")" = "not to be touched" ]
ok $? "the cwd's fakedisk is untouched"
[ "$(ls -A "$TMPD/cwd")" = fakedisk ]; ok $? "nothing else made in the cwd"
json_assert "$TMPD/out.json" "p['trunc']['verdict'] == 'error'" \
	"the profile's verdict is error"

# The server: a wrapper (its program may be an absolute path) that
# touches the name it is given, says where it ran, then serves.
SRV="$builddir/tests/fuse-srv"
if [ -x "$SRV" ] && [ -c /dev/fuse ]; then
	printf '#!/bin/sh\npwd > "%s/srv-cwd"\ntouch "$1"; shift\nexec "%s" "$@"\n' \
		"$TMPD" "$SRV" > "$TMPD/srv-wrap"
	chmod 755 "$TMPD/srv-wrap"
	printf 'fs = fuse.fsprobe-test\nmkfs = mkfs.ext4 -F -q {image}\nsize = 16\nserver = %s marker -f {mnt}\n' \
		"$TMPD/srv-wrap" > "$P/srv.conf"
	(cd "$TMPD/cwd" && FSPROBE_PROFILE_DIR="$P" "$FSPROBE" run -p srv \
		-P fault-pmd > /dev/null 2> "$TMPD/err")
	case $(cat "$TMPD/srv-cwd" 2>/dev/null) in
	"$FSPROBE_STATE_DIR"/*) r=0 ;; *) r=1 ;; esac
	ok $r "the server ran in the run's directory ($(cat "$TMPD/srv-cwd" 2>/dev/null))"
	[ ! -e "$TMPD/cwd/marker" ]; ok $? "the server's bare name made nothing in the cwd"
else
	skip "tests/fuse-srv not built or no /dev/fuse"
	skip "tests/fuse-srv not built or no /dev/fuse"
fi
check_no_leaks
done_testing
