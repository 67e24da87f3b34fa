// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verdict.c - turn probe facts into a verdict. Routes come from probes
 * that saw PMD mappings; the largest order is the largest any probe
 * observed (a lower bound of the mapping's max order). With no order
 * measured at all and no PMD mapping, the verdict says `base` only if a
 * reach probe actually measured 0 kB; otherwise it cannot say anything
 * and reports `skip`.
 */
#include <stdio.h>
#include <string.h>

#include "verdict.h"

static const struct fsp_verdict_info verdicts[] = {
	[FSP_V_PMD] = { "pmd", 4, FSP_FAM_FILE,
		"PMD-order folios reached on the fault route" },
	[FSP_V_PMD_COLLAPSE_ONLY] = { "pmd-collapse-only", 3, FSP_FAM_FILE,
		"PMD only via collapse (MADV_COLLAPSE, khugepaged), none on "
		"the fault path" },
	[FSP_V_LARGE] = { "large", 2, FSP_FAM_FILE,
		"large folios, largest observed order < PMD order" },
	[FSP_V_BASE] = { "base", 1, FSP_FAM_FILE, "order-0 folios only" },
	[FSP_V_SHMEM_PMD] = { "shmem-pmd", 2, FSP_FAM_SHMEM,
		"tmpfs: PMD-order folios reached" },
	[FSP_V_SHMEM_BASE] = { "shmem-base", 1, FSP_FAM_SHMEM,
		"tmpfs: no PMD-order folio" },
	[FSP_V_SKIP] = { "skip", 0, FSP_FAM_NONE,
		"could not be tested; the reason says why" },
	[FSP_V_ERROR] = { "error", 0, FSP_FAM_NONE,
		"the harness failed; the reason says where" },
	[FSP_V_OTHER] = { NULL, 0, FSP_FAM_NONE, "not a verdict fsprobe knows" },
};

static const char *const outcomes[FSP_NR_OUTCOMES] = {
	[FSP_PASS] = "pass", [FSP_FAIL] = "fail",
	[FSP_SKIP] = "skip", [FSP_ERROR] = "error",
};

const char *const fsp_route_names[FSP_NR_ROUTES] = {
	"fault", "collapse", "shmem", "khugepaged",
};

const struct fsp_verdict_info *fsp_verdict_info(enum fsp_verdict_id v)
{
	return &verdicts[v <= FSP_V_OTHER ? v : FSP_V_OTHER];
}

const char *fsp_verdict_name(enum fsp_verdict_id v)
{
	return fsp_verdict_info(v)->name;
}

enum fsp_verdict_id fsp_verdict_lookup(const char *name)
{
	int v;

	for (v = FSP_V_PMD; v < FSP_V_OTHER; v++)
		if (!strcmp(verdicts[v].name, name))
			return v;
	return FSP_V_OTHER;
}

int fsp_verdict_measured(enum fsp_verdict_id v)
{
	return fsp_verdict_info(v)->family != FSP_FAM_NONE;
}

const char *fsp_outcome_name(enum fsp_outcome o)
{
	return (unsigned int)o < FSP_NR_OUTCOMES ? outcomes[o] : NULL;
}

enum fsp_outcome fsp_outcome_lookup(const char *name)
{
	int o;

	for (o = 0; o < FSP_NR_OUTCOMES; o++)
		if (!strcmp(outcomes[o], name))
			return o;
	return FSP_NR_OUTCOMES;
}

/*
 * Nothing measured: `error` if a probe could not run (an I/O error, say),
 * with the first one's reason; 0 if no probe failed that way.
 */
static int no_measure_error(const struct fsp_probe *probes, int nr,
			    struct fsp_verdict *v)
{
	int i;

	for (i = 0; i < nr; i++)
		if (probes[i].result == FSP_ERROR) {
			v->verdict = FSP_V_ERROR;
			snprintf(v->reason, sizeof(v->reason), "%s: %s",
				 probes[i].c->name, probes[i].reason);
			return 1;
		}
	return 0;
}

/*
 * tmpfs without the shmem route whose PMD came later, by MADV_COLLAPSE or
 * khugepaged: shmem-pmd (as the file family's pmd-collapse-only), the
 * reason naming those routes only.
 */
static int late_only(struct fsp_verdict *v)
{
	int c = v->routes & FSP_ROUTE_COLLAPSE,
	    k = v->routes & FSP_ROUTE_KHUGEPAGED;

	if (!c && !k)
		return 0;
	snprintf(v->reason, sizeof(v->reason), "PMD only through %s%s%s; "
		 "none on the fault path", c ? "MADV_COLLAPSE" : "",
		 c && k ? " and " : "", k ? "khugepaged" : "");
	return 1;
}

void fsp_verdict_derive(const struct fsp_probe *probes, int nr, int shmem,
			int pmd_order, struct fsp_verdict *v)
{
	int i, measured = 0, largest;

	memset(v, 0, sizeof(*v));
	v->max_order_read = v->max_order_fault = v->min_order_seen = -1;
	for (i = 0; i < nr; i++) {
		const struct fsp_probe *p = &probes[i];

		if (p->result == FSP_ERROR)
			continue;
		v->routes |= p->routes;
		if (p->order_read > v->max_order_read)
			v->max_order_read = p->order_read;
		if (p->order_fault > v->max_order_fault)
			v->max_order_fault = p->order_fault;
		if (p->order_min >= 0 && (v->min_order_seen < 0 ||
					  p->order_min < v->min_order_seen))
			v->min_order_seen = p->order_min;
		if (p->order_read >= 0 || p->order_fault >= 0 || p->routes ||
		    (!strcmp(p->c->name, "fault-pmd") &&
		     (p->result == FSP_PASS || p->result == FSP_SKIP)))
			measured = 1;
	}
	if (v->routes & (FSP_ROUTE_FAULT | FSP_ROUTE_SHMEM) &&
	    v->max_order_fault < pmd_order)
		v->max_order_fault = pmd_order;
	/* PMD-order folios built on the fault path are the fault route. */
	if (pmd_order > 0 && v->max_order_fault >= pmd_order)
		v->routes |= shmem ? FSP_ROUTE_SHMEM : FSP_ROUTE_FAULT;
	largest = v->max_order_read > v->max_order_fault ?
		  v->max_order_read : v->max_order_fault;
	if (shmem) {
		v->verdict = v->routes & FSP_ROUTE_SHMEM ||
			     (pmd_order > 0 && largest >= pmd_order) ?
			     FSP_V_SHMEM_PMD : FSP_V_SHMEM_BASE;
		if (v->verdict == FSP_V_SHMEM_BASE && late_only(v))
			v->verdict = FSP_V_SHMEM_PMD;
		if (!measured && !no_measure_error(probes, nr, v)) {
			v->verdict = FSP_V_SKIP;
			snprintf(v->reason, sizeof(v->reason),
				 "no reach probe ran");
		}
		return;
	}
	if (v->routes & FSP_ROUTE_FAULT) {
		v->verdict = FSP_V_PMD;
	} else if (v->routes & (FSP_ROUTE_COLLAPSE | FSP_ROUTE_KHUGEPAGED)) {
		v->verdict = FSP_V_PMD_COLLAPSE_ONLY;
		snprintf(v->reason, sizeof(v->reason),
			 "PMD only through MADV_COLLAPSE: huge text is lost "
			 "when READ_ONLY_THP_FOR_FS goes");
	} else if (largest > 0) {
		v->verdict = FSP_V_LARGE;
		snprintf(v->reason, sizeof(v->reason),
			 "largest folio order observed %d < PMD order %d",
			 largest, pmd_order);
	} else if (largest == 0 || measured) {
		v->verdict = FSP_V_BASE;
		snprintf(v->reason, sizeof(v->reason), largest == 0 ?
			 "only order-0 folios observed" :
			 "no PMD mapping; folio orders not measured");
	} else if (!no_measure_error(probes, nr, v)) {
		v->verdict = FSP_V_SKIP;
		snprintf(v->reason, sizeof(v->reason),
			 "no reach probe ran (select fault-pmd or read-order)");
	}
}

/*
 * Where READ_ONLY_THP_FOR_FS is absent a collapse is refused
 * because the mapping's folios cannot reach PMD order. The probe saw only
 * its own range (often order 0: an unhinted fault); read-order and
 * fault-pmd see what the mapping reaches, so the profile's largest order
 * is the evidence. If some probe reached PMD order, order is not the
 * cause and the reason says so.
 */
void fsp_verdict_attribute(struct fsp_probe *probes, int nr,
			   struct fsp_verdict *v, int pmd_order, int removed)
{
	int i, largest = v->max_order_read > v->max_order_fault ?
			 v->max_order_read : v->max_order_fault;

	if (!removed)
		return;
	/* The option is gone: collapse-only PMD is simply what there is. */
	if (v->verdict == FSP_V_PMD_COLLAPSE_ONLY)
		late_only(v);
	for (i = 0; i < nr; i++) {
		struct fsp_probe *p = &probes[i];

		if (!p->order_refused || p->result != FSP_SKIP || largest < 0)
			continue;
		if (largest < pmd_order)
			snprintf(p->reason, sizeof(p->reason), "MADV_COLLAPSE: "
				 "EINVAL: largest folio order observed %d < "
				 "PMD order %d", largest, pmd_order);
		else
			snprintf(p->reason, sizeof(p->reason), "MADV_COLLAPSE: "
				 "EINVAL although order %d was observed: range "
				 "not collapsible (dirty pages not written "
				 "back, or private COW pages)", largest);
	}
}
