/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu.h - one CPU per worker. With several workers the scheduler's
 * wake-affine placement puts a worker woken by a loop kworker on the
 * kworker's CPU, often the one the other worker runs on, while its own
 * CPU idles until the load balancer moves it back; a worker bound to a
 * CPU of its own is woken there. Likewise the work it hands to unbound
 * workqueues (a loop device's reads and writes) runs, with the default
 * "cache" affinity scope, on whichever CPU of the LLC wakes first, often
 * the other worker's; with scope "cpu" it runs on the CPU that queued
 * it, while the worker waits for it there. Only for the caller to
 * decide when.
 */
#ifndef FSP_CPU_H
#define FSP_CPU_H

#include <sched.h>
#include <stddef.h>

struct fsp_journal;
struct fsp_knobs;

/* The CPUs this process may run on, and how many: count or -errno. */
int fsp_cpu_allowed(cpu_set_t *set);

/* The CPU number of the n-th CPU (from 0) in *set, or -ENOENT. */
int fsp_cpu_nth(const cpu_set_t *set, int n);

/* Bind the calling process (and what it forks) to cpu: 0 or -errno. */
int fsp_cpu_pin(int cpu);

/* The one CPU the caller is bound to, or -ESRCH if it may use more. */
int fsp_cpu_pinned(void);

/*
 * Set the workqueues' default affinity scope to "cpu" through the knob
 * stack ks (journalled in j, restored by fsp_knob_restore_all or by
 * cleanup); was gets the scope it had. -ENOENT before Linux 6.6
 * (63c5484e7495, the affinity scopes), -EALREADY if it is "cpu"
 * already (set by the admin, or by another run that will restore it).
 */
int fsp_cpu_wq_scope_local(struct fsp_knobs *ks, struct fsp_journal *j,
			   char *was, size_t len);

#endif
