/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - renderers that work on the result model (result.h, the
 * document of docs/json.md): the table, KTAP and JUnit output, the
 * `fsprobe compare` report and the loader that reads a saved document
 * back. They only read the model, tolerate missing optional members
 * (reason, evidence, timing, null orders), write to the FILE given and
 * return 0 or -errno; they never exit.
 */
#ifndef FSP_REPORT_H
#define FSP_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

#include "result.h"

struct fsp_sysinfo;

enum { FSP_EXIT_OK = 0, FSP_EXIT_FAIL = 1, FSP_EXIT_USAGE = 2 };

/* The environment's keys as JSON and an empty "profiles" (`env`). */
struct json_object *fsp_doc_new(const struct fsp_sysinfo *si);
/* FSP_EXIT_FAIL if a probe failed, the kernel log showed a splat or a
 * profile's verdict is error (the harness could not measure it). */
int fsp_doc_exit_status(const struct fsp_res_doc *doc);

/* The table for people: a line per profile, evidence, the summary. */
int fsp_report_table(FILE *out, const struct fsp_res_doc *doc);
/* The document as -f json writes it (the encoder, pretty-printed). */
int fsp_report_json(FILE *out, const struct fsp_res_doc *doc);
/* KTAP v1: one subtest per profile, one result line per probe. */
int fsp_report_ktap(FILE *out, const struct fsp_res_doc *doc);
/* JUnit XML: one <testsuite> per profile, one <testcase> per probe. */
int fsp_report_junit(FILE *out, const struct fsp_res_doc *doc);
/*
 * Verdict and probe result changes between two runs, for people. *worse
 * is set to 1 if a measured verdict ranks lower than before or a probe
 * went pass -> fail; skip/error on either side is "not measured" and
 * never counts as worse. Returns 0 or -errno (-EINVAL: not a document).
 */
int fsp_compare(FILE *out, const struct fsp_res_doc *old_doc,
		const struct fsp_res_doc *new_doc, int *worse);
/*
 * Read a -f json document from path through the decoder (result.h).
 * On failure *doc is NULL, err says which file and which key, and the
 * return value is -errno (-EINVAL for a malformed document).
 */
static inline int fsp_doc_load(const char *path, struct fsp_res_doc **doc,
			       char *err, size_t errlen)
{
	return fsp_res_doc_load(path, doc, err, errlen);
}

/* Helpers shared by the renderers (defined in report_ktap.c). */
/* s on one line: control characters become spaces; if name, '#' -> '_'. */
void fsp_report_put_line(FILE *out, const char *s, int name);
/* A JSON value (evidence) on one line: scalars as text, containers as
 * plain JSON. */
void fsp_report_put_value(FILE *out, struct json_object *v);
/* The route names of routes (FSP_ROUTE_*) joined by sep, or empty. */
void fsp_report_put_routes(FILE *out, int routes, const char *sep,
			   const char *empty);
/* An order as a number, or dflt if it was not measured (< 0). */
void fsp_report_put_order(FILE *out, int order, const char *dflt);

#endif
