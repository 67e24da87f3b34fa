/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verdict.h - the vocabulary of a result and the verdict rules of
 * docs/verdicts.md. The tables here are the only place that spells a
 * verdict, a probe result or a route: renderers, compare and the exit
 * status look names, ranks and families up here. The rules derive a
 * verdict from measured probe facts only: nothing here knows any
 * filesystem by name.
 */
#ifndef FSP_VERDICT_H
#define FSP_VERDICT_H

#include "case.h"

enum fsp_verdict_id {
	FSP_V_NONE,		/* not decided yet (JSON null) */
	FSP_V_PMD, FSP_V_PMD_COLLAPSE_ONLY, FSP_V_LARGE, FSP_V_BASE,
	FSP_V_SHMEM_PMD, FSP_V_SHMEM_BASE, FSP_V_SKIP, FSP_V_ERROR,
	FSP_V_OTHER,		/* a name not in the table (a foreign doc) */
};

/* Verdicts compare only within a family; none: not a measurement. */
enum fsp_family { FSP_FAM_NONE, FSP_FAM_FILE, FSP_FAM_SHMEM };

struct fsp_verdict_info {
	const char *name;
	int rank;		/* within the family, higher is better */
	enum fsp_family family;
	const char *meaning;	/* one line, for people */
};

/* The row of v; FSP_V_NONE and FSP_V_OTHER have a NULL name. */
const struct fsp_verdict_info *fsp_verdict_info(enum fsp_verdict_id v);
const char *fsp_verdict_name(enum fsp_verdict_id v);
/* The verdict named name; FSP_V_OTHER if the table has no such name. */
enum fsp_verdict_id fsp_verdict_lookup(const char *name);
/* A measurement (file or shmem family), not skip/error/unknown. */
int fsp_verdict_measured(enum fsp_verdict_id v);

/* Probe results: FSP_PASS..FSP_ERROR; FSP_NR_OUTCOMES for unknown. */
#define FSP_NR_OUTCOMES (FSP_ERROR + 1)
/* The outcome named name, or FSP_NR_OUTCOMES if there is none. */
enum fsp_outcome fsp_outcome_lookup(const char *name);

/* Route names: bit i of FSP_ROUTE_* is fsp_route_names[i]. */
#define FSP_NR_ROUTES 4
extern const char *const fsp_route_names[FSP_NR_ROUTES];

struct fsp_verdict {
	enum fsp_verdict_id verdict;
	int routes;		/* FSP_ROUTE_* */
	int max_order_read;	/* -1: not measured */
	int max_order_fault;
	int min_order_seen;	/* smallest folio order measured, -1: none */
	char reason[256];	/* why, when the verdict needs one */
};

void fsp_verdict_derive(const struct fsp_probe *probes, int nr, int shmem,
			int pmd_order, struct fsp_verdict *v);
/*
 * After fsp_verdict_derive(), on a kernel without READ_ONLY_THP_FOR_FS
 * (removed: the option absent from its config): the reasons of collapses
 * refused by order (order_refused) name the largest order the profile's
 * probes observed, and pmd-collapse-only no longer speaks of the option
 * going.
 */
void fsp_verdict_attribute(struct fsp_probe *probes, int nr,
			   struct fsp_verdict *v, int pmd_order, int removed);

#endif
