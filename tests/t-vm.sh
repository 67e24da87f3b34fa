#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-vm.sh - `fsprobe vm` without booting anything: usage and environment
# errors exit 2 with one clear line; with tests/fake-qemu.py as qemu the
# initramfs holds what the guest needs, is cached by content, carries the
# run options in its per-boot part, the document between this boot's
# markers is rendered, a hung guest is stopped by --timeout, SIGTERM stops
# qemu, and no temporary directory survives. Real boots: make check-vm.
. "$srcdir/tests/cli-lib.sh"
command -v python3 > /dev/null || plan_skip_all "python3 not installed"

"$F" --help > "$T/help"
for w in "vm " --kernel --modules --deb --timeout; do
	grep -q -- "$w" "$T/help"; ok $? "--help mentions '$w'"
done
expect2 "vm without a kernel" "vm needs --kernel VMLINUZ or --deb" vm
grep -q -- "-k, --kernel=SPEC" "$T/help"; ok $? "--help shows -k, --kernel=SPEC"
expect2 "-k DIR with --modules" "brings its own modules" vm -k "$T" --modules /tmp
expect2 "-k debian: with --deb" "brings its own modules" vm -k debian:6.12 --deb x.deb
mkdir -p "$T/empty" "$T/two/lib/modules/1.0" "$T/two/usr/lib/modules/2.0"
expect2 "-k an empty directory" "no kernel in it" vm -k "$T/empty"
expect2 "-k a tree with two kernels" "2 kernels (" vm -k "$T/two"
expect2 "-k debian: a bad version" "not a kernel version" vm -k debian:../x
expect2 "--deb and --modules" "not both" vm --deb x.deb --modules /tmp
expect2 "--kernel on run" "does not apply to 'run'" run --kernel /x
expect2 "bad --timeout" "timeout takes seconds" vm --kernel /x --timeout 0
expect2 "missing kernel" "kernel /nonexistent: No such file" \
	vm --kernel /nonexistent
expect2 "not a bzImage" "not an x86 kernel image" vm --kernel "$srcdir/README.md"
expect2 "unknown profile" "unknown profile 'xfs-defualt'" \
	vm --kernel /x -p xfs-defualt
expect2 "unknown probe" "unknown probe 'nope'" vm --kernel /x -P nope
expect2 "missing deb" "deb /nonexistent.deb: No such file" \
	vm --deb /nonexistent.deb
mkbz "$T/bzImage" 6.99.0-fake
FSPROBE_QEMU=/nonexistent/qemu "$F" vm --kernel "$T/bzImage" > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 2 ] && grep -q "qemu not found: install qemu-system-x86" "$T/err"
ok $? "no qemu: exit 2 and the package to install (got $rc)"

command -v busybox > /dev/null || [ -x /bin/busybox ] ||
	{ skip "busybox not installed: fake boots not run"; done_testing; }

mkdir "$T/log" "$T/tmp" "$T/cache"
export FSPROBE_QEMU="$srcdir/tests/fake-qemu.py" FAKE_QEMU_LOG="$T/log" \
	FAKE_QEMU_DOC="$srcdir/tests/data/run-6.18.json" \
	FSPROBE_CACHE_DIR="$T/cache" TMPDIR="$T/tmp"
vm() { "$F" vm --kernel "$T/bzImage" "$@"; }

FAKE_QEMU_MODE=ok vm -v -p xfs-default -P fault-pmd -j 1 --size 64 \
	-f json -o "$T/vm.json" 2> "$T/err"
# The recorded document has a failing probe (xfs truncate-split): exit 1.
rc=$?; [ $rc -eq 1 ]; ok $? "fake boot: exit 1 like the document's (got $rc)"
[ $rc -eq 1 ] || tail -5 "$T/err" | while IFS= read -r l; do diag "$l"; done
grep -q "initramfs .* (built," "$T/err"; ok $? "first boot builds the initramfs"
python3 - "$T/vm.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kernel"] == "6.18.0", d["kernel"]
assert d["vm"]["guest_exit"] == 0 and d["vm"]["accel"].startswith("tcg")
assert d["vm"]["kernel_image"].endswith("/bzImage")
assert [p["name"] for p in d["profiles"]][:2] == ["ext4-default", "xfs-default"]
EOF
ok $? "the guest's document comes back whole, with a vm object"
for e in "init" "bin/busybox" "usr/sbin/fsprobe" "usr/sbin/mkfs.xfs" \
	 "usr/libexec/fsprobe/bigtext" "usr/libexec/fsprobe/libbigtext.so" \
	 "usr/share/fsprobe/profiles/xfs-default.conf" "etc/mtab" \
	 "dev/console" "lib/modules/order" "usr/bin/sleep"; do
	grep -q " $e\$" "$T/log/entries"; ok $? "initramfs has /$e"
