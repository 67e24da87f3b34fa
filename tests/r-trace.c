// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r-trace.c - root test of the private tracefs instance and the pagemap
 * walk on a real filesystem: a cold 8 MiB file in $FSP_TEST_DIR is read,
 * then faulted through a MADV_HUGEPAGE mapping; the tracepoint must see
 * every page enter the cache, the pagemap walk of the mapping must agree
 * with the trace, and the instance must be gone afterwards. Skips unless
 * root with FSP_TEST_DIR set. Runs in a private mount namespace, so a
 * tracefs it mounts vanishes with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "pagemap.h"
#include "mnt.h"
#include "tap.h"
#include "trace.h"
#include "util.h"

#define FILE_SIZE	(8UL << 20)
#define PMD_SIZE	(2UL << 20)
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif


/* TAP_EQ_LONG evaluates its arguments twice: never hand it a call. */
static int eq(long got, long want, const char *name)
{
	return TAP_EQ_LONG(got, want, name);
}

static char path[4096];

static int make_file(const char *dir, struct stat *st)
{
	char *buf = malloc(1 << 20);
	size_t i;
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/fsp-r-trace.%d", dir, (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	for (i = 0; i < FILE_SIZE >> 20 && !ret; i++) {
		memset(buf, 'a' + (int)i, 1 << 20);
		ret = fsp_write_all(fd, buf, 1 << 20);
	}
	if (!ret && (fsync(fd) || fstat(fd, st)))
		ret = -errno;
	close(fd);
	free(buf);
	return ret;
}

/* Pages of the file still in the cache after dropping them, or -errno. */
static long make_cold(void)
{
	unsigned char vec[FILE_SIZE / 4096];
	long resident = 0;
	size_t i;
	void *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	p = mmap(NULL, FILE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED || mincore(p, FILE_SIZE, vec)) {
		close(fd);
		return -errno;
	}
	for (i = 0; i < sizeof(vec); i++)
		resident += vec[i] & 1;
	munmap(p, FILE_SIZE);
	close(fd);
	return resident;
}

static void *map_aligned(int fd)
{
	char *res, *a;

	res = mmap(NULL, FILE_SIZE + PMD_SIZE, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)res + PMD_SIZE - 1) & ~(PMD_SIZE - 1));
	if (a > res)
		munmap(res, a - res);
	munmap(a + FILE_SIZE, res + PMD_SIZE - a);
	if (mmap(a, FILE_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) != a)
		return NULL;
	return a;
}

static void fmt(const struct fsp_order_hist *h, char *buf, size_t len)
{
	fsp_order_hist_fmt(h, buf, len);
}

static void report(const struct fsp_trace *t, const struct fsp_order_hist *h,
		   const char *what)
{
	char buf[256];
	const char *b = buf;

	fmt(h, buf, sizeof(buf));
	tap_ok(t->nr_ev > 0 && h->max_order >= 0,
	       "%s: %zu events, orders %s", what, t->nr_ev, b);
	eq(h->nr_pages, FILE_SIZE / 4096,
		    "every page of the file entered the cache once");
	tap_ok(!t->lost && !t->foreign,
	       "%s: nothing lost (%lu) or foreign (%lu)", what, t->lost,
	       t->foreign);
}

static void read_all(void)
{
	char *buf = malloc(1 << 20);
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && buf && (n = read(fd, buf, 1 << 20)) > 0)
		;
	if (fd >= 0)
		close(fd);
	free(buf);
}

static void test_fault(struct fsp_trace *t)
{
	struct fsp_order_hist h, pm;
	char a[256], b[256];
	const char *pa = a, *pb = b;
	size_t i;
	char *m;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	m = fd >= 0 ? map_aligned(fd) : NULL;
	if (!tap_ok(m != NULL, "2 MiB-aligned shared mapping")) {
		if (fd >= 0)
			close(fd);
		return;
	}
	eq(fsp_trace_start(t), 0, "restart the instance");
	madvise(m, FILE_SIZE, MADV_HUGEPAGE);
	eq(madvise(m, FILE_SIZE, MADV_POPULATE_READ) ? -errno : 0, 0,
		    "MADV_POPULATE_READ");
	eq(fsp_trace_collect(t, &h), 0, "collect after the fault");
	report(t, &h, "MADV_HUGEPAGE fault");
	for (i = 1; i < t->nr_ev; i++)
		if (t->ev[i].index < t->ev[i - 1].index)
			break;
	tap_ok(i >= t->nr_ev, "events sorted by index");

	ret = fsp_pagemap_range(m, FILE_SIZE, &pm);
	eq(ret, 0, "pagemap walk of the mapping");
	fmt(&h, a, sizeof(a));
	fmt(&pm, b, sizeof(b));
	TAP_EQ_STR(pb, pa, "pagemap folios = traced folios");
	eq(pm.nr_absent + pm.nr_partial, 0,
		    "pagemap: all present, no partial folio");

	/* Why a collapse fails, if the kernel says: information only. */
	ret = fsp_trace_watch_collapse(t, strrchr(path, '/') + 1);
	if (ret == -ENOENT) {
		tap_skip("no khugepaged file tracepoints");
	} else if (tap_ok(!ret, "watch collapse events (%d)", ret)) {
		fsp_trace_start(t);
		ret = madvise(m, FILE_SIZE, MADV_COLLAPSE) ? errno : 0;
		eq(fsp_trace_collect(t, &h), 0, "collect collapse");
		tap_diag("MADV_COLLAPSE: %s, %zu collapse records", ret ?
			 fsp_errno_name(ret) : "ok", t->nr_col);
		for (i = 0; i < t->nr_col; i++)
			tap_diag("  %s result %d %s", t->col[i].scan ?
				 "scan_file" : "collapse_file",
				 t->col[i].result, t->col[i].result_name);
	}
	munmap(m, FILE_SIZE);
	close(fd);
}

