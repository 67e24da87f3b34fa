// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r-case-trace.c - root test of the tracefs instance a profile's cases
 * share, handed to them in fsp_target.trace by a worker slot's lease
 * (src/run/slots.h): a profile's own instance and a worker slot's.
 * Release starts the removal in the background and a second release
 * while it runs must leave it alone (the runner releases after the last
 * traced case and again after the last case); wait joins it, and then
 * the instance is gone, or kept when it is the slot's and not its last
 * profile. A case that asks again after the removal gets a working
 * instance. The lease learns that its profile is the slot's last from
 * one byte on the slot's pipe, without blocking before it. Runs in a
 * private mount namespace, so a tracefs it mounts vanishes with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>

#include "case.h"
#include "mnt.h"
#include "slots.h"
#include "tap.h"
#include "trace.h"

static int instance_exists(const char *dir)
{
	return dir[0] && !access(dir, F_OK);
}

static void test_own(void)
{
	struct fsp_target t = { 0 };
	struct fsp_slot_lease l;
	struct fsp_trace *tr;
	char dir[sizeof(tr->dir)];
	int err = 0;

	tr = fsp_case_trace(&t, &err);
	tap_ok(!tr && err == -ENODEV, "no handle: no instance, -ENODEV (%d)",
	       err);
	fsp_slot_lease_init(&l, NULL, NULL);
	t.trace = &l.handle;

	tr = fsp_case_trace(&t, &err);
	tap_ok(tr && !err, "own instance opened (%s)", strerror(-err));
	if (!tr)
		return;
	snprintf(dir, sizeof(dir), "%s", tr->dir);
	tap_ok(instance_exists(dir), "%s exists", dir);
	tap_ok(fsp_case_trace(&t, &err) == tr, "a second case gets the same");
	fsp_slot_lease_release(&l, 1);
	fsp_slot_lease_release(&l, 1);	/* in flight: must be a no-op */
	fsp_slot_lease_wait(&l);
	tap_ok(!instance_exists(dir), "released twice, waited: %s is gone",
	       dir);

	tr = fsp_case_trace(&t, &err);
	tap_ok(tr && !err && instance_exists(tr->dir),
	       "asked again after the removal: a working instance (%s)",
	       strerror(-err));
	if (tr)
		snprintf(dir, sizeof(dir), "%s", tr->dir);
	fsp_slot_lease_release(&l, 1);
	fsp_slot_lease_wait(&l);
	tap_ok(!instance_exists(dir), "and it goes too");
}

static void test_slot(void)
{
	char name[64], dir[256] = "";
	struct fsp_target t = { 0 };
	struct fsp_slot_lease l;
	struct fsp_trace *tr;
	int err = 0;

	snprintf(name, sizeof(name), "fsprobe-r-case-trace-%d-s0",
		 (int)getpid());
	fsp_slot_lease_init(&l, NULL, name);
	t.trace = &l.handle;
	tr = fsp_case_trace(&t, &err);
	tap_ok(tr && !err, "slot instance %s made (%s)", name,
	       strerror(-err));
	if (!tr)
		return;
	snprintf(dir, sizeof(dir), "%s", tr->dir);
	fsp_slot_lease_release(&l, 0);	/* not the slot's last profile */
	fsp_slot_lease_wait(&l);
	tap_ok(instance_exists(dir), "not last: the slot's instance stays");

	tr = fsp_case_trace(&t, &err);	/* the slot's next profile */
	tap_ok(tr && !err && !strcmp(tr->dir, dir),
	       "the next profile takes it over (%s)", strerror(-err));
	fsp_slot_lease_release(&l, 1);
	fsp_slot_lease_release(&l, 1);
	fsp_slot_lease_wait(&l);
	tap_ok(!instance_exists(dir), "last, released twice, waited: gone");

	tr = fsp_case_trace(&t, &err);	/* a case not marked .traced */
	tap_ok(tr && !err && instance_exists(dir),
	       "asked after the removal: the slot's instance is made again");
	fsp_slot_lease_release(&l, 1);
	fsp_slot_lease_wait(&l);
	tap_ok(!instance_exists(dir), "and removed again");
}

/* The parent's message: one byte on the slot's pipe, seen, not eaten. */
static void test_last(void)
{
	struct fsp_slot_lease l;
	int p[2];

	fsp_slot_lease_init(&l, NULL, NULL);
	tap_ok(!fsp_slot_lease_last(&l), "a lease of no slot is never last");
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK)) {
		tap_ok(0, "pipe2: %s", strerror(errno));
		return;
	}
	l.last_fd = p[0];
	tap_ok(!fsp_slot_lease_last(&l), "nothing written: not last, and "
	       "the check did not block");
	tap_ok(write(p[1], "", 1) == 1, "the parent says: nothing left");
	tap_ok(fsp_slot_lease_last(&l), "then the lease is the slot's last");
	tap_ok(fsp_slot_lease_last(&l), "and stays so when asked again");
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	char root[128];
	int mounted;

	if (geteuid())
		tap_skip_all("needs root (tracefs instances)");
	if (unshare(CLONE_NEWNS) || fsp_mnt_make_private())
		tap_skip_all("no private mount namespace");
	if (fsp_trace_find_root(root, sizeof(root), &mounted))
		tap_skip_all("no tracefs in this kernel");
	test_last();
	test_own();
	test_slot();
	return tap_done();
}
