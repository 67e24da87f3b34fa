// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * split_util.c - helpers of the two split probes. The mapping is
 * MAP_SHARED so that every page we look at is the page cache's own folio.
 * The write fd is opened before the file is mapped: on overlayfs that
 * open copies the file up, and a mapping made before would go on showing
 * the lower file (overlayfs.rst, "Non-standard behavior"). Reads through
 * the mapping run with a SIGBUS handler installed only around them, so a
 * kernel that wrongly refuses a page inside the file fails the probe
 * instead of killing the run. Split detection looks at residency right
 * after the operation, before anything faults the range again: pages of
 * the cut folio still cached were kept (split or not); pages that should
 * be gone and are still cached mean the folio survived whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "filedata.h"
#include "order_hist.h"
#include "pagemap.h"
#include "scratch.h"
#include "split_util.h"
#include "util.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14, 4ca9b3859dac */
#endif

/* Page size: the probes run where the pagemap walk runs, any arch. */
#define PAGE ((uint64_t)sysconf(_SC_PAGESIZE))

static size_t pmd_size(const struct fsp_target *t)
{
	return t->si->pmd_size ? t->si->pmd_size : 2UL << 20;
}

int fsp_split_prepare(const struct fsp_target *t, const char *name,
		      uint32_t seed)
{
	/* Nothing can be cut on a read-only image: don't bloat it. */
	if (t->readonly)
		return 0;
	return fsp_case_create_rw(t, name, FSP_FILE_SIZE, seed, 1);
}

/* Pages of [addr, addr + len) in the cache, by mincore(2) of a mapping. */
static long resident(const void *addr, uint64_t len)
{
	uint64_t i, pages = (len + PAGE - 1) / PAGE;
	unsigned char *vec;
	long n = 0;

	if (!pages)
		return 0;
	vec = malloc(pages);
	if (!vec)
		return -ENOMEM;
	if (mincore((void *)addr, len, vec)) {
		n = -errno;
	} else {
		for (i = 0; i < pages; i++)
			n += vec[i] & 1;
	}
	free(vec);
	return n;
}

/* Map name, not faulted yet; m->cached_before as it is now. */
static int map_file(const struct fsp_target *t, const char *name,
		    struct fsp_mapping *m)
{
	long cached;
	off_t size;
	int ret;

	memset(m, 0, sizeof(*m));
	m->fd = fsp_case_open(t, name, O_RDONLY);
	if (m->fd < 0)
		return m->fd;
	size = lseek(m->fd, 0, SEEK_END);
	if (size != FSP_FILE_SIZE) {
		ret = size < 0 ? -errno : -ENODATA;
		goto fail;
	}
	m->len = size;
	ret = fsp_map_aligned(m->fd, m->len, PROT_READ, MAP_SHARED, 0,
			      pmd_size(t), &m->addr);
	if (ret)
		goto fail;
	cached = resident(m->addr, m->len);
	m->cached_before = cached > 0 ? cached : 0;
	return 0;
fail:
	fsp_unmap_file(m);
	return ret;
}

/*
 * Open for writing, then map; if opening warmed the cache (a copy-up that
 * copied the data), make it cold again first. tmpfs has no cold.
 */
static int open_and_map(const struct fsp_target *t, struct fsp_probe *p,
			const char *name, struct fsp_mapping *m, int *wfd)
{
	int ret;

	*wfd = fsp_case_open(t, name, O_RDWR);
	if (*wfd < 0)
		return *wfd;
	ret = map_file(t, name, m);
	if (!ret && m->cached_before && !t->shmem && t->recycle) {
		fsp_ev_int(p, "cached_pages_after_write_open",
			   m->cached_before);
		fsp_unmap_file(m);
		close(*wfd);
		*wfd = -1;
		ret = t->recycle(t);
		if (ret)
			return ret;
		*wfd = fsp_case_open(t, name, O_RDWR);
		if (*wfd < 0)
			return *wfd;
		ret = map_file(t, name, m);
	}
	if (ret) {
		close(*wfd);
		*wfd = -1;
	}
	return ret;
}

