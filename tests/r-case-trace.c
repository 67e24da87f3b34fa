// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r-case-trace.c - root test of the cases' shared tracefs instance
 * (conformance/case_util.c): a profile's own instance and a worker
 * slot's. Release starts the removal in the background and a second
 * release while it runs must leave it alone (the runner releases after
 * the last traced case and again after the last case); wait joins it,
 * and then the instance is gone, or kept when it is the slot's and not
 * its last profile. A case that asks again after the removal gets a
 * working instance. Runs in a private mount namespace, so a tracefs it
 * mounts vanishes with it.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>

#include "case.h"
#include "tap.h"
#include "trace.h"

static int instance_exists(const char *dir)
{
	return dir[0] && !access(dir, F_OK);
}

static void test_own(void)
{
	struct fsp_target t = { 0 };
	struct fsp_trace *tr;
	char dir[sizeof(tr->dir)];
	int err = 0;

	tr = fsp_case_trace(&t, &err);
	tap_ok(tr && !err, "own instance opened (%s)", strerror(-err));
	if (!tr)
		return;
	snprintf(dir, sizeof(dir), "%s", tr->dir);
	tap_ok(instance_exists(dir), "%s exists", dir);
	tap_ok(fsp_case_trace(&t, &err) == tr, "a second case gets the same");
	fsp_case_trace_release(1);
	fsp_case_trace_release(1);	/* in flight: must be a no-op */
	fsp_case_trace_wait();
	tap_ok(!instance_exists(dir), "released twice, waited: %s is gone",
	       dir);

	tr = fsp_case_trace(&t, &err);
	tap_ok(tr && !err && instance_exists(tr->dir),
	       "asked again after the removal: a working instance (%s)",
	       strerror(-err));
	if (tr)
		snprintf(dir, sizeof(dir), "%s", tr->dir);
	fsp_case_trace_release(1);
	fsp_case_trace_wait();
	tap_ok(!instance_exists(dir), "and it goes too");
}

static void test_slot(void)
{
	char name[64], dir[256] = "";
	struct fsp_target t = { 0 };
	struct fsp_trace *tr;
	int err = 0;

	snprintf(name, sizeof(name), "fsprobe-r-case-trace-%d-s0",
		 (int)getpid());
	t.trace_instance = name;
	tr = fsp_case_trace(&t, &err);
	tap_ok(tr && !err, "slot instance %s made (%s)", name,
	       strerror(-err));
	if (!tr)
		return;
	snprintf(dir, sizeof(dir), "%s", tr->dir);
	fsp_case_trace_release(0);	/* not the slot's last profile */
	fsp_case_trace_wait();
	tap_ok(instance_exists(dir), "not last: the slot's instance stays");

	tr = fsp_case_trace(&t, &err);	/* the slot's next profile */
	tap_ok(tr && !err && !strcmp(tr->dir, dir),
	       "the next profile takes it over (%s)", strerror(-err));
	fsp_case_trace_release(1);
	fsp_case_trace_release(1);
	fsp_case_trace_wait();
	tap_ok(!instance_exists(dir), "last, released twice, waited: gone");

	tr = fsp_case_trace(&t, &err);	/* a case not marked .traced */
	tap_ok(tr && !err && instance_exists(dir),
	       "asked after the removal: the slot's instance is made again");
	fsp_case_trace_release(1);
	fsp_case_trace_wait();
	tap_ok(!instance_exists(dir), "and removed again");
}

int main(void)
{
	char root[128];
	int mounted;

	if (geteuid())
		tap_skip_all("needs root (tracefs instances)");
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		tap_skip_all("no private mount namespace");
	if (fsp_trace_find_root(root, sizeof(root), &mounted))
		tap_skip_all("no tracefs in this kernel");
	test_own();
	test_slot();
	return tap_done();
}
