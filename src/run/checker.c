// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checker.c - `fsprobe check` as a run (checker.h): journalled, its work
 * directory made and removed by the parent, signals recorded and
 * forwarded, the worker under the watchdog. The worker writes its
 * result as JSON into a pipe; the parent reads it, looking at the
 * worker's step each time poll(2) times out, and on a step over its
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
#include "journal.h"
#include "knob.h"
#include "progress.h"
#include "report.h"
#include "scheduler.h"
#include "statebase.h"
#include "statedir.h"
#include "task.h"
#include "unwind.h"
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

/*
 * The signal handler's state: the signal it recorded, and the worker it
 * forwards SIGTERM to (kill(2) only: async-signal-safe). All cleanup
 * runs in normal control flow, as for `run` (scheduler.h).
 */
static volatile sig_atomic_t got_signal;
static volatile pid_t worker_pid;

static void on_signal(int sig)
{
	got_signal = sig;
	if (worker_pid > 0)
		kill(worker_pid, SIGTERM);
}

int fsp_check_signal(void)
{
	return got_signal;
}

/* What the parent and its worker share for one check. */
struct check {
	const char *dir;
	const struct fsp_run_opts *o;
	const struct fsp_sysinfo *si;
	struct fsp_journal j;
	struct fsp_journal *jp;		/* &j, or NULL: no journal */
	struct fsp_checkdir c;
	int step_timeout;
	pid_t self;
};

static void __attribute__((noreturn))
worker(struct check *k, struct fsp_wd_slot *wd, int fd)
{
	struct fsp_run_opts wo = *k->o;
	struct fsp_res_profile res;
	struct json_object *j;
	const char *s;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != k->self)
		_exit(3);	/* the parent died before PDEATHSIG was set */
	wo.wd = wd;
	fsp_run_dir(k->dir, &k->c, &wo, k->si, k->jp, &res);
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

/*
 * The step over its limit: out says so, the journal names the stuck
 * task (cleanup must not remove what it still uses), the worker is
 * killed.
 */
static void fire(struct check *k, pid_t pid, const struct fsp_wd_step *st,
		 struct fsp_res_profile *out)
{
	char a[64], b[256];
	struct fsp_task t;

	fsp_wd_fire(pid, st, k->step_timeout, out, &t);
	if (k->jp) {
		snprintf(a, sizeof(a), "%d/%llu", (int)t.pid, t.start);
		snprintf(b, sizeof(b), "%s: %s", t.comm, st->step);
		fsp_journal_add(k->jp, "stuck", a, b);
	}
	fsp_wd_kill(pid);
	fsp_warn("%s: %s (task %d %s in state %c)", k->dir, out->reason,
		 (int)t.pid, t.comm, t.state ? t.state : '?');
}

/*
 * A killed worker may have changed system-wide knobs (the khugepaged
 * probe's scan knobs): their originals are in the registry (knob.h),
 * held by the worker until it dies. Once it is reaped (a second at
 * most: a task in D state may never go), give back every knob no live
 * run holds, as cleanup would, instead of leaving them changed until
 * the next run or `fsprobe cleanup`. 1 if it was reaped.
 */
static int settle_killed(pid_t pid, const char *dir)
{
	struct timespec ts = { 0, 100 * 1000000L };
	int i, n;

	for (i = 0; i < 10; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			break;
		nanosleep(&ts, NULL);
	}
	if (i == 10)
		return 0;
	n = fsp_knob_release_global(NULL);
	if (n > 0)
		fsp_warn("%s: restored %d system-wide knob(s) the killed "
			 "worker had changed", dir, n);
	return 1;
}

/*
 * Read the worker's result, watching its steps; 0 once it ended, 1 if
 * the watchdog killed it and it was reaped, 2 if it still lives.
 */
static int watch(struct check *k, pid_t pid, int fd,
		 const struct fsp_wd_slot *wd, struct fsp_res_profile *out,
		 char **buf, size_t *len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct fsp_wd_step st;
	int ret = 0;

	while (!ret) {
		if (poll(&pfd, 1, k->step_timeout > 0 ? 1000 : -1) > 0)
			ret = take(fd, buf, len);
		if (!ret && fsp_wd_expired(wd, k->step_timeout, &st)) {
			fire(k, pid, &st, out);
			return settle_killed(pid, k->dir) ? 1 : 2;
		}
	}
	return 0;
}

/*
 * Fork the worker with the signals blocked: it restores their default
 * before it can take one, and the parent forwards any that came
 * meanwhile once it knows the pid.
 */
static pid_t start_worker(struct check *k, struct fsp_wd_slot *wd, int fd[2])
{
	sigset_t set, old;
	pid_t pid;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		fsp_set_signals(SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(fd[0]);
		worker(k, wd, fd[1]);
	}
	worker_pid = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid > 0 && got_signal)
		kill(pid, SIGTERM);
	return pid;
}

