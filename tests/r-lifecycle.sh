#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-lifecycle.sh - real loop devices, mkfs and mounts: profiles go through
# the whole lifecycle, the measured numbers are the kernel's (8 MiB
# hinted mappings PMD-mapped on ext4 and xfs on this 6.18 kernel), the
# verdict agrees with its evidence, and nothing is left behind.
. "$srcdir/tests/root-lib.sh"
J="$TMPD/run.json"

"$FSPROBE" run -p ext4-default -p xfs-default -p btrfs-default \
	-p tmpfs-huge-always -p tmpfs-huge-never -f json -o "$J" \
	2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "run exits 0 (got $rc: $(head -c 300 "$TMPD/err"))"
python3 -m json.tool "$J" > /dev/null; ok $? "output is valid JSON"
json_assert "$J" 'd["pmd_order"] == 9 and d["page_size"] == 4096' \
	"pmd_order 9, page_size 4096 from the kernel"
json_assert "$J" 'd["thp"]["read_only_thp_for_fs"] is False' \
	"read_only_thp_for_fs false, as /proc/config.gz says"
for fs in ext4-default xfs-default; do
	json_assert "$J" "ev('$fs', 'fault-pmd')['file_pmd_mapped_kb'] == ev('$fs', 'fault-pmd')['file_kb'] > 0" \
		"$fs: the whole hinted mapping is FilePmdMapped"
	json_assert "$J" "p['$fs']['verdict'] == 'pmd' and p['$fs']['route'] == ['fault']" \
		"$fs: verdict pmd by route fault"
	json_assert "$J" "ev('$fs', 'fault-pmd')['cached_pages_before'] == 0" \
		"$fs: the file was cold before the fault (remount)"
	json_assert "$J" "ev('$fs', 'fault-pmd')['file_pmd_mapped_kb_nohint'] == 0" \
		"$fs: unhinted mapping is not PMD-mapped"
done
json_assert "$J" "ev('btrfs-default', 'fault-pmd')['file_pmd_mapped_kb'] == 0 and p['btrfs-default']['verdict'] != 'pmd'" \
	"btrfs-default: 0 kB PMD-mapped, verdict not pmd"
json_assert "$J" "ev('tmpfs-huge-always', 'fault-pmd')['shmem_pmd_mapped_kb'] == ev('tmpfs-huge-always', 'fault-pmd')['file_kb'] > 0 and p['tmpfs-huge-always']['verdict'] == 'shmem-pmd'" \
	"tmpfs huge=always: the whole file ShmemPmdMapped, shmem-pmd"
json_assert "$J" "ev('tmpfs-huge-never', 'fault-pmd')['shmem_pmd_mapped_kb'] == 0 and 'shmem' not in p['tmpfs-huge-never']['route'] and 'collapse' in p['tmpfs-huge-never']['route']" \
	"tmpfs huge=never: 0 kB on faults, PMD by MADV_COLLAPSE"
json_assert "$J" "p['tmpfs-huge-never']['verdict'] == 'shmem-pmd' and p['tmpfs-huge-never']['reason'].startswith('PMD only through MADV_COLLAPSE') and p['tmpfs-huge-never']['reason'].endswith('; none on the fault path')" \
	"tmpfs huge=never: shmem-pmd, the reason names the collapse route only"
json_assert "$J" "all(bool({'fault', 'shmem'} & set(x['route'])) == any(v > 0 for pr in x['probes'] if pr['name'] == 'fault-pmd' for k, v in pr['evidence'].items() if k.endswith('pmd_mapped_kb') or k.endswith('pmd_mapped_kb_nohint')) for x in d['profiles'])" \
	"every fault or shmem route agrees with its fault-pmd evidence"
json_assert "$J" "all(set(['name','fs','mkfs','mount_options','verdict','route','max_order','reason','probes','timing_ms']) <= set(x) for x in d['profiles'])" \
	"every profile has the docs/json.md keys"
# mkfs zeroes the xfs log and the ext4 journal with ZERO_RANGE: allocated
# blocks in the image until fsprobe punches them (a hole reads the same).
if [ "$(stat -f -c %T "$TEST_BASE")" = tmpfs ]; then
	skip "state dir on tmpfs: no unwritten extents to give back"
	skip "state dir on tmpfs: image disk use is memory"
else
	json_assert "$J" "p['xfs-default']['timing_ms']['mkfs_punched_kb'] >= 60000 and p['xfs-default']['timing_ms']['mkfs_disk_kb'] < 4096 and p['ext4-default']['timing_ms']['mkfs_punched_kb'] > 0" \
		"the log and journal mkfs zeroed are holes again"
	json_assert "$J" "all(x['timing_ms']['image_disk_kb'] <= 81920 for x in d['profiles'] if 'image_disk_kb' in x['timing_ms'])" \
		"every image uses at most 80 MiB of disk"
