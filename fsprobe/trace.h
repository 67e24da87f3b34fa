/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.h - folio orders as the page cache adds them, seen through the
 * tracepoint filemap/mm_filemap_add_to_page_cache in a private tracefs
 * instance filtered to one inode. Events are read from the binary ring
 * buffer (per_cpu/cpuN/trace_pipe_raw) at the offsets the event's format
 * file gives, so a changed field type or print format (ino %lx -> %llx)
 * changes nothing here. Optionally also huge_memory/mm_khugepaged_*_file,
 * whose result says why a collapse failed.
 *
 * Use:  fsp_trace_open(&t, "fsprobe-RUNID", 0);
 *       fsp_trace_watch_fd(&t, fd);
 *       fsp_trace_start(&t);  ...read or fault the file...
 *       fsp_trace_collect(&t, &hist);  (t.ev[0..t.nr_ev-1] by index)
 *       fsp_trace_close(&t);
 * Root only. tracefs instances are global, not per mount namespace: one
 * left by a killed run survives it; fsp_trace_remove_instance() removes it.
 * tmpfs is not seen: shmem adds its folios without this tracepoint.
 * The pure parsers live in trace_parse.c, the instance in trace.c.
 */
#ifndef FSP_TRACE_H
#define FSP_TRACE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "order_hist.h"

#define FSP_TRACE_MAX_FIELDS	32
#define FSP_TRACE_NAME_MAX	64
#define FSP_TRACE_MAX_SYMS	48

/* ---- pure parsers (no I/O; used by the unit tests on recorded text) ---- */

struct fsp_trace_field {
	char name[FSP_TRACE_NAME_MAX];	/* "comm" for "char comm[16]" */
	char type[FSP_TRACE_NAME_MAX];	/* "unsigned long", "dev_t", ... */
	unsigned int offset, size;
	int is_signed;
};

struct fsp_trace_format {
	char name[FSP_TRACE_NAME_MAX];	/* "" for events/header_page */
	int id;				/* -1 if the text has no ID: line */
	unsigned int nr_fields;
	struct fsp_trace_field field[FSP_TRACE_MAX_FIELDS];
};

/*
 * Parse a tracefs "format" file (or events/header_page). -EINVAL for a
 * malformed or truncated text (a field line without offset or size, an
 * event without its "print fmt:" line, no field at all), -E2BIG for more
 * than FSP_TRACE_MAX_FIELDS fields. Lines are read at most 512 bytes at a
 * time; only "print fmt:" may be longer.
 */
int fsp_trace_format_parse(const char *text, size_t len,
			   struct fsp_trace_format *f);
/* The field called name, or NULL (errno-free: absence is an answer). */
const struct fsp_trace_field *
fsp_trace_format_field(const struct fsp_trace_format *f, const char *name);
/*
 * Integer value of a field in one record of len bytes (native byte order,
 * sizes 1/2/4/8, sign-extended if signed). -EINVAL if out of bounds.
 */
int fsp_trace_field_get(const struct fsp_trace_field *fl, const void *rec,
			size_t len, uint64_t *val);

struct fsp_trace_sym {
	long long value;
	char name[40];
};

/*
 * The {value, "name"} pairs of __print_symbolic(REC->field, ...) in the
 * format's print fmt: the number of pairs stored (at most max), or -ENOENT.
 */
int fsp_trace_format_symbols(const char *text, size_t len, const char *field,
			     struct fsp_trace_sym *sym, size_t max);

/* Where commit and data sit in a ring-buffer page (from header_page). */
struct fsp_trace_page_layout {
	unsigned int commit_off, commit_size, data_off, page_size;
};

int fsp_trace_layout_from_format(const struct fsp_trace_format *hp,
				 struct fsp_trace_page_layout *l);

typedef int (*fsp_trace_record_fn)(void *ctx, const void *rec, size_t len);

/*
 * Walk the event records of one page read from trace_pipe_raw, calling fn
 * for each data record (a non-zero return stops the walk and is returned).
 * *missed is set if the kernel flagged events lost before this page.
 * Returns the number of records, or -EINVAL for a corrupt page.
 */
int fsp_trace_page_parse(const struct fsp_trace_page_layout *l,
			 const void *page, size_t len, fsp_trace_record_fn fn,
			 void *ctx, int *missed);

/* The kernel's internal dev_t (major << 20 | minor) the event records. */
uint32_t fsp_trace_kdev(dev_t dev);

/* ---- the private instance ---- */

struct fsp_trace_event {
	uint64_t index;		/* page index in the file (ofs >> PAGE_SHIFT) */
	uint64_t pfn;		/* 0 if the format has no pfn field */
	int order;
	int cpu;
};

struct fsp_trace_collapse {
	int scan;		/* 1: ..._scan_file, 0: ..._collapse_file */
	int64_t index;		/* collapse_file: first page index; scan: -1 */
	int nr;			/* collapse_file: nr; scan_file: present */
	int result;		/* the kernel's SCAN_* value */
	char result_name[40];	/* its name from the format, or "" */
};

