// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * render.c - test helper, not the real CLI: render a saved result
 * document in one format ("render table|table-v|ktap|junit|html FILE",
 * "render compare OLD NEW") with the same renderers fsprobe uses, so shell tests can feed
 * the output to xmllint and friends without root or a real run.
 * Exit status: 0 rendered, 1 compare found a regression, 2 error.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

static int usage(void)
{
	fprintf(stderr, "usage: render table|table-v|ktap|junit|html FILE\n"
		"       render compare OLD.json NEW.json\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct fsp_res_doc *a = NULL, *b = NULL;
	char err[512];
	int ret, worse = 0;

	if (argc < 3)
		return usage();
	if (fsp_doc_load(argv[2], &a, err, sizeof(err))) {
		fprintf(stderr, "render: %s\n", err);
		return 2;
	}
	if (!strcmp(argv[1], "table") && argc == 3) {
		ret = fsp_report_table(stdout, a, NULL);
	} else if (!strcmp(argv[1], "table-v") && argc == 3) {
		struct fsp_render_opts o = { .verbose = 1 };

		ret = fsp_report_table(stdout, a, &o);
	} else if (!strcmp(argv[1], "html") && argc == 3) {
		ret = fsp_report_html(stdout, a);
	} else if (!strcmp(argv[1], "ktap") && argc == 3) {
		ret = fsp_report_ktap(stdout, a);
	} else if (!strcmp(argv[1], "junit") && argc == 3) {
		ret = fsp_report_junit(stdout, a);
	} else if (!strcmp(argv[1], "compare") && argc == 4) {
		if (fsp_doc_load(argv[3], &b, err, sizeof(err))) {
			fprintf(stderr, "render: %s\n", err);
			fsp_res_doc_free(a);
			return 2;
		}
		ret = fsp_compare(stdout, a, b, &worse);
	} else {
		fsp_res_doc_free(a);
		return usage();
	}
	fsp_res_doc_free(a);
	fsp_res_doc_free(b);
	if (fflush(stdout) || ret) {
		fprintf(stderr, "render: %s\n", strerror(ret ? -ret : EIO));
		return 2;
	}
	return worse;
}
