// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_matrix.c - `fsprobe matrix -k SPEC -k SPEC ... [-k host]`: the
 * same profiles and probes on several kernels, one document. Each
 * kernel runs in a child process of its own (at most -j at once,
 * default one per CPU): a guest as `vm` boots it (fsp_vm_doc), `host`
 * as `run` (fsp_run_doc); the child writes its run document to a file
 * in a private temporary directory and the parent, which never boots or
 * mounts anything itself, reads them back through the decoder in the
 * order given. A kernel that brought no document (it did not boot, it
 * panicked, it timed out) is a document of `error` profiles with the
 * reason and the console's excerpt, so the grid shows it where it
 * failed instead of losing the column. --debian puts the QA set
 * (debian_set.c) first; a series of it that resolved to no release is
 * such a column, its reason the series'.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "proc.h"
#include "progress.h"
#include "report.h"
#include "util.h"
#include "vm.h"

#define MAX_KERNELS 16

static volatile sig_atomic_t got_signal;
static volatile pid_t kids[MAX_KERNELS];
static struct fsp_kset dset;	/* --debian's set, the kernels' storage */
static const char *unresolved[MAX_KERNELS];	/* why, for such a series */

/* A TERM or HUP sent to us alone reaches the children too. */
static void on_signal(int sig)
{
	got_signal = sig;
	fsp_signal_pids(kids, MAX_KERNELS, sig);
}

static int is_host(const char *spec)
{
	return !strcmp(spec, "host");
}

/* What can be told wrong before anything runs; 0 or the exit code. */
static int check_matrix(struct fsp_cli *cli)
{
	struct fsp_profile *profs = NULL;
	struct fsp_run_opts o;
	char path[PATH_MAX];
	int i, nr = 0, guests = 0, ret;

	if (!cli->nr_kernels)
		return fsp_usage_error("matrix needs -k SPEC, repeatable "
				       "(vmlinuz, tree, .deb, debian:VERSION "
				       "or host)");
	if (cli->format != FMT_TABLE && cli->format != FMT_JSON &&
	    cli->format != FMT_KCIDB && cli->format != FMT_HTML)
		return fsp_usage_error("matrix writes -f table, json, html or "
				       "kcidb");
	for (i = 0; i < cli->nr_kernels; i++) {
		const char *s = cli->kernels[i];

		if (is_host(s) && geteuid())
			return fsp_usage_error("-k host runs `run` here, which "
					       "needs root (loop devices, "
					       "mounts)");
		guests += !is_host(s);
		if (unresolved[i])
			continue;
		if (!is_host(s) && fsp_vm_spec_kind(s) == FSP_VM_SPEC_DEBIAN &&
		    !fsp_vm_debian_version_valid(s + strlen(FSP_VM_DEBIAN)))
			return fsp_usage_error("-k %s: not a kernel version",
					       s);
		if (!is_host(s) && fsp_vm_spec_kind(s) != FSP_VM_SPEC_DEBIAN &&
		    access(s, R_OK)) {
			fsp_warn("-k %s: %s", s, strerror(errno));
			return FSP_EXIT_USAGE;
		}
	}
	/* Bad arguments first, then what this machine lacks. */
	ret = fsp_select_cases(cli, &o);
	if (!ret)
		ret = fsp_select_profiles(cli, &profs, &nr);
	fsp_profile_free_all(profs, nr);
	if (ret)
		return ret;
	if (guests && fsp_proc_find(fsp_vm_qemu(), path, sizeof(path))) {
		fsp_warn("%s not found: install qemu-system-x86 "
			 "(./bootstrap-deps --vm)", fsp_vm_qemu());
		return FSP_EXIT_USAGE;
	}
	return 0;
}

/*
 * The document of a kernel that brought none: every selected profile
 * `error`, why as the reason, the console's lines as its kernel_log.
 */
