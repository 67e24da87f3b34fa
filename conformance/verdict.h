/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verdict.h - the verdict rules of docs/verdicts.md, derived from measured
 * probe facts only: nothing here knows any filesystem by name.
 */
#ifndef FSP_VERDICT_H
#define FSP_VERDICT_H

#include "case.h"

struct fsp_verdict {
	const char *verdict;	/* pmd, pmd-collapse-only, large, base, ... */
	int routes;		/* FSP_ROUTE_* */
	int max_order_read;	/* -1: not measured */
	int max_order_fault;
	char reason[256];	/* why, when the verdict needs one */
};

void fsp_verdict_derive(const struct fsp_probe *probes, int nr, int shmem,
			int pmd_order, struct fsp_verdict *v);

#endif
