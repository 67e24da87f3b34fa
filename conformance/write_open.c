// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * write_open.c - what happens when a file whose text is PMD-mapped is
 * opened for write (docs/probes.md). A cold 4 MiB file is mapped
 * PROT_READ|PROT_EXEC, MAP_PRIVATE with MADV_HUGEPAGE and faulted in; then
 * another fd opens it O_RDWR. Measured: whether the open is allowed,
 * FilePmdMapped and page-cache residency before and after it (kernels
 * with READ_ONLY_THP_FOR_FS drop a file's cache on such an open if it
 * holds collapsed THPs; large folios of the fault path are kept; so text
 * the fault path leaves small is collapsed first), whether
 * MADV_COLLAPSE is refused while the writer exists, and whether 4 KiB
 * written at 1 MiB are seen through the mapping (an unmodified private
 * page is the page cache's) and through read(2), also after the cache is
 * made cold again. Last, a copy of /usr/bin/sleep is run from the FS and
 * opened O_WRONLY: mmap no longer denies write (VM_DENYWRITE went in 5.15)
 * but execve still must, so ETXTBSY is the only right answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "case.h"
#include "collapse_util.h"
#include "filedata.h"
#include "pagemap.h"
#include "proc.h"
#include "util.h"

#define TEXT_FILE "write-open.text"
#define BIN_FILE "write-open.sleep"
#define TEXT_SEED 0x71
#define NEW_SEED 0x72
#define WRITE_OFF (1UL << 20)
#define WRITE_LEN 4096UL
#define EXEC_SRC "/usr/bin/sleep"

/* tmpfs: the writer decides folio sizes, so fill through a hinted map. */
static int prepare(const struct fsp_target *t)
{
	char path[4096];
	int ret;

	ret = fsp_case_path(t, 1, TEXT_FILE, path, sizeof(path));
	if (ret)
		return ret;
	ret = fsp_case_create_rw(t, TEXT_FILE, FSP_FILE_SIZE, TEXT_SEED, 1);
	if (ret)
		return ret;
	/*
	 * No sleep binary here is a skip of that part, not a broken run;
	 * so is a filesystem with only fixed files (no new executable).
	 */
	if (t->readonly || t->files || access(EXEC_SRC, X_OK))
		return 0;
	ret = fsp_case_path(t, 1, BIN_FILE, path, sizeof(path));
	if (!ret)
		ret = fsp_file_copy(EXEC_SRC, path, 0755);
	/* The umask may have taken the x bits. */
	if (!ret && chmod(path, 0755))
		ret = -errno;
	return ret;
}

static long cached(int fd, size_t len)
{
	struct fsp_residency r;

	return fsp_residency(fd, 0, len, &r) ? -1 : (long)r.nr_cache;
}

/*
 * The mapping's pages are cached (mincore sees them through it) but not
 * in the file's own cache, the one cachestat(2) reads through its fd: a
 * stacked filesystem that maps another file's cache (overlayfs hands the
 * VMA to the lower file). 0 where cachestat is missing: no claim.
 */
static int own_cache_empty(const struct fsp_mapping *m)
{
	struct fsp_residency r;

	return m->rss_kb > 0 && !fsp_cachestat(m->fd, 0, m->len, &r) &&
	       r.nr_cache == 0;
}

/* pread(2) of the written range on a fresh fd: 1 new data, 0 old. */
static int read_sees_new(const char *path, char *buf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;
	uint64_t bad;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, buf, WRITE_LEN, WRITE_OFF);
	ret = n == (ssize_t)WRITE_LEN ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	if (ret)
		return ret;
	return !fsp_pattern_check(buf, WRITE_OFF, WRITE_LEN, NEW_SEED, &bad);
}

/* The mapping outside the written range still holds the old data. */
static int rest_intact(const struct fsp_mapping *m)
{
	const char *a = m->addr;
	uint64_t bad;

	return !fsp_pattern_check(a, 0, WRITE_OFF, TEXT_SEED, &bad) &&
	       !fsp_pattern_check(a + WRITE_OFF + WRITE_LEN,
				  WRITE_OFF + WRITE_LEN,
				  m->len - WRITE_OFF - WRITE_LEN, TEXT_SEED,
				  &bad);
}

/* The PFN behind the page at addr, 0 if not present or unknown. */
static uint64_t page_pfn(const void *addr)
{
	uint64_t pme = 0;

	if (fsp_pagemap_read(addr, 1, &pme, NULL) || !(pme & FSP_PM_PRESENT))
		return 0;
	return pme & FSP_PM_PFN_MASK;
}

