#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# v-vm.sh - `make check-vm`: boots the newest post-removal kernel, sid's
# (Debian's 7.2: no CONFIG_READ_ONLY_THP_FOR_FS at all), the newest of
# its series as `fsprobe list --debian` resolves it, and asserts what it
# measures there: ext4 and xfs collapse (MADV_COLLAPSE and khugepaged
# make PMD text of small folios), btrfs is refused with the order-based
# reason (its largest folio order, measured by read-order, is below the
# PMD order), the table says the removal is done. Then a guest stopped
# by --timeout leaves neither qemu nor a directory. The kernel:
# $FSPROBE_VM_KERNEL (any -k SPEC of a kernel without the option), else
# sid's (apt, into fsprobe's cache once, then reused offline). 3
# profiles, 4 probes: about a minute of TCG on 2 CPUs.
. "$srcdir/tests/vm-lib.sh"

# sid's kernel, the newest of its series (`fsprobe list --debian`).
K=${FSPROBE_VM_KERNEL:-$(sid_kernel)}
diag "booting $K"

mkdir "$T/tmp"
VM_TMPDIR="$T/tmp" vm_doc 0 -k "$K" -p ext4-default -p xfs-default \
	-p btrfs-default -P fault-pmd -P read-order -P collapse -P khugepaged
json_assert "$J" 'd["vm"]["guest_exit"] == 0 and int(d["kernel"].split(".")[0]) >= 7' \
	"the document is the guest's: kernel 7.x, guest fsprobe exit 0"
json_assert "$J" 'd["thp"]["read_only_thp_for_fs_state"] == "absent" and d["thp"]["config_source"].startswith("/boot/config-")' \
	"READ_ONLY_THP_FOR_FS absent, read from the package's config"
for fs in ext4 xfs; do
	json_assert "$J" 'probe("'$fs'-default", "collapse")["result"] == "pass" and ev("'$fs'-default", "collapse")["file_pmd_mapped_kb_after"] == ev("'$fs'-default", "collapse")["file_kb"]' \
		"$fs-default: MADV_COLLAPSE passes, the whole 4 MiB FilePmdMapped"
	json_assert "$J" 'probe("'$fs'-default", "khugepaged")["result"] == "pass" and ev("'$fs'-default", "khugepaged")["khugepaged_running"] is True and ev("'$fs'-default", "khugepaged")["pmd_reached"] is True and ev("'$fs'-default", "khugepaged")["pages_collapsed_after"] > ev("'$fs'-default", "khugepaged")["pages_collapsed_before"]' \
		"$fs-default: khugepaged ran and collapsed the text (pmd_reached, pages_collapsed grew)"
	json_assert "$J" 'p["'$fs'-default"]["verdict"] == "pmd" and {"fault", "collapse", "khugepaged"} <= set(p["'$fs'-default"]["route"])' \
		"$fs-default: pmd by the fault, collapse and khugepaged routes"
done
json_assert "$J" 'p["btrfs-default"]["verdict"] == "large" and 0 < max(p["btrfs-default"]["max_order"].values()) < d["pmd_order"]' \
	"btrfs-default: large folios below the PMD order"
json_assert "$J" 'probe("btrfs-default", "collapse")["result"] == "skip" and probe("btrfs-default", "collapse")["reason"] == "MADV_COLLAPSE: EINVAL: largest folio order observed %d < PMD order %d" % (max(p["btrfs-default"]["max_order"].values()), d["pmd_order"])' \
	"btrfs-default: collapse refused, the reason its largest observed order"
json_assert "$J" 'ev("btrfs-default", "khugepaged")["pmd_reached"] is False' \
	"btrfs-default: khugepaged made no PMD text"
"$builddir/tests/render" table "$J" > "$T/table" 2>&1 &&
	grep -q "large folios below PMD size: no huge text since the removal: btrfs-default" "$T/table" &&
	! grep -q "when READ_ONLY_THP_FOR_FS goes" "$T/table"
ok $? "the table's summary speaks of the removal as done"
left=$(ls -A "$T/tmp"); [ -z "$left" ]; ok $? "no temporary directory left${left:+: $left}"

TMPDIR="$T/tmp" "$F" vm -k "$K" -p xfs-default --timeout 3 > /dev/null 2> "$T/err"
rc=$?; [ $rc -eq 2 ] && grep -q "did not finish within 3 s" "$T/err"
ok $? "--timeout 3 stops the guest: exit 2 and says so (got $rc)"
left=$(ls -A "$T/tmp"); [ -z "$left" ]; ok $? "no temporary directory left after the timeout"
qemus=$(ps -eo args | grep -F "$T/tmp/" | grep -v grep || true)
[ -z "$qemus" ]; ok $? "no qemu of ours left${qemus:+: $qemus}"
done_testing