done
grep -q "^120777 etc/mtab$" "$T/log/entries" && grep -q "^20600 dev/console$" "$T/log/entries"
ok $? "etc/mtab is a symlink, dev/console a character device"
grep -q "ld-linux-x86-64.so.2$" "$T/log/entries" && grep -q "/libc.so.6$" "$T/log/entries" &&
	grep -q "/libjson-c.so" "$T/log/entries"
ok $? "fsprobe's shared libraries and the dynamic loader are in"
if command -v fuse2fs > /dev/null; then
	grep -q " usr/sbin/fuse2fs\$" "$T/log/entries" &&
		grep -q "/libfuse.so.2\$" "$T/log/entries"
	ok $? "a fuse profile's server (fuse2fs) and its libfuse are in"
else
	skip "fuse2fs not installed: its place in the initramfs not checked"
fi
! grep -q '\.o$' "$T/log/entries"; ok $? "no object files from the payload directory"
printf -- '-p\nxfs-default\n-P\nfault-pmd\n-j\n1\n--size\n64\n-v\n' | cmp -s - "$T/log/vm-args"
ok $? "the run options reach the guest as its argv"
grep -q "^console=ttyS0 panic=-1 quiet$" "$T/log/argv" && grep -q "^tcg,thread=single$" "$T/log/argv"
ok $? "qemu gets the TCG accelerator and the serial console"

FAKE_QEMU_MODE=ok vm -v -p ext4-default > "$T/table" 2> "$T/err"
rc=$?; [ $rc -eq 1 ] && grep -q "initramfs .* (cached," "$T/err"
ok $? "second boot with other -p reuses the cached initramfs (rc $rc)"
set -- "$T"/cache/initrd-*.cpio.gz; [ $# -eq 1 ]; ok $? "one archive in the cache ($#)"
grep -q "^fsprobe .* on Linux 6.18.0 x86_64" "$T/table" && grep -q "^PROFILE " "$T/table"
ok $? "table output, labelled with the guest's kernel"
# On a terminal the guest's progress lines become one status line,
# rewritten in place and erased before the table; off a terminal nothing.
if command -v script > /dev/null; then
	FAKE_QEMU_MODE=ok TERM=xterm script -qec "'$F' vm --kernel '$T/bzImage' \
		-p ext4-default -o '$T/p.txt'" "$T/typescript" > /dev/null
	esc=$(printf '\r\033\[K')
	grep -q "${esc}fsprobe: vm 6.99.0-fake: 1 of 1 done: xfs-default: pmd" \
		"$T/typescript" &&
		! grep -q "done: xfs-default: pmd\$(printf '\r')\$" "$T/typescript" &&
		grep -q "pmd${esc}" "$T/typescript"
	ok $? "on a terminal: the guest's progress as a status line, erased"
else
	skip "script(1) not installed"
fi
FAKE_QEMU_MODE=ok vm -p ext4-default -o "$T/p.txt" 2> "$T/err"
! grep -q "done" "$T/err"; ok $? "off a terminal: no progress"
printf 'fs = xfs\nmkfs = mkfs.xfs -f -q\n' > "$T/mine.conf"
FAKE_QEMU_MODE=ok vm -p "$T/mine.conf" > /dev/null 2>&1
grep -q "^-p$" "$T/log/vm-args" && grep -q "^/etc/fsprobe/p0/mine.conf$" "$T/log/vm-args" &&
	grep -q " etc/fsprobe/p0/mine.conf$" "$T/log/entries"
ok $? "a -p file is copied into the guest and passed by its guest path"

FAKE_QEMU_MODE=panic vm > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 2 ] && grep -q "the guest wrote no result" "$T/err" &&
	grep -q "Kernel panic - not syncing: fake" "$T/err"
ok $? "no result: exit 2, the console's last lines shown (rc $rc)"
FAKE_QEMU_MODE=rc2 vm > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 2 ] && grep -q "guest's fsprobe exited 2 without a result" "$T/err"
ok $? "guest fsprobe failing: exit 2 and its exit code (rc $rc)"
FAKE_QEMU_MODE=hang vm --timeout 2 > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 2 ] && grep -q "did not finish within 2 s" "$T/err"
ok $? "hung guest: --timeout stops it, exit 2 (rc $rc)"
! kill -0 "$(cat "$T/log/pid")" 2> /dev/null; ok $? "the timed-out qemu is gone"

