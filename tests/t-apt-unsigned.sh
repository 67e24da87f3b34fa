#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-apt-unsigned.sh - `vm -k debian:VERSION` refuses what apt cannot
# verify. A local file: repository made here (dpkg-deb, dpkg-scanpackages
# and a Release file with its hashes, unsigned) carries a package named
# as sid's kernel; apt with trusted=yes takes it (so the repository is
# sound and only its signature is missing), and fsprobe, pointed at it
# with FSPROBE_MIRROR, must stop at apt-get update with exit 2 and one
# line saying apt refused what it could not verify, nothing downloaded.
# Also: lists and records fetched under an old trusted=yes list are
# dropped, and a missing keyring is one line naming the package (in a
# user and mount namespace where the keyring directory is empty, when
# unshare is allowed). No network, no root.
. "$srcdir/tests/cli-lib.sh"
for c in apt-get dpkg-deb dpkg-scanpackages sha256sum; do
	command -v $c > /dev/null || plan_skip_all "$c not installed"
done
K=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r $K ] || plan_skip_all "$K missing (apt-get install debian-archive-keyring)"

v=7.2.1+deb14-amd64
R="$T/repo"
mkdir -p "$T/pkg/DEBIAN" "$R/pool"
printf '%s\n' "Package: linux-binary-$v" "Version: 7.2.1-1" \
	"Architecture: amd64" "Maintainer: t <t@example.org>" \
	"Description: not a kernel" > "$T/pkg/DEBIAN/control"
dpkg-deb -b "$T/pkg" "$R/pool/k.deb" > /dev/null
for s in bookworm bookworm-updates trixie-backports sid experimental; do
	d="$R/dists/$s"
	mkdir -p "$d/main/binary-amd64"
	(cd "$R" && dpkg-scanpackages pool /dev/null 2> /dev/null) \
		> "$d/main/binary-amd64/Packages"
	f=main/binary-amd64/Packages
	{
		printf '%s\n' "Suite: $s" "Codename: $s" "Architectures: amd64" \
			"Components: main" "Date: $(date -Ru)" "SHA256:"
		echo " $(sha256sum < "$d/$f" | cut -d' ' -f1) $(wc -c < "$d/$f") $f"
	} > "$d/Release"
done

# The repository is sound: apt takes it when told to trust it.
mkdir -p "$T/ctl/lists/partial" "$T/ctl/cache/archives/partial"
echo "deb [trusted=yes] file:$R sid main" > "$T/ctl/sources.list"
actl() {
	apt-get -o Dir::Etc::sourcelist="$T/ctl/sources.list" \
		-o Dir::Etc::sourceparts=- -o Dir::State::Lists="$T/ctl/lists" \
		-o Dir::Cache="$T/ctl/cache" -o APT::Sandbox::User="$(id -un)" "$@"
}
(cd "$T/ctl" && actl update && actl download "linux-binary-$v") \
	> "$T/ctl/log" 2>&1
rc=$?; [ $rc -eq 0 ] && ls "$T/ctl/"linux-binary-*.deb > /dev/null 2>&1
ok $? "control: apt with trusted=yes downloads from the repository (rc $rc)"
[ $rc -eq 0 ] || tail -3 "$T/ctl/log" | while IFS= read -r l; do diag "$l"; done

export FSPROBE_MIRROR="file:$R" FSPROBE_CACHE_DIR="$T/cache" \
	FSPROBE_QEMU="$(command -v true)"
mkdir -p "$T/cache/apt/kernels" "$T/cache/apt/debs"
# An earlier fsprobe's list, trusted=yes, a .deb and a record made under it.
echo "deb [trusted=yes] file:$R sid main" > "$T/cache/apt/sources.list"
old="$T/cache/apt/debs/linux-binary-${v}_7.2.1-1_amd64.deb"
cp "$R/pool/k.deb" "$old"
echo "$old" > "$T/cache/apt/kernels/$v"
"$F" vm -k "debian:$v" > "$T/out" 2> "$T/err"
rc=$?
n=$(grep -c "refused what it could not verify" "$T/err")
[ $rc -eq 2 ] && [ "$n" -eq 1 ] &&
	grep -q "refused what it could not verify with Debian's archive keyring: E: The repository 'file:$R .*' is not signed" "$T/err"
ok $? "unsigned repository: exit 2 (got $rc), one line naming the refusal"
[ $rc -eq 2 ] && [ "$n" -eq 1 ] ||
	while IFS= read -r l; do diag "$l"; done < "$T/err"
[ "$(grep -c 'refused' "$T/err")" -eq 1 ] &&
	[ "$(grep -c '^fsprobe: .*debian:' "$T/err")" -eq 1 ]
ok $? "the refusal is said once, on the --kernel debian: line"
! ls "$T/cache/apt/debs/"*.deb > /dev/null 2>&1
ok $? "nothing downloaded, the .deb fetched under trusted=yes gone"
! grep -q trusted "$T/cache/apt/sources.list" &&
	[ "$(grep -c "^deb \[signed-by=$K\] file:$R " "$T/cache/apt/sources.list")" -eq 5 ]
ok $? "the private list: five suites signed-by the keyring, no trusted=yes"
[ ! -e "$T/cache/apt/kernels/$v" ] &&
	grep -q "had trusted=yes: dropping the lists, .debs and kernel records" "$T/err"
ok $? "the record made under trusted=yes is dropped, and that is said"

# No keyring: one line naming the package (the keyring directory
# emptied in a namespace of our own).
if unshare -r -m true 2> /dev/null; then
	unshare -r -m sh -c 'mount -t tmpfs none /usr/share/keyrings &&
		exec "$0" vm -k "debian:$1"' "$F" "$v" > "$T/out" 2> "$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] &&
		grep -q "no Debian archive keyring ($K) to verify downloads with: apt-get install debian-archive-keyring" "$T/err"
	ok $? "no keyring: exit 2 (got $rc), one line naming the package"
	[ $rc -eq 2 ] || while IFS= read -r l; do diag "$l"; done < "$T/err"
else
	skip "unshare -r -m not allowed here: the missing keyring not tried"
fi
unset FSPROBE_MIRROR
done_testing
