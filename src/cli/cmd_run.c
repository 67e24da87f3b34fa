// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_run.c - `fsprobe run`: the parent. It journals, forks one worker
 * per profile (at most -j at a time), each in its own private mount
 * namespace and dying with the parent (PR_SET_PDEATHSIG), waits for
 * them, and unwinds the journal in normal control flow. Signal handlers
 * only record the signal and forward it to the workers; a second signal
 * does the same, so cleanup always runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cpu.h"
#include "journal.h"
#include "knob.h"
#include "mnt.h"
#include "slots.h"
#include "unwind.h"
#include "util.h"

#define MAX_WORKERS 256

static volatile sig_atomic_t got_signal;
static volatile pid_t workers[MAX_WORKERS];

static void on_signal(int sig)
{
	int i;

	got_signal = sig;
	for (i = 0; i < MAX_WORKERS; i++)
		if (workers[i] > 0)
			kill(workers[i], SIGTERM);
}

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

static void __attribute__((noreturn))
worker(const struct fsp_profile *prof, int idx, const struct fsp_run_opts *o,
       struct fsp_slot_lease *lease, const struct fsp_sysinfo *si,
       struct fsp_journal *j, pid_t parent, int cpu)
{
	struct fsp_res_profile res;
	char path[4096], tmp[4200];

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fsp_set_signals(SIG_DFL);
	if (getppid() != parent)
		_exit(3);	/* parent died before PDEATHSIG was set */
	/* A CPU that went offline: the worker runs unbound, and says so. */
	if (cpu >= 0)
		fsp_cpu_pin(cpu);
	if (unshare(CLONE_NEWNS) || fsp_mnt_make_private()) {
		fsp_profile_result(prof, &res);
		fsp_res_set_verdict(&res, FSP_V_ERROR, "cannot create a "
				    "private mount namespace");
	} else {
		fsp_run_profile(prof, idx, o, lease, si, j, &res);
	}
	cpu = fsp_cpu_pinned();
	res.worker_cpu = cpu >= 0 ? cpu : FSP_RES_NULL;
	if (result_path(j, idx, path, sizeof(path)))
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

	if (!o->progress)
		return;
	fprintf(stderr, "fsprobe: %d of %d done: %s: %s\n", done, nr,
		res && res->name ? res->name : "(null)", v ? v : "(null)");
}

/*
 * fsprobe's own cost, for bench/run: wall time, and the peak RSS of the
 * parent and of the largest worker (whose test mappings it includes).
 */
