#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# v-dmerr.sh - `make check-vm`: devices that fail (issue 18, item 5), on
# Debian's 7.2 kernel under qemu TCG, where device-mapper and dm-flakey
# are modules the guest loads for profiles with `device_fault`. In one
# run: ext4-dm-error (dm's error target from the cold mount on),
# ext4-dm-flakey-read (error_reads from the cold mount on),
# ext4-dm-flakey-write (error_writes from the first mount on) and
# ext4-default. Each faulty profile must be `error` with the step and
# EIO in its reason, ext4-default its usual `pmd`, the guest's fsprobe
# exit 1 (an error verdict), and the guest's own count after the run
# (its console, shown with -v) no loop device bound, no dm device, no
# mount. Then on the host, which has no device-mapper: the same
# profiles are `skip` with the reason. About a minute of TCG. The
# kernel: $FSPROBE_VM_KERNEL, else debian:7.2 (apt, cached).
. "$srcdir/tests/vm-lib.sh"

K=${FSPROBE_VM_KERNEL:-debian:7.2}
FAULTY="ext4-dm-error ext4-dm-flakey-read ext4-dm-flakey-write"
args=
for p in $FAULTY ext4-default; do args="$args -p $p"; done
diag "booting $K"
# exit 1: error verdicts
# shellcheck disable=SC2086
vm_doc 1 -k "$K" $args -P fault-pmd -P read-order -v
json_assert "$J" 'd["kernel"].startswith("7.2.") and d["vm"]["guest_exit"] == 1' \
	"the document is the guest's (7.2.*), its fsprobe exited 1"
why() {
	python3 -c "import json; print(next(x['verdict'] + ': ' + str(x.get('reason')) for x in json.load(open('$J'))['profiles'] if x['name'] == '$1'))" 2>/dev/null
}
json_assert "$J" "p['ext4-dm-error']['verdict'] == 'error' and p['ext4-dm-error']['reason'].startswith('fault-pmd: ') and 'Input/output error' in p['ext4-dm-error']['reason']" \
	"ext4-dm-error: error, the step (fault-pmd) and EIO in the reason ($(why ext4-dm-error))"
json_assert "$J" "all(x['result'] == 'error' and 'Input/output error' in x['reason'] for x in p['ext4-dm-error']['probes'])" \
	"ext4-dm-error: every probe is error with EIO, none fail or pass"
json_assert "$J" "p['ext4-dm-flakey-read']['verdict'] == 'error' and p['ext4-dm-flakey-read']['reason'].startswith('fault-pmd: ') and 'Input/output error' in p['ext4-dm-flakey-read']['reason']" \
	"ext4-dm-flakey-read: error, the step and EIO ($(why ext4-dm-flakey-read))"
json_assert "$J" "p['ext4-dm-flakey-write']['verdict'] == 'error' and 'EIO' in p['ext4-dm-flakey-write']['reason'] and ('preparing files' in p['ext4-dm-flakey-write']['reason'] or 'syncfs' in p['ext4-dm-flakey-write']['reason'])" \
	"ext4-dm-flakey-write: error, writing the files (prepare or syncfs) and EIO ($(why ext4-dm-flakey-write))"
json_assert "$J" "p['ext4-default']['verdict'] == 'pmd' and all(x['result'] == 'pass' for x in p['ext4-default']['probes'])" \
	"ext4-default in the same run: its usual pmd, probes pass ($(why ext4-default))"
left=$(tr -d '\r' < "$T/err" | grep "^fsprobe-vm: left after the run:")
[ "$left" = "fsprobe-vm: left after the run: 0 loop, 0 dm, 0 mount" ]
ok $? "the guest reports nothing left: ${left:-no such line}"
! tr -d '\r' < "$T/err" | grep -q "insmod dm-.* failed"
ok $? "the guest loaded dm-mod and dm-flakey"

# The host: no device-mapper here (else the profiles would run). Asked
# of the kernel, not of /dev/mapper/control: `dmsetup` makes that node
# whether or not a driver answers it (fsprobe opens it: ENXIO then).
if grep -qw device-mapper /proc/misc; then
	skip "the host has device-mapper: no skip to check"
else
	"$F" list > "$T/list" 2>&1
	n=$(grep -c "device-mapper not in this kernel (CONFIG_BLK_DEV_DM)" "$T/list")
	[ "$n" -eq 3 ]; ok $? "host: the 3 faulty profiles cannot run: device-mapper not in this kernel (got $n)"
fi
done_testing
