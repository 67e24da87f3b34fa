// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dso_text.c - a shared library with a > 4 MiB, 2 MiB-aligned text
 * segment, copied onto the filesystem and dlopen()ed from there by the
 * dsoload loader (which stays where it was built): is the DSO's text VMA
 * PMD-mapped, cold and warmed?
 */
#include <errno.h>

#include "payload_util.h"

#define COPY "dso-text.so"

static int prepare(const struct fsp_target *t)
{
	int ret = fsp_payload_copy(t, "libbigtext.so", COPY);

	return ret == -ENOENT ? 0 : ret;	/* run() reports the skip */
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	fsp_payload_probe(t, p, COPY, "dsoload");
}

const struct fsp_case fsp_case_dso_text = {
	.name = "dso-text",
	.summary = "dlopen()ed 2 MiB-aligned large-text DSO: PMD-mapped text?",
	.prepare = prepare,
	.run = run,
	.executes = 1,
};
