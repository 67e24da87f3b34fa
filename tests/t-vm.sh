#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t-vm.sh - `fsprobe vm` without booting anything: usage and environment
# errors exit 2 with one clear line; with tests/fake-qemu.py as qemu the
# initramfs holds what the guest needs, is cached by content, carries the
# run options in its per-boot part, the document between this boot's
# markers is rendered, a hung guest is stopped by --timeout, SIGTERM stops
# qemu, and no temporary directory survives. Real boots: make check-vm.
. "$srcdir/tests/tap.sh"
F="$builddir/src/fsprobe"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
command -v python3 > /dev/null || plan_skip_all "python3 not installed"

expect2() { # expect2 DESC PATTERN ARGS...
	desc=$1; pat=$2; shift 2
	"$F" "$@" > "$T/out" 2> "$T/err"; rc=$?
	[ $rc -eq 2 ] && grep -q -- "$pat" "$T/err"
	ok $? "$desc: exit 2 (got $rc), stderr has '$pat'"
}
"$F" --help > "$T/help"
for w in "vm " --kernel --modules --deb --timeout; do
	grep -q -- "$w" "$T/help"; ok $? "--help mentions '$w'"
done
expect2 "vm without a kernel" "vm needs --kernel VMLINUZ or --deb" vm
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
# A file with a bzImage setup header is all the checks look at.
python3 - "$T/bzImage" <<'EOF'
import sys
b = bytearray(4096)
b[0x202:0x206] = b"HdrS"
b[0x20e:0x210] = (0x400 - 0x200).to_bytes(2, "little")
v = b"6.99.0-fake (nobody@nowhere) #1\0"
b[0x400:0x400 + len(v)] = v
open(sys.argv[1], "wb").write(b)
EOF
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
done_testing
