// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * case_util.c - what every case needs: result and evidence setters, test
 * files reached only through the target's directory fds (never a path a
 * user could swap under `check DIR`), and the "map a cold file at a
 * 2 MiB-aligned address, hint, populate, read smaps" sequence that the
 * reach probes share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "beneath.h"
#include "case.h"
#include "filedata.h"
#include "knob.h"
#include "proc.h"
#include "smaps.h"
#include "util.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14, 4ca9b3859dac */
#endif

void fsp_probe_init(struct fsp_probe *p, const struct fsp_case *c)
{
	memset(p, 0, sizeof(*p));
	p->c = c;
	p->result = FSP_PASS;
	p->evidence = json_object_new_object();
	p->order_read = p->order_fault = p->order_min = -1;
}

void fsp_probe_set(struct fsp_probe *p, enum fsp_outcome o,
		   const char *fmt, ...)
{
	va_list ap;

	/* A failure is never overwritten by a later, milder outcome. */
	if (p->result == FSP_FAIL && o != FSP_FAIL)
		return;
	p->result = o;
	va_start(ap, fmt);
	vsnprintf(p->reason, sizeof(p->reason), fmt, ap);
	va_end(ap);
}

void fsp_ev_int(struct fsp_probe *p, const char *key, long long v)
{
	json_object_object_add(p->evidence, key, json_object_new_int64(v));
}

void fsp_ev_str(struct fsp_probe *p, const char *key, const char *v)
{
	json_object_object_add(p->evidence, key,
			       v ? json_object_new_string(v) : NULL);
}

void fsp_ev_bool(struct fsp_probe *p, const char *key, int v)
{
	json_object_object_add(p->evidence, key, json_object_new_boolean(v));
}

/* The name relative to the directory: a fixed file's own, if bound. */
static const char *case_name(const struct fsp_target *t, const char *name)
{
	const char *bound = t->files ? t->files->lookup(t->files, name) : NULL;

	return bound ? bound : name;
}

int fsp_case_openat(const struct fsp_target *t, int prep, const char *name,
		    int flags, mode_t mode)
{
	int dirfd = prep ? t->prep_dirfd : t->dirfd;

	if (dirfd < 0)
		return -EBADF;
	return fsp_openat_beneath(dirfd, case_name(t, name),
				  flags | O_NOFOLLOW, mode);
}

int fsp_case_open(const struct fsp_target *t, const char *name, int flags)
{
	return fsp_case_openat(t, 0, name, flags, 0);
}

