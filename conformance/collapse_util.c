// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * collapse_util.c - the `collapse` route (docs/verdicts.md) measured without
 * any hint: a cold file is faulted in small folios (MADV_POPULATE_READ of
 * an unhinted MAP_PRIVATE mapping of an O_RDONLY fd), then MADV_COLLAPSE
 * asks for PMD folios. Before and after: FilePmdMapped (ShmemPmdMapped on
 * tmpfs) and the folio orders from pagemap; and why a refusal happened,
 * which on kernels without CONFIG_READ_ONLY_THP_FOR_FS is the config, not
 * the filesystem. The data is checked through the mapping afterwards:
 * a collapse, done or refused, must never change what a read sees.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "collapse_util.h"
#include "filedata.h"
#include "pagemap.h"
#include "trace.h"
#include "util.h"

/* MADV_COLLAPSE is best effort: EAGAIN means folios were busy just now. */
#define COLLAPSE_TRIES 8
#define COLLAPSE_PAUSE_NS (50 * 1000 * 1000L)

int fsp_madv_collapse(void *addr, size_t len, int fd,
		      struct fsp_collapse_try *c)
{
	const struct timespec pause = { 0, COLLAPSE_PAUSE_NS };

	memset(c, 0, sizeof(*c));
	for (;;) {
		c->attempts++;
		c->rc = madvise(addr, len, MADV_COLLAPSE) ? -errno : 0;
		if (c->rc == -EINVAL && !c->fsync_retry && fd >= 0) {
			/*
			 * Dirty or writeback folios fail with EINVAL after
			 * the kernel starts writeback; once fsync has waited
			 * for it, a second attempt can succeed.
			 */
			if (fsync(fd)) {
				/* Read-only filesystems: no fsync, no dirt. */
				c->fsync_rc = -errno;
				break;
			}
			c->fsync_retry = 1;
			continue;
		}
		if (c->rc != -EAGAIN || c->attempts >= COLLAPSE_TRIES)
			break;
		nanosleep(&pause, NULL);
	}
	return c->rc;
}

/* After madvise_collapse_errno() in mm/khugepaged.c and its callers. */
const char *fsp_collapse_why(int err, const struct fsp_target *t)
{
	switch (err < 0 ? -err : err) {
	case EINVAL:
		if (t->shmem)
			return "shmem range refused: huge=deny, or THP "
			       "disabled for this process";
		if (t->si->ro_thp_state == FSP_KOPT_NOT_SET)
			return "READ_ONLY_THP_FOR_FS not set";
		/*
		 * Since the removal a file open for write is collapsed
		 * (collapse-writable measures it): not a cause here.
		 */
		if (t->si->ro_thp_state == FSP_KOPT_ABSENT)
			return "range not collapsible although the mapping "
			       "may reach PMD order (dirty pages not written "
			       "back, or private COW pages)";
		if (t->si->ro_thp > 0)
			return "refused although READ_ONLY_THP_FOR_FS=y: range "
			       "not collapsible (dirty, open for write, or "
			       "private COW pages)";
		return "READ_ONLY_THP_FOR_FS unknown: not set, or range not "
		       "collapsible";
	case EAGAIN:
		return "transient: folios locked, off the LRU or with extra "
		       "references";
	case ENOMEM:
		return "no PMD-size folio could be allocated";
	case EBUSY:
		return "memcg charge failed, or too many holes in the range";
	default:
		return strerror(err < 0 ? -err : err);
	}
}

int fsp_ev_orders(struct fsp_probe *p, const char *key, const void *addr,
		  size_t len)
{
	struct fsp_order_hist h;
	char buf[256], name[64];
	int ret;

	ret = fsp_pagemap_range(addr, len, &h);
	if (!ret)
		ret = fsp_order_hist_fmt(&h, buf, sizeof(buf));
	if (ret) {
		snprintf(name, sizeof(name), "%s_errno", key);
		fsp_ev_str(p, name, fsp_errno_name(ret));
		return -1;
	}
	fsp_ev_str(p, key, buf);
	return h.max_order;
}

int fsp_collapse_prepare(const struct fsp_target *t, const char *name,
			 uint32_t seed)
{
	/* Written back by the cold cycle: dirty folios would fail it. */
	return fsp_case_create_sparse(t, name, FSP_FILE_SIZE, 0, seed);
}