int fsp_split_setup(const struct fsp_target *t, struct fsp_probe *p,
		    const char *name, uint32_t seed, struct fsp_mapping *m,
		    int *wfd)
{
	const struct fsp_span whole = { 0, FSP_FILE_SIZE, 0 };
	uint64_t bad;
	long pmd_kb;
	int ret;

	fsp_ev_str(p, "cold", t->cold_method);
	fsp_ev_int(p, "file_kb", FSP_FILE_SIZE >> 10);
	if (t->readonly) {
		fsp_probe_set(p, FSP_SKIP, "read-only filesystem: the file "
			      "cannot be cut");
		return -EROFS;
	}
	if (t->sealed) {
		fsp_probe_set(p, FSP_SKIP, "%s: the file cannot be cut",
			      t->sealed);
		return -EPERM;
	}
	ret = open_and_map(t, p, name, m, wfd);
	if (ret) {
		fsp_probe_set(p, ret == -EROFS ? FSP_SKIP : FSP_ERROR,
			      "opening %s for writing and mapping it: %s",
			      name, fsp_errno_name(-ret));
		return ret;
	}
	fsp_ev_int(p, "cached_pages_before", m->cached_before);
	m->hint_rc = madvise(m->addr, m->len, MADV_HUGEPAGE) ? -errno : 0;
	if (m->hint_rc)
		fsp_ev_str(p, "madv_hugepage_errno",
			   fsp_errno_name(m->hint_rc));
	if (madvise(m->addr, m->len, MADV_POPULATE_READ)) {
		ret = -errno;
		fsp_probe_set(p, FSP_ERROR, "MADV_POPULATE_READ: %s",
			      fsp_errno_name(-ret));
		goto fail;
	}
	pmd_kb = fsp_split_ev_pmd(t, p, m, "_before");
	ret = fsp_split_ev_orders(p, "orders_before", m->addr, m->len);
	if (ret >= 0)
		p->order_fault = ret;
	if (pmd_kb > 0)
		p->routes |= t->shmem ? FSP_ROUTE_SHMEM : FSP_ROUTE_FAULT;
	ret = fsp_split_verify_map(p, "intact_before", m->addr, &whole, 1,
				   seed, &bad);
	if (ret) {
		fsp_split_fail(p, "wrong data at byte %llu before the file "
			       "was cut", (unsigned long long)bad);
		goto fail;
	}
	return 0;
fail:
	fsp_split_teardown(m, *wfd);
	return ret;
}

void fsp_split_teardown(struct fsp_mapping *m, int wfd)
{
	if (wfd >= 0)
		close(wfd);
	fsp_unmap_file(m);
}

void fsp_split_run(const struct fsp_target *t, struct fsp_probe *p,
		   const char *name, uint32_t seed, fsp_split_op op)
{
	struct fsp_mapping m;
	int wfd;

	if (fsp_split_setup(t, p, name, seed, &m, &wfd))
		return;
	op(t, p, &m, wfd);
	fsp_split_teardown(&m, wfd);
}

void fsp_split_refault(const struct fsp_target *t, struct fsp_probe *p,
		       struct fsp_mapping *m, size_t len, const char *when)
{
	if (madvise(m->addr, len, MADV_POPULATE_READ)) {
		fsp_ev_str(p, "refault_errno", fsp_errno_name(errno));
		fsp_split_fail(p, "MADV_POPULATE_READ %s failed: %s", when,
			       fsp_errno_name(errno));
	}
	fsp_split_ev_pmd(t, p, m, "_refault");
	fsp_split_ev_orders(p, "orders_after", m->addr, len);
}

void fsp_split_check_cold(const struct fsp_target *t, struct fsp_probe *p,
			  const char *name, const struct fsp_span *s, int n,
			  uint32_t seed)
{
	uint64_t bad;
	int fd;

	/* Only what the probe measured is worth re-reading. */
	if (p->result != FSP_PASS && p->result != FSP_FAIL)
		return;
	fd = fsp_case_open(t, name, O_RDONLY);
	if (fd < 0) {
		fsp_probe_set(p, FSP_ERROR, "re-reading cold: %s",
			      fsp_errno_name(-fd));
		return;
	}
	if (fsp_split_verify_read(p, "cold_reread_ok", fd, s, n, seed, &bad))
		fsp_split_fail(p, "re-read cold (%s): byte %llu is wrong",
			       t->cold_method, (unsigned long long)bad);
	close(fd);
}

