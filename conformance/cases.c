// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cases.c - the table of conformance cases, in the order they run and
 * are reported. Adding a probe means one file and one line here.
 */
#include <string.h>

#include "case.h"
#include "util.h"

extern const struct fsp_case fsp_case_fault_pmd;
extern const struct fsp_case fsp_case_read_order;
extern const struct fsp_case fsp_case_collapse;
extern const struct fsp_case fsp_case_collapse_exec;
extern const struct fsp_case fsp_case_khugepaged;
extern const struct fsp_case fsp_case_collapse_writable;
extern const struct fsp_case fsp_case_truncate_split;
extern const struct fsp_case fsp_case_punch_split;
extern const struct fsp_case fsp_case_write_open;
extern const struct fsp_case fsp_case_exec_text;
extern const struct fsp_case fsp_case_dso_text;

const struct fsp_case *const fsp_cases[] = {
	&fsp_case_fault_pmd,
	&fsp_case_read_order,
	&fsp_case_collapse,
	&fsp_case_collapse_exec,
	&fsp_case_khugepaged,
	&fsp_case_collapse_writable,
	&fsp_case_truncate_split,
	&fsp_case_punch_split,
	&fsp_case_write_open,
	&fsp_case_exec_text,
	&fsp_case_dso_text,
};

const int fsp_nr_cases = FSP_ARRAY_SIZE(fsp_cases);

const struct fsp_case *fsp_case_find(const char *name)
{
	int i;

	for (i = 0; i < fsp_nr_cases; i++)
		if (!strcmp(fsp_cases[i]->name, name))
			return fsp_cases[i];
	return NULL;
}
