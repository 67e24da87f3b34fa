/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tap-data.h - the recorded fixtures of the unit tests: where they are
 * (FSP_TEST_DATA, else $srcdir/tests/data) and a result document loaded
 * from there as one TAP test. Header only, like tap.h, which it needs.
 */
#ifndef FSP_TAP_DATA_H
#define FSP_TAP_DATA_H

#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "report.h"

static char tap_datadir[4096];

/* Set tap_datadir from the environment; returns it. */
static inline const char *tap_data_init(void)
{
	const char *src = getenv("FSP_TEST_DATA");

	if (src && *src)
		snprintf(tap_datadir, sizeof(tap_datadir), "%s", src);
	else
		snprintf(tap_datadir, sizeof(tap_datadir), "%s/tests/data",
			 getenv("srcdir") ? getenv("srcdir") : ".");
	return tap_datadir;
}

/* The run document tests/data/NAME, or NULL; one TAP test either way. */
static inline struct fsp_res_doc *tap_load_doc(const char *name)
{
	struct fsp_res_doc *doc = NULL;
	char path[4200], err[512];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", tap_datadir, name);
	ret = fsp_doc_load(path, &doc, err, sizeof(err));
	tap_ok(!ret && doc, "load %s%s%s", name, ret ? ": " : "",
	       ret ? err : "");
	return doc;
}

#endif
