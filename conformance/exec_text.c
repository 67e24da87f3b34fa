// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exec_text.c - an executable with a > 4 MiB, 2 MiB-aligned text
 * segment, copied onto the filesystem and exec'd from there: is its own
 * text VMA PMD-mapped (FilePmdMapped; ShmemPmdMapped on tmpfs), cold and
 * warmed? The binary asks for huge text itself (MADV_HUGEPAGE,
 * MADV_POPULATE_READ, MADV_COLLAPSE) and reports one key=value line.
 */
#include <errno.h>

#include "payload_util.h"

#define COPY "exec-text"

static int prepare(const struct fsp_target *t)
{
	int ret = fsp_payload_copy(t, "bigtext", COPY);

	return ret == -ENOENT ? 0 : ret;	/* run() reports the skip */
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	fsp_payload_probe(t, p, COPY, NULL);
}

const struct fsp_case fsp_case_exec_text = {
	.name = "exec-text",
	.summary = "exec'd 2 MiB-aligned large-text binary: PMD-mapped text?",
	.prepare = prepare,
	.run = run,
	.executes = 1,
};
