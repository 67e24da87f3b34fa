#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# v-zonefs.sh - `make check-vm`: zonefs on a zoned null_blk device the
# run creates through configfs, in a guest booting sid's 7.2 kernel
# (null_blk, configfs and zonefs are modules there; the host kernel has
# none of them). Asserts a verdict other than error with its evidence:
# read-order and fault-pmd measured on zone files (read-order's read
# file on a conventional zone file), every case that needs a file the
# zones cannot give skipped with that reason, and the device removed
# again (the guest's /init also counts null_blk disks left). ext4-default
# runs beside it. A second boot gives each step 1 s (--step-timeout): a
# worker killed by the watchdog leaves its device to the parent's unwind
# of the journal, the same code `fsprobe cleanup` runs after a SIGKILL,
# and the guest must still count no null_blk disk left. The kernel:
# $FSPROBE_VM_KERNEL, else sid's from `fsprobe list --debian`. About a
# minute of TCG.
. "$srcdir/tests/vm-lib.sh"

K=${FSPROBE_VM_KERNEL:-$(sid_kernel)}
diag "booting $K"

# On a host kernel without zonefs, null_blk or zoned devices: a skip.
if ! grep -qw zonefs /proc/filesystems; then
	"$F" list 2> /dev/null | grep -E '^ +zonefs +zonefs +no ' > "$T/list"
	ok $? "host: zonefs listed as not runnable here ($(tr -s ' ' < "$T/list"))"
fi

vm_doc 0 -v -k "$K" -p zonefs -p ext4-default

json_assert "$J" 'd["kernel"].startswith("7.2.") and d["vm"]["guest_exit"] == 0' \
	"the document is the guest's: 7.2, guest fsprobe exit 0"
json_assert "$J" 'p["zonefs"]["verdict"] not in ("error", "skip", "unknown") and None not in p["zonefs"]["max_order"].values()' \
	"zonefs: a verdict other than error, read and fault orders measured ($(python3 -c "import json; x=[x for x in json.load(open('$J'))['profiles'] if x['name'] == 'zonefs'][0]; print(x['verdict'], x['max_order'], x.get('reason'))" 2>/dev/null))"
for pr in read-order fault-pmd; do
	json_assert "$J" 'probe("zonefs", "'$pr'")["result"] == "pass" and ev("zonefs", "'$pr'")' \
		"zonefs: $pr passes, with its evidence"
done
json_assert "$J" 'p["zonefs"]["fixed_files"]["read-order.read"].startswith("cnv/") and p["zonefs"]["fixed_files"]["fault-pmd.hint"].startswith("seq/")' \
	"zonefs: read-order's 32 MiB read file on a conventional zone file, fault-pmd's on a sequential one"
json_assert "$J" 'ev("zonefs", "read-order")["read_hole_kb"] == 28672 and ev("zonefs", "fault-pmd")["file_kb"] == 4096' \
	"zonefs: the files have the sizes the cases asked for"
json_assert "$J" 'all(probe("zonefs", c)["result"] == "skip" and "fixed" in probe("zonefs", c)["reason"] for c in ("truncate-split", "punch-split", "write-open", "collapse-writable", "exec-text", "dso-text"))' \
	"zonefs: cases that change files in place or need new ones skip, saying the files are fixed"
json_assert "$J" 'p["zonefs"]["null_blk"]["removed"] is True and p["zonefs"]["null_blk"]["device"].startswith("/dev/fsprobe-") and p["zonefs"]["null_blk"]["zone_size_mb"] == 32' \
	"zonefs: the run's own zoned null_blk device ($(python3 -c "import json; print([x for x in json.load(open('$J'))['profiles'] if x['name'] == 'zonefs'][0].get('null_blk'))" 2>/dev/null)), removed"
if command -v mkzonefs > /dev/null; then
	json_assert "$J" '"mkfs_builtin" not in p["zonefs"]' "zonefs: mkzonefs (zonefs-tools) formatted it"
else
	json_assert "$J" 'p["zonefs"]["mkfs_builtin"] is True' \
		"zonefs: no mkzonefs on the host: fsprobe's own superblock, mounted by the kernel"
fi
json_assert "$J" 'p["ext4-default"]["verdict"] == "pmd"' \
	"ext4-default beside it: pmd"
grep -q '^fsprobe-vm: null_blk devices left: 0[[:space:]]*$' "$T/err"
ok $? "the guest counts no null_blk disk left after the run"

# A worker killed mid-probe: the parent's unwind removes its device.
"$F" vm -v -k "$K" -p zonefs -P read-order -P fault-pmd --step-timeout 1 \
	-f json -o "$T/kill.json" 2> "$T/kill.err"
if grep -q 'zonefs: .* did not finish in 1 s' "$T/kill.err"; then
	grep -q '^fsprobe-vm: null_blk devices left: 0[[:space:]]*$' "$T/kill.err"
	ok $? "a worker killed by the watchdog: its null_blk device removed by the journal's unwind"
else
	skip "every step finished within 1 s: no worker was killed"
fi
done_testing
