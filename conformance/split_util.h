/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split_util.h - what truncate-split and punch-split share: a pattern file
 * whose cache is built by a hinted fault of a MAP_SHARED mapping, so that
 * the operation from another fd acts on the very folios we watch; the
 * file's expected contents as a list of spans, checked through the mapping
 * (with SIGBUS caught) and through read(2); the folio around one page; and
 * how much of a cut folio is still cached right after the operation, which
 * tells a split from a folio dropped whole or kept whole.
 */
#ifndef FSP_SPLIT_UTIL_H
#define FSP_SPLIT_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"

/* A stretch of the file that must read as pattern or as zeroes. */
struct fsp_span {
	uint64_t off, len;
	int zero;
};

/* Where a folio lies, in bytes of the file. */
struct fsp_folio_pos {
	int order;		/* -1: not measurable; start/end: the page */
	uint64_t start, end;
};

/* Write name (FSP_FILE_SIZE bytes of pattern); nothing if read-only. */
int fsp_split_prepare(const struct fsp_target *t, const char *name,
		      uint32_t seed);
/*
 * Everything up to the operation: skip on a read-only filesystem, open
 * name for writing (*wfd), map it PROT_READ, MAP_SHARED, MADV_HUGEPAGE,
 * MADV_POPULATE_READ (*m), record the state before (cached pages, PMD
 * counter, folio orders; p->order_fault and p->routes) and check the data.
 * 0 when the probe goes on; otherwise its result is set, nothing is open.
 */
int fsp_split_setup(const struct fsp_target *t, struct fsp_probe *p,
		    const char *name, uint32_t seed, struct fsp_mapping *m,
		    int *wfd);
void fsp_split_teardown(struct fsp_mapping *m, int wfd);
/* The operation under test, on m, its file open for writing as wfd. */
typedef void (*fsp_split_op)(const struct fsp_target *t, struct fsp_probe *p,
			     struct fsp_mapping *m, int wfd);
/* fsp_split_setup(), then op if it went on, then fsp_split_teardown(). */
void fsp_split_run(const struct fsp_target *t, struct fsp_probe *p,
		   const char *name, uint32_t seed, fsp_split_op op);
/*
 * After the operation: fault [0, len) of m back in (a failure is evidence
 * refault_errno and a fail "MADV_POPULATE_READ <when> failed"), then
 * record the PMD counter (suffix _refault) and orders_after.
 */
void fsp_split_refault(const struct fsp_target *t, struct fsp_probe *p,
		       struct fsp_mapping *m, size_t len, const char *when);
/* Make the file cold again (not on tmpfs) and check it by read(2). */
void fsp_split_check_cold(const struct fsp_target *t, struct fsp_probe *p,
			  const char *name, const struct fsp_span *s, int n,
			  uint32_t seed);

/* Record the smaps PMD counter (File or Shmem) as <kind>_pmd_mapped_kb<sfx>. */
long fsp_split_ev_pmd(const struct fsp_target *t, struct fsp_probe *p,
		      struct fsp_mapping *m, const char *sfx);
/* 1 if reading the byte at addr raises SIGBUS, 0 if it reads. */
int fsp_split_sigbus_at(const void *addr);
/*
 * Check spans against the file through the mapping at base, or read(2)
 * of fd, and record key = true/false (with key_bad_offset, and key_error
 * "SIGBUS", "short read" or an errno name when it was not a wrong byte).
 * 0, or -EILSEQ / -EFAULT (SIGBUS) / -ENODATA (short read) / -errno, with
 * *bad the first wrong byte, the page the SIGBUS struck, or where the
 * data stopped.
 */
int fsp_split_verify_map(struct fsp_probe *p, const char *key,
			 const void *base, const struct fsp_span *s, int n,
			 uint32_t seed, uint64_t *bad);
int fsp_split_verify_read(struct fsp_probe *p, const char *key, int fd,
			  const struct fsp_span *s, int n, uint32_t seed,
			  uint64_t *bad);

/* Histogram of a mapped, faulted range as evidence key; its max order. */
int fsp_split_ev_orders(struct fsp_probe *p, const char *key,
			const void *addr, size_t len);
/* The folio behind the mapped page at base + off. */
void fsp_split_folio_at(const void *base, uint64_t off,
			struct fsp_folio_pos *f);
/*
 * Pages of [off, off + len) of m's file in the page cache (mincore(2) of
 * the mapping: it sees the file the mapping really maps, where cachestat
 * of an overlayfs fd sees nothing), or -errno; *dirty (if not NULL) how
 * many are dirty (cachestat(2)), -1 if that cannot be told.
 */
long fsp_split_cached(const struct fsp_mapping *m, uint64_t off,
		      uint64_t len, long *dirty);
/* key = true / false, or null for v < 0 (not measured). */
void fsp_split_ev_tristate(struct fsp_probe *p, const char *key, int v);
/* Fail with this reason, unless an earlier failure already said why. */
void fsp_split_fail(struct fsp_probe *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * What became of a large folio an operation cut into (large: 1, 0, or -1
 * if its order is unknown), from its pages still cached right after the
 * operation: kept (the part that should survive) and gone (the part that
 * should be removed, gone_total pages).
 */
const char *fsp_split_fate(int large, long kept, long gone, long gone_total);

#endif