/*
 * The old mapping missed the write. Wrong, unless it never mapped this
 * inode's cache (foreign: its pages were not in the file's cache before
 * the open) and a new mapping sees the write on other pages: overlayfs
 * maps the lower file and copies the file up on open for write, a
 * documented non-standard behaviour (filesystems/overlayfs.rst).
 */
static void stale_mapping(struct fsp_probe *p, const struct fsp_mapping *m,
			  const char *path, uint64_t bad, int foreign)
{
	const char *old = (const char *)m->addr + WRITE_OFF;
	int fd, fresh = 0, same = -1;
	uint64_t b;
	char *a;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	a = fd < 0 ? MAP_FAILED : mmap(NULL, m->len, PROT_READ, MAP_PRIVATE,
				       fd, 0);
	if (a != MAP_FAILED) {
		fresh = !fsp_pattern_check(a + WRITE_OFF, WRITE_OFF,
					   WRITE_LEN, NEW_SEED, &b);
		if (page_pfn(old) && page_pfn(a + WRITE_OFF))
			same = page_pfn(old) == page_pfn(a + WRITE_OFF);
		munmap(a, m->len);
	}
	if (fd >= 0)
		close(fd);
	fsp_ev_bool(p, "new_mapping_sees_new_data", fresh);
	if (same >= 0)
		fsp_ev_bool(p, "same_page_as_new_mapping", same);
	if (foreign && fresh && same == 0)
		fsp_probe_set(p, FSP_SKIP, "the mapping is not of this inode's "
			      "cache (stacked fs, copied up on open for "
			      "write): it keeps the old data, a new mapping "
			      "sees the write");
	else
		fsp_probe_set(p, FSP_FAIL, "stale data through the mapping "
			      "after pwrite: byte %llu is old",
			      (unsigned long long)bad);
}

/*
 * Until READ_ONLY_THP_FOR_FS went (Linux 7.2), do_dentry_open() truncated
 * the page cache of a file holding collapsed THPs (filemap_nr_thps()) when
 * it was opened for write; the removal took that with it. A drop on a
 * kernel whose config has no such option is therefore wrong; where the
 * option is set the evidence says whether the open dropped the text.
 */
static void judge_drop(const struct fsp_target *t, struct fsp_probe *p,
		       int dropped)
{
	fsp_ev_bool(p, "cache_dropped_on_open", dropped);
	if (!dropped || t->shmem)
		return;
	if (t->si->ro_thp_state == FSP_KOPT_SET)
		fsp_ev_str(p, "cache_drop_note", "READ_ONLY_THP_FOR_FS=y: the "
			   "open for write dropped the file's cache");
	else if (t->si->ro_thp_state == FSP_KOPT_ABSENT)
		fsp_probe_set(p, FSP_FAIL, "the page cache was dropped when the "
			      "file was opened for write, on a kernel without "
			      "READ_ONLY_THP_FOR_FS");
}

/* Open for write, collapse, pwrite, re-read; with m mapped and faulted. */
static void write_checks(const struct fsp_target *t, struct fsp_probe *p,
			 struct fsp_mapping *m, const char *path, char *buf)
{
	struct fsp_collapse_try c;
	long before, after;
	int wfd, ret, foreign;
	uint64_t bad;
	ssize_t n;

	before = cached(m->fd, m->len);
	fsp_ev_int(p, "cached_pages_before_open", before);
	foreign = own_cache_empty(m);
	wfd = open(path, O_RDWR | O_CLOEXEC);
	ret = wfd < 0 ? errno : 0;
	fsp_ev_str(p, "open_rdwr", ret ? fsp_errno_name(ret) : "ok");
	if (ret) {
		/* Nobody executes it: only a read-only FS may refuse. */
		fsp_probe_set(p, FSP_FAIL, "open(O_RDWR) of a mapped, not "
			      "executing file: %s", fsp_errno_name(ret));
		return;
	}
	after = cached(m->fd, m->len);
	fsp_ev_int(p, "cached_pages_after_open", after);
	judge_drop(t, p, after >= 0 && after < before);
	if (foreign)
		fsp_ev_str(p, "residency_note", "the mapped pages are not in "
			   "this inode's cache (stacked fs?)");
	if (!fsp_mapping_measure(t, m))
		fsp_ev_pmd_kb(p, t, "after_open", m->pmd_kb);

