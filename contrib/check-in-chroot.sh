#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-in-chroot.sh: what CI runs (.ci/run), after the README's first
# command, on a freshly debootstrapped Debian bookworm system as a standard
# installation has it: /run is a tmpfs (fsprobe's state directory, its
# slot images and its knob journal live there), the sources a fresh
# installation writes (bookworm, bookworm-updates and, where the host has
# one, bookworm-security), nothing but what debootstrap and
# ./bootstrap-deps install. The host kernel is shared, so this tests the
# user space side of a fresh machine: packages, paths, /run on tmpfs, a
# root that is no mount point. Each step's exit status and time end the
# output, with the test suites' summaries from the log.
#
# Usage: sudo contrib/check-in-chroot.sh [--mirror URI] [DIR]
#   DIR       the system (default /var/tmp/fsprobe-chroot); one that already
#             holds a system is reused (delete it for a fresh one)
#   --mirror  the Debian mirror (default: FSPROBE_MIRROR, else the first
#             entry of the host's apt sources, sources.list, *.list or
#             deb822 *.sources, whose suite is a Debian release)
# Needs: debootstrap, network access to the mirror, about 25 minutes.
# Run it under the lock the root tests take if other root tests may run:
#   flock /tmp/fsprobe-root.lock contrib/check-in-chroot.sh
set -eu

say() { echo "check-in-chroot: $*" >&2; }

MIRROR=${FSPROBE_MIRROR:-}
ROOT=
while [ $# -gt 0 ]; do
	case $1 in
	--mirror) [ $# -ge 2 ] || { say "--mirror needs a URI"; exit 2; }
		MIRROR=$2; shift 2 ;;
	--mirror=*) MIRROR=${1#--mirror=}; shift ;;
	-*) say "unknown option '$1' (known: --mirror URI)"; exit 2 ;;
	*) [ -z "$ROOT" ] || { say "one DIR only"; exit 2; }
		ROOT=$1; shift ;;
	esac
done
ROOT=${ROOT:-/var/tmp/fsprobe-chroot}
SRC=$(cd "$(dirname "$0")/.." && pwd)

# The host's apt entries as "URI SUITE" lines: one-line "deb [opts] URI
# SUITE COMP..." and deb822 stanzas (Types: deb, URIs:, Suites:).
host_entries() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
			awk '$1 == "deb" && NF >= 3 { print $2, $3 }'
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk 'function flush() {
			if (deb && (en == "" || en ~ /^(yes|true)$/))
				for (u = 1; u <= nu; u++)
					for (s = 1; s <= ns; s++)
						print uri[u], suite[s]
			deb = nu = ns = 0; en = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		tolower($1) == "types:" { for (i = 2; i <= NF; i++)
			if ($i == "deb") deb = 1 }
		tolower($1) == "uris:" { for (i = 2; i <= NF; i++) uri[++nu] = $i }
		tolower($1) == "suites:" { for (i = 2; i <= NF; i++)
			suite[++ns] = $i }
		tolower($1) == "enabled:" { en = tolower($2) }
		END { flush() }' "$f"
	done
}

# The first host URI serving a Debian release (SUFFIX "" or "-security").
host_mirror() {
	host_entries | awk -v sfx="$1" '
		BEGIN { n = split("buster bullseye bookworm trixie forky " \
			"duke sid oldoldstable oldstable stable testing " \
			"unstable", r, " ")
			for (i = 1; i <= n; i++) rel[r[i] sfx] = 1 }
		($1 ~ /^(https?|ftp|file):/) && ($2 in rel) {
			sub(/\/+$/, "", $1); print $1; exit }'
}

if [ "$(id -u)" != 0 ]; then
	say "must be run as root (it mounts /proc, /sys, /dev and a tmpfs /run in $ROOT)"
	exit 2
fi
if [ -z "$MIRROR" ]; then
	MIRROR=$(host_mirror "")
	[ -n "$MIRROR" ] || {
		say "no Debian mirror in the host's apt sources: give --mirror URI"
		exit 2
	}
fi
SECURITY=$(host_mirror -security)
if [ ! -x "$ROOT/bin/sh" ]; then
	command -v debootstrap >/dev/null 2>&1 || {
		say "debootstrap missing: apt-get install debootstrap"
		exit 2
	}
	say "debootstrap bookworm into $ROOT from $MIRROR"
	debootstrap --include=ca-certificates bookworm "$ROOT" "$MIRROR"
fi
# As the installer writes them (debootstrap writes the first line only).
{
	echo "deb $MIRROR bookworm main"
	echo "deb $MIRROR bookworm-updates main"
	[ -z "$SECURITY" ] || echo "deb $SECURITY bookworm-security main"
} > "$ROOT/etc/apt/sources.list"

# Mounts this script made, undone in reverse order on every exit.
MOUNTED=
undo() {
	for m in $MOUNTED; do
		umount -R "$m" 2>/dev/null || umount -lR "$m" || true
	done
}
trap undo EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bind() {		# bind TYPE-or-rbind SOURCE TARGET
	if [ "$1" = rbind ]; then
		mount --rbind "$2" "$3"
		mount --make-rslave "$3"
	else
		mount -t "$1" -o "${4:-defaults}" "$2" "$3"
	fi
	MOUNTED="$3 $MOUNTED"
}

bind proc proc "$ROOT/proc"
bind rbind /sys "$ROOT/sys"
bind rbind /dev "$ROOT/dev"
# As on every standard Debian installation: /run is a tmpfs, with the
# /run/lock that systemd-tmpfiles makes at boot.
bind tmpfs tmpfs "$ROOT/run" mode=755,nosuid,nodev
mkdir -m 1777 "$ROOT/run/lock"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"

rm -rf "$ROOT/root/fsprobe"
git clone -q "$SRC" "$ROOT/root/fsprobe"
say "fresh clone of $(git -C "$ROOT/root/fsprobe" rev-parse --short HEAD)" \
	"in $ROOT/root/fsprobe; /run is $(chroot "$ROOT" findmnt -n -o FSTYPE /run)"

# step NAME COMMAND: run COMMAND as root in the chroot's clone, timed.
summary=
rc=0
step() {
	t0=$(date +%s)
	say "== $1: $2"
	s=0
	chroot "$ROOT" /bin/sh -c "cd /root/fsprobe && $2" || s=$?
	summary="$summary
check-in-chroot: $1: exit $s in $(( $(date +%s) - t0 )) s"
	[ $s -eq 0 ] || rc=1
}
# The README's first command (deps, build, the default matrix), then
# CI's whole run from a clean tree.
step quickstart ./fsprobe-quickstart
step .ci/run 'git clean -xdfq && .ci/run'
echo "$summary" >&2
[ $rc -eq 0 ] && say "PASS: .ci/run and the quickstart in a fresh bookworm" ||
	say "FAIL (see above)"
exit $rc
