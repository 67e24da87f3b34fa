// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * collapse_exec.c - MADV_COLLAPSE of a PROT_READ|PROT_EXEC, MAP_PRIVATE
 * mapping of a cold, clean 4 MiB file faulted in without MADV_HUGEPAGE:
 * the text case READ_ONLY_THP_FOR_FS was made for (khugepaged's selftest
 * maps its file the same way). An unhinted exec mapping reads order-0
 * folios only, so this is what a binary's text gets unless it is
 * collapsed. Without that option a regular file gets EINVAL, reported as
 * a skip naming it. The body is shared with `collapse` (collapse_util.c).
 */
#include <sys/mman.h>

#include "case.h"
#include "collapse_util.h"

#define FILE_NAME "collapse-exec.text"
#define SEED 0x22

static int prepare(const struct fsp_target *t)
{
	return fsp_collapse_prepare(t, FILE_NAME, SEED);
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	fsp_collapse_run(t, p, FILE_NAME, PROT_READ | PROT_EXEC, SEED);
}

const struct fsp_case fsp_case_collapse_exec = {
	.name = "collapse-exec",
	.summary = "MADV_COLLAPSE of a small-folio PROT_EXEC file mapping",
	.prepare = prepare,
	.run = run,
	.traced = 1,
};
