// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * render.c - test helper, not the real CLI: render a saved result
 * document in one format ("render table|table-v|ktap|junit|html FILE",
 * "render compare OLD NEW"; a matrix document: "render table|html|
 * compare") with the same renderers fsprobe uses, so shell tests can feed
 * the output to xmllint and friends without root or a real run.
 * Exit status: 0 rendered, 1 compare found a regression, 2 error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* render kcidb FILE [MORE.json...]: a matrix of the documents; the
 * origin and checkout come from $KCIDB_ORIGIN and $KCIDB_CHECKOUT. */
static int kcidb(struct fsp_res_doc *a, int nr, char **more)
{
	const char *origin = getenv("KCIDB_ORIGIN");
	struct fsp_kcidb_opts o = {
		.origin = origin ? origin : "fsprobe",
		.checkout = getenv("KCIDB_CHECKOUT"),
	};
	struct fsp_res_doc *docs[16] = { a };
	char err[512];
	int i, ret = -EINVAL;

	if (nr >= 16)
		return -E2BIG;
	for (i = 0; i < nr; i++) {
		if (fsp_doc_load(more[i], &docs[i + 1], err, sizeof(err))) {
			fprintf(stderr, "render: %s\n", err);
			goto out;
		}
	}
	ret = fsp_report_kcidb(stdout, (const struct fsp_res_doc *const *)docs,
			       nr + 1, &o);
out:
	for (i = 1; i <= nr; i++)
		fsp_res_doc_free(docs[i]);
	return ret;
}

/* A matrix document: table, html, json, or compare with another. */
static int matrix(const char *how, struct fsp_res_matrix *m, int argc,
		  char **argv, int *worse)
{
	struct fsp_res_doc *d = NULL;
	struct fsp_res_matrix *b = NULL;
	char err[512];
	int ret;

	if (!strcmp(how, "table") && !argc)
		return fsp_report_matrix_table(stdout, m, NULL);
	if (!strcmp(how, "html") && !argc)
		return fsp_report_matrix_html(stdout, m);
	if (!strcmp(how, "json") && !argc)
		return fsp_report_matrix_json(stdout, m);
	if (strcmp(how, "compare") || argc != 1)
		return -EINVAL;
	if (fsp_res_load_any(argv[0], &d, &b, err, sizeof(err)) || !b) {
		fprintf(stderr, "render: %s\n", d ? "not a matrix" : err);
		fsp_res_doc_free(d);
		return -EINVAL;
	}
	ret = fsp_compare_matrix(stdout, m, b, worse);
	fsp_res_matrix_free(b);
	return ret;
}

static int usage(void)
{
	fprintf(stderr, "usage: render table|table-v|ktap|junit|html|lava FILE\n"
		"       render kcidb FILE [MORE.json...]\n"
		"       render compare OLD.json NEW.json\n"
		"       render table|html|json MATRIX.json\n"
		"       render compare OLD-MATRIX.json NEW-MATRIX.json\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct fsp_res_doc *a = NULL, *b = NULL;
	struct fsp_res_matrix *m = NULL;
	char err[512];
	int ret, worse = 0;

	if (argc < 3)
		return usage();
	if (fsp_res_load_any(argv[2], &a, &m, err, sizeof(err))) {
		fprintf(stderr, "render: %s\n", err);
		return 2;
	}
	if (m) {
		ret = matrix(argv[1], m, argc - 3, argv + 3, &worse);
		fsp_res_matrix_free(m);
	} else if (!strcmp(argv[1], "table") && argc == 3) {
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
	} else if (!strcmp(argv[1], "lava") && argc == 3) {
		ret = fsp_report_lava(stdout, a);
	} else if (!strcmp(argv[1], "kcidb") && argc >= 3) {
		ret = kcidb(a, argc - 3, argv + 3);
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
