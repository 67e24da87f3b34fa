// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fault_pmd.c - the `fault` route (docs/verdicts.md): a cold 4 MiB file is
 * mapped PROT_READ|PROT_EXEC, MAP_PRIVATE at a 2 MiB-aligned address,
 * MADV_HUGEPAGE, MADV_POPULATE_READ; smaps FilePmdMapped of that VMA says
 * whether the fault/readahead path built PMD folios. The same file, made
 * cold again (fsync + POSIX_FADV_DONTNEED, cachestat must count 0 pages),
 * mapped without the hint shows what an unhinted mapping gets: the first
 * mapping that faults a cold file decides its folio sizes. The folio
 * orders of each mapping come from pagemap + kpageflags. On tmpfs the
 * writer decides instead, so there are two files: the hinted one filled
 * through a hinted shared mapping, the plain one with write(2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "case.h"
#include "filedata.h"
#include "pagemap.h"
#include "util.h"

#define HINT_FILE "fault-pmd.hint"
#define PLAIN_FILE "fault-pmd.plain"
#define HINT_SEED 0x11
#define PLAIN_SEED 0x12

static int prepare(const struct fsp_target *t)
{
	int ret = fsp_case_create(t, HINT_FILE, FSP_FILE_SIZE, HINT_SEED, 1);

	if (!ret && t->shmem)
		ret = fsp_case_create(t, PLAIN_FILE, FSP_FILE_SIZE, PLAIN_SEED,
				      0);
	return ret;
}

/* Map one file, record its numbers under prefix, check its data. */
static int measure(const struct fsp_target *t, struct fsp_probe *p,
		   const char *file, int hint, uint32_t seed, long *pmd_kb)
{
	const char *key = t->shmem ? "shmem_pmd_mapped_kb" :
				     "file_pmd_mapped_kb";
	const char *sfx = hint ? "" : "_nohint";
	struct fsp_order_hist h;
	struct fsp_mapping m;
	unsigned long long bad;
	char name[64], orders[128];
	int ret;

	ret = fsp_map_file(t, file, PROT_READ | PROT_EXEC, hint, &m);
	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "mapping %s: %s", file,
			      strerror(-ret));
		return ret;
	}
	snprintf(name, sizeof(name), "%s%s", key, sfx);
	fsp_ev_int(p, name, m.pmd_kb);
	snprintf(name, sizeof(name), "rss_kb%s", sfx);
	fsp_ev_int(p, name, m.rss_kb);
	snprintf(name, sizeof(name), "thp_eligible%s", sfx);
	fsp_ev_int(p, name, m.thp_eligible);
	snprintf(name, sizeof(name), "cached_pages_before%s", sfx);
	fsp_ev_int(p, name, m.cached_before);
	if (hint && m.hint_rc)
		fsp_ev_str(p, "madv_hugepage_errno", fsp_errno_name(m.hint_rc));
	if (m.populate_rc) {
		fsp_probe_set(p, FSP_ERROR, "MADV_POPULATE_READ on %s: %s",
			      file, fsp_errno_name(m.populate_rc));
		fsp_unmap_file(&m);
		return m.populate_rc;
	}
	if (!fsp_pagemap_range(m.addr, m.len, &h)) {
		fsp_order_hist_fmt(&h, orders, sizeof(orders));
		snprintf(name, sizeof(name), "folio_orders%s", sfx);
		fsp_ev_str(p, name, orders);
		if (h.max_order > p->order_fault)
			p->order_fault = h.max_order;
	}
	if (fsp_mapping_verify(&m, seed, &bad)) {
		fsp_probe_set(p, FSP_FAIL,
			      "%s: wrong data through the mapping at byte %llu",
			      file, bad);
		fsp_ev_int(p, "bad_offset", bad);
	}
	if (m.pmd_kb > (long)(m.len >> 10))
		fsp_probe_set(p, FSP_FAIL, "%s: %s %ld kB exceeds the %zu kB "
			      "mapping", file, key, m.pmd_kb, m.len >> 10);
	*pmd_kb = m.pmd_kb;
	fsp_unmap_file(&m);
	return 0;
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	long hinted = 0, plain = 0;

	fsp_ev_str(p, "cold", t->cold_method);
	fsp_ev_int(p, "file_kb", FSP_FILE_SIZE >> 10);
	if (measure(t, p, HINT_FILE, 1, HINT_SEED, &hinted))
		return;
	if (t->shmem) {
		if (measure(t, p, PLAIN_FILE, 0, PLAIN_SEED, &plain))
			return;
	} else if (fsp_case_recool(t, p, HINT_FILE, "cold_nohint",
				   "the unhinted mapping") ||
		   measure(t, p, HINT_FILE, 0, HINT_SEED, &plain)) {
		return;
	}
	if (hinted > 0 || plain > 0) {
		p->routes |= t->shmem ? FSP_ROUTE_SHMEM : FSP_ROUTE_FAULT;
		p->order_fault = t->si->pmd_order;
	}
	if (p->result != FSP_PASS)
		return;
	if (hinted <= 0 && plain <= 0)
		fsp_probe_set(p, FSP_SKIP, "no PMD mapping on the fault path: "
			      "%s 0 kB with and without MADV_HUGEPAGE",
			      t->shmem ? "ShmemPmdMapped" : "FilePmdMapped");
}

const struct fsp_case fsp_case_fault_pmd = {
	.name = "fault-pmd",
	.summary = "MADV_HUGEPAGE on a cold file mapping: PMD-mapped folios?",
	.prepare = prepare,
	.run = run,
};
