// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-scratch.c - fsprobe/scratch.h: one buffer, reused while it fits,
 * grown when not, and already populated: writing all of it takes far
 * fewer page faults, as getrusage counts them, than writing a fresh
 * mapping of the same size (under ASan both also fault shadow pages).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "scratch.h"
#include "tap.h"

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

int main(void)
{
	size_t len = 4UL << 20;
	unsigned char vec[1024];
	char *a, *b, *c;
	long f0, faults, fresh;
	char *m;
	int i, resident = 0;

	a = fsp_scratch(1 << 20);
	tap_ok(a != NULL, "1 MiB: a buffer");
	b = fsp_scratch(4096);
	tap_ok(b == a, "a smaller request gets the same buffer");
	c = fsp_scratch(len);
	tap_ok(c != NULL, "4 MiB: a buffer (grown)");
	tap_ok(fsp_scratch(len) == c, "4 MiB again: the same one");
	if (!c)
		return tap_done();
	tap_ok(mincore(c, len, vec) == 0, "mincore on it");
	for (i = 0; i < 1024; i++)
		resident += vec[i] & 1;
	tap_ok(resident == 1024, "all 1024 pages resident before any write "
	       "(got %d)", resident);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		 MAP_ANONYMOUS, -1, 0);
	tap_ok(m != MAP_FAILED, "a fresh 4 MiB mapping to compare");
	if (m == MAP_FAILED)
		return tap_done();
	madvise(m, len, MADV_NOHUGEPAGE);	/* 4 KiB faults, as malloc's */
	f0 = minflt();
	memset(m, 0x5a, len);
	fresh = minflt() - f0;
	f0 = minflt();
	memset(c, 0x5a, len);
	faults = minflt() - f0;
	tap_ok(faults * 4 < fresh, "writing 4 MiB of it: %ld page faults, "
	       "of a fresh mapping: %ld", faults, fresh);
	munmap(m, len);
	tap_ok(c[len - 1] == 0x5a && c[0] == 0x5a, "and it holds what was "
	       "written");
	return tap_done();
}