static struct fsp_res_doc *error_doc(struct fsp_cli *cli, const char *name,
				     const char *why, const char *log)
{
	struct fsp_res_doc *d = calloc(1, sizeof(*d));
	struct fsp_profile *profs = NULL;
	int i, nr = 0;

	if (!d)
		return NULL;
	d->fsprobe = strdup(PACKAGE_VERSION);
	d->kernel = strdup(name);
	d->page_size = d->pmd_order = FSP_RES_ABSENT;
	if (fsp_select_profiles(cli, &profs, &nr))
		nr = 0;
	for (i = 0; i < nr; i++) {
		struct fsp_res_profile *p = fsp_res_add_profile(d);

		if (!p)
			break;
		p->name = strdup(profs[i].name);
		p->fs = strdup(profs[i].fs);
		p->mount_options = strdup(profs[i].mount_options);
		p->has_probes = 0;
		fsp_res_set_verdict(p, FSP_V_ERROR, why);
		if (log && *log)
			p->kernel_log = strdup(log);
	}
	fsp_profile_free_all(profs, nr);
	return d;
}

static int save_doc(const struct fsp_res_doc *doc, const char *path)
{
	struct json_object *o = fsp_res_doc_json(doc);
	int ret = json_object_to_file_ext(path, o, JSON_C_TO_STRING_PLAIN);

	json_object_put(o);
	return ret ? -EIO : 0;
}

/* In the child: kernel spec's document into path; the exit code. */
static int one_kernel(const struct fsp_cli *cli, const char *spec,
		      const char *why_not, const char *path)
{
	struct fsp_cli c = *cli;
	struct fsp_res_doc *doc = NULL;
	struct fsp_vm_out *out = calloc(1, sizeof(*out));
	int ret;

	if (!out)
		return FSP_EXIT_USAGE;
	c.jobs = 0;		/* matrix's -j: kernels, not profiles */
	c.output = NULL;
	c.out = NULL;
	c.nr_kernels = 0;
	c.kernel = spec;
	if (why_not) {
		fsp_strcpy(out->why, sizeof(out->why), why_not);
		ret = FSP_EXIT_USAGE;
	} else if (is_host(spec)) {
		ret = fsp_run_doc(&c, &doc);
		if (!ret && fsp_sched_signal())
			ret = 128 + fsp_sched_signal();
		else if (!ret && !doc)
			ret = FSP_EXIT_USAGE;
		if (ret)
			snprintf(out->why, sizeof(out->why), "the host run "
				 "exited %d", ret);
	} else {
		ret = fsp_vm_doc(&c, out);
		doc = out->doc;
	}
	if (!doc)
		doc = error_doc(&c, out->release[0] ? out->release : spec,
				out->why[0] ? out->why : "no document (see "
				"stderr)", out->log);
	if (doc && save_doc(doc, path))
		ret = FSP_EXIT_USAGE;
	fsp_res_doc_free(doc);
	free(out);
	return ret;
}

struct slot {
	pid_t pid;
	long long t0;
};

static void started(const struct fsp_cli *cli, int k)
{
	if (cli->verbose || isatty(2))
		fsp_progress(FSP_PROGRESS_LINES, "matrix: K%d %s: started",
			     k + 1, cli->kernels[k]);
}

/* Reap one child; its index, or -1 if none is left. */
static int reap(const struct fsp_cli *cli, struct slot *s, int nr)
{
	int status, k;
	pid_t pid;

	do
		pid = wait(&status);
	while (pid < 0 && errno == EINTR);
	if (pid < 0)
		return -1;
	for (k = 0; k < nr && s[k].pid != pid; k++)
		;
	if (k == nr)
		return -2;
	kids[k] = 0;
	s[k].pid = 0;
	if (cli->verbose || isatty(2))
		fsp_progress(FSP_PROGRESS_LINES, "matrix: K%d %s: done in "
			     "%.1f s (exit %d)", k + 1, cli->kernels[k],
			     (fsp_now_ms() - s[k].t0) / 1000.0,
			     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return k;
}

static int start(struct fsp_cli *cli, int k, const char *tmp,
		 struct slot *s)
{
	char path[PATH_MAX];
	pid_t pid;

	if (fsp_fmt(path, sizeof(path), "%s/k%d.json", tmp, k))
		return -ENAMETOOLONG;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		fsp_set_signals(SIG_DFL);
		_exit(one_kernel(cli, cli->kernels[k], unresolved[k], path));
	}
	kids[k] = pid;
	s[k] = (struct slot){ pid, fsp_now_ms() };
	started(cli, k);
	return 0;
}

