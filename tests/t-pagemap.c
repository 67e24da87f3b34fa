// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-pagemap.c - the folio-order walk on (pagemap entry, kpageflags word)
 * pairs recorded on this project's 6.18 test machine (tests/data/pagemap-*:
 * an 8 MiB xfs file mapped with MADV_HUGEPAGE, and one mapped without the
 * hint), then on edited copies: sub-ranges that cut folios, absent pages,
 * hidden PFNs, lookup errors. No root needed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pagemap.h"
#include "util.h"
#include "tap.h"

struct rec {
	uint64_t *pme, *kpf;
	size_t n;
};


/* TAP_EQ_LONG with a printf-style name. */
__attribute__((format(printf, 3, 4)))
static int eq(long got, long want, const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return TAP_EQ_LONG(got, want, name);
}

static const char *data_dir(void)
{
	static char dir[4096];
	const char *d = getenv("FSP_TEST_DATA"), *s = getenv("srcdir");

	if (d)
		return d;
	snprintf(dir, sizeof(dir), "%s/tests/data", s ? s : ".");
	return dir;
}

static int load(const char *name, struct rec *r)
{
	char path[4200], line[256];
	size_t cap = 0;
	FILE *f;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/%s", data_dir(), name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%llx %llx", &a, &b) != 2) {
			fclose(f);
			return -EINVAL;
		}
		if (r->n == cap) {
			cap = cap ? cap * 2 : 1024;
			r->pme = realloc(r->pme, cap * sizeof(*r->pme));
			r->kpf = realloc(r->kpf, cap * sizeof(*r->kpf));
			if (!r->pme || !r->kpf)
				abort();
		}
		r->pme[r->n] = a;
		r->kpf[r->n] = b;
		r->n++;
	}
	fclose(f);
	return 0;
}

/* A lookup that knows every PFN of the whole recording. */
static int rec_get(void *ctx, uint64_t pfn, uint64_t *flags)
{
	const struct rec *r = ctx;
	size_t i;

	for (i = 0; i < r->n; i++) {
		if ((r->pme[i] & FSP_PM_PRESENT) &&
		    (r->pme[i] & FSP_PM_PFN_MASK) == pfn) {
			*flags = r->kpf[i];
			return 0;
		}
	}
	return -ENOENT;
}

static int fail_get(void *ctx, uint64_t pfn, uint64_t *flags)
{
	return -EIO;
}

static void check_hist(const struct fsp_order_hist *h, const char *want,
		       const char *name)
{
	char buf[128];
	const char *got = buf;

	fsp_order_hist_fmt(h, buf, sizeof(buf));
	TAP_EQ_STR(got, want, name);
}

/*
 * Load the recording file as one TAP test, then walk all of it through
 * the pairs: 2048 pages, all present and none in a partial folio, the
 * histogram hist (hist_name), the largest order max_order. 0, or -1 if
 * it did not load.
 */
static int load_whole(const char *file, const char *tag, const char *hist,
		      const char *hist_name, int max_order, struct rec *r,
		      struct fsp_order_hist *h)
{
	char name[128];
	int ret = load(file, r);

	if (!tap_ok(!ret && r->n == 2048, "load %s recording (%zu pages)",
		    tag, r->n))
		return -1;
	ret = fsp_pagemap_hist_pairs(r->pme, r->kpf, r->n, h);
	eq(ret, 0, "%s: walk", tag);
	snprintf(name, sizeof(name), "%s: %s", tag, hist_name);
	check_hist(h, hist, name);
	eq(h->max_order, max_order, "%s: max order", tag);
	eq(h->nr_pages, 2048, "%s: present pages", tag);
	eq(h->nr_partial, 0, "%s: no partial folio", tag);
	return 0;
}

