/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * watchdog.h - a time limit on each step of a profile (mkfs, mount,
 * prepare, each probe, umount). The worker says which step it starts in
 * a slot of memory it shares with the parent (a board made before the
 * fork: no message to lose, nothing to read that could block); the
 * parent, which waits for its workers anyway, looks at the board while
 * it waits and, for a step over its limit, records what the stuck task
 * is doing (fsprobe/task.h: state, wait channel, kernel stack; the
 * kernel log since the step began) and kills the worker. A task in D
 * state does not die until the kernel lets it go: the parent does not
 * wait for it.
 */
#ifndef FSP_WATCHDOG_H
#define FSP_WATCHDOG_H

#include <sys/types.h>

#include "result.h"

#define FSP_STEP_TIMEOUT_DEFAULT 300	/* --step-timeout, seconds */

/* One worker's current step; written by the worker, read by the parent. */
struct fsp_wd_slot {
	unsigned int seq;	/* odd while the worker writes */
	long long start_us;	/* CLOCK_MONOTONIC; 0: between steps */
	char step[96];		/* "mkfs", "mount", "probe fault-pmd" */
};

/* n slots in memory shared with children forked later; NULL: ENOMEM. */
struct fsp_wd_slot *fsp_wd_board_new(int n);
void fsp_wd_board_free(struct fsp_wd_slot *b, int n);

/* Worker: step (printf format) starts now / is over. w NULL: no-op. */
void fsp_wd_begin(struct fsp_wd_slot *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fsp_wd_end(struct fsp_wd_slot *w);

/* What the parent saw of a step. */
struct fsp_wd_step {
	char step[96];
	long long start_us;
};

/*
 * Parent: 1 and *st if w's step has run timeout_s seconds or more
 * (timeout_s 0: never), else 0.
 */
int fsp_wd_expired(const struct fsp_wd_slot *w, int timeout_s,
		   struct fsp_wd_step *st);
struct fsp_task;

/*
 * Parent: the step st of worker pid is over its limit. out gets verdict
 * error, "STEP did not finish in N s", and its `watchdog` object (the
 * stuck task, its stack, the kernel log since the step began); *stuck
 * the task found stuck (pid itself or one of its children, such as
 * mkfs) as it was then. The caller journals it, then kills pid
 * (fsp_wd_kill) and does not wait for it.
 */
void fsp_wd_fire(pid_t pid, const struct fsp_wd_step *st, int timeout_s,
		 struct fsp_res_profile *out, struct fsp_task *stuck);
/* SIGKILL to the worker pid (its children die with it: PDEATHSIG). */
void fsp_wd_kill(pid_t pid);
/* Microseconds until the earliest deadline of the n slots, or -1. */
long long fsp_wd_next(const struct fsp_wd_slot *b, int n, int timeout_s);

#endif
