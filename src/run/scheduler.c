// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scheduler.c - the run engine (scheduler.h): a run's state in one
 * struct, and its steps: run_start (journal, slots, CPUs, the workqueue
 * knob), start_workers (fork up to -j), reap_one (waitpid, collect,
 * progress, release), run_finish (restore knobs, never-started profiles,
 * the document, unwind); worker() is the child's whole life.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu.h"
#include "journal.h"
#include "knob.h"
#include "mnt.h"
#include "progress.h"
#include "report.h"
#include "scheduler.h"
#include "slots.h"
#include "unwind.h"
#include "task.h"
#include "util.h"
#include "watchdog.h"

#define MAX_WORKERS 256

/*
 * The signal handler's state, and all of it: the signal it recorded,
 * and the pids of the live workers, indexed by worker slot (0: the slot
 * is free), which it walks to forward SIGTERM. Both are written by the
 * parent's normal control flow only between forks and reaps, one
 * sig_atomic_t-sized store at a time, and read by the handler, which
 * calls only kill(2) (async-signal-safe). The slot table doubles as the
 * parent's record of which worker runs in which slot.
 */
static volatile sig_atomic_t got_signal;
static volatile pid_t workers[MAX_WORKERS];

static void on_signal(int sig)
{
	got_signal = sig;
	fsp_signal_pids(workers, MAX_WORKERS, SIGTERM);
}

void fsp_signal_pids(const volatile pid_t *pids, int n, int sig)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], sig);
}

void fsp_set_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int fsp_sched_signal(void)
{
	return got_signal;
}

/* One run's state, from run_start to run_finish. */
struct run {
	const struct fsp_profile *profs;
	int nr;
	const struct fsp_run_opts *o;
	const struct fsp_sched_opts *so;
	struct fsp_sysinfo si;
	struct fsp_journal j;
	struct fsp_knobs knobs;		/* system-wide knobs set for the run */
	char wq_was[64];		/* the scope before, "" untouched */
	struct fsp_res_profile **results;	/* by profile index */
	int *status;			/* wait status, by profile index */
	pid_t *pids;			/* worker pid, by profile index */
	int *finished;			/* cleanly exited, dir to remove */
	int nr_finished;
	int *order;			/* start order (start_order) */
	struct fsp_wd_slot *wd;		/* each worker's step, by profile */
	int *fired;			/* the watchdog killed its worker */
	pid_t *stuck;			/* ... and found this task stuck */
	unsigned long long *stuck_start;	/* (its start time) */
	sigset_t old_mask;		/* before SIGCHLD was blocked */
	struct fsp_slot *slots;
	int *cpus;			/* slot i's CPU, or -1 */
	int jobs;
	int next, running, done;	/* order[next] starts next */
	pid_t self;
	long long t0;
};

/*
 * Put pid into a free slot (old == 0) or clear the slot holding old;
 * returns the slot.
 */
static int worker_slot(pid_t pid, pid_t old)
{
	int i;

	for (i = 0; i < MAX_WORKERS; i++) {
		if (workers[i] == old) {
			workers[i] = pid;
			return i;
		}
	}
	return 0;
}

static int free_slot(void)
{
	int i;

	for (i = 0; i < MAX_WORKERS; i++)
		if (!workers[i])
			return i;
	return 0;
}

static int result_path(const struct fsp_journal *j, int idx, char *buf,
		       size_t len)
{
	char name[32];

	snprintf(name, sizeof(name), "result-%03d.json", idx);
	return fsp_journal_path(j, buf, len, name);
}

/* The child: run profile p in slot's lease, save its result, exit. */
static void __attribute__((noreturn))
worker(struct run *r, int p, struct fsp_slot_lease *lease, int cpu)
{
	const struct fsp_profile *prof = &r->profs[p];
	struct fsp_run_opts o = *r->o;
	struct fsp_res_profile res;
	char path[4096], tmp[4200];

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fsp_set_signals(SIG_DFL);
	sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
	/* The run's knobs are the parent's to hold and restore. */
	fsp_knob_forget_inherited(&r->knobs);
	o.wd = &r->wd[p];
	if (getppid() != r->self)
		_exit(3);	/* parent died before PDEATHSIG was set */
	/* A CPU that went offline: the worker runs unbound, and says so. */
	if (cpu >= 0)
		fsp_cpu_pin(cpu);
	if (unshare(CLONE_NEWNS) || fsp_mnt_make_private()) {
		fsp_profile_result(prof, &res);
		fsp_res_set_verdict(&res, FSP_V_ERROR, "cannot create a "
				    "private mount namespace");
	} else {
		fsp_run_profile(prof, p, &o, lease, &r->si, &r->j, &res);
	}
	cpu = fsp_cpu_pinned();
	res.worker_cpu = cpu >= 0 ? cpu : FSP_RES_NULL;
	if (result_path(&r->j, p, path, sizeof(path)))
		_exit(4);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (fsp_res_profile_save(&res, tmp) || rename(tmp, path))
		_exit(5);
	fsp_res_profile_clear(&res);
	_exit(0);
}

