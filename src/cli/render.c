// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * render.c - the document to the output the command line asked for:
 * -f picks the renderer, -o the file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report.h"

int fsp_render(const struct fsp_cli *cli, const struct fsp_res_doc *doc)
{
	FILE *out = stdout;
	int ret = 0;

	if (cli->output) {
		out = fopen(cli->output, "we");
		if (!out) {
			fsp_warn("cannot write %s: %s", cli->output,
				 strerror(errno));
			return FSP_EXIT_USAGE;
		}
	}
	switch (cli->format) {
	case FMT_TABLE:
		ret = fsp_report_table(out, doc);
		break;
	case FMT_JSON:
		ret = fsp_report_json(out, doc);
		break;
	case FMT_KTAP:
		ret = fsp_report_ktap(out, doc);
		break;
	case FMT_JUNIT:
		ret = fsp_report_junit(out, doc);
		break;
	}
	if (fflush(out) || ferror(out))
		ret = -EIO;
	if (out != stdout && fclose(out))
		ret = -EIO;
	if (ret) {
		fsp_warn("writing the report: %s", strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	return 0;
}
