// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-cpu.c - fsprobe/cpu.h: the n-th CPU of a mask, on masks built here,
 * and binding this very process to one CPU and reading it back from the
 * kernel (sched_setaffinity on oneself needs no root).
 */
#include <errno.h>

#include "cpu.h"
#include "tap.h"

int main(void)
{
	cpu_set_t set, was;
	int n, cpu;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	CPU_SET(3, &set);
	CPU_SET(64, &set);
	tap_ok(fsp_cpu_nth(&set, 0) == 1, "first CPU of {1,3,64} is 1");
	tap_ok(fsp_cpu_nth(&set, 1) == 3, "second is 3");
	tap_ok(fsp_cpu_nth(&set, 2) == 64, "third is 64 (past one word)");
	tap_ok(fsp_cpu_nth(&set, 3) == -ENOENT, "no fourth: -ENOENT");
	tap_ok(fsp_cpu_pin(CPU_SETSIZE) == -EINVAL, "CPU_SETSIZE: -EINVAL");

	n = fsp_cpu_allowed(&was);
	tap_ok(n >= 1, "this process may run on %d CPU(s)", n);
	cpu = fsp_cpu_nth(&was, n - 1);
	tap_ok(fsp_cpu_pin(cpu) == 0, "bound to CPU %d, its last allowed", cpu);
	tap_ok(fsp_cpu_pinned() == cpu, "the kernel says CPU %d (got %d)",
	       cpu, fsp_cpu_pinned());
	sched_setaffinity(0, sizeof(was), &was);
	tap_ok(fsp_cpu_pinned() == (n == 1 ? cpu : -ESRCH),
	       "unbound again: %s", n == 1 ? "one CPU anyway" : "-ESRCH");
	return tap_done();
}
