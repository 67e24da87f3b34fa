/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * task.h - what a task that does not come back is doing, for the
 * watchdog (src/run/watchdog.h): its state, comm and start time from
 * /proc/PID/stat, its wait channel, its kernel stack (/proc/PID/stack:
 * root only, and not on every kernel), and which task of a process tree
 * is the one stuck in uninterruptible sleep (D state), the worker itself
 * or a child such as mkfs. Read-only; 0 or -errno.
 */
#ifndef FSP_TASK_H
#define FSP_TASK_H

#include <stddef.h>
#include <sys/types.h>

struct fsp_task {
	pid_t pid;
	pid_t ppid;
	char comm[32];
	char state;			/* R, S, D, Z, T...; 0: unknown */
	unsigned long long start;	/* starttime, clock ticks after boot */
	char wchan[128];		/* "" when unreadable or running */
};

/* /proc/PID/stat and /proc/PID/wchan of pid (a thread id works too). */
int fsp_task_read(pid_t pid, struct fsp_task *t);
/*
 * /proc/PID/stack into buf, one "function+off/len" a line, the "[<0>] "
 * address prefixes dropped; truncated to len. 0 or -errno (EACCES
 * without root, ENOENT where the kernel has no stack file).
 */
int fsp_task_stack(pid_t pid, char *buf, size_t len);
/*
 * The task of pid's tree (its threads, its descendants) that is in D
 * state, the deepest first found; pid itself when none is. Threads and
 * children that come and go while it looks are skipped.
 */
pid_t fsp_task_stuck(pid_t pid);
/* Is pid alive with this start time (not a recycled pid)? 1, 0. */
int fsp_task_alive(pid_t pid, unsigned long long start);

#endif
