// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-pagemap.c - libFuzzer target for the pagemap walk on recorded
 * pairs: the input is a sequence of 16-byte records, each a pagemap entry
 * and the kpageflags word of its PFN (both little-endian u64, as the
 * seeds derived from tests/data/pagemap-*.txt hold them). On success the
 * histogram must account for every page exactly once (present + absent =
 * n), stay within FSP_ORDER_MAX and count no more partial folios than
 * folios; a walk must also give the same answer twice.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pagemap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void fail(const char *what, size_t n)
{
	fprintf(stderr, "fuzz-pagemap: %s (n=%zu)\n", what, n);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fsp_order_hist h, again;
	size_t n = size / 16, i;
	uint64_t *pme, *kpf;
	int ret, ret2;

	pme = malloc((n ? n : 1) * sizeof(*pme));
	kpf = malloc((n ? n : 1) * sizeof(*kpf));
	if (!pme || !kpf)
		goto out;
	for (i = 0; i < n; i++) {
		pme[i] = get_le64(data + 16 * i);
		kpf[i] = get_le64(data + 16 * i + 8);
	}
	ret = fsp_pagemap_hist_pairs(pme, kpf, n, &h);
	ret2 = fsp_pagemap_hist_pairs(pme, kpf, n, &again);
	if (ret != ret2 || (!ret && memcmp(&h, &again, sizeof(h))))
		fail("two walks of the same pairs differ", n);
	if (ret)
		goto out;
	if (h.nr_pages + h.nr_absent != n)
		fail("pages not counted exactly once", n);
	if (h.max_order > FSP_ORDER_MAX || h.max_order < -1 ||
	    (h.nr_pages && h.max_order < 0))
		fail("max_order out of range", n);
	if (h.nr_partial > fsp_order_hist_folios(&h) ||
	    fsp_order_hist_folios(&h) > h.nr_pages)
		fail("more partial folios than folios, or folios than pages",
		     n);
out:
	free(pme);
	free(kpf);
	return 0;
}
