/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * case.h - the interface between the runner and the conformance cases.
 * A case writes its files in prepare() while the cache is warm; the
 * runner then makes every file cold at once (one umount/mount cycle per
 * profile), and run() measures. A case reports pass / fail / skip with a
 * reason and raw evidence, plus the reach facts the verdict rules use.
 */
#ifndef FSP_CASE_H
#define FSP_CASE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <json-c/json.h>

#include "sysinfo.h"

struct fsp_journal;
struct fsp_trace;

/*
 * The tracefs instance a profile's cases share. The runner owns it (the
 * worker slot's, src/run/slots.h: named and journalled before it exists,
 * made on first use, released after the last case, removed once), and
 * hands it to the cases in fsp_target.trace; a case only asks for it
 * (fsp_case_trace) and never closes it.
 */
struct fsp_trace_handle {
	struct fsp_trace *(*get)(struct fsp_trace_handle *h, int *err);
};

/*
 * The files of a filesystem that has a fixed set of them, which cases
 * can neither create nor resize (zonefs: one file per zone; see
 * docs/fixed-files.md). The runner hands one to the cases in
 * fsp_target.files. A case's file name is bound to one of the
 * filesystem's files when fsp_case_create() writes it; fsp_case_open()
 * opens the bound file from then on. What cannot be placed fails with
 * why set, and the runner reports the case as skip with that reason.
 */
struct fsp_files {
	/*
	 * Bind name to a free file that holds exactly size bytes, and
	 * write them: zeroes up to data_off, then the pattern of seed.
	 * in_place: the case writes, truncates or punches it later, so
	 * a file that takes only appends will not do.
	 */
	int (*create)(struct fsp_files *f, const char *name, size_t size,
		      size_t data_off, uint32_t seed, int in_place);
	/* The bound file's path relative to the mount, or NULL. */
	const char *(*lookup)(const struct fsp_files *f, const char *name);
	char why[256];		/* set by a create that cannot be placed */
};

#define FSP_FILE_SIZE (4UL << 20)

enum fsp_outcome { FSP_PASS, FSP_FAIL, FSP_SKIP, FSP_ERROR };

struct fsp_target {
	const char *dir;	/* the filesystem under test, mounted */
	const char *prep_dir;	/* where prepare() writes (image staging) */
	/*
	 * The same two directories as file descriptors (O_DIRECTORY |
	 * O_NOFOLLOW | O_CLOEXEC), opened and checked by the runner. Cases
	 * reach every file through them (openat with O_NOFOLLOW, execveat
	 * of the fd), never by a path under dir: under `check DIR` a path
	 * is the user's to swap (docs/safety.md). The runner closes and
	 * reopens them around every remount.
	 */
	int dirfd;
	int prep_dirfd;
	const char *fs;		/* mount type */
	int shmem;		/* tmpfs: the counters are Shmem* */
	int readonly;		/* files exist only from prepare() */
	/*
	 * Why the files prepare() wrote cannot be written after it (a
	 * profile attribute such as immutable or verity), or NULL: run()
	 * skips what would write them, with this as the reason.
	 */
	const char *sealed;
	/*
	 * Why nothing written here may be executed or dlopen()ed by us, or
	 * NULL: on a filesystem a server of another user's serves (FUSE,
	 * NFS under `check DIR`), what a read returns is the server's
	 * choice, whoever the file's owner says it is. The probes that
	 * would run what they wrote skip with this reason, and copy nothing.
	 */
	const char *noexec;
	const char *cold_method;	/* "remount", "fadvise", "none" */
	const struct fsp_sysinfo *si;
	const char *payload_dir;
	const char *run_id;	/* names private tracefs instances */
	struct fsp_trace_handle *trace;	/* NULL: cases run untraced */
	struct fsp_journal *journal;	/* NULL: `check DIR` without root */
	const char *read_ahead_path;	/* queue/read_ahead_kb, or NULL */
	struct fsp_files *files;	/* NULL: cases create files freely */
	/* Make our files cold again (may be NULL); see run_cold. */
	int (*recycle)(const struct fsp_target *t);
	void *priv;
};

enum {
	FSP_ROUTE_FAULT = 1 << 0,
	FSP_ROUTE_COLLAPSE = 1 << 1,
	FSP_ROUTE_SHMEM = 1 << 2,
	FSP_ROUTE_KHUGEPAGED = 1 << 3,
};

struct fsp_probe {
	const struct fsp_case *c;
	enum fsp_outcome result;
	char reason[256];
	struct json_object *evidence;
	/* Facts for the verdict rules; -1 / 0 when not measured. */
	int routes;		/* FSP_ROUTE_* reached */
	int order_read;		/* largest order on buffered read */
	int order_fault;	/* largest order on the fault path */
	/*
	 * MADV_COLLAPSE refused where READ_ONLY_THP_FOR_FS is absent, the
	 * reason naming this probe's order: the verdict rules put the
	 * profile's largest observed order in its place.
	 */
	int order_refused;
	int order_min;		/* smallest order of a folio seen, or -1 */
	long long ms;
};

