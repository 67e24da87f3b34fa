// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pagemap.c - folio orders of a mapped range: walk its pages in virtual
 * order; a page with neither COMPOUND_HEAD nor COMPOUND_TAIL is an order-0
 * folio; a compound page belongs to the folio whose head is found at an
 * aligned PFN before it and whose end is the first following PFN that is
 * not a tail. The folio's pages are physically contiguous, so the pages
 * of the range that continue the same PFN run are consumed with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pagemap.h"

#define MAX_FOLIO_PAGES (1UL << FSP_ORDER_MAX)

static int floor_log2(unsigned long v)
{
	int order = -1;

	while (v) {
		v >>= 1;
		order++;
	}
	return order;
}

static int is_tail(uint64_t f)
{
	return (f & FSP_KPF_COMPOUND_TAIL) && !(f & FSP_KPF_COMPOUND_HEAD);
}

/*
 * Step back from a tail to its head: 0 and *head, -ENOENT if not found.
 * A folio is naturally aligned in PFN space (the buddy allocator's
 * compound pages are), so its head is pfn rounded down to some power of
 * two: look there, the smallest alignment first, not at every PFN.
 */
static int find_head(uint64_t pfn, fsp_pagemap_flags_fn get, void *ctx,
		     uint64_t *head)
{
	uint64_t f, at;
	int k, ret;

	for (k = 1; k <= FSP_ORDER_MAX; k++) {
		at = pfn & ~((1ULL << k) - 1);
		if (at == pfn)
			continue;
		ret = get(ctx, at, &f);
		if (ret)
			return ret;
		if (f & FSP_KPF_COMPOUND_HEAD) {
			*head = at;
			return 0;
		}
		if (!is_tail(f))
			return -ENOENT;
	}
	return -ENOENT;
}

/* Pages from first up to the first non-tail (or unknown PFN) after it. */
static int scan_pages(uint64_t first, unsigned long k,
		      fsp_pagemap_flags_fn get, void *ctx, unsigned long *nr)
{
	uint64_t f;
	int ret;

	for (; k < MAX_FOLIO_PAGES; k++) {
		ret = get(ctx, first + k, &f);
		if (ret == -ENOENT)
			break;
		if (ret)
			return ret;
		if (!is_tail(f))
			break;
	}
	*nr = k;
	return 0;
}

/*
 * The pages of the folio headed by head: a naturally aligned folio of
 * 2^k pages ends where head + 2^k is not a tail, so only head + 1, + 2,
 * + 4, ... are looked at. Where a PFN is unknown to the lookup (recorded
 * data that stops inside a folio) the last stretch is scanned page by
 * page, so the answer stays the visible part.
 */
static int folio_pages(uint64_t head, fsp_pagemap_flags_fn get, void *ctx,
		       unsigned long *nr)
{
	unsigned long step;
	uint64_t f;
	int ret;

	for (step = 1; step < MAX_FOLIO_PAGES; step <<= 1) {
		ret = get(ctx, head + step, &f);
		if (ret == -ENOENT)
			return scan_pages(head, step / 2 + 1, get, ctx, nr);
		if (ret)
			return ret;
		if (!is_tail(f))
			break;
	}
	*nr = step;
	return 0;
}

int fsp_pagemap_walk(const uint64_t *pme, size_t n, fsp_pagemap_flags_fn get,
		     void *ctx, struct fsp_order_hist *h)
{
	size_t i = 0, j;
	uint64_t pfn, head, f;
	unsigned long size = 0;
	int ret, order, partial;

	fsp_order_hist_init(h);
	if (n && (!pme || !get))
		return -EINVAL;
	while (i < n) {
		if (!(pme[i] & FSP_PM_PRESENT)) {
			h->nr_absent++;
			i++;
			continue;
		}
		pfn = pme[i] & FSP_PM_PFN_MASK;
		if (!pfn)
			return -EPERM;
		ret = get(ctx, pfn, &f);
		if (ret)
			return ret == -ENOENT ? -EIO : ret;
		if (!(f & (FSP_KPF_COMPOUND_HEAD | FSP_KPF_COMPOUND_TAIL))) {
			fsp_order_hist_add(h, 0);
			h->nr_pages++;
			i++;
			continue;
		}
		/*
		 * A tail seen first: the head lies before the range (or is
		 * mapped elsewhere). If it cannot be found, size the visible
		 * part from here: a lower bound.
		 */
		partial = 0;
		head = pfn;
		if (!(f & FSP_KPF_COMPOUND_HEAD)) {
			partial = 1;
			ret = find_head(pfn, get, ctx, &head);
			if (ret == -ENOENT)
				head = pfn;
			else if (ret)
				return ret;
		}
		/* A tail whose head is unknown: only its visible part. */
		if (head == pfn && !(f & FSP_KPF_COMPOUND_HEAD))
			ret = scan_pages(head, 1, get, ctx, &size);
		else
			ret = folio_pages(head, get, ctx, &size);
		if (ret)
			return ret;
		if (pfn >= head + size)	/* flags changed under us */
			size = pfn - head + 1;
		for (j = i + 1; j < n && pfn + (j - i) < head + size; j++) {
			if (!(pme[j] & FSP_PM_PRESENT) ||
			    (pme[j] & FSP_PM_PFN_MASK) != pfn + (j - i))
				break;
		}
		order = floor_log2(size);
		if (head != pfn || j - i != size || size != 1UL << order)
			partial = 1;
		fsp_order_hist_add(h, order);
		h->nr_partial += partial;
		h->nr_pages += j - i;
		i = j;
	}
	return 0;
}