int fsp_case_open_exec(const struct fsp_target *t, const char *name)
{
	int fd = fsp_case_open(t, name, O_RDONLY), ret;

	if (fd < 0)
		return fd;
	ret = fsp_proc_exec_check(fd);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

int fsp_mapping_measure(const struct fsp_target *t, struct fsp_mapping *m)
{
	struct fsp_smaps_vma v;
	int ret;

	ret = fsp_smaps_lookup(0, (unsigned long)m->addr, &v);
	if (ret)
		return ret;
	m->pmd_kb = t->shmem ? v.shmem_pmd_kb : v.file_pmd_kb;
	m->rss_kb = v.rss_kb;
	m->thp_eligible = v.thp_eligible;
	return m->pmd_kb < 0 ? -ENODATA : 0;
}

/*
 * MADV_POPULATE_READ says EFAULT for a page the filesystem could not
 * read; read(2) of the file says why (EIO). -EFAULT if it reads.
 */
static int read_errno(int fd, off_t len)
{
	off_t off;
	char c;

	for (off = 0; off < len; off += 1 << 20)
		if (pread(fd, &c, 1, off) < 0)
			return -errno;
	return -EFAULT;
}

/* Map m->fd (open) whole, aligned, and fault it in; then measure. */
static int map_open_file(const struct fsp_target *t, int prot, int hint,
			 struct fsp_mapping *m)
{
	struct fsp_residency r;
	off_t size = lseek(m->fd, 0, SEEK_END);
	int ret;

	if (size <= 0)
		return size < 0 ? -errno : -ENODATA;
	m->len = size;
	if (!fsp_residency(m->fd, 0, m->len, &r))
		m->cached_before = r.nr_cache;
	ret = fsp_map_aligned(m->fd, m->len, prot, MAP_PRIVATE, 0,
			      t->si->pmd_size ? t->si->pmd_size : 2UL << 20,
			      &m->addr);
	if (ret)
		return ret;
	if (hint)
		m->hint_rc = madvise(m->addr, m->len, MADV_HUGEPAGE) ?
			     -errno : 0;
	m->populate_rc = madvise(m->addr, m->len, MADV_POPULATE_READ) ?
			 -errno : 0;
	if (m->populate_rc == -EFAULT)
		m->populate_rc = read_errno(m->fd, m->len);
	return fsp_mapping_measure(t, m);
}

int fsp_map_file(const struct fsp_target *t, const char *name, int prot,
		 int hint, struct fsp_mapping *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->fd = fsp_case_open(t, name, O_RDONLY);
	if (m->fd < 0) {
		ret = m->fd;
		m->fd = -1;
		return ret;
	}
	ret = map_open_file(t, prot, hint, m);
	if (ret)
		fsp_unmap_file(m);
	return ret;
}

void fsp_unmap_file(struct fsp_mapping *m)
{
	if (m->addr)
		munmap(m->addr, m->len);
	if (m->fd >= 0)
		close(m->fd);
	m->addr = NULL;
	m->fd = -1;
}

int fsp_mapping_verify(const struct fsp_mapping *m, unsigned int seed,
		       unsigned long long *bad)
{
	uint64_t b = 0;
	int ret;

	/* Not populated (an I/O error): touching it would be SIGBUS. */
	if (m->populate_rc)
		return m->populate_rc;
	ret = fsp_pattern_check(m->addr, 0, m->len, seed, &b);
	*bad = b;
	return ret;
}

struct fsp_trace *fsp_case_trace(const struct fsp_target *t, int *err)
{
	if (!t->trace) {
		*err = -ENODEV;
		return NULL;
	}
	return t->trace->get(t->trace, err);
}

long fsp_khugepaged_counter(const char *name)
{
	char path[256];
	unsigned long v;

	snprintf(path, sizeof(path), FSP_KNOB_KHUGEPAGED "/%s", name);
	return fsp_read_ulong(path, &v) ? -1 : (long)v;
}

long fsp_case_read_ahead_kb(const struct fsp_target *t)
{
	unsigned long kb;

	if (!t->read_ahead_path || fsp_read_ulong(t->read_ahead_path, &kb))
		return -1;
	return (long)kb;
}

/* tmpfs: allocate the file's folios by faulting a hinted mapping. */
static int shmem_fill_hinted(const struct fsp_target *t, const char *name,
			     size_t size, uint32_t seed)
{
	struct statvfs sv;
	void *p;
	int fd, ret;

	/*
	 * A store through the mapping past the size limit is a SIGBUS.
	 * ramfs has no limit and reports no blocks at all.
	 */
	if (fstatvfs(t->prep_dirfd, &sv))
		return -errno;
	if (sv.f_blocks &&
	    (unsigned long long)sv.f_bavail * sv.f_frsize < size)
		return -ENOSPC;
	fd = fsp_case_openat(t, 1, name, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return fd;
	ret = ftruncate(fd, size) ? -errno : 0;
	if (!ret)
		ret = fsp_map_aligned(fd, size, PROT_READ | PROT_WRITE,
				      MAP_SHARED, 0, t->si->pmd_size ?
				      t->si->pmd_size : 2UL << 20, &p);
	if (!ret) {
		madvise(p, size, MADV_HUGEPAGE);
		fsp_pattern_fill(p, 0, size, seed);
		munmap(p, size);
	}
	close(fd);
	if (ret)
		unlinkat(t->prep_dirfd, name, 0);
	return ret;
}

int fsp_case_create(const struct fsp_target *t, const char *name,
		    size_t size, uint32_t seed, int hint)
{
	if (t->files)
		return t->files->create(t->files, name, size, 0, seed, 0);
	if (t->prep_dirfd < 0)
		return -EBADF;
	if (t->shmem && hint)
		return shmem_fill_hinted(t, name, size, seed);
	return fsp_file_create_at(t->prep_dirfd, name, size, seed, 0644);
}

int fsp_case_create_rw(const struct fsp_target *t, const char *name,
		       size_t size, uint32_t seed, int hint)
{
	if (t->files)
		return t->files->create(t->files, name, size, 0, seed, 1);
	return fsp_case_create(t, name, size, seed, hint);
}

int fsp_case_create_sparse(const struct fsp_target *t, const char *name,
			   size_t size, size_t data_off, uint32_t seed)
{
	if (t->files)
		return t->files->create(t->files, name, size, data_off, seed,
					0);
	if (t->prep_dirfd < 0)
		return -EBADF;
	return fsp_file_create_sparse_at(t->prep_dirfd, name, size, data_off,
					 seed, 0644);
}

int fsp_case_needs_new_file(const struct fsp_target *t, const char *fmt, ...)
{
	va_list ap;

	if (!t->files)
		return 0;
	va_start(ap, fmt);
	vsnprintf(t->files->why, sizeof(t->files->why), fmt, ap);
	va_end(ap);
	return -ENOSPC;
}

static int evict_file(const struct fsp_target *t, const char *name,
		      struct fsp_residency *left)
{
	int fd = fsp_case_open(t, name, O_RDONLY), ret;
	struct stat st;

	if (fd < 0)
		return fd;
	ret = fstat(fd, &st) ? -errno : fsp_evict(fd, st.st_size, left);
	close(fd);
	return !ret && left->nr_cache ? -EBUSY : ret;
}

int fsp_case_recool(const struct fsp_target *t, struct fsp_probe *p,
		    const char *name, const char *ev_key, const char *what)
{
	struct fsp_residency left = { 0 };
	char how[64];
	int ret = evict_file(t, name, &left);

	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "making %s cold again for %s: %s "
			      "(%lu pages stayed cached)", name, what,
			      strerror(-ret), left.nr_cache);
		return ret;
	}
	snprintf(how, sizeof(how), "fadvise (%s: 0 pages left)",
		 fsp_residency_method(&left));
	fsp_ev_str(p, ev_key, how);
	return 0;
}