struct fsp_case {
	const char *name;
	const char *summary;
	int (*prepare)(const struct fsp_target *t);
	void (*run)(const struct fsp_target *t, struct fsp_probe *p);
	/*
	 * Optional: checks of what reached the disk. After every case has
	 * run, the runner makes all files cold once more (one remount for
	 * all cases, not one each) and calls this with the same probe.
	 * Not called on tmpfs, which has no cold cache.
	 */
	void (*run_cold)(const struct fsp_target *t, struct fsp_probe *p);
	/*
	 * Set if run() reads the tracefs instance (fsp_case_trace). After
	 * the last such case a profile's instance can go while the other
	 * cases run; one that is not marked still works (attaching makes
	 * the slot's instance again), only slower.
	 */
	int traced;
};

extern const struct fsp_case *const fsp_cases[];
extern const int fsp_nr_cases;
const struct fsp_case *fsp_case_find(const char *name);
const char *fsp_outcome_name(enum fsp_outcome o);

/* Helpers for case code (case_util.c). */
void fsp_probe_init(struct fsp_probe *p, const struct fsp_case *c);
void fsp_probe_set(struct fsp_probe *p, enum fsp_outcome o,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void fsp_ev_int(struct fsp_probe *p, const char *key, long long v);
void fsp_ev_str(struct fsp_probe *p, const char *key, const char *v);
void fsp_ev_bool(struct fsp_probe *p, const char *key, int v);
/*
 * Make a case's file cold again without a remount, for a second
 * measurement on the same file: fsync (where the filesystem has one),
 * POSIX_FADV_DONTNEED, then cachestat (mincore where it is missing) must
 * count 0 cached pages. 0 and evidence ev_key = the method; else the
 * probe is an error saying why (for what: the measurement it was for)
 * and the -errno (-EBUSY: pages stayed cached) is returned.
 */
int fsp_case_recool(const struct fsp_target *t, struct fsp_probe *p,
		    const char *name, const char *ev_key, const char *what);
/*
 * Open name (the file it is bound to on a fixed-file target) below
 * t->dirfd, or t->prep_dirfd if prep, with flags and mode (O_CREAT):
 * never through a symlink (-ELOOP) nor out of the directory (-EXDEV);
 * O_NOFOLLOW and O_CLOEXEC added (fsp_openat_beneath). The fd, or -errno.
 */
int fsp_case_openat(const struct fsp_target *t, int prep, const char *name,
		    int flags, mode_t mode);
/* fsp_case_openat of name in t->dirfd. */
int fsp_case_open(const struct fsp_target *t, const char *name, int flags);
/*
 * name in t->dirfd opened O_RDONLY to be executed through its fd (or
 * dlopen()ed as /proc/self/fd/N), if fit: a regular file owned by root
 * (by us when not root), writable by no one else (-EPERM otherwise;
 * fsp_proc_exec_check). The fd, or -errno.
 */
int fsp_case_open_exec(const struct fsp_target *t, const char *name);

/*
 * Create a pattern test file in t->prep_dirfd. On tmpfs the writer decides
 * the folio size, so with hint the file is filled through a hinted
 * shared mapping (as a hinted reader would get it elsewhere).
 */
int fsp_case_create(const struct fsp_target *t, const char *name,
		    size_t size, uint32_t seed, int hint);
/*
 * The same for a file the case changes in place after prepare (writes,
 * truncates, punches): on a fixed-file filesystem it needs a file that
 * takes such changes.
 */
int fsp_case_create_rw(const struct fsp_target *t, const char *name,
		       size_t size, uint32_t seed, int hint);
/* The same with bytes [0, data_off) a hole (zeroes on fixed files). */
int fsp_case_create_sparse(const struct fsp_target *t, const char *name,
			   size_t size, size_t data_off, uint32_t seed);
/*
 * A file that cannot be one of a fixed set (a copy of a payload): on
 * such a target set t->files->why from the message and return -ENOSPC,
 * which makes the case a skip; else 0.
 */
int fsp_case_needs_new_file(const struct fsp_target *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A test file mapped at a PMD-aligned address and faulted in. */
struct fsp_mapping {
	int fd;
	void *addr;
	size_t len;
	int hint_rc, populate_rc;	/* 0 or -errno */
	long pmd_kb;		/* FilePmdMapped (ShmemPmdMapped on tmpfs) */
	long rss_kb;
	int thp_eligible;
	unsigned long cached_before;	/* pages cached before the fault */
};

/* Map name from t->dirfd, MADV_HUGEPAGE if hint, MADV_POPULATE_READ. */
int fsp_map_file(const struct fsp_target *t, const char *name, int prot,
		 int hint, struct fsp_mapping *m);
/* Re-read the smaps counters of the mapping. */
int fsp_mapping_measure(const struct fsp_target *t, struct fsp_mapping *m);
void fsp_unmap_file(struct fsp_mapping *m);
/*
 * The profile's tracefs instance (t->trace), ready: cases watch, start
 * and collect on it but never close it. NULL and *err = -ENODEV: no
 * tracefs or tracepoint here (or no handle); the caller falls back and
 * says so.
 */
struct fsp_trace *fsp_case_trace(const struct fsp_target *t, int *err);
/* khugepaged's counter NAME (pages_collapsed, full_scans), -1 if unread. */
long fsp_khugepaged_counter(const char *name);
/* The device's read_ahead_kb (-1 if unknown): it bounds read orders. */
long fsp_case_read_ahead_kb(const struct fsp_target *t);

/* Check the whole mapping against the file pattern written with seed. */
int fsp_mapping_verify(const struct fsp_mapping *m, unsigned int seed,
		       unsigned long long *bad);

#endif