struct pair {
	uint64_t pfn, flags;
};

struct pair_table {
	struct pair *p;
	size_t n;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

static int pair_get(void *ctx, uint64_t pfn, uint64_t *flags)
{
	const struct pair_table *t = ctx;
	size_t lo = 0, hi = t->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->p[mid].pfn == pfn) {
			*flags = t->p[mid].flags;
			return 0;
		}
		if (t->p[mid].pfn < pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}

int fsp_pagemap_hist_pairs(const uint64_t *pme, const uint64_t *kpf, size_t n,
			   struct fsp_order_hist *h)
{
	struct pair_table t = { NULL, 0 };
	size_t i;
	int ret;

	fsp_order_hist_init(h);
	if (n && (!pme || !kpf))
		return -EINVAL;
	if (n) {
		t.p = calloc(n, sizeof(*t.p));
		if (!t.p)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (!(pme[i] & FSP_PM_PRESENT))
			continue;
		t.p[t.n].pfn = pme[i] & FSP_PM_PFN_MASK;
		t.p[t.n].flags = kpf[i];
		t.n++;
	}
	if (t.n)
		qsort(t.p, t.n, sizeof(*t.p), cmp_pair);
	ret = fsp_pagemap_walk(pme, n, pair_get, &t, h);
	free(t.p);
	return ret;
}

/*
 * kpageflags entries read at a time. The kernel computes every entry it
 * returns, and small folios are scattered over physical memory, so big
 * blocks mostly compute flags nobody asked for: 512 cost 80 ms for the
 * 2048 scattered pages of an 8 MiB file, 64 cost 10.
 */
#define KPF_BLOCK 8

struct kpf_reader {
	int fd;
	uint64_t block;		/* index of the cached block, or -1 */
	size_t valid;		/* words read into buf */
	uint64_t buf[KPF_BLOCK];
};

static int pread_full(int fd, void *buf, size_t len, off_t off, size_t *got)
{
	size_t done = 0;
	ssize_t r;

	while (done < len) {
		r = pread(fd, (char *)buf + done, len - done, off + done);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		done += r;
	}
	*got = done;
	return 0;
}

static int kpf_get(void *ctx, uint64_t pfn, uint64_t *flags)
{
	struct kpf_reader *r = ctx;
	uint64_t block = pfn / KPF_BLOCK;
	size_t got;
	int ret;

	if (block > (uint64_t)INT64_MAX / (KPF_BLOCK * 8))
		return -ENOENT;
	if (block != r->block) {
		r->block = (uint64_t)-1;
		ret = pread_full(r->fd, r->buf, sizeof(r->buf),
				 (off_t)(block * KPF_BLOCK * 8), &got);
		if (ret)
			return ret;
		r->block = block;
		r->valid = got / 8;
	}
	if (pfn % KPF_BLOCK >= r->valid)
		return -ENOENT;
	*flags = r->buf[pfn % KPF_BLOCK];
	return 0;
}

static int page_span(const void *addr, size_t len, size_t *first, size_t *n)
{
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)addr;

	if (ps <= 0 || a % ps || !len || len > SIZE_MAX - ps)
		return -EINVAL;
	*first = a / ps;
	*n = (len + ps - 1) / ps;
	return 0;
}

static int read_pme(size_t first, size_t n, uint64_t *pme)
{
	size_t got;
	int fd, ret;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = pread_full(fd, pme, n * 8, (off_t)first * 8, &got);
	close(fd);
	if (!ret && got != n * 8)
		ret = -EIO;
	return ret;
}

int fsp_pagemap_read(const void *addr, size_t len, uint64_t *pme,
		     uint64_t *kpf)
{
	struct kpf_reader *r;
	size_t first, n, i;
	int ret;

	ret = page_span(addr, len, &first, &n);
	if (ret)
		return ret;
	ret = read_pme(first, n, pme);
	if (ret || !kpf)
		return ret;
	r = malloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->block = (uint64_t)-1;
	r->fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		ret = -errno;
		free(r);
		return ret;
	}
	for (i = 0; i < n && !ret; i++) {
		kpf[i] = 0;
		if (pme[i] & FSP_PM_PRESENT)
			ret = kpf_get(r, pme[i] & FSP_PM_PFN_MASK, &kpf[i]);
	}
	close(r->fd);
	free(r);
	return ret == -ENOENT ? -EIO : ret;
}

int fsp_pagemap_range(const void *addr, size_t len, struct fsp_order_hist *h)
{
	struct kpf_reader *r = NULL;
	uint64_t *pme;
	size_t first, n;
	int ret;

	fsp_order_hist_init(h);
	ret = page_span(addr, len, &first, &n);
	if (ret)
		return ret;
	pme = calloc(n, sizeof(*pme));
	r = malloc(sizeof(*r));
	if (!pme || !r) {
		ret = -ENOMEM;
		goto out;
	}
	ret = read_pme(first, n, pme);
	if (ret)
		goto out;
	r->block = (uint64_t)-1;
	r->fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		ret = -errno;
		goto out;
	}
	ret = fsp_pagemap_walk(pme, n, kpf_get, r, h);
	close(r->fd);
out:
	free(r);
	free(pme);
	return ret;
}
