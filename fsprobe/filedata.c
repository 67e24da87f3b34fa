// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * filedata.c - pattern files, aligned mappings and residency. Files are
 * not fsync'd one by one: the runner's umount/mount cycle writes them
 * back (once, for all of them) and gives every probe a clean, cold page
 * cache; `check DIR` cleans them in fsp_evict(). Dirty text would make
 * MADV_COLLAPSE fail with EINVAL (see the reference notes on prior
 * tests), so nothing maps a file before one of those two.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "beneath.h"
#include "filedata.h"
#include "scratch.h"
#include "uring.h"
#include "util.h"

#ifndef __NR_cachestat
#define __NR_cachestat 451	/* Linux 6.5, cf6e9f0e1c8f */
#endif

#define CHUNK (1UL << 20)

/*
 * The pattern's byte at pos: used only at unaligned edges; the aligned
 * middle goes a page of words at a time (probe files are ~100 MiB per
 * profile, so this is hot).
 */
static unsigned char pattern_byte(uint64_t pos, uint32_t seed)
{
	return (unsigned char)(fsp_pattern_word(pos & ~7ULL, seed) >>
			       (8 * (pos & 7)));
}

/*
 * Words [off, off + 8 * n) of one page: the page's mix, and the step
 * added word by word (a loop the compiler vectorizes). As stored:
 * byte b of a word is bits 8b..8b+7.
 */
static void fill_words(unsigned char *p, uint64_t off, size_t n,
		       uint32_t seed)
{
	uint64_t k = fsp_pattern_page(off >> 12, seed);
	uint64_t step = ((off >> 3) & 511) * FSP_PATTERN_STEP, w;
	size_t i;

	for (i = 0; i < n; i++) {
		w = htole64((k ^ step) | FSP_PATTERN_ONES);
		memcpy(p + 8 * i, &w, 8);
		step += FSP_PATTERN_STEP;
	}
}

/* The same words compared: 0 if they all match. */
static uint64_t diff_words(const unsigned char *p, uint64_t off, size_t n,
			   uint32_t seed)
{
	uint64_t k = fsp_pattern_page(off >> 12, seed);
	uint64_t step = ((off >> 3) & 511) * FSP_PATTERN_STEP, w, d = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&w, p + 8 * i, 8);
		d |= w ^ htole64((k ^ step) | FSP_PATTERN_ONES);
		step += FSP_PATTERN_STEP;
	}
	return d;
}

/* Words from aligned off to the end of its page, at most max. */
static size_t page_words(uint64_t off, size_t max)
{
	size_t n = (4096 - (off & 4095)) / 8;

	return n < max ? n : max;
}

void fsp_pattern_fill(void *buf, uint64_t off, size_t len, uint32_t seed)
{
	unsigned char *p = buf;
	size_t i = 0, n;

	while (i < len && ((off + i) & 7)) {
		p[i] = pattern_byte(off + i, seed);
		i++;
	}
	while (len - i >= 8) {
		n = page_words(off + i, (len - i) / 8);
		fill_words(p + i, off + i, n, seed);
		i += 8 * n;
	}
	for (; i < len; i++)
		p[i] = pattern_byte(off + i, seed);
}

static int check_bytes(const unsigned char *p, uint64_t off, size_t from,
		       size_t to, uint32_t seed, uint64_t *bad)
{
	size_t i;

	for (i = from; i < to; i++) {
		if (p[i] != pattern_byte(off + i, seed)) {
			if (bad)
				*bad = off + i;
			return -EILSEQ;
		}
	}
	return 0;
}

/*
 * A page's words at a time; only a page that differs is gone through
 * again byte by byte, for the first wrong byte's offset.
 */
int fsp_pattern_check(const void *buf, uint64_t off, size_t len,
		      uint32_t seed, uint64_t *bad)
{
	const unsigned char *p = buf;
	size_t i = (8 - (off & 7)) & 7, n;

	if (i > len)
		i = len;
	if (check_bytes(p, off, 0, i, seed, bad))
		return -EILSEQ;
	while (len - i >= 8) {
		n = page_words(off + i, (len - i) / 8);
		if (diff_words(p + i, off + i, n, seed))
			return check_bytes(p, off, i, i + 8 * n, seed, bad);
		i += 8 * n;
	}
	return check_bytes(p, off, i, len, seed, bad);
}