	fsp_madv_collapse(m->addr, m->len, -1, &c);
	fsp_ev_int(p, "collapse_while_open_rc", c.rc ? -1 : 0);
	fsp_ev_str(p, "collapse_while_open_errno",
		   c.rc ? fsp_errno_name(c.rc) : NULL);
	fsp_ev_int(p, "collapse_while_open_attempts", c.attempts);
	fsp_ev_bool(p, "collapse_refused_while_open", c.rc != 0);
	if (c.rc == -EINVAL && !t->shmem &&
	    t->si->ro_thp_state == FSP_KOPT_NOT_SET)
		fsp_ev_str(p, "collapse_while_open_note", "EINVAL says "
			   "nothing here: READ_ONLY_THP_FOR_FS not set");

	fsp_pattern_fill(buf, WRITE_OFF, WRITE_LEN, NEW_SEED);
	n = pwrite(wfd, buf, WRITE_LEN, WRITE_OFF);
	ret = n == (ssize_t)WRITE_LEN ? 0 : n < 0 ? -errno : -EIO;
	if (!ret && fsync(wfd))
		ret = -errno;
	close(wfd);
	fsp_ev_int(p, "write_offset", WRITE_OFF);
	fsp_ev_int(p, "write_len", WRITE_LEN);
	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "pwrite of %lu bytes at %lu: %s",
			      WRITE_LEN, WRITE_OFF, fsp_errno_name(ret));
		return;
	}
	if (!fsp_mapping_measure(t, m))
		fsp_ev_pmd_kb(p, t, "after_write", m->pmd_kb);
	fsp_ev_orders(p, "orders_after_write", m->addr, m->len);

	ret = !fsp_pattern_check((char *)m->addr + WRITE_OFF, WRITE_OFF,
				 WRITE_LEN, NEW_SEED, &bad);
	fsp_ev_bool(p, "mapping_sees_new_data", ret);
	if (!ret)
		stale_mapping(p, m, path, bad, foreign);
	ret = rest_intact(m);
	fsp_ev_bool(p, "mapping_rest_intact", ret);
	if (!ret)
		fsp_probe_set(p, FSP_FAIL, "the mapping changed outside the "
			      "4 KiB written");
	ret = read_sees_new(path, buf);
	fsp_ev_bool(p, "read_sees_new_data", ret > 0);
	if (ret < 0)
		fsp_probe_set(p, FSP_ERROR, "pread after pwrite: %s",
			      fsp_errno_name(ret));
	else if (!ret)
		fsp_probe_set(p, FSP_FAIL, "stale data from read(2) after "
			      "pwrite");
}

/* After everything is closed: does a cold re-read see the write? */
static void cold_reread(const struct fsp_target *t, struct fsp_probe *p,
			const char *path, char *buf)
{
	int ret;

	ret = read_sees_new(path, buf);
	fsp_ev_bool(p, "cold_read_sees_new_data", ret > 0);
	if (ret < 0)
		fsp_probe_set(p, FSP_ERROR, "pread after %s: %s",
			      t->cold_method, fsp_errno_name(ret));
	else if (!ret)
		fsp_probe_set(p, FSP_FAIL, "the write is lost: a cold read "
			      "after fsync and %s sees old data",
			      t->cold_method);
}

/*
 * The text PMD-mapped by whichever route this kernel has: the fault path,
 * else MADV_COLLAPSE (with READ_ONLY_THP_FOR_FS=y the only route for a
 * filesystem without large folios, and the one whose THPs an open for
 * write used to drop). text_route says which one made it.
 */
static void text_to_pmd(const struct fsp_target *t, struct fsp_probe *p,
			struct fsp_mapping *m)
{
	struct fsp_collapse_try c;

	if (m->pmd_kb > 0) {
		fsp_ev_str(p, "text_route", "fault");
		return;
	}
	if (t->readonly || m->populate_rc) {
		fsp_ev_str(p, "text_route", "none");
		return;
	}
	fsp_madv_collapse(m->addr, m->len, m->fd, &c);
	fsp_ev_str(p, "collapse_before_open_errno",
		   c.rc ? fsp_errno_name(c.rc) : NULL);
	if (!fsp_mapping_measure(t, m) && m->pmd_kb > 0) {
		fsp_ev_str(p, "text_route", "collapse");
		return;
	}
	fsp_ev_str(p, "text_route", "none");
	fsp_ev_str(p, "text_note", "text not PMD-mapped on this fs, by fault "
		   "or MADV_COLLAPSE");
}