rm -f "$T/log/pid"
FAKE_QEMU_MODE=hang "$F" vm --kernel "$T/bzImage" --timeout 60 > /dev/null 2>&1 &
fpid=$!
i=0; while [ ! -s "$T/log/pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $fpid; wait $fpid; rc=$?
[ $rc -eq 143 ]; ok $? "SIGTERM: fsprobe vm exits 143 (got $rc)"
! kill -0 "$(cat "$T/log/pid")" 2> /dev/null; ok $? "SIGTERM: qemu is gone"
left=$(ls -A "$T/tmp"); [ -z "$left" ]; ok $? "no temporary directory left${left:+: $left}"

# A kernel in each of Debian's layouts, made here: fake modules (depmod
# takes any file; loop and btrfs plain, ext4 zstd, xfs xz; .ko.gz only
# where the host's kmod was built with zlib, Debian's is not), a config.
command -v depmod > /dev/null || [ -x /usr/sbin/depmod ] || [ -x /sbin/depmod ] ||
	{ skip "kmod not installed: layout boots not run"; done_testing; }
mktree() { # mktree ROOT LAYOUT RELEASE
	r=$1; v=$3
	case $2 in
	bookworm) md=$r/lib/modules/$v; k=$r/boot/vmlinuz-$v; c=$r/boot/config-$v ;;
	trixie) md=$r/usr/lib/modules/$v; k=$r/boot/vmlinuz-$v; c=$r/boot/config-$v ;;
	sid) md=$r/usr/lib/modules/$v; k=$md/vmlinuz; c=$md/config ;;
	esac
	mkdir -p "$md/kernel/fs" "$(dirname "$k")"
	for m in loop ext4 xfs btrfs; do echo "fake-$m-$v" > "$md/kernel/fs/$m.ko"; done
	zstd -q --rm "$md/kernel/fs/ext4.ko" && xz "$md/kernel/fs/xfs.ko"
	printf 'kernel/fs/loop.ko\nkernel/fs/ext4.ko\nkernel/fs/xfs.ko\nkernel/fs/btrfs.ko\n' > "$md/modules.order"
	printf 'CONFIG_FAKE_%s=y\n# CONFIG_READ_ONLY_THP_FOR_FS is not set\n' "$2" > "$c"
	mkbz "$k" "$v"
}
check_guest() { # check_guest DESC RELEASE LAYOUT
	f="$T/log/files"
	grep -q "^CONFIG_FAKE_$3=y" "$f/boot/config-$2" 2> /dev/null
	ok $? "$1: the kernel's config is the guest's /boot/config-$2"
	bad=0
	for m in loop ext4 xfs btrfs; do
		[ "$(cat "$f/lib/modules/$m.ko" 2> /dev/null)" = "fake-$m-$2" ] || bad=1
		grep -qx "$m.ko" "$f/lib/modules/order" 2> /dev/null || bad=1
	done
	[ $bad -eq 0 ]; ok $? "$1: loop, ext4 (.zst), xfs (.xz), btrfs decompressed, in the load order"
}
for L in bookworm trixie sid; do
	v=6.99.$L-fake
	mktree "$T/tree-$L" $L $v
	rm -rf "$T/log/files"
	FAKE_QEMU_MODE=ok "$F" vm -k "$T/tree-$L" -p xfs-default > /dev/null 2> "$T/err"
	rc=$?; [ $rc -eq 1 ]; ok $? "-k tree in the $L layout boots (rc $rc)"
	[ $rc -eq 1 ] || tail -3 "$T/err" | while IFS= read -r l; do diag "$l"; done
	check_guest "$L tree" $v $L
done
# The same trees as packages: one linux-image .deb (trixie), sid's three.
mkdeb() { # mkdeb OUT NAME ROOT
	mkdir -p "$3/DEBIAN"
	printf 'Package: %s\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' "$2" > "$3/DEBIAN/control"
	dpkg-deb -Zgzip -b "$3" "$1" > /dev/null
}
v=6.99.trixie-fake
mkdeb "$T/image.deb" linux-image-$v "$T/tree-trixie"
rm -rf "$T/log/files"
FAKE_QEMU_MODE=ok "$F" vm -k "$T/image.deb" -p xfs-default > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 1 ]; ok $? "-k a trixie linux-image .deb (usr/lib/modules) boots (rc $rc)"
[ $rc -eq 1 ] || tail -3 "$T/err" | while IFS= read -r l; do diag "$l"; done
check_guest "trixie .deb" $v trixie
v=6.99.sid-fake; s=$T/tree-sid/usr/lib/modules/$v
mkdir -p "$T/bin/usr/lib/modules/$v" "$T/mods/usr/lib/modules/$v" "$T/base/usr/lib/modules/$v"
mv "$s/vmlinuz" "$T/bin/usr/lib/modules/$v/"
mv "$s/kernel" "$T/mods/usr/lib/modules/$v/"
mv "$s/config" "$s/modules.order" "$T/base/usr/lib/modules/$v/"
for p in bin mods base; do mkdeb "$T/$p.deb" linux-$p-$v "$T/$p"; done
rm -rf "$T/log/files"
FAKE_QEMU_MODE=ok "$F" vm --deb "$T/bin.deb" --deb "$T/mods.deb" --deb "$T/base.deb" \
	-p xfs-default > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 1 ]; ok $? "--deb three times: sid's linux-binary, -modules, -base boot (rc $rc)"
