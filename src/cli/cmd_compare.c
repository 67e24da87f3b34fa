// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_compare.c - `fsprobe compare OLD.json NEW.json` reports verdict and
 * result changes between two runs, or between two matrices kernel by
 * kernel (paired by release); exit 1 if anything got worse.
 */
#include <stdio.h>

#include "cli.h"
#include "report.h"

int fsp_cmd_compare(struct fsp_cli *cli)
{
	struct fsp_res_doc *a = NULL, *b = NULL;
	struct fsp_res_matrix *ma = NULL, *mb = NULL;
	char err[512];
	int worse = 0, ret = FSP_EXIT_USAGE;

	if (fsp_res_load_any(cli->args[0], &a, &ma, err, sizeof(err)) ||
	    fsp_res_load_any(cli->args[1], &b, &mb, err, sizeof(err))) {
		fsp_warn("%s", err);
		goto out;
	}
	if (!ma != !mb) {
		fsp_warn("compare takes two run documents or two matrices, "
			 "not one of each (%s is a matrix)",
			 cli->args[ma ? 0 : 1]);
		goto out;
	}
	ret = ma ? fsp_compare_matrix(stdout, ma, mb, &worse) :
		   fsp_compare(stdout, a, b, &worse);
	if (ret)
		ret = FSP_EXIT_USAGE;
	else
		ret = worse ? FSP_EXIT_FAIL : FSP_EXIT_OK;
out:
	fsp_res_doc_free(a);
	fsp_res_doc_free(b);
	fsp_res_matrix_free(ma);
	fsp_res_matrix_free(mb);
	return ret;
}