static void text_checks(const struct fsp_target *t, struct fsp_probe *p,
			char *buf)
{
	struct fsp_mapping m;
	unsigned long long bad;
	char path[4096];
	int ret;

	ret = fsp_case_path(t, 0, TEXT_FILE, path, sizeof(path));
	if (!ret)
		ret = fsp_map_file(t, TEXT_FILE, PROT_READ | PROT_EXEC, 1, &m);
	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "mapping %s: %s", TEXT_FILE,
			      strerror(-ret));
		return;
	}
	fsp_ev_int(p, "cached_pages_before_map", m.cached_before);
	text_to_pmd(t, p, &m);
	fsp_ev_pmd_kb(p, t, "before_open", m.pmd_kb);
	fsp_ev_orders(p, "orders_before_open", m.addr, m.len);
	if (m.populate_rc) {
		fsp_probe_set(p, FSP_ERROR, "MADV_POPULATE_READ: %s",
			      fsp_errno_name(m.populate_rc));
	} else if (fsp_mapping_verify(&m, TEXT_SEED, &bad)) {
		fsp_probe_set(p, FSP_FAIL, "wrong data through the text "
			      "mapping at byte %llu", bad);
	} else if (t->readonly) {
		fsp_probe_set(p, FSP_SKIP, "read-only filesystem: no open for "
			      "write, no pwrite, no ETXTBSY check");
	} else if (t->sealed) {
		fsp_probe_set(p, FSP_SKIP, "%s: no open for write, no pwrite, "
			      "no ETXTBSY check", t->sealed);
	} else {
		write_checks(t, p, &m, path, buf);
	}
	fsp_unmap_file(&m);
}

/* Run the copied binary and try to open it for write while it runs. */
static void exec_checks(const struct fsp_target *t, struct fsp_probe *p)
{
	char *const argv[] = { "sleep", "5", NULL }, *const envp[] = { NULL };
	char path[4096];
	int err, fd, st, ret;
	pid_t pid;

	if (fsp_case_path(t, 0, BIN_FILE, path, sizeof(path)) ||
	    access(path, X_OK)) {
		fsp_probe_set(p, FSP_SKIP, "no copy of %s to execute",
			      EXEC_SRC);
		return;
	}
	fsp_ev_str(p, "exec_binary", EXEC_SRC);
	/* Not left behind if we die (fsp_proc_spawn: PR_SET_PDEATHSIG). */
	ret = fsp_proc_spawn(path, argv, envp, -1, -1, -1, &pid);
	if (pid < 0) {
		fsp_probe_set(p, FSP_ERROR, "vfork: %s", strerror(-ret));
		return;
	}
	if (!pid) {
		err = -ret;
		fsp_ev_str(p, "execve_errno", fsp_errno_name(err));
		/* EIO: the filesystem failed, not a limit of it. */
		fsp_probe_set(p, err == EIO ? FSP_ERROR : FSP_SKIP,
			      "execve of the copy on this fs: %s",
			      fsp_errno_name(err));
	} else {
		/* vfork returned: the exec is done, denying writes. */
		fd = open(path, O_WRONLY | O_CLOEXEC);
		err = fd < 0 ? errno : 0;
		fsp_ev_str(p, "open_wronly_while_running",
			   fd < 0 ? fsp_errno_name(err) : "ok");
		if (fd >= 0) {
			close(fd);
			fsp_probe_set(p, FSP_FAIL, "open(O_WRONLY) of a "
				      "running binary succeeded (ETXTBSY "
				      "expected)");
		} else if (err != ETXTBSY) {
			fsp_probe_set(p, FSP_SKIP, "open(O_WRONLY) of a "
				      "running binary: %s, not ETXTBSY",
				      fsp_errno_name(err));
		}
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	/* The writer block must end with the process. */
	fd = open(path, O_WRONLY | O_CLOEXEC);
	fsp_ev_str(p, "open_wronly_after_exit",
		   fd < 0 ? fsp_errno_name(errno) : "ok");
	if (fd >= 0)
		close(fd);
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	char buf[WRITE_LEN];

	fsp_ev_str(p, "cold", t->cold_method);
	fsp_ev_int(p, "file_kb", FSP_FILE_SIZE >> 10);
	text_checks(t, p, buf);
	if (!t->readonly && !t->sealed)
		exec_checks(t, p);
}

/* After the runner's cold cycle: did the write reach the disk? */
static void run_cold(const struct fsp_target *t, struct fsp_probe *p)
{
	char path[4096], buf[WRITE_LEN];

	/* Only when the write happened and the probe measured it. */
	if (t->readonly || t->sealed || p->result == FSP_ERROR ||
	    !json_object_object_get_ex(p->evidence, "write_len", NULL) ||
	    fsp_case_path(t, 0, TEXT_FILE, path, sizeof(path)))
		return;
	cold_reread(t, p, path, buf);
}

const struct fsp_case fsp_case_write_open = {
	.name = "write-open",
	.summary = "open for write of PMD-mapped text; ETXTBSY on a running "
		   "binary",
	.prepare = prepare,
	.run = run,
	.run_cold = run_cold,
	.executes = 1,
};
