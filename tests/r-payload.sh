#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-payload.sh - the large-text payloads on real filesystems: exec-text
# and dso-text report the text VMA's FilePmdMapped; on this 6.18 kernel a
# warmed copy is PMD-mapped (>= 2048 kB) on ext4-default and xfs-default,
# a cold one is not (its text is read before it can ask), and btrfs maps
# 0 kB with the probe saying why. The ELF layout was checked (aligned).
# tmpfs text counts in ShmemPmdMapped: huge=always and huge=advise map the
# whole 4 MiB PMD extent of the text there (the payload's MADV_COLLAPSE
# succeeds on shmem), FilePmdMapped stays 0.
. "$srcdir/tests/root-lib.sh"
J="$TMPD/out.json"
[ -x "$builddir/conformance/payload/bigtext" ] || plan_skip_all "payloads not built"
"$FSPROBE" run -p ext4-default -p xfs-default -p btrfs-default \
	-p tmpfs-huge-always -p tmpfs-huge-advise \
	-P exec-text -P dso-text -f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "run exits 0 (rc $rc)"
for fs in ext4-default xfs-default; do
	for pr in exec-text dso-text; do
		json_assert "$J" "ev('$fs', '$pr')['warmed_file_pmd_mapped_kb'] >= 2048 and probe('$fs', '$pr')['result'] == 'pass'" \
			"$fs $pr: warmed text VMA PMD-mapped (>= 2048 kB), pass"
		json_assert "$J" "ev('$fs', '$pr')['cold_file_pmd_mapped_kb'] == 0" \
			"$fs $pr: cold copy not PMD-mapped (text read before the hint)"
		json_assert "$J" "ev('$fs', '$pr')['aligned'] is True and ev('$fs', '$pr')['cold_text_kb'] > 4096" \
			"$fs $pr: 2 MiB-aligned text VMA larger than 4 MiB"
		json_assert "$J" "ev('$fs', '$pr')['cold_collapse_errno'] == 'EINVAL'" \
			"$fs $pr: the payload's own MADV_COLLAPSE is EINVAL here"
	done
done
for pr in exec-text dso-text; do
	json_assert "$J" "ev('btrfs-default', '$pr')['warmed_file_pmd_mapped_kb'] == 0 and probe('btrfs-default', '$pr')['result'] == 'skip' and 'not PMD-mapped' in probe('btrfs-default', '$pr')['reason']" \
		"btrfs-default $pr: 0 kB, skip, and the reason says why"
done
for fs in tmpfs-huge-always tmpfs-huge-advise; do
	for pr in exec-text dso-text; do
		json_assert "$J" "probe('$fs', '$pr')['result'] == 'pass' and ev('$fs', '$pr')['pmd_max_kb'] == 4096 and ev('$fs', '$pr')['cold_shmem_pmd_mapped_kb'] == ev('$fs', '$pr')['warmed_shmem_pmd_mapped_kb'] == 4096" \
			"$fs $pr: pass, text VMA ShmemPmdMapped 4096 kB cold and warmed"
		json_assert "$J" "ev('$fs', '$pr')['cold_file_pmd_mapped_kb'] == ev('$fs', '$pr')['warmed_file_pmd_mapped_kb'] == 0 and ev('$fs', '$pr')['cold_collapse_errno'] == '0'" \
			"$fs $pr: FilePmdMapped 0, the payload's MADV_COLLAPSE succeeds on shmem"
	done
	json_assert "$J" "'collapse' in p['$fs']['route']" "$fs: route collapse"
done
check_no_leaks
done_testing
