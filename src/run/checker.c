// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checker.c - `fsprobe check` under the watchdog (checker.h): the worker
 * writes its result as JSON into a pipe; the parent reads it, looking at
 * the worker's step each time poll(2) times out, and on a step over its
 * limit reports it and kills the worker without waiting for it for
 * long: once it is gone, the system-wide knobs it changed are restored.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checker.h"
#include "knob.h"
#include "progress.h"
#include "task.h"
#include "util.h"
#include "watchdog.h"

#define RESULT_MAX (16L << 20)

/* A check-shaped profile with no result yet (as fsp_run_dir makes it). */
static void check_profile(const char *dir, struct fsp_res_profile *out)
{
	fsp_res_profile_init(out);
	out->shape = FSP_SHAPE_CHECK;
	out->has_probes = 0;
	out->name = strdup(dir);
	out->fs = strdup("(mounted)");
	out->mount_options = strdup("");
}

static void __attribute__((noreturn))
worker(const char *dir, const struct fsp_run_opts *o,
       const struct fsp_sysinfo *si, struct fsp_wd_slot *wd, int fd)
{
	struct fsp_run_opts wo = *o;
	struct fsp_res_profile res;
	struct json_object *j;
	const char *s;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	wo.wd = wd;
	fsp_run_dir(dir, &wo, si, &res);
	j = fsp_res_profile_json(&res);
	s = j ? json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN) :
	    NULL;
	if (!s || fsp_write_all(fd, s, strlen(s)))
		_exit(4);
	_exit(0);
}

/* Read what is there into *buf; 1 at EOF, 0 for more, -errno. */
static int take(int fd, char **buf, size_t *len)
{
	char *more;
	ssize_t n;

	if (*len >= RESULT_MAX)
		return -EFBIG;
	more = realloc(*buf, *len + 65536 + 1);
	if (!more)
		return -ENOMEM;
	*buf = more;
	n = read(fd, *buf + *len, 65536);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	*len += n;
	(*buf)[*len] = '\0';
	return n == 0;
}

/* The worker's JSON into out; 0, or -errno and out untouched. */
static int decode(const char *text, struct fsp_res_profile *out)
{
	struct json_object *j = json_tokener_parse(text);
	struct fsp_res_profile p;
	char err[256];
	int ret;

	if (!j)
		return -EINVAL;
	ret = fsp_res_profile_decode(j, "check worker", "", &p, err,
				     sizeof(err));
	json_object_put(j);
	if (ret)
		return ret;
	p.shape = FSP_SHAPE_CHECK;
	fsp_res_profile_clear(out);
	*out = p;
	return 0;
}

/* The step over its limit: out says so, the worker is killed. */
static void fire(pid_t pid, const char *dir, const struct fsp_wd_step *st,
		 int step_timeout, struct fsp_res_profile *out)
{
	struct fsp_task t;

	fsp_wd_fire(pid, st, step_timeout, out, &t);
	fsp_wd_kill(pid);
	fsp_warn("%s: %s (task %d %s in state %c); its files in "
		 "%s/.fsprobe-%d stay until it ends", dir, out->reason,
		 (int)t.pid, t.comm, t.state ? t.state : '?', dir, (int)pid);
}

/*
 * A killed worker may have changed system-wide knobs (the khugepaged
 * probe's scan knobs): their originals are in the registry (knob.h),
 * held by the worker until it dies. Once it is reaped (a second at
 * most: a task in D state may never go), give back every knob no live
 * run holds, as cleanup would, instead of leaving them changed until
 * the next run or `fsprobe cleanup`; and remove its files in dir.
 */
static void settle_killed(pid_t pid, const char *dir)
{
	struct timespec ts = { 0, 100 * 1000000L };
	char work[4096];
	int i, n;

	for (i = 0; i < 10; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			break;
		nanosleep(&ts, NULL);
	}
	if (i == 10) {
		fsp_warn("%s: the killed worker is still alive: a "
			 "system-wide knob it changed, if any, stays until it "
			 "ends and 'fsprobe cleanup' runs", dir);
		return;
	}
	n = fsp_knob_release_global(NULL);
	if (n > 0)
		fsp_warn("%s: restored %d system-wide knob(s) the killed "
			 "worker had changed", dir, n);
	if (!fsp_fmt(work, sizeof(work), "%s/.fsprobe-%d", dir, (int)pid) &&
	    !fsp_rmtree(work))
		fsp_warn("%s: the killed worker is gone, and its files "
			 "with it", dir);
}

/* Read the worker's result, watching its steps; 1 if it was killed. */
static int watch(pid_t pid, int fd, const char *dir,
		 const struct fsp_wd_slot *wd, int step_timeout,
		 struct fsp_res_profile *out, char **buf, size_t *len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct fsp_wd_step st;
	int ret = 0;

	while (!ret) {
		if (poll(&pfd, 1, step_timeout > 0 ? 1000 : -1) > 0)
			ret = take(fd, buf, len);
		if (!ret && fsp_wd_expired(wd, step_timeout, &st)) {
			fire(pid, dir, &st, step_timeout, out);
			settle_killed(pid, dir);
			return 1;
		}
	}
	return 0;
}

void fsp_check_dir(const char *dir, const struct fsp_run_opts *o,
		   const struct fsp_sysinfo *si, int step_timeout,
		   struct fsp_res_profile *out)
{
	struct fsp_wd_slot *wd = fsp_wd_board_new(1);
	char *buf = NULL, why[128];
	size_t len = 0;
	int fd[2], wst = 0;
	pid_t pid = -1;

	check_profile(dir, out);
	if (!wd || pipe2(fd, O_CLOEXEC)) {
		fsp_res_set_verdict(out, FSP_V_ERROR, "cannot start a worker");
		fsp_wd_board_free(wd, 1);
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		worker(dir, o, si, wd, fd[1]);
	}
	close(fd[1]);
	if (pid > 0 && !watch(pid, fd[0], dir, wd, step_timeout, out, &buf,
			      &len)) {
		waitpid(pid, &wst, 0);
		if (!buf || decode(buf, out)) {
			snprintf(why, sizeof(why), "the check worker gave no "
				 "result (wait status %#x)", wst);
			fsp_res_set_verdict(out, FSP_V_ERROR, why);
		}
	} else if (pid < 0) {
		fsp_res_set_verdict(out, FSP_V_ERROR, "fork failed");
	}
	close(fd[0]);
	free(buf);
	fsp_wd_board_free(wd, 1);
}
