#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-overlay.sh - page cache residency through overlayfs. cachestat(2) on
# an overlayfs fd reads the overlay inode's own cache, which is always
# empty: the data is cached in the lower (or upper) file. fsprobe counts
# there with mincore instead and says so, so on overlay-xfs the counts
# match xfs-default's: the file mapped by write-open is fully cached
# before the open for write, the fadvise that makes fault-pmd's file
# cold again is verified by mincore, and the write-open skip (the open
# for write copies the file up, the old mapping keeps the lower file)
# still rests on the measured fact that the mapped pages are not in the
# file's own cache.
. "$srcdir/tests/root-lib.sh"
J="$TMPD/run.json"

"$FSPROBE" run -p overlay-xfs -p xfs-default -P fault-pmd -P write-open \
	-f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ]; ok $? "run exits 0 (got $rc: $(head -c 300 "$TMPD/err"))"

W=write-open
for fs in overlay-xfs xfs-default; do
	json_assert "$J" "ev('$fs', '$W')['cached_pages_before_open'] == ev('$fs', '$W')['file_kb'] // 4" \
		"$fs: $W counts the whole file cached before the open"
done
json_assert "$J" "ev('overlay-xfs', 'fault-pmd')['cold_nohint'] == 'fadvise (mincore: 0 pages left)'" \
	"overlay-xfs: the re-cooled file is verified by mincore"
json_assert "$J" "ev('xfs-default', 'fault-pmd')['cold_nohint'] == 'fadvise (cachestat: 0 pages left)'" \
	"xfs-default: the re-cooled file is verified by cachestat"
json_assert "$J" "probe('overlay-xfs', '$W')['result'] == 'skip' and 'copied up' in probe('overlay-xfs', '$W')['reason'] and ev('overlay-xfs', '$W')['new_mapping_sees_new_data'] is True and 'residency_note' in ev('overlay-xfs', '$W')" \
	"overlay-xfs: $W skips: the mapping is of the lower file (measured)"
json_assert "$J" "probe('xfs-default', '$W')['result'] == 'pass' and 'residency_note' not in ev('xfs-default', '$W')" \
	"xfs-default: $W passes, its mapping is of the file's own cache"
check_no_leaks
done_testing
