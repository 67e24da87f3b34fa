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

void fsp_verdict_derive(const struct fsp_probe *probes, int nr, int shmem,
			int pmd_order, struct fsp_verdict *v)
{
	int i, measured = 0, largest;

	memset(v, 0, sizeof(*v));
	v->max_order_read = v->max_order_fault = -1;
	for (i = 0; i < nr; i++) {
		const struct fsp_probe *p = &probes[i];

		if (p->result == FSP_ERROR)
			continue;
		v->routes |= p->routes;
		if (p->order_read > v->max_order_read)
			v->max_order_read = p->order_read;
		if (p->order_fault > v->max_order_fault)
			v->max_order_fault = p->order_fault;
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
			     "shmem-pmd" : "shmem-base";
		if (!measured) {
			v->verdict = "skip";
			snprintf(v->reason, sizeof(v->reason),
				 "no reach probe ran");
		}
		return;
	}
	if (v->routes & FSP_ROUTE_FAULT) {
		v->verdict = "pmd";
	} else if (v->routes & FSP_ROUTE_COLLAPSE) {
		v->verdict = "pmd-collapse-only";
		snprintf(v->reason, sizeof(v->reason),
			 "PMD only through MADV_COLLAPSE: huge text is lost "
			 "when READ_ONLY_THP_FOR_FS goes");
	} else if (largest > 0) {
		v->verdict = "large";
		snprintf(v->reason, sizeof(v->reason),
			 "largest folio order observed %d < PMD order %d",
			 largest, pmd_order);
	} else if (largest == 0 || measured) {
		v->verdict = "base";
		snprintf(v->reason, sizeof(v->reason), largest == 0 ?
			 "only order-0 folios observed" :
			 "no PMD mapping; folio orders not measured");
	} else {
		v->verdict = "skip";
		snprintf(v->reason, sizeof(v->reason),
			 "no reach probe ran (select fault-pmd or read-order)");
	}
}