/* Every kernel, at most jobs at once. */
static int run_all(struct fsp_cli *cli, const char *tmp)
{
	struct slot s[MAX_KERNELS] = { { 0 } };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs = cli->jobs ? cli->jobs : cpus > 0 ? (int)cpus : 1;
	int k, running = 0, ret = 0;

	for (k = 0; k < cli->nr_kernels && !got_signal; k++) {
		while (running >= jobs && reap(cli, s, cli->nr_kernels) != -1)
			running--;
		ret = start(cli, k, tmp, s);
		if (ret)
			break;
		running++;
	}
	while (reap(cli, s, cli->nr_kernels) != -1)
		;
	return ret;
}

/* Each child's document, in the order given, into a matrix. */
static struct fsp_res_matrix *collect(struct fsp_cli *cli, const char *tmp)
{
	struct fsp_res_matrix *m = fsp_res_matrix_new();
	char path[PATH_MAX], err[512];
	int k;

	for (k = 0; m && k < cli->nr_kernels; k++) {
		struct fsp_res_doc *doc = NULL;

		if (fsp_fmt(path, sizeof(path), "%s/k%d.json", tmp, k) ||
		    fsp_res_doc_load(path, &doc, err, sizeof(err))) {
			fsp_warn("-k %s: no document: %s", cli->kernels[k],
				 err);
			doc = error_doc(cli, cli->kernels[k], "its process "
					"left no document", NULL);
		}
		if (!doc || fsp_res_matrix_add(m, doc)) {
			fsp_res_matrix_free(m);
			m = NULL;
		}
	}
	return m;
}

/* --debian: the set, then -k, as the kernels to run. */
static int expand_debian(struct fsp_cli *cli)
{
	int i;

	if (fsp_debian_set(cli, &dset))
		return fsp_usage_error("--debian and -k: at most %d kernels",
				       MAX_KERNELS);
	for (i = 0; i < dset.nr; i++) {
		cli->kernels[i] = dset.e[i].spec;
		unresolved[i] = dset.e[i].why[0] ? dset.e[i].why : NULL;
		if (unresolved[i])
			fsp_warn("--debian: %s (%s): %s", dset.e[i].label,
				 dset.e[i].suite, dset.e[i].why);
	}
	cli->nr_kernels = dset.nr;
	return 0;
}

int fsp_cmd_matrix(struct fsp_cli *cli)
{
	struct fsp_res_matrix *m = NULL;
	char tmp[PATH_MAX];
	int ret;

	if (cli->debian && (ret = expand_debian(cli)))
		return ret;
	ret = check_matrix(cli);
	if (ret)
		return ret;
	if (cli->nr_kernels > MAX_KERNELS)
		return fsp_usage_error("at most %d kernels", MAX_KERNELS);
	if (fsp_vm_mkdtemp("fsprobe-matrix", tmp, sizeof(tmp))) {
		fsp_warn("temporary directory: %s", strerror(errno));
		return FSP_EXIT_USAGE;
	}
	fsp_set_signals(on_signal);
	ret = run_all(cli, tmp);
	if (!ret && !got_signal)
		m = collect(cli, tmp);
	fsp_rmtree(tmp);
	fsp_set_signals(SIG_DFL);
	if (got_signal)
		ret = 128 + got_signal;
	else if (ret || !m)
		ret = FSP_EXIT_USAGE;
	else
		ret = fsp_render_matrix(cli, m);
	if (!ret)
		ret = fsp_matrix_exit_status(m);
	fsp_res_matrix_free(m);
	return ret;
}