struct fsp_trace {
	char root[128];		/* tracefs mount point */
	char dir[256];		/* our instance */
	int mounted;		/* we mounted tracefs (close unmounts it) */
	int created;		/* we created dir (close removes it) */
	unsigned long buffer_kb;	/* per-CPU ring buffer size now */
	struct fsp_trace_page_layout layout;
	struct fsp_trace_format add;	/* mm_filemap_add_to_page_cache */
	struct fsp_trace_format *col_fmt[2];	/* collapse_file, scan_file */
	struct fsp_trace_sym *col_sym[2];
	int nr_sym[2];
	int add_on, col_on[2];
	int cleared;		/* the buffers were cleared once */
	uint32_t kdev;
	uint64_t ino;
	unsigned long stats0;	/* lost-event counters at start */
	/* Results of the last collect. */
	struct fsp_trace_event *ev;
	size_t nr_ev;
	struct fsp_trace_collapse *col;
	size_t nr_col;
	unsigned long lost;	/* events dropped or overwritten */
	unsigned long foreign;	/* records of another inode (ignored) */
	size_t cap_ev, cap_col;
	pthread_t remover;	/* fsp_trace_close_async's rmdir */
	int removing;
	int keep;		/* attached: close leaves the instance */
};

/*
 * Find tracefs (mounting it at /sys/kernel/tracing if needed: the caller
 * runs in a private mount namespace), create instances/<name> (-EEXIST if
 * it exists: a stale one from a killed run), stop its tracing, grow its
 * per-CPU buffer to buffer_kb (0: 8192) and read the event formats.
 * name: [A-Za-z0-9._-], at most 63 bytes, not starting with '.'.
 * -ENODEV: no tracefs or no such tracepoint in this kernel.
 */
int fsp_trace_open(struct fsp_trace *t, const char *name,
		   unsigned long buffer_kb);
/*
 * The same, but an instance of that name that exists already is taken
 * over (its events disabled, its buffers drained), and close leaves the
 * instance in place, stopped: its owner removes it once, not each user.
 */
int fsp_trace_attach(struct fsp_trace *t, const char *name,
		     unsigned long buffer_kb);
/*
 * Filter the page-cache event to one inode and enable it. dev is the
 * device of the inode's superblock, which is what the event records: on
 * btrfs st_dev is a per-subvolume anonymous device instead, so prefer
 * fsp_trace_watch_fd(). On overlayfs the cache belongs to the upper or
 * lower file: watch that one. -EOPNOTSUPP if the event has no order field
 * (older kernels), -EINVAL if this kernel's filter syntax refuses ours.
 */
int fsp_trace_watch_inode(struct fsp_trace *t, dev_t dev, ino_t ino);
/* The same for the file open at fd, with its superblock's device. */
int fsp_trace_watch_fd(struct fsp_trace *t, int fd);
/*
 * The superblock device of the file open at fd: mountinfo's MAJ:MIN for
 * the mount statx() names; st_dev where statx has no mount ID (< 5.8).
 */
int fsp_trace_sb_dev(int fd, dev_t *dev);
/*
 * Also record mm_khugepaged_collapse_file / _scan_file, filtered to files
 * of this name (the dentry name, no directory; NULL: all). -ENOENT if
 * neither event exists.
 */
int fsp_trace_watch_collapse(struct fsp_trace *t, const char *basename);
/* Clear the buffer and the previous results, then trace. */
int fsp_trace_start(struct fsp_trace *t);
/*
 * Stop tracing and read everything recorded since start: h gets the order
 * histogram (nr_pages = pages added), t->ev the events sorted by index,
 * t->col the collapse records; t->lost > 0 means the histogram is short.
 */
int fsp_trace_collect(struct fsp_trace *t, struct fsp_order_hist *h);
/* Disable, remove the instance, unmount what open mounted. Idempotent. */
void fsp_trace_close(struct fsp_trace *t);
/*
 * The same in two halves: removing an instance waits for RCU grace
 * periods (45 ms of sleep per rmdir, measured on 6.18), which a thread
 * sleeps while the caller goes on (unmounting its filesystem, say).
 * fsp_trace_close_wait() joins it and finishes the close; until then the
 * instance may still exist, and t must not be reopened.
 */
void fsp_trace_close_async(struct fsp_trace *t);
void fsp_trace_close_wait(struct fsp_trace *t);

/*
 * For cleanup: the tracefs mount point (mounting it if needed, *mounted
 * then set), and removal of a named instance left behind (-ENOENT when
 * there is none, so cleanup counts only what it removed).
 */
int fsp_trace_find_root(char *root, size_t len, int *mounted);
int fsp_trace_remove_instance(const char *root, const char *name);

#endif
