// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_compare.c - `fsprobe compare OLD.json NEW.json` reports verdict and
 * result changes between two runs; exit 1 if anything got worse.
 */
#include <stdio.h>

#include "cli.h"
#include "report.h"

int fsp_cmd_compare(struct fsp_cli *cli)
{
	struct fsp_res_doc *a = NULL, *b = NULL;
	char err[512];
	int worse = 0, ret;

	if (fsp_doc_load(cli->args[0], &a, err, sizeof(err)) ||
	    fsp_doc_load(cli->args[1], &b, err, sizeof(err))) {
		fsp_warn("%s", err);
		fsp_res_doc_free(a);
		return FSP_EXIT_USAGE;
	}
	ret = fsp_compare(stdout, a, b, &worse);
	fsp_res_doc_free(a);
	fsp_res_doc_free(b);
	if (ret)
		return FSP_EXIT_USAGE;
	return worse ? FSP_EXIT_FAIL : FSP_EXIT_OK;
}
