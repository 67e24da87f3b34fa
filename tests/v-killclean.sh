#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# v-killclean.sh - `make check-vm`: a run SIGKILLed in the middle, then
# `fsprobe cleanup`, in a Debian 7.2 guest under qemu TCG, with the
# devices only a guest makes: nfs (the run's own nfsd in a network
# namespace of the worker's), zonefs (a zoned null_blk device of the
# run's) and ext4-default (a loop device). The hidden vm option
# --kill-after makes the guest's /init SIGKILL its fsprobe after that
# many seconds (the workers die with it) and run `fsprobe cleanup`; the
# guest then waits (at most 60 s) for the loop devices cleanup left to
# autoclear to go with their last user (a killed nfs worker's client
# gives up on its stopped server after some seconds: docs/safety.md),
# and counts what is left: no loop device bound, no dm device, no
# mount, no null_blk device, no nfsd thread. The kernel:
# $FSPROBE_VM_KERNEL, else debian:7.2 (apt, cached). Under a minute.
. "$srcdir/tests/vm-lib.sh"

K=${FSPROBE_VM_KERNEL:-debian:7.2}
said() { tr -d '\r' < "$T/err" | grep "^fsprobe-vm: $1"; }

diag "booting $K"
"$F" vm -v -k "$K" -p nfs -p zonefs -p ext4-default --kill-after 6 \
	-f json -o "$T/vm.json" 2> "$T/err"
rc=$?
[ $rc -ne 0 ]; ok $? "vm of a killed run does not exit 0 (got $rc)"
said "run SIGKILLed at " > /dev/null
ok $? "the guest killed its run: $(said 'run SIGKILLed')"
grep -q 'fsprobe: \[.*\] \(nfs\|zonefs\|ext4-default\): ' "$T/err"
ok $? "the run had started profiles before the kill"
said "cleanup exited 0 " > /dev/null
ok $? "fsprobe cleanup exits 0: $(said 'cleanup exited')"
diag "$(said 'waited ')"
said "left after the run: 0 loop, 0 dm, 0 mount[[:space:]]*$" > /dev/null
ok $? "no loop device, dm device or mount left: $(said 'left after')"
said "null_blk devices left: 0[[:space:]]*$" > /dev/null
ok $? "no null_blk device left: $(said 'null_blk devices left')"
said "nfsd threads left: 0[[:space:]]*$" > /dev/null
ok $? "no nfsd thread left: $(said 'nfsd threads left')"
done_testing
