// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpu.c - CPU affinity of the workers (cpu.h): sched_getaffinity and
 * sched_setaffinity on the calling process, nothing global changed.
 * The mask is inherited by what the worker forks (mkfs, the payloads),
 * so a worker's children run on its CPU too.
 */
#include <errno.h>

#include "cpu.h"

int fsp_cpu_allowed(cpu_set_t *set)
{
	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof(*set), set))
		return -errno;
	return CPU_COUNT(set);
}

int fsp_cpu_nth(const cpu_set_t *set, int n)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set) && n-- == 0)
			return cpu;
	return -ENOENT;
}

int fsp_cpu_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

int fsp_cpu_pinned(void)
{
	cpu_set_t set;
	int ret = fsp_cpu_allowed(&set);

	if (ret < 0)
		return ret;
	return ret == 1 ? fsp_cpu_nth(&set, 0) : -ESRCH;
}
