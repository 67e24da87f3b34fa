// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpu.c - CPU affinity of the workers (cpu.h): sched_getaffinity and
 * sched_setaffinity on the calling process only. The mask is inherited
 * by what the worker forks (mkfs, the payloads), so a worker's children
 * run on its CPU too. The one global setting here is the workqueue
 * scope, a module parameter, changed only through the journalled knob
 * stack.
 */
#include <errno.h>
#include <string.h>

#include "cpu.h"
#include "knob.h"
#include "util.h"

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

int fsp_cpu_wq_scope_local(struct fsp_knobs *ks, struct fsp_journal *j,
			   char *was, size_t len)
{
	char cur[64];
	ssize_t n = fsp_read_text(FSP_KNOB_WQ_SCOPE, cur, sizeof(cur));
	int ret;

	if (n < 0)
		return n;
	fsp_rstrip(cur);
	if (!strcmp(cur, "cpu"))
		return -EALREADY;
	ret = fsp_strcpy(was, len, cur);
	return ret ? ret : fsp_knob_set(ks, j, FSP_KNOB_WQ_SCOPE, "cpu");
}
