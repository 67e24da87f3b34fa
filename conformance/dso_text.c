// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dso_text.c - a shared library with a > 4 MiB, 2 MiB-aligned text
 * segment, copied onto the filesystem and dlopen()ed from there by the
 * dsoload loader (which stays where it was built): is the DSO's text VMA
 * PMD-mapped, cold and warmed?
 */
#include <errno.h>
#include <stdio.h>

#include "payload_util.h"

#define COPY "dso-text.so"

static int prepare(const struct fsp_target *t)
{
	int ret = fsp_payload_copy(t, "libbigtext.so", COPY);

	return ret == -ENOENT ? 0 : ret;	/* run() reports the skip */
}

static void argv_for(const struct fsp_target *t, const char *copy,
		     int collapse, char *argv[8], char *store, size_t len)
{
	size_t half = len / 2;

	snprintf(store, half, "%s/dsoload", t->payload_dir);
	fsp_case_path(t, 0, copy, store + half, len - half);
	argv[0] = store;
	argv[1] = store + half;
	argv[2] = "--hint";
	argv[3] = "--work";
	argv[4] = "1";
	argv[5] = collapse ? "--collapse" : NULL;
	argv[6] = NULL;
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	fsp_payload_probe(t, p, COPY, argv_for);
}

const struct fsp_case fsp_case_dso_text = {
	.name = "dso-text",
	.summary = "dlopen()ed 2 MiB-aligned large-text DSO: PMD-mapped text?",
	.prepare = prepare,
	.run = run,
};