/* "file_pmd_mapped_kb<sfx>" or "shmem_pmd_mapped_kb<sfx>" (static). */
static const char *pmd_key(const struct fsp_target *t, const char *sfx)
{
	static char key[64];

	snprintf(key, sizeof(key), "%s_pmd_mapped_kb%s",
		 t->shmem ? "shmem" : "file", sfx);
	return key;
}

long fsp_split_ev_pmd(const struct fsp_target *t, struct fsp_probe *p,
		      struct fsp_mapping *m, const char *sfx)
{
	long kb = fsp_mapping_measure(t, m) ? -1 : m->pmd_kb;

	fsp_ev_int(p, pmd_key(t, sfx), kb);
	return kb;
}

static sigjmp_buf bus_env;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_env, 1);
}

/* fn(arg) with SIGBUS caught: its return, or -EFAULT if it raised one. */
static int sigbus_guard(int (*fn)(void *), void *arg)
{
	struct sigaction sa, old;
	sigset_t bus, oldmask;
	volatile int ret = -EFAULT;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old))
		return -errno;
	/* A blocked SIGBUS from a fault is delivered with SIG_DFL: a kill. */
	sigemptyset(&bus);
	sigaddset(&bus, SIGBUS);
	sigprocmask(SIG_UNBLOCK, &bus, &oldmask);
	/* savemask: leave the handler with SIGBUS unblocked again. */
	if (!sigsetjmp(bus_env, 1))
		ret = fn(arg);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	sigaction(SIGBUS, &old, NULL);
	return ret;
}

static int read_byte(void *arg)
{
	(void)*(const volatile char *)arg;
	return 0;
}

int fsp_split_sigbus_at(const void *addr)
{
	return sigbus_guard(read_byte, (void *)addr) == -EFAULT;
}

struct map_check {
	const unsigned char *base;
	const struct fsp_span *s;
	int n;
	uint32_t seed;
	volatile uint64_t pos;	/* survives the siglongjmp */
	uint64_t bad;
};

static int check_span(const unsigned char *buf, const struct fsp_span *s,
		      uint64_t off, uint64_t len, uint32_t seed, uint64_t *bad)
{
	size_t zbad;
	int ret;

	if (!s->zero)
		return fsp_pattern_check(buf, off, len, seed, bad);
	ret = fsp_zero_check(buf, len, &zbad);
	if (ret)
		*bad = off + zbad;
	return ret;
}

