/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu.h - one CPU per worker. With several workers the scheduler's
 * wake-affine placement puts a worker woken by a loop kworker on the
 * kworker's CPU, often the one the other worker runs on, while its own
 * CPU idles until the load balancer moves it back; a worker bound to a
 * CPU of its own is woken there. Only for the caller to decide when.
 */
#ifndef FSP_CPU_H
#define FSP_CPU_H

#include <sched.h>

/* The CPUs this process may run on, and how many: count or -errno. */
int fsp_cpu_allowed(cpu_set_t *set);

/* The CPU number of the n-th CPU (from 0) in *set, or -ENOENT. */
int fsp_cpu_nth(const cpu_set_t *set, int n);

/* Bind the calling process (and what it forks) to cpu: 0 or -errno. */
int fsp_cpu_pin(int cpu);

/* The one CPU the caller is bound to, or -ESRCH if it may use more. */
int fsp_cpu_pinned(void);

#endif