void fsp_ev_pmd_kb(struct fsp_probe *p, const struct fsp_target *t,
		   const char *sfx, long kb)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_pmd_mapped_kb_%s",
		 t->shmem ? "shmem" : "file", sfx);
	fsp_ev_int(p, name, kb);
}

/*
 * A refusal where the kernel has no READ_ONLY_THP_FOR_FS: only a mapping
 * whose folios may reach PMD order collapses, so a largest observed order
 * below it is the cause. order: this probe's measurement before the call.
 */
static int refused_by_order(const struct fsp_target *t, struct fsp_probe *p,
			    const struct fsp_collapse_try *c, int order)
{
	if (c->rc != -EINVAL || t->shmem ||
	    t->si->ro_thp_state != FSP_KOPT_ABSENT || order < 0 ||
	    t->si->pmd_order < 0 || order >= t->si->pmd_order)
		return 0;
	fsp_probe_set(p, FSP_SKIP, "MADV_COLLAPSE: EINVAL: largest folio "
		      "order observed %d < PMD order %d", order,
		      t->si->pmd_order);
	p->order_refused = 1;
	return 1;
}

/* The result, once the numbers are recorded. */
static void judge(const struct fsp_target *t, struct fsp_probe *p,
		  const struct fsp_collapse_try *c, long before, long after,
		  long len_kb, int order)
{
	const char *ctr = t->shmem ? "ShmemPmdMapped" : "FilePmdMapped";

	if (after > before)
		p->routes |= FSP_ROUTE_COLLAPSE;
	if (p->result == FSP_FAIL)
		return;
	/*
	 * A successful file collapse ends with collapse_pte_mapped_thp()
	 * installing the PMDs, so success must show the whole range.
	 */
	if (!c->rc && after < len_kb) {
		fsp_probe_set(p, FSP_FAIL, "MADV_COLLAPSE returned 0 but %s "
			      "is %ld of %ld kB", ctr, after, len_kb);
		return;
	}
	if (after > 0) {
		fsp_ev_bool(p, "already_pmd_mapped", before > 0);
		return;
	}
	if (refused_by_order(t, p, c, order))
		return;
	if (c->rc == -EAGAIN)
		fsp_probe_set(p, FSP_SKIP, "MADV_COLLAPSE: EAGAIN after %d "
			      "attempts (%s)", c->attempts,
			      fsp_collapse_why(c->rc, t));
	else
		fsp_probe_set(p, FSP_SKIP, "MADV_COLLAPSE: %s (%s)",
			      fsp_errno_name(c->rc),
			      fsp_collapse_why(c->rc, t));
}

/* Trace the collapse of name: the profile's instance, or NULL and why. */
static struct fsp_trace *trace_start(const struct fsp_target *t,
				     struct fsp_probe *p, const char *name)
{
	struct fsp_trace *tr;
	int ret;

	tr = fsp_case_trace(t, &ret);
	if (tr) {
		ret = fsp_trace_watch_collapse(tr, name);
		if (!ret)
			ret = fsp_trace_start(tr);
	}
	if (!ret)
		return tr;
	fsp_ev_str(p, "tracefs", strerror(-ret));
	return NULL;
}

static int same_kind(const struct fsp_trace_collapse *a,
		     const struct fsp_trace_collapse *b)
{
	return a->scan == b->scan && a->result == b->result;
}

/* "result:count ..." of the records of one event (scan 0 or 1). */
static void trace_results(const struct fsp_trace *tr, int scan, char *buf,
			  size_t len)
{
	size_t i, j, pos = 0;
	int n;

	buf[0] = '\0';
	for (i = 0; i < tr->nr_col && pos < len; i++) {
		if (tr->col[i].scan != scan)
			continue;
		for (j = 0; j < i && !same_kind(&tr->col[j], &tr->col[i]); j++)
			;
		if (j < i)
			continue;	/* counted at its first record */
		for (n = 0, j = i; j < tr->nr_col; j++)
			n += same_kind(&tr->col[j], &tr->col[i]);
		if (tr->col[i].result_name[0])
			pos += snprintf(buf + pos, len - pos, "%s%s:%d",
					pos ? " " : "", tr->col[i].result_name,
					n);
		else
			pos += snprintf(buf + pos, len - pos, "%s%d:%d",
					pos ? " " : "", tr->col[i].result, n);
	}
}

