// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * collapse.c - MADV_COLLAPSE of a PROT_READ, MAP_PRIVATE mapping of a cold,
 * clean 4 MiB file faulted in without MADV_HUGEPAGE: can data (not text)
 * reach PMD folios through the collapse route on this filesystem? On a
 * kernel without CONFIG_READ_ONLY_THP_FOR_FS a regular file gets EINVAL,
 * which is reported as a skip naming the config, not as an FS fault; tmpfs
 * collapses through shmem whatever that option says. collapse_util.c has
 * the body shared with collapse-exec.
 */
#include <sys/mman.h>

#include "case.h"
#include "collapse_util.h"

#define FILE_NAME "collapse.data"
#define SEED 0x21

static int prepare(const struct fsp_target *t)
{
	return fsp_collapse_prepare(t, FILE_NAME, SEED);
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	fsp_collapse_run(t, p, FILE_NAME, PROT_READ, SEED);
}

const struct fsp_case fsp_case_collapse = {
	.name = "collapse",
	.summary = "MADV_COLLAPSE of a small-folio PROT_READ file mapping",
	.prepare = prepare,
	.run = run,
	.traced = 1,
};
