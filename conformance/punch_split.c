// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * punch_split.c - hole punch inside a large folio (docs/probes.md). A cold
 * 4 MiB pattern file is faulted through a hinted MAP_SHARED mapping (PMD
 * folios where the FS builds them), then another fd punches 1 MiB at
 * 2.5 MiB with FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE: the middle of
 * the second PMD folio, touching neither of its ends. Correct behaviour:
 * the hole reads zero and everything around it keeps its data, through
 * the mapping and through read(2), the size does not change, and after a
 * remount the disk says the same. Whether the folio was split (its hole
 * pages gone, the rest still cached), dropped whole, or kept whole with
 * the hole zeroed in place is evidence; only the data decides.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate(2), FALLOC_FL_* */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "case.h"
#include "split_util.h"
#include "util.h"

#define FILE_NAME "punch-split.dat"
#define SEED 0x22
#define HOLE_OFF ((2ULL << 20) + (512ULL << 10))
#define HOLE_LEN (1ULL << 20)
#define HOLE_END (HOLE_OFF + HOLE_LEN)

/* The file after the punch: pattern, a zero hole, pattern. */
static const struct fsp_span want_outside[] = {
	{ 0, HOLE_OFF, 0 }, { HOLE_END, FSP_FILE_SIZE - HOLE_END, 0 },
};
static const struct fsp_span want_hole = { HOLE_OFF, HOLE_LEN, 1 };

static int prepare(const struct fsp_target *t)
{
	return fsp_split_prepare(t, FILE_NAME, SEED);
}

/* Check the three spans through the mapping (map) or read(2) of fd. */
static void check_data(struct fsp_probe *p, const struct fsp_mapping *m,
		       int map, int *hole_zero)
{
	const char *how = map ? "the mapping" : "read(2)";
	uint64_t bad;
	int ret;

	ret = map ? fsp_split_verify_map(p, "outside_hole_intact_map", m->addr,
					 want_outside, 2, SEED, &bad) :
		    fsp_split_verify_read(p, "outside_hole_intact_read", m->fd,
					  want_outside, 2, SEED, &bad);
	if (ret)
		fsp_split_fail(p, "after the punch: byte %llu outside the hole "
			       "reads wrong through %s",
			       (unsigned long long)bad, how);
	ret = map ? fsp_split_verify_map(p, "hole_zero_map", m->addr,
					 &want_hole, 1, SEED, &bad) :
		    fsp_split_verify_read(p, "hole_zero_read", m->fd,
					  &want_hole, 1, SEED, &bad);
	if (ret) {
		*hole_zero = 0;
		fsp_split_fail(p, "stale data in the hole: byte %llu is not "
			       "zero through %s", (unsigned long long)bad, how);
	}
}

/* The punch, and what the kernel did with the folio around it. */
static void punch_mapped(const struct fsp_target *t, struct fsp_probe *p,
			 struct fsp_mapping *m, int wfd)
{
	const uint64_t pg = t->si->page_size;
	struct fsp_folio_pos a, b;
	uint64_t lo, hi;
	long kept, gone;
	struct stat st;
	int large, hole_zero = 1;

	/* The folios holding the first and the last page of the hole. */
	fsp_split_folio_at(m->addr, HOLE_OFF, &a);
	fsp_split_folio_at(m->addr, HOLE_END - 1, &b);
	lo = a.start < HOLE_OFF ? a.start : HOLE_OFF;
	hi = b.end > HOLE_END ? b.end : HOLE_END;
	large = a.order < 0 || b.order < 0 ? -1 :
		lo < HOLE_OFF || hi > HOLE_END;
	fsp_ev_int(p, "hole_folio_order_before",
		   a.order > b.order ? a.order : b.order);
	fsp_split_ev_tristate(p, "hole_folio_spans_outside_before", large);

	if (fallocate(wfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      HOLE_OFF, HOLE_LEN)) {
		int err = errno;

		fsp_ev_str(p, "fallocate_errno", fsp_errno_name(err));
		if (err == EOPNOTSUPP || err == EROFS)
			fsp_probe_set(p, FSP_SKIP, "no hole punch here: "
				      "fallocate(PUNCH_HOLE): %s",
				      fsp_errno_name(err));
		else
			fsp_probe_set(p, FSP_ERROR, "fallocate(PUNCH_HOLE): %s",
				      fsp_errno_name(err));
		return;
	}
	/* Before anything faults it again: what is still cached. */
	gone = fsp_split_cached(m, HOLE_OFF, HOLE_LEN, NULL);
	kept = fsp_split_cached(m, lo, HOLE_OFF - lo, NULL);
	if (kept >= 0) {
		long k = fsp_split_cached(m, HOLE_END, hi - HOLE_END, NULL);

		kept = k < 0 ? k : kept + k;
	}
	fsp_ev_int(p, "hole_cached_pages_after", gone);
	fsp_ev_int(p, "hole_folio_cached_pages_kept", kept);
	fsp_ev_str(p, "hole_folio", fsp_split_fate(large, kept, gone,
						   HOLE_LEN / pg));
	fsp_split_ev_pmd(t, p, m, "_after");
	if (fstat(wfd, &st))
		st.st_size = -1;
	fsp_ev_int(p, "size_after", st.st_size);
	fsp_ev_bool(p, "size_unchanged", (uint64_t)st.st_size == m->len);
	if ((uint64_t)st.st_size != m->len)
		fsp_split_fail(p, "size after the punch is %lld, not %zu",
			       (long long)st.st_size, m->len);

	/* Fault everything back to see the orders it has now. */
	fsp_split_refault(t, p, m, m->len, "after the punch");
	fsp_split_ev_orders(p, "orders_after_hole_folio",
			    (char *)m->addr + lo, hi - lo);

	check_data(p, m, 1, &hole_zero);
	check_data(p, m, 0, &hole_zero);
	fsp_ev_bool(p, "hole_reads_zero", hole_zero);
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	fsp_ev_int(p, "hole_offset", HOLE_OFF);
	fsp_ev_int(p, "hole_len", HOLE_LEN);
	fsp_split_run(t, p, FILE_NAME, SEED, punch_mapped);
}

static void run_cold(const struct fsp_target *t, struct fsp_probe *p)
{
	/* On disk at the end: the hole, and nothing else, reads zero. */
	const struct fsp_span want[] = {
		want_outside[0], want_hole, want_outside[1],
	};

	fsp_split_check_cold(t, p, FILE_NAME, want, FSP_ARRAY_SIZE(want),
			     SEED);
}

const struct fsp_case fsp_case_punch_split = {
	.name = "punch-split",
	.summary = "punch a hole inside a mapped large folio: data, zeroes, "
		   "split",
	.prepare = prepare,
	.run = run,
	.run_cold = run_cold,
};
