#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-collapse.sh - collapse, collapse-exec and write-open on real loop
# filesystems, asserting what this kernel does: MADV_COLLAPSE on a regular
# file is EINVAL, reported as "READ_ONLY_THP_FOR_FS not set", exactly when
# /proc/config.gz says the option is not set (and succeeds when it is);
# shmem collapses whatever the option says; a write through another fd is
# seen through a PMD-mapped text mapping and read(2); a running binary
# cannot be opened for write (ETXTBSY); collapse-writable records what
# MADV_COLLAPSE does to a file open for write, clean and dirty (on this
# host, READ_ONLY_THP_FOR_FS not set: EINVAL on xfs, dirt left alone; shmem
# collapses both); no child, instance or mount is left.
. "$srcdir/tests/root-lib.sh"
J="$TMPD/run.json"
DISK="ext4-default xfs-default btrfs-default"

# Collapse instances (fsprobe-PID-collapse*) whose creator has exited:
# a live PID is another run's, in use right now.
instances() {
	for d in /sys/kernel/tracing/instances/fsprobe-*-collapse*; do
		[ -d "$d" ] || continue
		i=${d##*/}; pid=${i#fsprobe-}; pid=${pid%%-*}
		[ -d "/proc/$pid" ] || echo "$i"
	done | sort
}
inst0=$(instances)

"$FSPROBE" run -p ext4-default -p xfs-default -p btrfs-default \
	-p tmpfs-huge-advise -P collapse -P collapse-exec -P write-open \
	-P collapse-writable \
	-f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "run exits 0 (got $rc: $(head -c 300 "$TMPD/err"))"
python3 -m json.tool "$J" > /dev/null; ok $? "output is valid JSON"

rothp=unknown
if [ -r /proc/config.gz ]; then
	if zcat /proc/config.gz | grep -q '^CONFIG_READ_ONLY_THP_FOR_FS=y'; then
		rothp=y
	else
		rothp=n
	fi
fi
diag "CONFIG_READ_ONLY_THP_FOR_FS: $rothp (/proc/config.gz)"

for fs in $DISK; do
	for pr in collapse collapse-exec; do
		case $rothp in
		n)
			json_assert "$J" "probe('$fs', '$pr')['result'] == 'skip' and 'READ_ONLY_THP_FOR_FS not set' in probe('$fs', '$pr')['reason'] and ev('$fs', '$pr')['errno'] == 'EINVAL'" \
				"$fs $pr: EINVAL, READ_ONLY_THP_FOR_FS not set"
			json_assert "$J" "ev('$fs', '$pr')['file_pmd_mapped_kb_after'] == 0 and ev('$fs', '$pr')['read_only_thp_for_fs'] is False" \
				"$fs $pr: nothing PMD-mapped, config recorded as not set"
			;;
		y)
			json_assert "$J" "probe('$fs', '$pr')['result'] == 'pass' and ev('$fs', '$pr')['file_pmd_mapped_kb_after'] == ev('$fs', '$pr')['file_kb'] > 0" \
				"$fs $pr: the whole file collapsed to PMD mappings (READ_ONLY_THP_FOR_FS=y)"
			json_assert "$J" "'READ_ONLY_THP_FOR_FS not set' not in (probe('$fs', '$pr').get('reason') or '') and ev('$fs', '$pr')['read_only_thp_for_fs'] is True" \
				"$fs $pr: not refused for the config"
			;;
		*)
			skip "$fs $pr: no /proc/config.gz to compare with"
			;;
		esac
		json_assert "$J" "ev('$fs', '$pr')['cached_pages_before'] == 0" \
			"$fs $pr: the file was cold before the fault"
	done
done
for pr in collapse collapse-exec; do
	json_assert "$J" "probe('tmpfs-huge-advise', '$pr')['result'] == 'pass' and ev('tmpfs-huge-advise', '$pr')['shmem_pmd_mapped_kb_before'] == 0 and ev('tmpfs-huge-advise', '$pr')['shmem_pmd_mapped_kb_after'] == ev('tmpfs-huge-advise', '$pr')['file_kb'] > 0" \
		"tmpfs huge=advise $pr: shmem collapses 0 -> the whole file whatever READ_ONLY_THP_FOR_FS says"
done