/* A profile that has no worker's result: verdict v, and why. */
static struct fsp_res_profile *no_result(const struct fsp_profile *prof,
					 enum fsp_verdict_id v,
					 const char *why)
{
	struct fsp_res_profile *res = malloc(sizeof(*res));

	if (!res)
		return NULL;
	fsp_profile_result(prof, res);
	fsp_res_set_verdict(res, v, why);
	return res;
}

/* Profile idx's result file, or why there is none (status -1: never ran). */
static struct fsp_res_profile *collect(const struct fsp_profile *prof,
				       int idx, struct fsp_journal *j,
				       int status)
{
	struct fsp_res_profile *res;
	char path[4096], why[512];

	if (!result_path(j, idx, path, sizeof(path)) &&
	    !access(path, R_OK)) {
		res = malloc(sizeof(*res));
		if (res && !fsp_res_profile_load(path, res, why, sizeof(why)))
			return res;
		if (res)
			fsp_warn("%s", why);
		free(res);
	}
	if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "worker killed by signal %d%s",
			 WTERMSIG(status), got_signal ? " (run interrupted)" :
			 "");
	else if (status == -1)
		snprintf(why, sizeof(why), "not run: run interrupted");
	else
		snprintf(why, sizeof(why), "worker exited %d without a result",
			 WEXITSTATUS(status));
	return no_result(prof, status == -1 ? FSP_V_SKIP : FSP_V_ERROR, why);
}

static void progress(const struct fsp_run_opts *o, int done, int nr,
		     const struct fsp_res_profile *res)
{
	const char *v = res ? fsp_res_verdict_name(res) : NULL;

	fsp_progress(o->progress, "%d of %d done: %s: %s", done, nr,
		     res && res->name ? res->name : "(null)", v ? v : "(null)");
}

/* One resources.knobs item (fsp_journal_knobs' callback). */
static void add_knob(void *arg, const struct fsp_knob_change *c)
{
	struct fsp_res_doc *doc = arg;
	struct fsp_res_knob *k, *more;

	more = realloc(doc->resources.knobs,
		       (doc->resources.nr_knobs + 1) * sizeof(*more));
	if (!more)
		return;
	doc->resources.knobs = more;
	k = &more[doc->resources.nr_knobs];
	k->path = strdup(c->path);
	k->was = strdup(c->was);
	k->during = strdup(c->during);
	k->restored = c->restored;
	if (k->path && k->was && k->during) {
		doc->resources.nr_knobs++;
		return;
	}
	free(k->path);
	free(k->was);
	free(k->during);
}

/*
 * resources.knobs: every system-wide knob the run changed, the parent's
 * (the workqueue scope) and its workers' (a probe's), from the journal,
 * where each change and its restore are written (knob.c).
 */
static void add_knobs(struct run *r, struct fsp_res_doc *doc)
{
	doc->resources.knobs = calloc(1, sizeof(*doc->resources.knobs));
	fsp_journal_knobs(&r->j, add_knob, doc);
}

/*
 * fsprobe's own cost, for bench/run: wall time, and the peak RSS of the
 * parent and of the largest worker (whose test mappings it includes);
 * and the system-wide knobs it changed.
 */