[ $rc -eq 1 ] || tail -3 "$T/err" | while IFS= read -r l; do diag "$l"; done
check_guest "sid split .debs" $v sid
FAKE_QEMU_MODE=ok "$F" vm --deb "$T/bin.deb" -p xfs-default > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 2 ] && grep -q "no modules for $v" "$T/err"
ok $? "linux-binary alone: exit 2, its modules are missing (rc $rc)"

# debian:VERSION from the cache: no apt, no network (the record of an
# earlier fetch names the .debs it brought).
mkdir -p "$T/cache/apt/kernels"
printf '%s\n' "$T/bin.deb" "$T/mods.deb" "$T/base.deb" > "$T/cache/apt/kernels/$v"
rm -rf "$T/log/files"
FAKE_QEMU_MODE=ok "$F" vm -k debian:$v -p xfs-default -f json -o "$T/deb.json" 2> "$T/err"
rc=$?; [ $rc -eq 1 ] && grep -q "debian:$v: 3 package(s) cached" "$T/err" &&
	! grep -q "apt-get" "$T/err"
ok $? "-k debian:$v comes from the cache without apt, and says so (rc $rc)"
check_guest "debian: from the cache" $v sid
json_assert "$T/deb.json" 'd["vm"]["deb"].endswith("/bin.deb") and d["vm"]["kernel_image"].endswith("/vmlinuz")' \
	"vm object: the first .deb and the unpacked kernel"
grep -q "^deb \[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg\] [^ ]* sid main$" "$T/cache/apt/sources.list" &&
	! grep -q trusted "$T/cache/apt/sources.list" &&
	grep -q " bookworm-security main$" "$T/cache/apt/sources.list" &&
	grep -q " experimental main$" "$T/cache/apt/sources.list"
ok $? "apt's private list: sid, experimental, bookworm-security, signed-by, no trusted"
# --debian offline: apt-get cannot reach the mirror (a stand-in that
# fails as apt-get does without a network), so each series is the newest
# release with a record in the cache, by dpkg's order (-rt never), and a
# series with none is kept with the reason. `list --debian` boots nothing.
mkdir -p "$T/nonet"
printf '#!/bin/sh\necho "E: Could not resolve mirror.invalid" >&2\nexit 100\n' \
	> "$T/nonet/apt-get"
chmod +x "$T/nonet/apt-get"
for r in 6.1.0-7-amd64 6.1.0-12-amd64 6.1.0-13-rt-amd64 7.2.1+deb14-amd64; do
	cp "$T/cache/apt/kernels/$v" "$T/cache/apt/kernels/$r"
done
PATH="$T/nonet:$PATH" "$F" list --debian > "$T/out" 2> "$T/err"
rc=$?; [ $rc -eq 0 ]; ok $? "list --debian offline: exit 0 (rc $rc)"
grep -q "^6\.1  *bookworm  *debian:6\.1\.0-12-amd64$" "$T/out"
ok $? "offline: 6.1 is the newest cached 6.1.0-12-amd64 (not -rt, not 6.1.0-7)"
grep -q "^7\.2  *sid  *debian:7\.2\.1+deb14-amd64$" "$T/out"
ok $? "offline: 7.2 is the cached 7.2.1+deb14-amd64"
grep -q "^6\.12  *bookworm-security  *debian:6\.12  (error: offline, and no release of 6\.12 cached" "$T/out"
ok $? "offline: 6.12 has none cached and says so in its line"
grep -q "^host  *-  *host (" "$T/out"; ok $? "the set holds the host"
grep -q "apt cannot reach the mirror (.*Could not resolve" "$T/err" &&
	grep -q "debian 6.1: 6.1.0-12-amd64 (cached)" "$T/err"
ok $? "offline: stderr says apt cannot reach the mirror and what it took"
[ "$(grep -c '^[0-9]' "$T/out")" -eq 5 ]; ok $? "five Debian series, in order"
expect2 "--debian is not vm's" "--debian does not apply to 'vm'" vm --debian
done_testing