static int map_check_fn(void *arg)
{
	struct map_check *c = arg;
	uint64_t off, len;
	int i, ret;

	/* Page by page, so that a SIGBUS says where it struck. */
	for (i = 0; i < c->n; i++) {
		for (off = c->s[i].off; off < c->s[i].off + c->s[i].len;
		     off += len) {
			len = PAGE - off % PAGE;
			if (len > c->s[i].off + c->s[i].len - off)
				len = c->s[i].off + c->s[i].len - off;
			c->pos = off;
			ret = check_span(c->base + off, &c->s[i], off, len,
					 c->seed, &c->bad);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int check_map(const void *base, const struct fsp_span *s, int n,
		     uint32_t seed, uint64_t *bad)
{
	struct map_check c = { base, s, n, seed, 0, 0 };
	int ret = sigbus_guard(map_check_fn, &c);

	*bad = ret == -EFAULT ? c.pos : c.bad;
	return ret;
}

static int check_read(int fd, const struct fsp_span *s, int n, uint32_t seed,
		      uint64_t *bad)
{
	uint64_t end = 0, got = 0;
	unsigned char *buf;
	ssize_t r = 0;
	int i, ret = 0;

	for (i = 0; i < n; i++)
		if (s[i].off + s[i].len > end)
			end = s[i].off + s[i].len;
	buf = fsp_scratch(end ? end : 1);
	if (!buf)
		return -ENOMEM;
	while (got < end) {
		r = pread(fd, buf + got, end - got, got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	if (got < end) {
		ret = r < 0 ? -errno : -ENODATA;
		*bad = got;
		goto out;
	}
	for (i = 0; i < n && !ret; i++)
		ret = check_span(buf + s[i].off, &s[i], s[i].off, s[i].len,
				 seed, bad);
out:
	return ret;
}

/* Record a check as key = ok, and where and how it failed. */
static int ev_check(struct fsp_probe *p, const char *key, int ret,
		    uint64_t bad)
{
	char name[96];

	fsp_ev_bool(p, key, !ret);
	if (!ret)
		return 0;
	snprintf(name, sizeof(name), "%s_bad_offset", key);
	fsp_ev_int(p, name, bad);
	if (ret != -EILSEQ) {
		snprintf(name, sizeof(name), "%s_error", key);
		fsp_ev_str(p, name, ret == -EFAULT ? "SIGBUS" :
			   ret == -ENODATA ? "short read" :
			   fsp_errno_name(-ret));
	}
	return ret;
}

int fsp_split_verify_map(struct fsp_probe *p, const char *key,
			 const void *base, const struct fsp_span *s, int n,
			 uint32_t seed, uint64_t *bad)
{
	int ret;

	*bad = 0;
	ret = check_map(base, s, n, seed, bad);
	return ev_check(p, key, ret, *bad);
}

int fsp_split_verify_read(struct fsp_probe *p, const char *key, int fd,
			  const struct fsp_span *s, int n, uint32_t seed,
			  uint64_t *bad)
{
	int ret;

	*bad = 0;
	ret = check_read(fd, s, n, seed, bad);
	return ev_check(p, key, ret, *bad);
}

int fsp_split_ev_orders(struct fsp_probe *p, const char *key,
			const void *addr, size_t len)
{
	struct fsp_order_hist h;
	char buf[256];
	int ret;

	ret = fsp_pagemap_range(addr, len, &h);
	if (ret) {
		fsp_ev_str(p, key, NULL);
		fsp_ev_str(p, "pagemap_error", fsp_errno_name(-ret));
		return ret;
	}
	fsp_order_hist_fmt(&h, buf, sizeof(buf));
	fsp_ev_str(p, key, buf);
	return h.max_order;
}

void fsp_split_folio_at(const void *base, uint64_t off,
			struct fsp_folio_pos *f)
{
	struct fsp_order_hist h;
	uint64_t size;

	off &= ~(PAGE - 1);
	f->order = -1;
	f->start = off;
	f->end = off + PAGE;
	if (fsp_pagemap_range((const char *)base + off, PAGE, &h) ||
	    !h.nr_pages)
		return;
	/* Page cache folios are naturally aligned in the file. */
	f->order = h.max_order;
	size = PAGE << f->order;
	f->start = off & ~(size - 1);
	f->end = f->start + size;
}

long fsp_split_cached(const struct fsp_mapping *m, uint64_t off,
		      uint64_t len, long *dirty)
{
	struct fsp_residency r;
	long n;

	if (dirty)
		*dirty = -1;
	n = resident((const char *)m->addr + off, len);
	if (n <= 0 || !dirty) {
		if (dirty && !n)
			*dirty = 0;
		return n;
	}
	/* Trust cachestat's dirty count only if it sees the same pages. */
	if (!fsp_residency(m->fd, off, len, &r) && r.via_cachestat &&
	    r.nr_cache == (unsigned long)n)
		*dirty = r.nr_dirty;
	return n;
}

void fsp_split_fail(struct fsp_probe *p, const char *fmt, ...)
{
	va_list ap;

	/* The first failure is the one to read; later ones follow from it. */
	if (p->result == FSP_FAIL)
		return;
	p->result = FSP_FAIL;
	va_start(ap, fmt);
	vsnprintf(p->reason, sizeof(p->reason), fmt, ap);
	va_end(ap);
}

void fsp_split_ev_tristate(struct fsp_probe *p, const char *key, int v)
{
	if (v < 0)
		fsp_ev_str(p, key, NULL);
	else
		fsp_ev_bool(p, key, v);
}

const char *fsp_split_fate(int large, long kept, long gone, long gone_total)
{
	if (large < 0)
		return "unknown (no folio orders)";
	if (!large)
		return "no large folio to split";
	if (kept < 0 || gone < 0)
		return "unknown";
	if (!gone)
		return kept ? "split" : "dropped";
	return gone >= gone_total ? "kept whole" : "partly split";
}