static void add_resources(struct run *r, struct fsp_res_doc *doc)
{
	struct rusage self, kids;
	int i;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	doc->has_resources = 1;
	doc->resources.wall_ms = fsp_now_ms() - r->t0;
	doc->resources.jobs = r->jobs;
	doc->resources.parent_maxrss_kb = self.ru_maxrss;
	doc->resources.worker_maxrss_kb = kids.ru_maxrss;
	doc->resources.worker_cpus = calloc(r->jobs + 1, sizeof(int));
	for (i = 0; doc->resources.worker_cpus && i < r->jobs; i++)
		if (r->cpus[i] >= 0)
			doc->resources.worker_cpus[
				doc->resources.nr_worker_cpus++] = r->cpus[i];
	if (r->wq_was[0]) {
		doc->resources.wq_was = strdup(r->wq_was);
		doc->resources.wq_during = strdup("cpu");
	}
	add_knobs(r, doc);
}

static int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

/*
 * cpus[i]: the CPU of worker slot i, or -1 for none. With several
 * workers slot i is bound to the i-th CPU this process may use (why: see
 * fsprobe/cpu.h); not with one worker (nothing to keep apart), nor with
 * more workers than CPUs (the scheduler must balance them), nor with
 * FSPROBE_PIN_CPUS=0.
 */
static int *slot_cpus(int jobs)
{
	const char *e = getenv("FSPROBE_PIN_CPUS");
	int *cpus = calloc(jobs, sizeof(*cpus));
	cpu_set_t allowed;
	int i, pin;

	if (!cpus)
		return NULL;
	pin = jobs > 1 && fsp_cpu_allowed(&allowed) >= jobs &&
	      !(e && !strcmp(e, "0"));
	for (i = 0; i < jobs; i++)
		cpus[i] = pin ? fsp_cpu_nth(&allowed, i) : -1;
	return cpus;
}

/*
 * Longest first, so that with -j N the slots run out of work close
 * together: profiles whose mkfs builds an image from files (squashfs,
 * erofs: the longest here, 300-400 ms) start first, profiles on memory
 * filesystems (no mkfs, no device, no writeback) last, and the slots'
 * loop devices go while those run. Results stay in profile order.
 * Measured, 10 alternating runs of -j 2: 2115 against 2252 ms (median)
 * with the image builders in their alphabetical place, 9 runs of 10
 * faster.
 */
static int start_rank(const struct fsp_profile *p)
{
	return p->staged ? 0 :
	       p->kind == FSP_PROFILE_MEMORY ? 2 : 1;
}

static int *start_order(const struct fsp_profile *profs, int nr)
{
	int *order = calloc(nr ? nr : 1, sizeof(*order));
	int i, n = 0, rank;

	if (!order)
		return NULL;
	for (rank = 0; rank < 3; rank++)
		for (i = 0; i < nr; i++)
			if (start_rank(&profs[i]) == rank)
				order[n++] = i;
	return order;
}

/* Does a profile not yet started want a slot's loop device? */
static int device_wanted(const struct run *r)
{
	int next;

	for (next = r->next; next < r->nr; next++)
		if (fsp_slot_wants_device(&r->profs[r->order[next]]))
			return 1;
	return 0;
}

/*
 * While workers run: the slots' devices once no profile left wants one,
 * and the instances of idle slots once nothing is left to start.
 */
static void release_slots(struct run *r)
{
	int i;

	if (device_wanted(r))
		return;
	for (i = 0; i < r->jobs; i++) {
		fsp_slot_release_device(&r->slots[i]);
		if (r->next == r->nr && workers[i] <= 0)
			fsp_slot_release_instance(&r->slots[i]);
	}
}

static void run_free(struct run *r)
{
	free(r->results);
	free(r->status);
	free(r->pids);
	free(r->finished);
	free(r->slots);
	free(r->order);
	free(r->cpus);
	free(r->fired);
	free(r->stuck);
	free(r->stuck_start);
	fsp_wd_board_free(r->wd, r->nr);
}

/*
 * Bound workers, with --tune-workqueue: their loop I/O and writeback on
 * their own CPUs too (fsprobe/cpu.h). Restored in run_finish, which
 * every path reaches, signals included.
 */
static void tune_workqueue(struct run *r)
{
	if (!r->so->tune_wq || r->cpus[0] < 0)
		return;
	if (!fsp_cpu_wq_scope_local(&r->knobs, &r->j, r->wq_was,
				    sizeof(r->wq_was)) && r->o->verbose)
		fprintf(stderr, "fsprobe: workqueue affinity scope %s -> cpu "
			"for this run\n", r->wq_was);
}