int fsp_zero_check(const void *buf, size_t len, size_t *bad)
{
	const unsigned char *p = buf;
	size_t i = 0, j, n;
	uint64_t w, d;

	/* 4 KiB of words OR-ed together, then find the byte. */
	for (; len - i >= 8; i += 8 * n) {
		n = (len - i) / 8 < 512 ? (len - i) / 8 : 512;
		for (d = 0, j = 0; j < n; j++) {
			memcpy(&w, p + i + 8 * j, 8);
			d |= w;
		}
		if (d)
			break;
	}
	for (; i < len; i++) {
		if (p[i]) {
			if (bad)
				*bad = i;
			return -EILSEQ;
		}
	}
	return 0;
}

int fsp_file_create(const char *path, size_t size, uint32_t seed, int mode)
{
	return fsp_file_create_at(AT_FDCWD, path, size, seed, mode);
}

int fsp_file_create_sparse(const char *path, size_t size, size_t data_off,
			   uint32_t seed, int mode)
{
	return fsp_file_create_sparse_at(AT_FDCWD, path, size, data_off, seed,
					 mode);
}

int fsp_file_create_at(int dirfd, const char *name, size_t size,
		       uint32_t seed, int mode)
{
	return fsp_file_create_sparse_at(dirfd, name, size, 0, seed, mode);
}

/* A new file name in dirfd (O_EXCL, no symlink anywhere): fd or -errno. */
static int create_at(int dirfd, const char *name, int flags, int mode)
{
	flags |= O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	if (dirfd == AT_FDCWD) {
		int fd = open(name, flags, mode);

		return fd < 0 ? -errno : fd;
	}
	return fsp_openat_beneath(dirfd, name, flags, mode);
}

int fsp_file_create_sparse_at(int dirfd, const char *name, size_t size,
			      size_t data_off, uint32_t seed, int mode)
{
	char *buf = fsp_scratch(CHUNK);
	size_t off;
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	fd = create_at(dirfd, name, O_WRONLY, mode);
	if (fd < 0)
		return fd;
	if (data_off > size)
		data_off = size;
	/* The hole first: the size is right even if no byte is written. */
	if (data_off)
		ret = ftruncate(fd, (off_t)size) ? -errno : 0;
	if (!ret)
		ret = fsp_uring_wanted() ?
		      fsp_uring_write_pattern(fd, data_off, size, seed) :
		      -EOPNOTSUPP;
	if (ret == -ENOSYS || ret == -EPERM || ret == -EOPNOTSUPP) {
		/* write(2): the default, and where io_uring cannot be had. */
		for (ret = 0, off = data_off; off < size && !ret; off += CHUNK) {
			size_t n = size - off < CHUNK ? size - off : CHUNK;

			fsp_pattern_fill(buf, off, n, seed);
			ret = fsp_pwrite_all(fd, buf, n, (off_t)off);
		}
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		unlinkat(dirfd, name, 0);
	return ret;
}

int fsp_file_fill(int fd, size_t size, size_t data_off, uint32_t seed)
{
	unsigned char *buf;
	size_t off, n;
	int ret = 0;

	/* O_DIRECT wants an aligned buffer: our own, not the scratch one. */
	if (posix_memalign((void **)&buf, 4096, CHUNK))
		return -ENOMEM;
	for (off = 0; off < size && !ret; off += n) {
		n = size - off < CHUNK ? size - off : CHUNK;
		if (off < data_off && data_off - off < n)
			n = data_off - off;	/* zeroes end inside: split */
		if (off < data_off)
			memset(buf, 0, n);
		else
			fsp_pattern_fill(buf, off, n, seed);
		ret = fsp_pwrite_all(fd, buf, n, (off_t)off);
	}
	free(buf);
	return ret;
}

int fsp_file_copy(const char *src, const char *dst, int mode)
{
	return fsp_file_copy_at(src, AT_FDCWD, dst, mode);
}

int fsp_file_copy_at(const char *src, int dirfd, const char *dst, int mode)
{
	char *buf = fsp_scratch(CHUNK);
	int in, out, ret = 0;
	off_t size = 0;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = create_at(dirfd, dst, O_WRONLY, mode);
	if (out < 0) {
		ret = out;
		goto out_in;
	}
	/*
	 * The mode asked for, whatever the umask took (an x bit); a
	 * filesystem that cannot hold it (FAT's fmask) keeps its own, and
	 * whoever executes the copy checks what it got.
	 */
	if (fchmod(out, mode) && errno != EPERM && errno != EOPNOTSUPP)
		ret = -errno;
	/*
	 * Keep the copy sparse: ELF payloads are half zero padding between
	 * 2 MiB-aligned segments, and images should cost only real data.
	 * Each run of non-zero pages goes out in one pwrite.
	 */
	while (!ret && (n = read(in, buf, CHUNK)) != 0) {
		ssize_t off = 0, run;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		while (off < n && !ret) {
			for (run = off; run < n; run += 4096)
				if (!fsp_zero_check(buf + run, n - run < 4096 ?
						    n - run : 4096, NULL))
					break;
			if (run > off)
				ret = fsp_pwrite_all(out, buf + off, run - off,
						     size + off);
			off = run + 4096;	/* past the zero page */
		}
		if (ret)
			break;
		size += n;
	}
	if (!ret && ftruncate(out, size))
		ret = -errno;
	if (close(out) && !ret)
		ret = -errno;
	if (ret)
		unlinkat(dirfd, dst, 0);
out_in:
	close(in);
	return ret;
}

int fsp_map_aligned(int fd, size_t len, int prot, int flags, off_t off,
		    size_t pmd_size, void **addr)
{
	size_t span = len + pmd_size;
	char *area, *aligned, *p;

	/* Reserve, then place the file mapping on an aligned boundary. */
	area = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		    MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED)
		return -errno;
	aligned = (char *)(((uintptr_t)area + pmd_size - 1) &
			   ~(uintptr_t)(pmd_size - 1));
	p = mmap(aligned, len, prot, flags | MAP_FIXED, fd, off);
	if (p == MAP_FAILED) {
		int ret = -errno;

		munmap(area, span);
		return ret;
	}
	if (aligned > area)
		munmap(area, aligned - area);
	if (area + span > aligned + len)
		munmap(aligned + len, area + span - (aligned + len));
	*addr = p;
	return 0;
}

