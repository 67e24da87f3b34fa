/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pagemap.h - the folio orders behind a mapped, already-faulted range of
 * the calling process, from /proc/self/pagemap (is the page present, which
 * PFN) and /proc/kpageflags (is that PFN a compound head or tail). The walk
 * itself is pure: it takes pagemap entries and a PFN -> flags lookup, so it
 * runs on recorded data as well as on the live files (which need root).
 *
 * Folios that cross the edges of the range: the walker looks at the PFNs
 * on either side (through the lookup, so outside the range too) to find the
 * head and the end of the folio, counts the folio once under its real order
 * and also in nr_partial. A lookup that answers -ENOENT ends the search
 * there, so with only in-range flags (fsp_pagemap_hist_pairs) an edge folio
 * counts under the order of its visible part, rounded down: a lower bound.
 * A folio whose run in the range is interrupted (an absent page inside it)
 * is counted once per visible run, each partial.
 */
#ifndef FSP_PAGEMAP_H
#define FSP_PAGEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "order_hist.h"

#define FSP_PM_PRESENT		(1ULL << 63)
#define FSP_PM_PFN_MASK		((1ULL << 55) - 1)

#define FSP_KPF_COMPOUND_HEAD	(1ULL << 15)
#define FSP_KPF_COMPOUND_TAIL	(1ULL << 16)
#define FSP_KPF_HUGE		(1ULL << 17)
#define FSP_KPF_THP		(1ULL << 22)

/*
 * The kpageflags word of one PFN: 0, -ENOENT if the PFN is unknown to the
 * lookup (the walk treats that as "not part of this folio"), or another
 * -errno, which aborts the walk.
 */
typedef int (*fsp_pagemap_flags_fn)(void *ctx, uint64_t pfn, uint64_t *flags);

/*
 * Histogram of the folios behind n consecutive virtual pages whose pagemap
 * entries are pme[0..n-1]. h->nr_pages counts present pages, h->nr_absent
 * the others. A present page with PFN 0 means the PFNs are hidden from us
 * (no CAP_SYS_ADMIN): -EPERM rather than a wrong answer.
 */
int fsp_pagemap_walk(const uint64_t *pme, size_t n, fsp_pagemap_flags_fn get,
		     void *ctx, struct fsp_order_hist *h);

/* The same on recorded (pagemap entry, kpageflags word) pairs. */
int fsp_pagemap_hist_pairs(const uint64_t *pme, const uint64_t *kpf, size_t n,
			   struct fsp_order_hist *h);

/*
 * Read the pagemap entries of the pages of [addr, addr + len) into pme
 * (addr page-aligned; len rounded up to whole pages) and, if kpf is not
 * NULL, the kpageflags word of each present page (0 for absent ones).
 */
int fsp_pagemap_read(const void *addr, size_t len, uint64_t *pme,
		     uint64_t *kpf);

/* Live: histogram of [addr, addr + len) of the calling process. */
int fsp_pagemap_range(const void *addr, size_t len, struct fsp_order_hist *h);

#endif