static void test_pmd(void)
{
	struct fsp_order_hist h;
	struct rec r;
	uint64_t *pme;
	int ret;

	if (load_whole("pagemap-xfs-pmd.txt", "PMD", "9:4",
		       "4 folios of order 9", 9, &r, &h))
		return;
	eq(h.nr_absent, 0, "PMD: absent pages");

	/* Pages 100..1099 cut folio 0 and folio 2. */
	ret = fsp_pagemap_walk(r.pme + 100, 1000, rec_get, &r, &h);
	eq(ret, 0, "PMD sub-range, full lookup: walk");
	check_hist(&h, "9:3", "PMD sub-range, full lookup: heads outside");
	eq(h.nr_partial, 2, "PMD sub-range, full lookup: 2 partial");
	eq(h.nr_pages, 1000, "PMD sub-range: pages in range");

	/* Only in-range flags: the cut folios count by their visible part. */
	ret = fsp_pagemap_hist_pairs(r.pme + 100, r.kpf + 100, 1000, &h);
	eq(ret, 0, "PMD sub-range, pairs: walk");
	check_hist(&h, "6:1 8:1 9:1", "PMD sub-range, pairs: lower bounds");
	eq(h.nr_partial, 2, "PMD sub-range, pairs: 2 partial");

	/* The first 10 pages not present: folio 0 is only partly mapped. */
	pme = malloc(r.n * sizeof(*pme));
	memcpy(pme, r.pme, r.n * sizeof(*pme));
	for (int i = 0; i < 10; i++)
		pme[i] = 0;
	ret = fsp_pagemap_walk(pme, r.n, rec_get, &r, &h);
	eq(ret, 0, "PMD, 10 absent: walk");
	check_hist(&h, "9:4", "PMD, 10 absent: orders unchanged");
	eq(h.nr_absent, 10, "PMD, 10 absent: absent");
	eq(h.nr_pages, 2038, "PMD, 10 absent: present");
	eq(h.nr_partial, 1, "PMD, 10 absent: 1 partial");

	/* A hole in the middle of folio 1 splits its run in two. */
	memcpy(pme, r.pme, r.n * sizeof(*pme));
	pme[700] = 0;
	ret = fsp_pagemap_walk(pme, r.n, rec_get, &r, &h);
	check_hist(&h, "9:5", "PMD, hole in folio 1: counted per visible run");
	eq(h.nr_partial, 2, "PMD, hole in folio 1: both runs partial");

	/* Present but PFN 0: not root, PFNs hidden. */
	memcpy(pme, r.pme, r.n * sizeof(*pme));
	for (size_t i = 0; i < r.n; i++)
		pme[i] &= ~FSP_PM_PFN_MASK;
	ret = fsp_pagemap_hist_pairs(pme, r.kpf, r.n, &h);
	eq(ret, -EPERM, "hidden PFNs: -EPERM");

	ret = fsp_pagemap_walk(r.pme, r.n, fail_get, NULL, &h);
	eq(ret, -EIO, "lookup error propagates");
	free(pme);
	free(r.pme);
	free(r.kpf);
}

static void test_small(void)
{
	struct fsp_order_hist h;
	struct rec r;

	/* The same fault, seen by the tracepoint: 0:640 2:160 4:40 6:2. */
	if (load_whole("pagemap-xfs-small.txt", "small", "0:640 2:160 4:40 6:2",
		       "matches the trace", 6, &r, &h))
		return;
	fsp_pagemap_walk(r.pme, r.n, rec_get, &r, &h);
	check_hist(&h, "0:640 2:160 4:40 6:2", "small: same with full lookup");
	free(r.pme);
	free(r.kpf);
}

static void test_synthetic(void)
{
	/* order-0, a 4-page folio, absent, an order-0 with THP set only */
	uint64_t pme[] = {
		FSP_PM_PRESENT | 100, FSP_PM_PRESENT | 200,
		FSP_PM_PRESENT | 201, FSP_PM_PRESENT | 202,
		FSP_PM_PRESENT | 203, 0, FSP_PM_PRESENT | 300,
	};
	uint64_t kpf[] = {
		0, FSP_KPF_COMPOUND_HEAD | FSP_KPF_THP,
		FSP_KPF_COMPOUND_TAIL | FSP_KPF_THP,
		FSP_KPF_COMPOUND_TAIL | FSP_KPF_THP,
		FSP_KPF_COMPOUND_TAIL | FSP_KPF_THP, 0, FSP_KPF_THP,
	};
	/* a 3-page run: not a power of two, so a partial order-1 */
	uint64_t odd_pme[] = { FSP_PM_PRESENT | 8, FSP_PM_PRESENT | 9,
			       FSP_PM_PRESENT | 10 };
	uint64_t odd_kpf[] = { FSP_KPF_COMPOUND_HEAD, FSP_KPF_COMPOUND_TAIL,
			       FSP_KPF_COMPOUND_TAIL };
	struct fsp_order_hist h;
	char small[4];
	int ret;

	ret = fsp_pagemap_hist_pairs(pme, kpf, FSP_ARRAY_SIZE(pme), &h);
	eq(ret, 0, "synthetic: walk");
	check_hist(&h, "0:2 2:1", "synthetic: 0:2 2:1");
	eq(h.nr_absent, 1, "synthetic: 1 absent");
	eq(h.nr_pages, 6, "synthetic: 6 present");

	ret = fsp_pagemap_hist_pairs(odd_pme, odd_kpf, 3, &h);
	check_hist(&h, "1:1", "odd-sized run: rounded down");
	eq(h.nr_partial, 1, "odd-sized run: partial");

	ret = fsp_pagemap_hist_pairs(NULL, NULL, 0, &h);
	eq(ret, 0, "empty range");
	check_hist(&h, "-", "empty histogram formats as -");
	eq(h.max_order, -1, "empty: max order -1");
	ret = fsp_pagemap_hist_pairs(NULL, kpf, 3, &h);
	eq(ret, -EINVAL, "NULL entries: -EINVAL");

	fsp_order_hist_init(&h);
	fsp_order_hist_add(&h, 0);
	fsp_order_hist_add(&h, 9);
	ret = fsp_order_hist_fmt(&h, small, sizeof(small));
	eq(ret, -ENAMETOOLONG, "format: too small a buffer");
	tap_ok(strlen(small) < sizeof(small), "format: still terminated");
	eq(fsp_order_hist_add(&h, FSP_ORDER_MAX + 1), -ERANGE,
		    "order above FSP_ORDER_MAX refused");
	eq(fsp_order_hist_folios(&h), 2, "folio count");
}

int main(void)
{
	test_pmd();
	test_small();
	test_synthetic();
	return tap_done();
}
