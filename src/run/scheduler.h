/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scheduler.h - the run engine behind `fsprobe run`: it journals, forks
 * one worker per profile (at most jobs at a time), each in its own
 * private mount namespace and dying with the parent (PR_SET_PDEATHSIG),
 * lends each the worker slot's loop device and tracefs instance (slots.h),
 * binds slot i to a CPU of its own, waits for the workers, collects
 * their results and unwinds the journal in normal control flow. The
 * signal handler only records the signal and forwards SIGTERM to the
 * workers; a second signal does the same, so cleanup always runs.
 */
#ifndef FSP_SCHEDULER_H
#define FSP_SCHEDULER_H

#include <sys/types.h>

#include "profile.h"
#include "result.h"
#include "runner.h"

struct fsp_sched_opts {
	const char *base;	/* state base (FSPROBE_STATE_DIR) */
	int jobs;		/* -j; 0: one per online CPU */
	int tune_wq;		/* --tune-workqueue: scope "cpu" if bound */
	int step_timeout;	/* --step-timeout, seconds; 0: none */
};

/*
 * Run the profiles; *doc gets the document (every profile, in profile
 * order, and resources; NULL without memory). Returns 0 once the run
 * ran, or FSP_EXIT_USAGE if it could not start (the reason printed on
 * stderr; *doc NULL).
 */
int fsp_sched_run(const struct fsp_profile *profs, int nr,
		  const struct fsp_run_opts *o,
		  const struct fsp_sched_opts *so, struct fsp_res_doc **doc);

/* The signal that interrupted the last fsp_sched_run, or 0. */
int fsp_sched_signal(void);

/* SIGINT, SIGTERM and SIGHUP to handler (SIG_DFL to restore). */
void fsp_set_signals(void (*handler)(int));

/* From a signal handler: sig to each of the n pids that is > 0. */
void fsp_signal_pids(const volatile pid_t *pids, int n, int sig);

#endif