/* Run the worker and take its result into out; 2 if it still lives. */
static int run_worker(struct check *k, struct fsp_res_profile *out)
{
	struct fsp_wd_slot *wd = fsp_wd_board_new(1);
	char *buf = NULL, why[128];
	int fd[2], wst = 0, ret = 0;
	size_t len = 0;
	pid_t pid;

	if (!wd || pipe2(fd, O_CLOEXEC)) {
		fsp_res_set_verdict(out, FSP_V_ERROR, "cannot start a worker");
		fsp_wd_board_free(wd, 1);
		return 0;
	}
	pid = start_worker(k, wd, fd);
	close(fd[1]);
	if (pid > 0)
		ret = watch(k, pid, fd[0], wd, out, &buf, &len);
	if (pid > 0 && !ret) {
		waitpid(pid, &wst, 0);
		if (!buf || decode(buf, out)) {
			snprintf(why, sizeof(why), "the check worker gave no "
				 "result (wait status %#x)", wst);
			fsp_res_set_verdict(out, FSP_V_ERROR, why);
		}
	} else if (pid < 0) {
		fsp_res_set_verdict(out, FSP_V_ERROR, "fork failed");
	}
	worker_pid = 0;
	close(fd[0]);
	free(buf);
	fsp_wd_board_free(wd, 1);
	return ret;
}

/* The run directory and journal (as root), stale runs' first. */
static int check_journal(struct check *k, const char *base)
{
	struct fsp_statedir sd;
	int ret;

	if (!base)
		return 0;
	if (fsp_statebase_open(&sd, base))
		return FSP_EXIT_USAGE;
	ret = fsp_journal_create_at(&k->j, &sd);
	if (ret)
		fsp_warn("cannot create run state under %s: %s", sd.path,
			 strerror(-ret));
	fsp_statedir_close(&sd);
	if (ret)
		return FSP_EXIT_USAGE;
	k->jp = &k->j;
	return 0;
}

/* c could not be made: out says why. */
static void no_dir(struct check *k, int err, struct fsp_res_profile *out)
{
	char why[PATH_MAX + 128];

	if (err == -ESTALE)
		snprintf(why, sizeof(why), "%s/.fsprobe-%d is not the "
			 "directory made for this check (replaced by someone "
			 "else?): not used", k->dir, (int)getpid());
	else
		snprintf(why, sizeof(why), "creating %s/.fsprobe-%d: %s",
			 k->dir, (int)getpid(), strerror(-err));
	fsp_res_set_verdict(out, FSP_V_ERROR, why);
}

/* The end: the directory and journal removed, or left to cleanup. */
static void check_finish(struct check *k, int alive)
{
	int ret;

	if (alive) {
		fsp_warn("%s: the killed worker is still alive: its files in "
			 "%s stay until it ends%s", k->dir, k->c.path,
			 k->jp ? "; left for 'fsprobe cleanup'" : "");
		fsp_checkdir_close(&k->c);
		if (k->jp)
			fsp_journal_leave(k->jp);
		return;
	}
	ret = fsp_checkdir_remove(&k->c);
	if (ret && ret != -ENOTCONN)	/* a FUSE server gone: files too */
		fsp_warn("%s: removing %s: %s", k->dir, k->c.path,
			 strerror(-ret));
	if (k->jp)
		fsp_journal_finish(k->jp, NULL);
}

int fsp_check_dir(const char *dir, const struct fsp_run_opts *o,
		  const struct fsp_sysinfo *si, const char *base,
		  int step_timeout, struct fsp_res_profile *out)
{
	struct check k = { .dir = dir, .o = o, .si = si,
			   .step_timeout = step_timeout, .self = getpid() };
	char why[64];
	int ret;

	check_profile(dir, out);
	/* From before anything exists, as `run` does (scheduler.c). */
	fsp_set_signals(on_signal);
	ret = check_journal(&k, base);
	if (ret) {
		fsp_set_signals(SIG_DFL);
		return ret;
	}
	ret = fsp_checkdir_make(&k.c, dir, k.jp);
	if (ret) {
		no_dir(&k, ret, out);
		if (k.jp)
			fsp_journal_finish(k.jp, NULL);
	} else {
		ret = got_signal ? 0 : run_worker(&k, out);
		check_finish(&k, ret == 2);
	}
	if (got_signal) {
		snprintf(why, sizeof(why), "check interrupted by signal %d",
			 (int)got_signal);
		fsp_res_set_verdict(out, FSP_V_ERROR, why);
	}
	fsp_set_signals(SIG_DFL);
	return 0;
}
