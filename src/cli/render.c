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
	struct fsp_kcidb_opts kopts = {
		.origin = cli->kcidb_origin ? cli->kcidb_origin : "fsprobe",
		.checkout = cli->kcidb_checkout,
	};
	FILE *out = stdout;
	int ret = 0;

	if (cli->format == FMT_KCIDB && !fsp_kcidb_origin_valid(kopts.origin))
		return fsp_usage_error("--kcidb-origin takes [a-z0-9_]+, not "
				       "'%s'", kopts.origin);

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
	case FMT_KCIDB:
		ret = fsp_report_kcidb(out, &doc, 1, &kopts);
		break;
	case FMT_LAVA:
		ret = fsp_report_lava(out, doc);
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
