#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# v-vm.sh - `make check-vm`: boots Debian's 6.12 kernel under qemu TCG
# with `fsprobe vm -k debian:6.12` and asserts on what that kernel does (measured,
# see shared/reference/other-kernels-under-qemu.md): xfs reaches PMD
# folios by the fault route, ext4 and btrfs do not (ext4 only gained it
# later, 6.18 here), MADV_COLLAPSE of a file is EINVAL because Debian
# does not set READ_ONLY_THP_FOR_FS, and tmpfs huge=always is PMD-mapped.
# Then a guest stopped by --timeout leaves neither qemu nor a directory.
# The package: $FSPROBE_VM_DEB, else `-k debian:6.12` (apt, into the
# cache, reused offline). About 1-2 minutes of TCG.
. "$srcdir/tests/tap.sh"
F="$builddir/src/fsprobe"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
command -v qemu-system-x86_64 > /dev/null ||
	plan_skip_all "qemu-system-x86_64 not installed (./bootstrap-deps --vm)"
command -v python3 > /dev/null || plan_skip_all "python3 not installed"

# The kernel: FSPROBE_VM_DEB=PKG.deb, else debian:6.12 (the newest 6.12
# package, fetched with apt into fsprobe's cache once, then reused).
if [ -n "${FSPROBE_VM_DEB:-}" ]; then
	[ -r "$FSPROBE_VM_DEB" ] || plan_skip_all "$FSPROBE_VM_DEB not readable"
	K=$FSPROBE_VM_DEB
else
	K=debian:6.12
fi
diag "booting $K"

J="$T/vm.json"
mkdir "$T/tmp"
start=$(date +%s)
TMPDIR="$T/tmp" "$F" vm -k "$K" -p xfs-default -p ext4-default \
	-p btrfs-default -p tmpfs-huge-always -P fault-pmd -P read-order \
	-P collapse -f json -o "$J" 2> "$T/err"
rc=$?
diag "fsprobe vm took $(($(date +%s) - start)) s"
[ $rc -eq 0 ]; ok $? "fsprobe vm -k $K exits 0 (got $rc)"
[ $rc -eq 0 ] || tail -n 40 "$T/err" | while IFS= read -r l; do diag "$l"; done

[ -s "$J" ] || { skip "no document: no verdicts to check"; done_testing; }
json_assert "$J" 'd["kernel"].startswith("6.12.") and d["kernel"].endswith("+deb12-amd64")' \
	"the document is the guest's: kernel 6.12.*+deb12-amd64"
json_assert "$J" 'd["vm"]["guest_exit"] == 0 and d["vm"]["deb"].endswith(".deb")' \
	"vm object: guest fsprobe exit 0, the .deb named"
json_assert "$J" 'd["thp"]["read_only_thp_for_fs"] is False and d["thp"]["config_source"].startswith("/boot/config-6.12")' \
	"READ_ONLY_THP_FOR_FS not set, read from the package's config"
json_assert "$J" 'p["xfs-default"]["verdict"] == "pmd" and p["xfs-default"]["route"] == ["fault"]' \
	"xfs-default: pmd by the fault route on 6.12"
json_assert "$J" 'ev("xfs-default", "fault-pmd")["file_pmd_mapped_kb"] == ev("xfs-default", "fault-pmd")["file_kb"] > 0' \
	"xfs-default: the whole hinted mapping is FilePmdMapped"
json_assert "$J" 'p["ext4-default"]["verdict"] not in ("pmd", "pmd-collapse-only") and ev("ext4-default", "fault-pmd")["file_pmd_mapped_kb"] == 0' \
	"ext4-default: not PMD on 6.12 (0 kB)"
json_assert "$J" 'p["btrfs-default"]["verdict"] not in ("pmd", "pmd-collapse-only")' \
	"btrfs-default: not PMD on 6.12"
json_assert "$J" 'all(probe(n, "collapse")["result"] == "skip" and "EINVAL" in probe(n, "collapse")["reason"] for n in ("xfs-default", "ext4-default", "btrfs-default"))' \
	"collapse: EINVAL on every file system (no READ_ONLY_THP_FOR_FS)"
json_assert "$J" 'p["tmpfs-huge-always"]["verdict"] == "shmem-pmd"' \
	"tmpfs huge=always: shmem-pmd"
left=$(ls -A "$T/tmp"); [ -z "$left" ]; ok $? "no temporary directory left${left:+: $left}"

TMPDIR="$T/tmp" "$F" vm -k "$K" -p xfs-default --timeout 3 > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 2 ] && grep -q "did not finish within 3 s" "$T/err"
ok $? "--timeout 3 stops the guest: exit 2 and says so (got $rc)"
left=$(ls -A "$T/tmp"); [ -z "$left" ]; ok $? "no temporary directory left after the timeout"
qemus=$(ps -eo args | grep -F "$T/tmp/" | grep -v grep || true)
[ -z "$qemus" ]; ok $? "no qemu of ours left${qemus:+: $qemus}"
done_testing