X=xfs-default
if [ $rothp = n ]; then
	for a in clean dirty; do
		json_assert "$J" "probe('$X', 'collapse-writable')['result'] == 'pass' and ev('$X', 'collapse-writable')['${a}_errno'] == 'EINVAL' and ev('$X', 'collapse-writable')['${a}_rc'] == -1 and ev('$X', 'collapse-writable')['${a}_file_pmd_mapped_kb'] == 0" \
			"$X collapse-writable $a: EINVAL, 0 kB PMD-mapped (READ_ONLY_THP_FOR_FS not set)"
	done
	json_assert "$J" "ev('$X', 'collapse-writable')['read_only_thp_for_fs_state'] == 'not set' and 'collapse' not in p['$X']['route']" \
		"$X collapse-writable: state recorded, no collapse route"
else
	skip "$X collapse-writable: asserted for READ_ONLY_THP_FOR_FS not set only"
fi
json_assert "$J" "ev('$X', 'collapse-writable')['clean_dirty_pages_before'] == 0 and ev('$X', 'collapse-writable')['dirty_dirty_pages_before'] == ev('$X', 'collapse-writable')['dirty_pages_written'] == 4" \
	"$X collapse-writable: clean has no dirty page, dirty has the 4 written"
if [ $rothp = n ]; then
	json_assert "$J" "ev('$X', 'collapse-writable')['dirty_dirty_pages_after'] == 4" \
		"$X collapse-writable: the refused collapse wrote nothing back"
fi
T=tmpfs-huge-advise
for a in clean dirty; do
	json_assert "$J" "probe('$T', 'collapse-writable')['result'] == 'pass' and ev('$T', 'collapse-writable')['${a}_rc'] == 0 and ev('$T', 'collapse-writable')['${a}_errno'] is None and ev('$T', 'collapse-writable')['${a}_pmd_mapped_kb_before'] == 0 and ev('$T', 'collapse-writable')['${a}_shmem_pmd_mapped_kb'] == 4096" \
		"$T collapse-writable $a: collapsed, 0 -> 4096 kB ShmemPmdMapped"
done
json_assert "$J" "'collapse' in p['$T']['route']" \
	"$T: route collapse"

for fs in $DISK tmpfs-huge-advise; do
	json_assert "$J" "probe('$fs', 'write-open')['result'] == 'pass' and ev('$fs', 'write-open')['open_rdwr'] == 'ok'" \
		"$fs write-open: passes, O_RDWR open of mapped text allowed"
	json_assert "$J" "ev('$fs', 'write-open')['mapping_sees_new_data'] is True and ev('$fs', 'write-open')['read_sees_new_data'] is True and ev('$fs', 'write-open')['mapping_rest_intact'] is True" \
		"$fs write-open: new data through the mapping and read(2), rest intact"
	json_assert "$J" "ev('$fs', 'write-open')['open_wronly_while_running'] == 'ETXTBSY' and ev('$fs', 'write-open')['open_wronly_after_exit'] == 'ok'" \
		"$fs write-open: ETXTBSY while the binary runs, writable after it exits"
done
for fs in $DISK; do
	json_assert "$J" "ev('$fs', 'write-open')['cold_read_sees_new_data'] is True" \
		"$fs write-open: the write survives a remount"
done
for fs in ext4-default xfs-default; do
	json_assert "$J" "ev('$fs', 'write-open')['file_pmd_mapped_kb_before_open'] == ev('$fs', 'write-open')['file_kb'] > 0 and 'text_note' not in ev('$fs', 'write-open')" \
		"$fs write-open: the whole text was PMD-mapped"
	json_assert "$J" "ev('$fs', 'write-open')['text_route'] == 'fault' and ev('$fs', 'write-open')['cache_dropped_on_open'] is False" \
		"$fs write-open: the fault path mapped it, the open kept the cache"
done
# btrfs has no large folios here: the probe tried MADV_COLLAPSE, which only
# a READ_ONLY_THP_FOR_FS=y kernel grants; what it measured is what it says.
if [ "$rothp" = n ]; then
	json_assert "$J" "ev('btrfs-default', 'write-open')['text_route'] == 'none' and ev('btrfs-default', 'write-open')['collapse_before_open_errno'] == 'EINVAL' and ev('btrfs-default', 'write-open')['cache_dropped_on_open'] is False" \
		"btrfs-default write-open: collapse before the open refused (EINVAL), route none, cache kept"
else
	skip "btrfs-default write-open route: READ_ONLY_THP_FOR_FS=$rothp here"
fi

# The copied sleep runs from our mount; none may survive the run.
left=$(for e in /proc/[0-9]*/exe; do
	readlink "$e" 2>/dev/null; done | grep -F "$FSPROBE_STATE_DIR" || true)
[ -z "$left" ]; ok $? "no process runs a binary from our state dir${left:+: $left}"
inst1=$(instances)
[ "$inst0" = "$inst1" ]; ok $? "no collapse tracefs instance left${inst1:+: $inst1}"
check_no_leaks
done_testing