struct fsp_cachestat_range {
	uint64_t off;
	uint64_t len;
};

struct fsp_cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted;
	uint64_t nr_recently_evicted;
};

/*
 * cachestat() reads the cache of the file it is given. An overlayfs file
 * has none of its own: its data is cached in the real (upper or lower)
 * file's mapping, so cachestat on it says 0 pages however much is cached.
 */
static int on_overlay(int fd)
{
	struct statfs sfs;

	return !fstatfs(fd, &sfs) && sfs.f_type == OVERLAYFS_SUPER_MAGIC;
}

int fsp_cachestat(int fd, off_t off, size_t len, struct fsp_residency *r)
{
	struct fsp_cachestat_range range = { off, len };
	struct fsp_cachestat cs;

	memset(r, 0, sizeof(*r));
	if (syscall(__NR_cachestat, fd, &range, &cs, 0))
		return errno == EOPNOTSUPP ? -ENOSYS : -errno;
	r->nr_cache = cs.nr_cache;
	r->nr_dirty = cs.nr_dirty;
	r->nr_writeback = cs.nr_writeback;
	r->nr_evicted = cs.nr_evicted;
	r->via_cachestat = 1;
	return 0;
}

int fsp_residency(int fd, off_t off, size_t len, struct fsp_residency *r)
{
	long psz = sysconf(_SC_PAGESIZE);
	unsigned char *vec;
	size_t i, pages;
	int overlay = on_overlay(fd), ret;
	void *p;

	if (!overlay) {
		ret = fsp_cachestat(fd, off, len, r);
		if (ret != -ENOSYS)
			return ret;
	}
	memset(r, 0, sizeof(*r));
	/*
	 * mincore: of a fresh mapping, so it reports the page cache. On
	 * overlayfs the mapping is of the real file (ovl_mmap() hands the
	 * VMA to it), so this sees the cache cachestat cannot.
	 */
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);
	if (p == MAP_FAILED)
		return -errno;
	pages = (len + psz - 1) / psz;
	vec = malloc(pages);
	if (!vec || mincore(p, len, vec)) {
		ret = vec ? -errno : -ENOMEM;
		free(vec);
		munmap(p, len);
		return ret;
	}
	for (i = 0; i < pages; i++)
		r->nr_cache += vec[i] & 1;
	free(vec);
	munmap(p, len);
	return 0;
}

int fsp_evict(int fd, size_t len, struct fsp_residency *r)
{
	int ret;

	/* A read-only filesystem (no fsync: EINVAL, EROFS) has no dirt. */
	if (fsync(fd) && errno != EINVAL && errno != EROFS)
		return -errno;
	ret = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (ret)
		return -ret;
	return fsp_residency(fd, 0, len, r);
}
