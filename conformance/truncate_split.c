// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * truncate_split.c - partial truncate over a large folio (docs/probes.md).
 * A cold 4 MiB pattern file is faulted through a hinted MAP_SHARED
 * mapping, so its cache is in the largest folios the fault path builds
 * (PMD on ext4/xfs); then, while it stays mapped, another fd truncates it
 * to 3 MiB + 4 KiB + 100 bytes, a cut inside the second PMD folio and
 * inside a page. Correct behaviour: every byte before the cut still
 * reads, the rest of the EOF page reads zero, a load past the EOF page is
 * a SIGBUS (tmpfs excepted inside a PMD folio across EOF, as mm allows
 * shmem alone), read(2) stops at the cut, and growing the file again shows
 * zeroes, not the old bytes, both from the cache and after a remount. The
 * folio across the cut should stop spanning EOF: split (its pages past
 * EOF gone, the rest still cached) or dropped; the folio entirely below
 * it may stay PMD-mapped. How the kernel did it is evidence, the data is
 * the result: the kernel keeps a folio whole when it cannot split it (a
 * dirty one), and that is correct as long as its tail reads zero.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "case.h"
#include "split_util.h"
#include "util.h"

#define FILE_NAME "truncate-split.dat"
#define SEED 0x21
#define CUT ((3ULL << 20) + 4096 + 100)

static int prepare(const struct fsp_target *t)
{
	return fsp_split_prepare(t, FILE_NAME, SEED);
}

/*
 * tmpfs maps a PMD folio across i_size by design: mm keeps the SIGBUS
 * rule for every other filesystem and names shmem its exception (Kiryl
 * Shutsemau, "mm/memory: do not populate page table entries beyond
 * i_size", Linux 6.18). A shmem folio of PMD order spanning EOF after the
 * cut (the split failed on a transient reference, or khugepaged collapsed
 * the range again, holes past EOF included) is data past EOF, not a
 * fault. Asked after the load that did not fault: is off in such a folio?
 */
static int shmem_pmd_folio_at(const struct fsp_target *t,
			      const struct fsp_mapping *m, uint64_t off)
{
	struct fsp_folio_pos f;

	if (!t->shmem || t->si->pmd_order < 0)
		return 0;
	fsp_split_folio_at(m->addr, off, &f);
	return f.order >= t->si->pmd_order && f.start <= off && off < f.end;
}

/*
 * Loads past the EOF page: right after it, the next page, the last byte;
 * each a SIGBUS, or on tmpfs inside a PMD folio across EOF.
 */
static void check_sigbus(const struct fsp_target *t, struct fsp_probe *p,
			 const struct fsp_mapping *m, uint64_t eof_end)
{
	const uint64_t at[] = { eof_end, eof_end + 4096, m->len - 1 };
	size_t i, across = 0;

	for (i = 0; i < FSP_ARRAY_SIZE(at); i++) {
		if (fsp_split_sigbus_at((const char *)m->addr + at[i]))
			continue;
		if (shmem_pmd_folio_at(t, m, at[i])) {
			across++;
			continue;
		}
		fsp_ev_bool(p, "sigbus_past_eof", 0);
		fsp_ev_int(p, "no_sigbus_at", at[i]);
		fsp_split_fail(p, "no SIGBUS on a load at byte %llu, past "
			       "EOF %llu", (unsigned long long)at[i], CUT);
		return;
	}
	if (!across) {
		fsp_ev_bool(p, "sigbus_past_eof", 1);
		return;
	}
	fsp_ev_bool(p, "shmem_pmd_folio_across_eof", 1);
	fsp_ev_str(p, "sigbus_past_eof", across == i ? "not applicable: "
		   "every load past EOF is in a PMD folio tmpfs maps across "
		   "it" : "yes, and the loads in a PMD folio tmpfs maps "
		   "across EOF read data");
}

/* Through the mapping and read(2): the data up to the cut, zero after. */
static void check_data(const struct fsp_target *t, struct fsp_probe *p,
		       const struct fsp_mapping *m, uint64_t eof_end)
{
	const struct fsp_span intact = { 0, CUT, 0 };
	const struct fsp_span tail = { CUT, eof_end - CUT, 1 };
	uint64_t bad;
	ssize_t n;
	char c;

	if (fsp_split_verify_map(p, "before_cut_intact_map", m->addr, &intact,
				 1, SEED, &bad))
		fsp_split_fail(p, "after truncate: byte %llu before the cut "
			       "reads wrong through the mapping",
			       (unsigned long long)bad);
	if (fsp_split_verify_map(p, "eof_page_tail_zero", m->addr, &tail, 1,
				 SEED, &bad))
		fsp_split_fail(p, "stale data past EOF: byte %llu of the EOF "
			       "page is not zero", (unsigned long long)bad);
	check_sigbus(t, p, m, eof_end);
	if (fsp_split_verify_read(p, "before_cut_intact_read", m->fd, &intact,
				  1, SEED, &bad))
		fsp_split_fail(p, "read(2) after truncate: wrong data at byte "
			       "%llu", (unsigned long long)bad);
	n = pread(m->fd, &c, 1, CUT);
	fsp_ev_bool(p, "read_stops_at_eof", n == 0);
	if (n != 0)
		fsp_split_fail(p, "read(2) at the new EOF returned %zd, not 0",
			       n);
}