static void test_instance(const char *dir)
{
	struct fsp_trace t, t2;
	struct fsp_order_hist h;
	char name[64], name2[64], inst[512];
	struct statfs sfs;
	struct stat st;
	dev_t sb_dev = 0;
	long cold;
	int fd, ret, mounted;

	if (!statfs(dir, &sfs) && sfs.f_type == TMPFS_MAGIC) {
		tap_skip("tmpfs: shmem folios bypass the filemap tracepoint");
		return;
	}
	if (!tap_ok(!make_file(dir, &st), "create %s", path))
		return;
	cold = make_cold();
	if (cold) {
		tap_skip("cannot make the file cold (%ld pages stay)", cold);
		goto out;
	}
	snprintf(name, sizeof(name), "fsprobe-rtest-%d", (int)getpid());
	ret = fsp_trace_open(&t, name, 0);
	if (ret == -ENODEV || ret == -EPERM) {
		tap_skip("tracefs unusable: %s", fsp_errno_name(ret));
		goto out;
	}
	if (!eq(ret, 0, "open the private instance"))
		goto out;
	tap_diag("tracefs at %s (%s by us), buffer %lu kB per CPU", t.root,
		 t.mounted ? "mounted" : "not mounted", t.buffer_kb);
	eq(fsp_trace_open(&t2, name, 0), -EEXIST,
		    "a second instance of the same name: -EEXIST");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ret = fd < 0 ? -errno : fsp_trace_sb_dev(fd, &sb_dev);
	if (!ret)
		ret = fsp_trace_watch_fd(&t, fd);
	if (fd >= 0)
		close(fd);
	if (ret == -EOPNOTSUPP) {
		tap_skip("this kernel's event has no order field");
		goto close;
	}
	tap_ok(!ret, "filter to dev %u:%u ino %llu (%d)", major(sb_dev),
	       minor(sb_dev), (unsigned long long)st.st_ino, ret);
	if (sb_dev != st.st_dev)
		tap_diag("superblock dev %u:%u, st_dev %u:%u", major(sb_dev),
			 minor(sb_dev), major(st.st_dev), minor(st.st_dev));
	eq(fsp_trace_start(&t), 0, "start");
	read_all();
	eq(fsp_trace_collect(&t, &h), 0, "collect after read(2)");
	report(&t, &h, "buffered read");
	eq(fsp_trace_collect(&t, &h), 0, "collect again");
	eq(t.nr_ev, 0, "a second collect finds nothing new");

	if (make_cold())
		tap_skip("cannot make the file cold again");
	else
		test_fault(&t);

	/* A stale instance, as a killed run leaves it. */
	snprintf(name2, sizeof(name2), "fsprobe-rtest-%d-stale", (int)getpid());
	if (eq(fsp_trace_open(&t2, name2, 64), 0, "open a second")) {
		eq(fsp_trace_remove_instance(t.root, name2), 0,
			    "remove it by name");
		snprintf(inst, sizeof(inst), "%s/instances/%s", t.root, name2);
		tap_ok(access(inst, F_OK) && errno == ENOENT, "it is gone");
		eq(fsp_trace_remove_instance(t.root, name2), -ENOENT,
		   "removing it again finds nothing");
		t2.mounted = 0;		/* t owns the mount */
		fsp_trace_close(&t2);
	}
close:
	snprintf(inst, sizeof(inst), "%s/instances/%s", t.root, name);
	mounted = t.mounted;
	fsp_trace_close(&t);
	fsp_trace_close(&t);
	if (mounted) {
		/* Look again through a fresh mount of the same tracefs. */
		fsp_trace_find_root(t.root, sizeof(t.root), &mounted);
	}
	tap_ok(access(inst, F_OK) && errno == ENOENT,
	       "instance removed on close");
	if (mounted)
		umount2(t.root, MNT_DETACH);
out:
	unlink(path);
}

int main(void)
{
	const char *dir = getenv("FSP_TEST_DIR");

	if (geteuid())
		tap_skip_all("needs root");
	if (!dir || !*dir)
		tap_skip_all("FSP_TEST_DIR not set (a directory on the "
			     "filesystem to test)");
	if (unshare(CLONE_NEWNS) || fsp_mnt_make_private())
		tap_skip_all("no private mount namespace");
	test_instance(dir);
	return tap_done();
}
