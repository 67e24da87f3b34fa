// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scratch.c - the process's I/O buffer (scratch.h). Sized in 2 MiB
 * steps and asked for huge pages: a 4 MiB buffer is then two PMD faults
 * instead of 1024 (the probes watch file and shmem mappings, never this
 * anonymous one). MADV_POPULATE_WRITE (Linux 5.14, 4ca9b3859dac) fills
 * it in one call; without it the pages fault on first use, as before.
 */
#include <errno.h>
#include <sys/mman.h>

#include "scratch.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define SCRATCH_STEP (2UL << 20)

static void *buf;
static size_t cap;

void *fsp_scratch(size_t len)
{
	size_t want = (len + SCRATCH_STEP - 1) & ~(SCRATCH_STEP - 1);
	void *p;

	if (len <= cap)
		return buf;
	p = mmap(NULL, want, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* Both only make it faster: a refusal changes nothing else. */
	madvise(p, want, MADV_HUGEPAGE);
	madvise(p, want, MADV_POPULATE_WRITE);
	if (buf)
		munmap(buf, cap);
	buf = p;
	cap = want;
	return buf;
}
