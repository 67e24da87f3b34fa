// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * truncate_split.c - PLACEHOLDER being written; must not be committed as is.
 */
#include "case.h"

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	fsp_probe_set(p, FSP_SKIP, "not implemented yet");
}

const struct fsp_case fsp_case_truncate_split = {
	.name = "truncate-split",
	.summary = "(placeholder)",
	.run = run,
};
