/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filedata.h - test files and their mappings: a position-dependent,
 * never-zero data pattern (so a zeroed or stale page is always visible),
 * files written with it, PMD-aligned mappings, and page-cache
 * residency through cachestat(2) with a mincore(2) fallback.
 */
#ifndef FSP_FILEDATA_H
#define FSP_FILEDATA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The pattern: one 64-bit mix per 4 KiB page of the file, XORed with a
 * step that differs for each word of the page, so a page shows up
 * wrong at any other offset or in another file (seed), and no byte is
 * ever zero. One mix per page, not per word: fill and check are hot.
 */
#define FSP_PATTERN_STEP 0xd6e8feb86659fd93ULL
#define FSP_PATTERN_ONES 0x0101010101010101ULL

static inline uint64_t fsp_pattern_page(uint64_t page, uint32_t seed)
{
	uint64_t x = page * 0x9e3779b97f4a7c15ULL ^ seed;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 32;
	return x;
}

/* The 64-bit word the pattern has at byte offset off (8-aligned). */
static inline uint64_t fsp_pattern_word(uint64_t off, uint32_t seed)
{
	return (fsp_pattern_page(off >> 12, seed) ^
		((off >> 3) & 511) * FSP_PATTERN_STEP) | FSP_PATTERN_ONES;
}

void fsp_pattern_fill(void *buf, uint64_t off, size_t len, uint32_t seed);
/* 0 if buf matches; else -EILSEQ and *bad = first wrong byte's offset. */
int fsp_pattern_check(const void *buf, uint64_t off, size_t len,
		      uint32_t seed, uint64_t *bad);
/* 0 if every byte is zero; else -EILSEQ, *bad = first non-zero offset. */
int fsp_zero_check(const void *buf, size_t len, size_t *bad);

/* Create path (O_EXCL) with size bytes of pattern (not fsync'd). */
int fsp_file_create(const char *path, size_t size, uint32_t seed, int mode);
/*
 * Write size bytes into the open fd from offset 0, in order: zeroes up
 * to data_off, then the pattern of seed. The buffer is page-aligned and
 * every write a multiple of 4 KiB when size and data_off are, so fd may
 * be O_DIRECT: the only way into a zonefs sequential zone file.
 */
int fsp_file_fill(int fd, size_t size, size_t data_off, uint32_t seed);
/* The same with bytes [0, data_off) a hole (they read as zeroes). */
int fsp_file_create_sparse(const char *path, size_t size, size_t data_off,
			   uint32_t seed, int mode);
/*
 * Copy src to dst (O_EXCL), sparse, with mode whatever the umask (where
 * the filesystem can hold it), not fsync'd.
 */
int fsp_file_copy(const char *src, const char *dst, int mode);
/*
 * The same three with the new file's name below the directory fd dirfd
 * (fsp_openat_beneath: no symlink followed, nothing outside dirfd); on
 * failure the name is removed with unlinkat. The path forms above are
 * these with AT_FDCWD.
 */
int fsp_file_create_at(int dirfd, const char *name, size_t size,
		       uint32_t seed, int mode);
int fsp_file_create_sparse_at(int dirfd, const char *name, size_t size,
			      size_t data_off, uint32_t seed, int mode);
int fsp_file_copy_at(const char *src, int dirfd, const char *dst, int mode);

/* mmap len bytes of fd at a pmd_size-aligned address. */
int fsp_map_aligned(int fd, size_t len, int prot, int flags, off_t off,
		    size_t pmd_size, void **addr);

struct fsp_residency {
	unsigned long nr_cache, nr_dirty, nr_writeback, nr_evicted;
	int via_cachestat;	/* 0: mincore was used */
};
/*
 * Pages of [off, off+len) in fd's own page cache (cachestat(2), Linux
 * 6.5): -ENOSYS without it. Blind to stacked files (see fsp_residency).
 */
int fsp_cachestat(int fd, off_t off, size_t len, struct fsp_residency *r);
/* Pages of [off, off+len) of fd in the page cache: cachestat, or mincore. */
int fsp_residency(int fd, off_t off, size_t len, struct fsp_residency *r);
/*
 * Evict fd's clean pages (fsync + POSIX_FADV_DONTNEED) and say in *after
 * how many are still cached afterwards, and how that was counted.
 */
int fsp_evict(int fd, size_t len, struct fsp_residency *after);
/* How a residency was counted, for evidence: "cachestat" or "mincore". */
static inline const char *fsp_residency_method(const struct fsp_residency *r)
{
	return r->via_cachestat ? "cachestat" : "mincore";
}

#endif