/*
 * What huge_memory/mm_khugepaged_{collapse,scan}_file said. No event at
 * all means the collapse was refused before any scan: by the VMA check
 * (thp_vma_allowable_order), which is where a missing
 * READ_ONLY_THP_FOR_FS refuses a regular file.
 */
static void trace_report(struct fsp_probe *p, struct fsp_trace *tr, int rc)
{
	struct fsp_order_hist h;
	char buf[256];

	if (fsp_trace_collect(tr, &h)) {
		fsp_ev_str(p, "tracefs", "collecting the events failed");
		return;
	}
	fsp_ev_int(p, "trace_collapse_events", tr->nr_col);
	trace_results(tr, 0, buf, sizeof(buf));
	if (buf[0])
		fsp_ev_str(p, "trace_collapse_file", buf);
	trace_results(tr, 1, buf, sizeof(buf));
	if (buf[0])
		fsp_ev_str(p, "trace_scan_file", buf);
	if (!tr->nr_col && rc)
		fsp_ev_str(p, "trace_note", "no collapse event: refused by "
			   "the VMA check before any scan");
}

void fsp_collapse_run(const struct fsp_target *t, struct fsp_probe *p,
		      const char *name, int prot, uint32_t seed)
{
	struct fsp_collapse_try c;
	struct fsp_mapping m;
	struct fsp_trace *tr;
	unsigned long long bad;
	long before, after;
	int ret, order;

	fsp_ev_str(p, "cold", t->cold_method);
	fsp_ev_str(p, "prot", prot & PROT_EXEC ? "r-x" : "r--");
	fsp_ev_int(p, "file_kb", FSP_FILE_SIZE >> 10);
	if (t->si->ro_thp >= 0)
		fsp_ev_bool(p, "read_only_thp_for_fs", t->si->ro_thp);
	else
		fsp_ev_str(p, "read_only_thp_for_fs", NULL);
	fsp_ev_str(p, "read_only_thp_for_fs_state",
		   fsp_kopt_name(t->si->ro_thp_state));
	fsp_ev_str(p, "config_source", t->si->config_source);

	/* No hint: the fault path builds what it builds unasked. */
	ret = fsp_map_file(t, name, prot, 0, &m);
	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "mapping %s: %s", name,
			      strerror(-ret));
		return;
	}
	fsp_ev_int(p, "cached_pages_before", m.cached_before);
	if (m.populate_rc) {
		fsp_probe_set(p, FSP_ERROR, "MADV_POPULATE_READ on %s: %s",
			      name, fsp_errno_name(m.populate_rc));
		goto out;
	}
	before = m.pmd_kb;
	fsp_ev_pmd_kb(p, t, "before", before);
	order = fsp_ev_orders(p, "orders_before", m.addr, m.len);
	if (order >= 0)
		p->order_fault = order;

	tr = trace_start(t, p, name);
	fsp_madv_collapse(m.addr, m.len, m.fd, &c);
	if (tr)
		trace_report(p, tr, c.rc);
	fsp_ev_int(p, "madv_collapse_rc", c.rc ? -1 : 0);
	fsp_ev_str(p, "errno", c.rc ? fsp_errno_name(c.rc) : NULL);
	fsp_ev_int(p, "attempts", c.attempts);
	fsp_ev_bool(p, "einval_retried_after_fsync", c.fsync_retry);
	if (c.fsync_rc)
		fsp_ev_str(p, "fsync_errno", fsp_errno_name(c.fsync_rc));

	ret = fsp_mapping_measure(t, &m);
	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "smaps after MADV_COLLAPSE: %s",
			      strerror(-ret));
		goto out;
	}
	after = m.pmd_kb;
	fsp_ev_pmd_kb(p, t, "after", after);
	fsp_ev_orders(p, "orders_after", m.addr, m.len);
	if (fsp_mapping_verify(&m, seed, &bad)) {
		fsp_probe_set(p, FSP_FAIL, "wrong data through the mapping "
			      "after MADV_COLLAPSE at byte %llu", bad);
		fsp_ev_int(p, "bad_offset", bad);
	}
	judge(t, p, &c, before, after, (long)(m.len >> 10), order);
out:
	fsp_unmap_file(&m);
}
