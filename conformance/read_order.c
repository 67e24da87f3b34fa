// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * read_order.c - the largest folio order this filesystem puts in its
 * page cache (a lower bound of the mapping's max order): on cold buffered
 * read(2), and on the mmap fault path with and without MADV_HUGEPAGE.
 * The tracepoint filemap/mm_filemap_add_to_page_cache, in a private
 * tracefs instance filtered to our inode, gives the order of every folio
 * added, mapped or not; pagemap + kpageflags of a mapping of the same
 * file cross-check it. Without tracefs the pagemap numbers stand alone,
 * and the evidence says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "case.h"
#include "filedata.h"
#include "pagemap.h"
#include "scratch.h"
#include "trace.h"
#include "util.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

/*
 * The readahead window ramps up over the file: 8 MiB ends at order 6-7
 * on a 2560 kB read_ahead_kb device, so the buffered-read file is larger
 * and read with POSIX_FADV_SEQUENTIAL (which doubles the window). Only
 * its last FSP_FILE_SIZE bytes are data; the ramp before them is a hole.
 * Readahead sizes its folios before the filesystem maps the range, so a
 * hole is cached in the same folios as data (and reads as zeroes), at no
 * cost of disk or write time. On tmpfs the folios are made when the file
 * is written, not read ahead: there the file is FSP_FILE_SIZE of data.
 */
#define READ_FILE_SIZE (32UL << 20)
#define READ_HOLE (READ_FILE_SIZE - FSP_FILE_SIZE)

static const struct mode {
	const char *file;
	const char *key;	/* evidence key prefix */
	size_t size;
	int fault, hint;
	uint32_t seed;
} modes[] = {
	{ "read-order.read", "read", READ_FILE_SIZE, 0, 0, 0x31 },
	{ "read-order.fault", "fault_hint", FSP_FILE_SIZE, 1, 1, 0x32 },
	{ "read-order.faultplain", "fault_nohint", FSP_FILE_SIZE, 1, 0, 0x33 },
};

/* Bytes [0, hole) of the mode's file are a hole. */
static size_t hole_of(const struct fsp_target *t, const struct mode *m)
{
	return m->fault || t->shmem ? 0 : READ_HOLE;
}

/*
 * Off tmpfs the unhinted fault mode measures the hinted mode's file again,
 * made cold in between (fsync + POSIX_FADV_DONTNEED, 0 pages left by
 * cachestat); on tmpfs the writer decided the folios, so it has its own.
 */
static int reuses(const struct fsp_target *t, const struct mode *m)
{
	return !t->shmem && m == &modes[2];
}

static size_t size_of(const struct fsp_target *t, const struct mode *m)
{
	return !m->fault && t->shmem ? FSP_FILE_SIZE : m->size;
}

static int prepare(const struct fsp_target *t)
{
	size_t i;
	int ret;

	for (i = 0; i < FSP_ARRAY_SIZE(modes); i++) {
		if (reuses(t, &modes[i]))
			continue;
		ret = fsp_case_create_sparse(t, modes[i].file,
					     size_of(t, &modes[i]),
					     hole_of(t, &modes[i]),
					     modes[i].seed);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * read(2) the whole file, checking the data (zeroes before hole);
 * 0 or -errno / -EILSEQ.
 */
static int read_all(int fd, uint64_t hole, uint32_t seed, uint64_t *bad)
{
	char *buf = fsp_scratch(1 << 20);
	uint64_t off = 0;
	size_t zbad;
	ssize_t n;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while ((n = pread(fd, buf, 1 << 20, off)) > 0) {
		size_t z = off >= hole ? 0 : hole - off < (uint64_t)n ?
			   hole - off : (size_t)n;

		ret = fsp_zero_check(buf, z, &zbad);
		if (ret) {
			*bad = off + zbad;
			break;
		}
		ret = fsp_pattern_check(buf + z, off + z, n - z, seed, bad);
		if (ret)
			break;
		off += n;
	}
	if (n < 0)
		ret = -errno;
	return ret;
}

static void put_hist(struct fsp_probe *p, const char *key, const char *what,
		     const struct fsp_order_hist *h)
{
	char name[96], orders[160];

	fsp_order_hist_fmt(h, orders, sizeof(orders));
	snprintf(name, sizeof(name), "%s_orders_%s", key, what);
	fsp_ev_str(p, name, orders);
	snprintf(name, sizeof(name), "%s_max_order_%s", key, what);
	fsp_ev_int(p, name, h->max_order);
}

/* The smallest order in h, if smaller than p's so far. */
static void note_min_order(struct fsp_probe *p,
			   const struct fsp_order_hist *h)
{
	int i;

	for (i = 0; i <= FSP_ORDER_MAX; i++)
		if (h->count[i])
			break;
	if (i <= FSP_ORDER_MAX && (p->order_min < 0 || i < p->order_min))
		p->order_min = i;
}

/* Measure one mode; returns the largest order seen, or -1. */
static int measure(const struct fsp_target *t, struct fsp_probe *p,
		   struct fsp_trace *tr, int traced, const struct mode *m)
{
	struct fsp_order_hist th, ph;
	struct fsp_mapping map;
	char path[4096];
	uint64_t bad = 0;
	int fd, ret, best = -1;

	fsp_order_hist_init(&th);
	fsp_order_hist_init(&ph);
	fd = fsp_case_open(t, m->file, O_RDONLY);
	if (fd < 0) {
		fsp_probe_set(p, FSP_ERROR, "%s: %s", m->file, strerror(-fd));
		return -1;
	}
	/* By fd: the event's s_dev is the superblock's (not btrfs st_dev). */
	if (traced && (fsp_trace_watch_fd(tr, fd) || fsp_trace_start(tr)))
		traced = 0;
	if (!m->fault)
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (!m->fault) {
		snprintf(path, sizeof(path), "%s_hole_kb", m->key);
		fsp_ev_int(p, path, hole_of(t, m) >> 10);
		ret = read_all(fd, hole_of(t, m), m->seed, &bad);
		if (ret == -EILSEQ)
			fsp_probe_set(p, FSP_FAIL, "read(2) of %s returned "
				      "wrong data at byte %llu", m->file,
				      (unsigned long long)bad);
		else if (ret)
			fsp_probe_set(p, FSP_ERROR, "read(2) of %s: %s",
				      m->file, fsp_errno_name(ret));
	}
	/* Map it: this faults (fault modes) or maps the cached folios. */
	ret = fsp_map_file(t, m->file, PROT_READ, m->hint, &map);
	if (traced && !fsp_trace_collect(tr, &th)) {
		put_hist(p, m->key, "trace", &th);
		best = th.max_order;
		if (tr->lost) {
			snprintf(path, sizeof(path), "%s_trace_lost", m->key);
			fsp_ev_int(p, path, tr->lost);
		}
	}
	if (!ret) {
		if (!fsp_pagemap_range(map.addr, map.len, &ph)) {
			put_hist(p, m->key, "pagemap", &ph);
			note_min_order(p, &ph);
			if (ph.max_order > best)
				best = ph.max_order;
		}
		if (m->hint) {
			snprintf(path, sizeof(path), "%s_%s", m->key,
				 t->shmem ? "shmem_pmd_mapped_kb" :
				 "file_pmd_mapped_kb");
			fsp_ev_int(p, path, map.pmd_kb);
			if (map.pmd_kb > 0)
				p->routes |= t->shmem ? FSP_ROUTE_SHMEM :
					     FSP_ROUTE_FAULT;
		}
		/* An unreadable page would be SIGBUS when we touch it. */
		if (m->fault && map.populate_rc && p->result == FSP_ERROR)
			;	/* keep the first error */
		else if (m->fault && map.populate_rc)
			fsp_probe_set(p, FSP_ERROR, "MADV_POPULATE_READ on "
				      "%s: %s", m->file,
				      fsp_errno_name(map.populate_rc));
		else if (m->fault && fsp_mapping_verify(&map, m->seed,
						   (unsigned long long *)&bad))
			fsp_probe_set(p, FSP_FAIL, "%s: wrong data through "
				      "the mapping at byte %llu", m->file,
				      (unsigned long long)bad);
		fsp_unmap_file(&map);
	}
	/*
	 * Cross-check: the tracer must not see less than the mapping. No
	 * events at all is not an error: the tracepoint's s_dev is the
	 * superblock's, which on btrfs differs from the st_dev our filter
	 * was built from, and tmpfs adds folios at write time, not here.
	 */
	if (traced && th.max_order < 0) {
		snprintf(path, sizeof(path), "%s_trace_events", m->key);
		fsp_ev_int(p, path, 0);
	} else if (traced && ph.max_order > th.max_order) {
		fsp_probe_set(p, FSP_ERROR, "%s: tracefs saw order %d, "
			      "pagemap %d: the tracer missed events", m->file,
			      th.max_order, ph.max_order);
	}
	close(fd);
	return best;
}

/* The unhinted fault mode, on the hinted mode's file made cold again. */
static int measure_plain(const struct fsp_target *t, struct fsp_probe *p,
			 struct fsp_trace *tr, int traced)
{
	struct mode m = modes[2];

	if (!reuses(t, &modes[2]))
		return measure(t, p, tr, traced, &m);
	m.file = modes[1].file;
	m.seed = modes[1].seed;
	if (fsp_case_recool(t, p, m.file, "fault_nohint_cold",
			    "the unhinted fault"))
		return -1;
	return measure(t, p, tr, traced, &m);
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	struct fsp_trace *tr;
	int traced, ret, o;

	tr = fsp_case_trace(t, &ret);
	traced = tr != NULL;
	fsp_ev_str(p, "method", traced ? "tracefs+pagemap" : "pagemap");
	if (!traced)
		fsp_ev_str(p, "tracefs", strerror(-ret));
	fsp_ev_int(p, "read_ahead_kb", fsp_case_read_ahead_kb(t));
	fsp_ev_str(p, "cold", t->cold_method);

	p->order_read = measure(t, p, tr, traced, &modes[0]);
	o = measure(t, p, tr, traced, &modes[1]);
	p->order_fault = measure_plain(t, p, tr, traced);
	if (o > p->order_fault)
		p->order_fault = o;
	if (p->result != FSP_PASS)
		return;
	if (!traced)
		fsp_probe_set(p, FSP_PASS, "no tracefs (%s): orders of mapped "
			      "folios only", strerror(-ret));
	if (p->order_read < 0 && p->order_fault < 0)
		fsp_probe_set(p, FSP_SKIP, "no folio order could be measured");
}

const struct fsp_case fsp_case_read_order = {
	.name = "read-order",
	.summary = "largest folio order on buffered read and on mmap faults",
	.prepare = prepare,
	.run = run,
	.traced = 1,
};