fi
# read-order reaches PMD order on xfs with the hint; every format is valid.
"$FSPROBE" run -p xfs-default -p btrfs-default -P read-order -P fault-pmd \
	-f json -o "$TMPD/ro.json" 2> /dev/null
json_assert "$TMPD/ro.json" "ev('xfs-default', 'read-order')['fault_hint_max_order_trace'] == 9 and ev('xfs-default', 'read-order')['fault_hint_max_order_pagemap'] == 9" \
	"read-order: xfs-default reaches order 9 with MADV_HUGEPAGE (tracefs and pagemap)"
json_assert "$TMPD/ro.json" "ev('btrfs-default', 'read-order')['read_max_order_trace'] == ev('btrfs-default', 'read-order')['read_max_order_pagemap']" \
	"read-order: btrfs events seen by the tracer (superblock s_dev, not st_dev)"
for f in ktap junit; do
	"$FSPROBE" run -p xfs-default -p tmpfs-huge-never -P fault-pmd -P collapse \
		-f $f -o "$TMPD/out.$f" 2> /dev/null
	ok $? "-f $f exits 0"
done
if command -v xmllint > /dev/null; then
	xmllint --noout "$TMPD/out.junit"; ok $? "JUnit output is well-formed XML"
else
	skip "xmllint not installed"
fi
grep -q '^KTAP version 1' "$TMPD/out.ktap" && grep -q '^1\.\.2$' "$TMPD/out.ktap" &&
	grep -q '^ok 2 tmpfs-huge-never' "$TMPD/out.ktap" &&
	grep -q '  ok 2 collapse # SKIP MADV_COLLAPSE: EINVAL (READ_ONLY_THP_FOR_FS not set)' "$TMPD/out.ktap"
ok $? "KTAP: version line, plan 1..2, a profile line, a probe SKIP with its reason"
check_no_leaks

# io_uring (opt-in) measures the same as the default write(2).
FSPROBE_URING=1 "$FSPROBE" run -p xfs-default -p tmpfs-huge-always \
	-P fault-pmd -f json -o "$TMPD/plain.json" 2> /dev/null
json_assert "$TMPD/plain.json" "ev('xfs-default', 'fault-pmd')['file_pmd_mapped_kb'] == ev('xfs-default', 'fault-pmd')['file_kb'] > 0 and ev('tmpfs-huge-always', 'fault-pmd')['shmem_pmd_mapped_kb'] == ev('tmpfs-huge-always', 'fault-pmd')['file_kb']" \
	"with io_uring: the same whole-file PMD mapping on xfs and tmpfs"

"$FSPROBE" run -p xfs-default > "$TMPD/table" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^xfs-default  *xfs  *pmd  *fault' "$TMPD/table"
ok $? "table output has the xfs-default row with verdict and route (rc $rc)"
! grep -q 'file_pmd_mapped_kb=' "$TMPD/table"
ok $? "the short table leaves out the evidence of passing probes"
"$FSPROBE" run -v -p xfs-default > "$TMPD/table-v" 2>/dev/null
grep -q 'file_pmd_mapped_kb=4096' "$TMPD/table-v"
ok $? "-v prints the evidence beside the verdict"
# Progress: on a terminal one status line per step and per profile done,
# rewritten in place and erased; -v or a dumb terminal: lines that stay.
if command -v script > /dev/null; then
	TERM=xterm script -qec "'$FSPROBE' run -p xfs-default -p ext4-default \
		-P read-order -o '$TMPD/p.txt'" "$TMPD/ts" > /dev/null
	e=$(printf '\r\033\[K')
	grep -q "${e}fsprobe: \[[12]/2\] [a-z4]*-default: read-order" "$TMPD/ts" &&
		grep -q "${e}fsprobe: 2 of 2 done: [a-z4-]*: pmd" "$TMPD/ts" &&
		! grep -q "done: [a-z4-]*: pmd\$(printf '\r')\$" "$TMPD/ts"
	ok $? "a terminal gets a status line: the step running, profiles done"
	TERM=dumb script -qec "'$FSPROBE' run -p xfs-default -P read-order \
		-o '$TMPD/p.txt'" "$TMPD/ts" > /dev/null
	grep -q "^fsprobe: 1 of 1 done: xfs-default: pmd$(printf '\r')\$" \
		"$TMPD/ts" && ! grep -q "$e" "$TMPD/ts"
	ok $? "a dumb terminal gets progress lines, no escapes"
else
	skip "script(1) not installed"; skip "script(1) not installed"
fi
"$FSPROBE" run -p xfs-default -P read-order -o "$TMPD/p.txt" 2> "$TMPD/err"
! grep -q "done" "$TMPD/err"; ok $? "no progress when stderr is not a terminal"
check_no_leaks
done_testing