/* Grow the file back: its new part must read zero, never the old data. */
static void check_regrow(struct fsp_probe *p, const struct fsp_mapping *m,
			 int wfd)
{
	const struct fsp_span rest = { CUT, m->len - CUT, 1 };
	uint64_t bad;

	if (ftruncate(wfd, m->len)) {
		fsp_probe_set(p, FSP_ERROR, "growing the file back: %s",
			      fsp_errno_name(errno));
		return;
	}
	if (fsp_split_verify_map(p, "regrow_zero_map", m->addr, &rest, 1, SEED,
				 &bad))
		fsp_split_fail(p, "after growing back: byte %llu past the old "
			       "cut is not zero through the mapping",
			       (unsigned long long)bad);
	if (fsp_split_verify_read(p, "regrow_zero_read", m->fd, &rest, 1, SEED,
				  &bad))
		fsp_split_fail(p, "after growing back: byte %llu past the old "
			       "cut is not zero through read(2)",
			       (unsigned long long)bad);
}

/* The cut and what the kernel did with the folio across it. */
static void truncate_mapped(const struct fsp_target *t, struct fsp_probe *p,
			    struct fsp_mapping *m, int wfd)
{
	const uint64_t pg = t->si->page_size;
	const uint64_t eof_end = (CUT + pg - 1) / pg * pg;
	struct fsp_folio_pos f0, f1;
	long kept, gone, dk, dg;
	struct stat st;
	int large;

	/* The folio that will hold EOF: does it reach past the EOF page? */
	fsp_split_folio_at(m->addr, CUT, &f0);
	large = f0.order < 0 ? -1 : f0.order > 0 && f0.end > eof_end;
	fsp_ev_int(p, "eof_folio_order_before", f0.order);
	fsp_split_ev_tristate(p, "eof_folio_spans_eof_before", large);

	if (ftruncate(wfd, CUT)) {
		fsp_probe_set(p, FSP_ERROR, "ftruncate to %llu: %s", CUT,
			      fsp_errno_name(errno));
		return;
	}
	/* Before anything faults it again: what is still cached. */
	kept = fsp_split_cached(m, f0.start, eof_end - f0.start, &dk);
	gone = fsp_split_cached(m, eof_end, f0.end - eof_end, &dg);
	fsp_ev_int(p, "cut_folio_cached_pages_kept", kept);
	fsp_ev_int(p, "cached_pages_past_eof",
		   fsp_split_cached(m, eof_end, m->len - eof_end, NULL));
	/* Dirty pages explain a folio kept whole: a dirty one may not split. */
	fsp_ev_int(p, "cut_folio_dirty_pages", dk < 0 || dg < 0 ? -1 : dk + dg);
	fsp_ev_str(p, "cut_folio", fsp_split_fate(large, kept, gone,
						  (f0.end - eof_end) / pg));
	fsp_split_ev_pmd(t, p, m, "_after");
	if (fstat(wfd, &st))
		st.st_size = -1;
	fsp_ev_int(p, "size_after", st.st_size);
	if ((uint64_t)st.st_size != CUT)
		fsp_split_fail(p, "size after ftruncate is %lld, not %llu",
			       (long long)st.st_size, CUT);

	/* Fault the surviving range back to see the orders it has now. */
	fsp_split_refault(t, p, m, eof_end, "below EOF");
	fsp_split_ev_orders(p, "orders_after_cut_folio",
			    (char *)m->addr + f0.start, eof_end - f0.start);
	fsp_split_folio_at(m->addr, CUT, &f1);
	fsp_ev_int(p, "eof_folio_order_after", f1.order);
	fsp_split_ev_tristate(p, "eof_folio_spans_eof_after",
			      f1.order < 0 ? -1 : f1.end > eof_end);

	check_data(t, p, m, eof_end);
	check_regrow(p, m, wfd);
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	fsp_ev_int(p, "cut", CUT);
	fsp_split_run(t, p, FILE_NAME, SEED, truncate_mapped);
}

static void run_cold(const struct fsp_target *t, struct fsp_probe *p)
{
	/* On disk at the end, after growing back: pattern, then zeroes. */
	const struct fsp_span want[] = {
		{ 0, CUT, 0 }, { CUT, FSP_FILE_SIZE - CUT, 1 },
	};

	fsp_split_check_cold(t, p, FILE_NAME, want, FSP_ARRAY_SIZE(want),
			     SEED);
}

const struct fsp_case fsp_case_truncate_split = {
	.name = "truncate-split",
	.summary = "ftruncate inside a mapped large folio: data, zeroes, "
		   "SIGBUS, split",
	.prepare = prepare,
	.run = run,
	.run_cold = run_cold,
};
