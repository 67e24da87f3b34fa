// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * collapse_writable.c - MADV_COLLAPSE of a PROT_READ, MAP_SHARED mapping
 * of a file that another descriptor holds open for write (O_RDWR), once
 * with the cache clean and once after a few pages were written through
 * that descriptor without fsync. Before the READ_ONLY_THP_FOR_FS removal
 * a file open for write is not collapsed; after it MADV_COLLAPSE may write
 * dirty pages back and collapse. Per attempt (keys clean_ and dirty_):
 * the return and errno, FilePmdMapped (ShmemPmdMapped on tmpfs) after,
 * and the dirty pages before and after (cachestat). The result is
 * information: pass once measured, route `collapse` when PMD mappings
 * were made. No hint: MADV_COLLAPSE does not need MADV_HUGEPAGE.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "case.h"
#include "collapse_util.h"
#include "filedata.h"
#include "util.h"

#define SEED 0x25
#define DIRTY_PAGES 4
#define PAGE 4096

static const char *const files[] = {
	"collwr.clean", "collwr.dirty",
};

static int prepare(const struct fsp_target *t)
{
	/* Both are written through shared mappings later. */
	int ret = fsp_case_create_rw(t, files[0], FSP_FILE_SIZE, SEED, 0);

	return ret ? ret : fsp_case_create_rw(t, files[1], FSP_FILE_SIZE,
					      SEED, 0);
}

static void ev(struct fsp_probe *p, const char *pfx, const char *key,
	       long long v)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_%s", pfx, key);
	fsp_ev_int(p, name, v);
}

static void ev_s(struct fsp_probe *p, const char *pfx, const char *key,
		 const char *v)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_%s", pfx, key);
	fsp_ev_str(p, name, v);
}

/* Dirty pages of fd, or -1 (and the errno as evidence) if unknown. */
static long dirty(struct fsp_probe *p, const char *pfx, int fd, size_t len)
{
	struct fsp_residency r;
	int ret = fsp_cachestat(fd, 0, len, &r);

	if (!ret)
		return (long)r.nr_dirty;
	ev_s(p, pfx, "cachestat_errno", fsp_errno_name(ret));
	return -1;
}

/* Rewrite DIRTY_PAGES pages spread over the file with the same data. */
static int write_pages(int wfd, size_t len)
{
	char buf[PAGE];
	size_t i;
	off_t off;

	for (i = 0; i < DIRTY_PAGES; i++) {
		off = (off_t)(len / DIRTY_PAGES * i);
		fsp_pattern_fill(buf, off, PAGE, SEED);
		if (pwrite(wfd, buf, PAGE, off) != PAGE)
			return -EIO;
	}
	return 0;
}

/* Open name twice, dirty it if asked, and map it shared, faulted in. */
static int map_writable(const struct fsp_target *t, const char *name,
			int make_dirty, int *wfd, struct fsp_mapping *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	*wfd = fsp_case_open(t, name, O_RDWR);
	if (*wfd < 0)
		return *wfd;
	m->fd = fsp_case_open(t, name, O_RDONLY);
	if (m->fd < 0)
		return m->fd;
	m->len = FSP_FILE_SIZE;
	if (make_dirty && write_pages(*wfd, m->len))
		return -EIO;
	ret = fsp_map_aligned(m->fd, m->len, PROT_READ, MAP_SHARED, 0,
			      t->si->pmd_size ? t->si->pmd_size : 2UL << 20,
			      &m->addr);
	if (ret) {
		m->addr = NULL;
		return ret;
	}
	if (madvise(m->addr, m->len, MADV_POPULATE_READ))
		return -errno;
	return fsp_mapping_measure(t, m);
}

/* One attempt; 0 when measured, else the probe is an error. */
static int attempt(const struct fsp_target *t, struct fsp_probe *p,
		   const char *pfx, int make_dirty, char *sum, size_t len)
{
	const char *name = files[make_dirty];
	struct fsp_collapse_try c;
	struct fsp_mapping m;
	unsigned long long bad;
	long before;
	int wfd = -1, ret;

	ret = map_writable(t, name, make_dirty, &wfd, &m);
	if (ret == -EROFS) {
		fsp_probe_set(p, FSP_SKIP, "%s: %s cannot be opened for "
			      "write: the filesystem is read-only (EROFS)",
			      pfx, name);
		goto out;
	}
	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "%s: mapping %s open for write: "
			      "%s", pfx, name, fsp_errno_name(ret));
		goto out;
	}
	before = m.pmd_kb;
	ev(p, pfx, "pmd_mapped_kb_before", before);
	ev(p, pfx, "dirty_pages_before", dirty(p, pfx, wfd, m.len));
	/* fd -1: no fsync retry, it would clean what is measured here. */
	fsp_madv_collapse(m.addr, m.len, -1, &c);
	ev(p, pfx, "rc", c.rc ? -1 : 0);
	ev_s(p, pfx, "errno", c.rc ? fsp_errno_name(c.rc) : NULL);
	ev(p, pfx, "attempts", c.attempts);
	ret = fsp_mapping_measure(t, &m);
	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "%s: smaps after MADV_COLLAPSE: "
			      "%s", pfx, fsp_errno_name(ret));
		goto out;
	}
	ev(p, pfx, t->shmem ? "shmem_pmd_mapped_kb" : "file_pmd_mapped_kb",
	   m.pmd_kb);
	ev(p, pfx, "dirty_pages_after", dirty(p, pfx, wfd, m.len));
	if (m.pmd_kb > before)
		p->routes |= FSP_ROUTE_COLLAPSE;
	snprintf(sum, len, "%s %s, %ld kB PMD-mapped", pfx,
		 c.rc ? fsp_errno_name(c.rc) : "ok", m.pmd_kb);
	if (fsp_mapping_verify(&m, SEED, &bad)) {
		fsp_probe_set(p, FSP_FAIL, "%s: wrong data through the mapping "
			      "after MADV_COLLAPSE at byte %llu", pfx, bad);
		ret = -EILSEQ;
	}
out:
	fsp_unmap_file(&m);
	if (wfd >= 0)
		close(wfd);
	return ret;
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	char clean[64], dirt[64];

	fsp_ev_str(p, "prot", "r--");
	fsp_ev_str(p, "map", "shared");
	fsp_ev_int(p, "file_kb", FSP_FILE_SIZE >> 10);
	fsp_ev_int(p, "dirty_pages_written", DIRTY_PAGES);
	fsp_ev_str(p, "read_only_thp_for_fs_state",
		   fsp_kopt_name(t->si->ro_thp_state));
	if (t->readonly) {
		fsp_probe_set(p, FSP_SKIP, "a read-only filesystem image: no "
			      "file on it can be open for write");
		return;
	}
	if (t->sealed) {
		fsp_probe_set(p, FSP_SKIP, "%s: it cannot be open for write",
			      t->sealed);
		return;
	}
	if (attempt(t, p, "clean", 0, clean, sizeof(clean)) ||
	    attempt(t, p, "dirty", 1, dirt, sizeof(dirt)))
		return;
	fsp_probe_set(p, FSP_PASS, "MADV_COLLAPSE while open for write: "
		      "%s; %s", clean, dirt);
}

const struct fsp_case fsp_case_collapse_writable = {
	.name = "collapse-writable",
	.summary = "MADV_COLLAPSE of a shared mapping while open for write",
	.prepare = prepare,
	.run = run,
};
