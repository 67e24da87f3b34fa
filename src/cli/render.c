// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * render.c - the document to the output the command line asked for:
 * -f picks the renderer, -o the file, -v how much the table shows; the
 * table is in colour on a terminal unless NO_COLOR is set.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"

/* https://no-color.org: present and not empty turns colour off. */
static int want_colour(const struct fsp_cli *cli, FILE *out)
{
	const char *nc = getenv("NO_COLOR");

	if (nc && *nc)
		return 0;
	return out == stdout && !cli->output && isatty(STDOUT_FILENO);
}

int fsp_render(const struct fsp_cli *cli, const struct fsp_res_doc *doc)
{
	struct fsp_render_opts o = { .verbose = cli->verbose };
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
	o.colour = want_colour(cli, out);
	switch (cli->format) {
	case FMT_TABLE:
		ret = fsp_report_table(out, doc, &o);
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
	case FMT_HTML:
		ret = fsp_report_html(out, doc);
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