/*
 * SIGCHLD blocked: the parent waits for it with a timeout (wait_child),
 * so that the watchdog looks at the workers' steps while they run.
 * Workers restore the mask before anything else.
 */
static void block_sigchld(struct run *r)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &r->old_mask);
}

/*
 * A run's images are sparse files in the state directory, and mkfs and
 * the case files fill some of each: below this, a run would only end in
 * workers that cannot write their results ("exited 5 without a result").
 */
#define STATE_MIN_FREE	(64ULL << 20)

/* Refuse, before anything is made there, a state dir with no room. */
static int state_room(const char *base)
{
	unsigned long long free_b;

	if (fsp_free_bytes(base, &free_b) || free_b >= STATE_MIN_FREE)
		return 0;	/* unreadable: journal creation will say why */
	fsp_warn("state directory %s: %s (%llu KiB free, a run needs %llu "
		 "MiB): free some or set FSPROBE_STATE_DIR", base,
		 strerror(ENOSPC), free_b >> 10, STATE_MIN_FREE >> 20);
	return FSP_EXIT_USAGE;
}

/* The journal, the signal handlers, the state arrays; 0 or exit code. */
static int run_start(struct run *r)
{
	struct fsp_unwind_stats st;
	int ret;

	/* A crashed predecessor's leftovers go first (never a live run's). */
	if (!fsp_journal_cleanup_stale(r->so->base, &st) && st.runs)
		fsp_warn("removed what %d killed run(s) left: %d loop, "
			 "%d dm, %d knob, %d FUSE server(s), %d file(s)",
			 st.runs, st.loops, st.dms, st.knobs, st.servers,
			 st.files);
	/*
	 * From before the run directory exists: a signal in the window up
	 * to the first fork would otherwise kill us with the directory
	 * left behind. One that arrives now stops the run before any
	 * worker starts, and the journal is unwound as usual.
	 */
	ret = state_room(r->so->base);
	if (ret)
		return ret;
	fsp_set_signals(on_signal);
	ret = fsp_journal_create(&r->j, r->so->base);
	if (ret) {
		fsp_set_signals(SIG_DFL);
		fsp_warn("cannot create run state under %s: %s",
			 r->so->base, ret == -EPERM ?
			 "not a root-owned 0700 directory" : strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	r->results = calloc(r->nr, sizeof(*r->results));
	r->status = calloc(r->nr, sizeof(*r->status));
	r->pids = calloc(r->nr, sizeof(*r->pids));
	r->finished = calloc(r->nr, sizeof(*r->finished));
	r->jobs = r->so->jobs ? r->so->jobs : default_jobs();
	r->slots = calloc(r->jobs, sizeof(*r->slots));
	r->order = start_order(r->profs, r->nr);
	r->cpus = slot_cpus(r->jobs);
	r->wd = fsp_wd_board_new(r->nr);
	r->fired = calloc(r->nr, sizeof(*r->fired));
	r->stuck = calloc(r->nr, sizeof(*r->stuck));
	r->stuck_start = calloc(r->nr, sizeof(*r->stuck_start));
	if (!r->results || !r->status || !r->pids || !r->finished ||
	    !r->slots || !r->order || !r->cpus || !r->wd || !r->fired ||
	    !r->stuck || !r->stuck_start) {
		fsp_warn("out of memory");
		fsp_journal_finish(&r->j, NULL);
		fsp_set_signals(SIG_DFL);
		run_free(r);
		return FSP_EXIT_USAGE;
	}
	tune_workqueue(r);
	block_sigchld(r);
	r->t0 = fsp_now_ms();
	return 0;
}

/* Fork workers for the next profiles while a slot is free. */
static void start_workers(struct run *r)
{
	struct fsp_slot_lease lease;
	pid_t pid;
	int p, slot;

	while (!got_signal && r->running < r->jobs && r->next < r->nr) {
		p = r->order[r->next++];
		slot = free_slot();
		fsp_slot_lend(&r->slots[slot], slot, &r->j, &r->profs[p],
			      &lease);
		fflush(NULL);
		pid = fork();
		if (pid == 0)
			worker(r, p, &lease, r->cpus[slot]);
		if (pid < 0) {
			fsp_slot_returned(&r->slots[slot], 1);
			r->status[p] = 0;
			r->results[p] = no_result(&r->profs[p], FSP_V_ERROR,
						  "fork failed");
			r->done++;
			continue;
		}
		r->pids[p] = pid;
		worker_slot(pid, 0);
		r->running++;
	}
}

/* Between forks and reaps: the slots' housekeeping, finished dirs. */
static void tidy(struct run *r)
{
	int i;

	if (r->next == r->nr)
		fsp_slots_nothing_left(r->slots, r->jobs);
	for (i = 0; i < r->jobs; i++)
		fsp_slot_settle(&r->slots[i], &r->j);
	if (!got_signal)
		release_slots(r);
	/*
	 * A finished profile's image and directory go while the next one
	 * runs. Only after a clean exit: a killed worker's loop device may
	 * still point at its image, and the journal's unwind checks that
	 * before it detaches and removes.
	 */
	while (r->nr_finished > 0 && !r->o->keep)
		fsp_remove_profile_dir(&r->j, r->finished[--r->nr_finished]);
}

/*
 * A worker waiting for a FUSE server of its profile that stopped
 * answering does not die of SIGKILL while the server lives (a request
 * sent is waited for uninterruptibly); killing the server aborts its
 * connection and lets the worker go. The servers are ours: journalled
 * by pid and start time.
 */
static void kill_servers(struct run *r, int i)
{
	char dir[PATH_MAX];

	if (!fsp_run_profile_dir(&r->j, i, dir, sizeof(dir)))
		fsp_journal_kill_servers(&r->j, dir);
}

/*
 * A step over its limit: the profile is `error` with what the stuck
 * task was doing, the journal names the task (cleanup must know what
 * holds the profile's resources), its worker is killed and its slot
 * taken back; the run goes on without waiting for it.
 */
static void fire(struct run *r, int i, const struct fsp_wd_step *st)
{
	int slot, to = r->so->step_timeout;
	char a[64], b[256];
	struct fsp_task t;

	r->results[i] = no_result(&r->profs[i], FSP_V_ERROR, NULL);
	if (!r->results[i])
		return;
	fsp_wd_fire(r->pids[i], st, to, r->results[i], &t);
	r->stuck[i] = t.pid;
	r->stuck_start[i] = t.start;
	r->wd[i].start_us = 0;
	r->fired[i] = 1;
	snprintf(a, sizeof(a), "%d/%llu", (int)t.pid, t.start);
	snprintf(b, sizeof(b), "%s: %s", t.comm, st->step);
	fsp_journal_add(&r->j, "stuck", a, b);
	fsp_wd_kill(r->pids[i]);
	kill_servers(r, i);
	fsp_warn("%s: %s (task %d %s in state %c)", r->profs[i].name,
		 r->results[i]->reason, (int)r->stuck[i], t.comm,
		 t.state ? t.state : '?');
	slot = worker_slot(0, r->pids[i]);
	fsp_slot_returned(&r->slots[slot], 0);
	r->running--;
	r->done++;
	progress(r->o, r->done, r->nr, r->results[i]);
}

static void watchdog(struct run *r)
{
	struct fsp_wd_step st;
	int i;

	for (i = 0; i < r->nr; i++)
		if (!r->results[i] && r->pids[i] > 0 &&
		    fsp_wd_expired(&r->wd[i], r->so->step_timeout, &st))
			fire(r, i, &st);
}

/*
 * Until a child changes state, a signal arrives or a second passes (a
 * step that starts meanwhile is not on the board yet; and a SIGCHLD
 * taken by a thread that has it unblocked is never lost for long), or,
 * with a step timeout, the next deadline passes.
 */
static void wait_child(struct run *r)
{
	long long us = fsp_wd_next(r->wd, r->nr, r->so->step_timeout);
	struct timespec ts;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	if (us < 0 || us > 1000000)
		us = 1000000;
	us += 1000;
	ts.tv_sec = us / 1000000;
	ts.tv_nsec = (us % 1000000) * 1000;
	sigtimedwait(&set, NULL, &ts);
	watchdog(r);
}

/* A worker the watchdog killed exited after all: forget it. */
static int reaped_fired(struct run *r, pid_t pid)
{
	int i;

	for (i = 0; i < r->nr; i++)
		if (r->fired[i] == 1 && r->pids[i] == pid) {
			r->fired[i] = 2;
			return 1;
		}
	return 0;
}

/* Wait for one worker and collect it: 0, or -1 to stop waiting. */
static int reap_one(struct run *r)
{
	int i, wst, slot, clean;
	pid_t pid = waitpid(-1, &wst, WNOHANG);

	if (pid == 0) {
		wait_child(r);
		return 0;
	}
	if (pid < 0)
		return errno == EINTR ? 0 : -1;
	if (reaped_fired(r, pid))
		return 0;
	for (i = 0; i < r->nr; i++) {
		if (r->results[i] || r->pids[i] != pid)
			continue;
		clean = WIFEXITED(wst) && !WEXITSTATUS(wst);
		slot = worker_slot(0, pid);
		fsp_slot_returned(&r->slots[slot], clean);
		r->status[i] = wst;
		r->results[i] = collect(&r->profs[i], i, &r->j, wst);
		if (clean)
			r->finished[r->nr_finished++] = i;
		r->running--;
		r->done++;
		progress(r->o, r->done, r->nr, r->results[i]);
		break;
	}
	return 0;
}

/*
 * The workers the watchdog killed: reaped if they died, within two
 * seconds. 1 if a stuck task lives on: what it holds (a mount, the loop
 * device under it) cannot be released, and the run directory stays for
 * `fsprobe cleanup`, its journal naming the task.
 */
static int settle_fired(struct run *r)
{
	struct timespec ts = { 0, 100 * 1000000L };
	int i, round, alive = 0;
	struct fsp_task t;

	for (round = 0; round < 20; round++) {
		alive = 0;
		for (i = 0; i < r->nr; i++) {
			if (!r->fired[i])
				continue;
			if (r->fired[i] == 1 &&
			    waitpid(r->pids[i], NULL, WNOHANG) == r->pids[i])
				r->fired[i] = 2;
			alive += fsp_task_alive(r->stuck[i],
						r->stuck_start[i]);
		}
		if (!alive)
			return 0;
		nanosleep(&ts, NULL);
	}
	for (i = 0; i < r->nr; i++)
		if (r->fired[i] && fsp_task_alive(r->stuck[i],
						  r->stuck_start[i]) &&
		    !fsp_task_read(r->stuck[i], &t))
			fsp_warn("%s: task %d (%s) is still stuck (state %c); "
				 "what it holds stays: run directory %s is "
				 "left for 'fsprobe cleanup'",
				 r->profs[i].name, (int)t.pid, t.comm,
				 t.state, r->j.dir);
	return 1;
}

/* Restore, fill in what never ran, build the document, unwind. */
static struct fsp_res_doc *run_finish(struct run *r)
{
	struct fsp_res_doc *doc;
	int i;

	fsp_progress_clear();
	fsp_knob_restore_all(&r->knobs);
	/* Profiles never started (interrupted) are reported as such. */
	for (i = 0; i < r->nr; i++)
		if (!r->results[i])
			r->results[i] = collect(&r->profs[i], i, &r->j, -1);
	doc = fsp_res_doc_new(&r->si);
	for (i = 0; i < r->nr; i++) {
		if (doc && r->results[i])
			fsp_res_take_profile(doc, r->results[i]);
		free(r->results[i]);
	}
	if (doc)
		add_resources(r, doc);
	fsp_slots_finish(r->slots, r->jobs);
	if (settle_fired(r))
		fsp_journal_leave(&r->j);
	else if (r->o->keep)
		fprintf(stderr, "fsprobe: kept run directory %s\n", r->j.dir);
	else
		fsp_journal_finish(&r->j, NULL);
	sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
	fsp_set_signals(SIG_DFL);
	run_free(r);
	return doc;
}

int fsp_sched_run(const struct fsp_profile *profs, int nr,
		  const struct fsp_run_opts *o,
		  const struct fsp_sched_opts *so, struct fsp_res_doc **doc)
{
	struct run r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.profs = profs;
	r.nr = nr;
	r.o = o;
	r.so = so;
	r.self = getpid();
	*doc = NULL;
	fsp_sysinfo_read(&r.si);
	ret = run_start(&r);
	if (ret)
		return ret;
	while (r.done < r.nr) {
		start_workers(&r);
		tidy(&r);
		if (got_signal && !r.running)
			break;
		if (!r.running)
			continue;
		if (reap_one(&r))
			break;
	}
	*doc = run_finish(&r);
	return 0;
}
