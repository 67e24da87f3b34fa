/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * order_hist.h - a folio-order histogram, the one number format shared by
 * the two ways fsprobe sees folio sizes: the page-cache tracepoint (every
 * folio added, mapped or not) and pagemap + kpageflags (folios behind a
 * mapped range). Orders above FSP_ORDER_MAX cannot occur in the page cache.
 */
#ifndef FSP_ORDER_HIST_H
#define FSP_ORDER_HIST_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define FSP_ORDER_MAX 15

struct fsp_order_hist {
	unsigned long count[FSP_ORDER_MAX + 1];	/* folios of each order */
	int max_order;		/* largest order seen, -1 if none */
	unsigned long nr_pages;	/* base pages covered by the folios counted */
	unsigned long nr_absent;	/* pagemap: pages not present */
	unsigned long nr_partial;	/* folios partly outside the range */
};

static inline void fsp_order_hist_init(struct fsp_order_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->max_order = -1;
}

/* Count one folio of this order; out-of-range orders are refused. */
static inline int fsp_order_hist_add(struct fsp_order_hist *h, int order)
{
	if (order < 0 || order > FSP_ORDER_MAX)
		return -ERANGE;
	h->count[order]++;
	if (order > h->max_order)
		h->max_order = order;
	return 0;
}

static inline unsigned long
fsp_order_hist_folios(const struct fsp_order_hist *h)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i <= FSP_ORDER_MAX; i++)
		n += h->count[i];
	return n;
}

/*
 * "ORDER:COUNT" pairs in increasing order, blank-separated ("0:12 2:3 9:1");
 * "-" when empty. -ENAMETOOLONG (buffer still NUL-terminated) if it does
 * not fit; 64 bytes always suffice for realistic histograms, 256 for any.
 */
static inline int fsp_order_hist_fmt(const struct fsp_order_hist *h,
				     char *buf, size_t len)
{
	size_t pos = 0;
	int i, n;

	if (!len)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (i = 0; i <= FSP_ORDER_MAX; i++) {
		if (!h->count[i])
			continue;
		n = snprintf(buf + pos, len - pos, "%s%d:%lu", pos ? " " : "",
			     i, h->count[i]);
		if (n < 0 || (size_t)n >= len - pos)
			return -ENAMETOOLONG;
		pos += n;
	}
	if (!pos) {
		if (len < 2)
			return -ENAMETOOLONG;
		buf[0] = '-';
		buf[1] = '\0';
	}
	return 0;
}

#endif