static void add_resources(struct fsp_res_doc *doc, long long wall_ms,
			  int jobs, const int *cpus, const char *wq_was)
{
	struct rusage self, kids;
	int i;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	doc->has_resources = 1;
	doc->resources.wall_ms = wall_ms;
	doc->resources.jobs = jobs;
	doc->resources.parent_maxrss_kb = self.ru_maxrss;
	doc->resources.worker_maxrss_kb = kids.ru_maxrss;
	doc->resources.worker_cpus = calloc(jobs + 1, sizeof(int));
	for (i = 0; doc->resources.worker_cpus && i < jobs; i++)
		if (cpus[i] >= 0)
			doc->resources.worker_cpus[
				doc->resources.nr_worker_cpus++] = cpus[i];
	if (*wq_was) {
		doc->resources.wq_was = strdup(wq_was);
		doc->resources.wq_during = strdup("cpu");
	}
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
	return p->kind == FSP_PROFILE_IMAGE ? 0 :
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
static int device_wanted(const struct fsp_profile *profs, const int *order,
			 int next, int nr)
{
	for (; next < nr; next++)
		if (fsp_slot_wants_device(&profs[order[next]]))
			return 1;
	return 0;
}

/*
 * While workers run: the slots' devices once no profile left wants one,
 * and the instances of idle slots once nothing is left to start.
 */
static void release_slots(struct fsp_slot *slots, int jobs,
			  const struct fsp_profile *profs, const int *order,
			  int next, int nr)
{
	int i;

	if (device_wanted(profs, order, next, nr))
		return;
	for (i = 0; i < jobs; i++) {
		fsp_slot_release_device(&slots[i]);
		if (next == nr && workers[i] <= 0)
			fsp_slot_release_instance(&slots[i]);
	}
}

int fsp_cmd_run(struct fsp_cli *cli)
{
	struct fsp_profile *profs = NULL;
	struct fsp_res_profile **results;
	struct fsp_res_doc *doc;
	struct fsp_unwind_stats st;
	struct fsp_run_opts o;
	struct fsp_slot_lease lease;
	struct fsp_sysinfo si;
	struct fsp_journal j;
	struct fsp_knobs run_knobs = { .nr = 0 };
	char wq_was[64] = "";
	const char *base = getenv("FSPROBE_STATE_DIR");
	int *status, nr = 0, next = 0, running = 0, done = 0, jobs, i, ret;
	int *finished, nr_finished = 0, slot, p, *order, *cpus;
	struct fsp_slot *slots;
	pid_t *pids, self = getpid();
	long long t0;

	ret = fsp_enter_privileged("run", "loop devices, mounts");
	if (ret)
		return ret;
	memset(&o, 0, sizeof(o));
	ret = fsp_select_cases(cli, &o);
	if (ret)
		return ret;
	ret = fsp_select_profiles(cli, &profs, &nr);
	if (ret)
		return ret;
	o.size_mb = cli->size_mb;
	o.keep = cli->keep;
	o.verbose = cli->verbose;
	o.progress = cli->verbose || isatty(2);
	o.nr_profiles = nr;
	o.payload_dir = fsp_payload_dir();
	fsp_sysinfo_read(&si);
	base = base && *base ? base : FSP_STATE_BASE;

	/* A crashed predecessor's leftovers go first (never a live run's). */
	if (!fsp_journal_cleanup_stale(base, &st) && st.runs)
		fsp_warn("removed what %d killed run(s) left: %d loop, %d "
			 "knob, %d file(s)", st.runs, st.loops, st.knobs,
			 st.files);
	/*
	 * From before the run directory exists: a signal in the window up
	 * to the first fork would otherwise kill us with the directory
	 * left behind. One that arrives now stops the run before any
	 * worker starts, and the journal is unwound as usual.
	 */
	fsp_set_signals(on_signal);
	ret = fsp_journal_create(&j, base);
	if (ret) {
		fsp_set_signals(SIG_DFL);
		fsp_warn("cannot create run state under %s: %s", base,
			 ret == -EPERM ? "not a root-owned 0700 directory" :
			 strerror(-ret));
		fsp_profile_free_all(profs, nr);
		return FSP_EXIT_USAGE;
	}
	results = calloc(nr, sizeof(*results));
	status = calloc(nr, sizeof(*status));
	pids = calloc(nr, sizeof(*pids));
	finished = calloc(nr, sizeof(*finished));
	jobs = cli->jobs ? cli->jobs : default_jobs();
	slots = calloc(jobs, sizeof(*slots));
	order = start_order(profs, nr);
	cpus = slot_cpus(jobs);
	if (!results || !status || !pids || !finished || !slots || !order ||
	    !cpus) {
		fsp_warn("out of memory");
		fsp_journal_finish(&j, NULL);
		fsp_set_signals(SIG_DFL);
		ret = FSP_EXIT_USAGE;
		goto out;
	}
	/*
	 * Bound workers: their loop I/O and writeback on their own CPUs
	 * too (fsprobe/cpu.h). Restored after the loop below, which every
	 * path through here reaches, signals included.
	 */
	if (cpus[0] >= 0 &&
	    !fsp_cpu_wq_scope_local(&run_knobs, &j, wq_was, sizeof(wq_was)) &&
	    o.verbose)
		fprintf(stderr, "fsprobe: workqueue affinity scope %s -> cpu "
			"for this run\n", wq_was);
	t0 = fsp_now_ms();

	while (done < nr) {
		pid_t pid;
		int wst;

		while (!got_signal && running < jobs && next < nr) {
			p = order[next++];
			slot = free_slot();
			fsp_slot_lend(&slots[slot], slot, &j, &profs[p],
				      &lease);
			fflush(NULL);
			pid = fork();
			if (pid == 0)
				worker(&profs[p], p, &o, &lease, &si, &j, self,
				       cpus[slot]);
			if (pid < 0) {
				fsp_slot_returned(&slots[slot], 1);
				status[p] = 0;
				results[p] = no_result(&profs[p], FSP_V_ERROR,
						       "fork failed");
				done++;
				continue;
			}
			pids[p] = pid;
			worker_slot(pid, 0);
			running++;
		}
		if (next == nr)
			fsp_slots_nothing_left(slots, jobs);
		for (i = 0; i < jobs; i++)
			fsp_slot_settle(&slots[i], &j);
		if (!got_signal)
			release_slots(slots, jobs, profs, order, next, nr);
		/*
		 * A finished profile's image and directory go while the next
		 * one runs. Only after a clean exit: a killed worker's loop
		 * device may still point at its image, and the journal's
		 * unwind checks that before it detaches and removes.
		 */
		while (nr_finished > 0 && !cli->keep)
			fsp_remove_profile_dir(&j, finished[--nr_finished]);
		if (got_signal && !running)
			break;
		if (!running)
			continue;
		pid = waitpid(-1, &wst, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < nr; i++) {
			if (results[i] || pids[i] != pid)
				continue;
			slot = worker_slot(0, pid);
			fsp_slot_returned(&slots[slot], WIFEXITED(wst) &&
					  !WEXITSTATUS(wst));
			status[i] = wst;
			results[i] = collect(&profs[i], i, &j, wst);
			if (WIFEXITED(wst) && !WEXITSTATUS(wst))
				finished[nr_finished++] = i;
			running--;
			done++;
			progress(&o, done, nr, results[i]);
			break;
		}
	}
	fsp_knob_restore_all(&run_knobs);
	/* Profiles never started (interrupted) are reported as such. */
	for (i = 0; i < nr; i++)
		if (!results[i])
			results[i] = collect(&profs[i], i, &j, -1);

	doc = fsp_res_doc_new(&si);
	for (i = 0; i < nr; i++) {
		if (doc && results[i])
			fsp_res_take_profile(doc, results[i]);
		free(results[i]);
	}
	if (doc)
		add_resources(doc, fsp_now_ms() - t0, jobs, cpus, wq_was);
	fsp_slots_finish(slots, jobs);
	if (cli->keep)
		fprintf(stderr, "fsprobe: kept run directory %s\n", j.dir);
	else
		fsp_journal_finish(&j, NULL);
	fsp_set_signals(SIG_DFL);

	ret = doc ? fsp_render(cli, doc) : FSP_EXIT_USAGE;
	if (!ret)
		ret = fsp_doc_exit_status(doc);
	if (got_signal)
		ret = 128 + got_signal;
	fsp_res_doc_free(doc);
out:
	free(results);
	free(status);
	free(pids);
	free(finished);
	free(slots);
	free(order);
	free(cpus);
	fsp_profile_free_all(profs, nr);
	return ret;
}
