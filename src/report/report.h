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

/* How a renderer for people writes: the caller decides both. */
struct fsp_render_opts {
	int verbose;	/* every probe's evidence, not only failures */
	int colour;	/* ANSI colour (a terminal, NO_COLOR unset) */
};

/*
 * The table for people: a header, a line per profile (verdict, route,
 * largest folio on read and on fault, why), the evidence of probes that
 * failed or errored (all of them if verbose), the summary. o may be NULL.
 */
int fsp_report_table(FILE *out, const struct fsp_res_doc *doc,
		     const struct fsp_render_opts *o);
/*
 * One self-contained HTML page (no script, no network): environment,
 * verdict table, per profile SVG histograms of the folio orders on read
 * and on fault, every probe's result and evidence in a <details>.
 */
int fsp_report_html(FILE *out, const struct fsp_res_doc *doc);
/* A folio of order (page_size << order) in words: "2M", "256K", "4K". */
void fsp_report_folio_size(long long page_size, int order, char *buf,
			   size_t len);
/* The document as -f json writes it (the encoder, pretty-printed). */
int fsp_report_json_object(FILE *out, struct json_object *o);
/*
 * A JSON value as the text a report shows, *len bytes: a string as it
 * is (with any embedded NUL), an object or array as plain JSON, other
 * values (and a missing one, "null") as their literal.
 */
const char *fsp_report_value_text(struct json_object *v, size_t *len);
int fsp_report_json(FILE *out, const struct fsp_res_doc *doc);
/* KTAP v1: one subtest per profile, one result line per probe. */
int fsp_report_ktap(FILE *out, const struct fsp_res_doc *doc);
/* JUnit XML: one <testsuite> per profile, one <testcase> per probe. */
int fsp_report_junit(FILE *out, const struct fsp_res_doc *doc);
/* KCIDB (kcidb-io schema v5.3): origin and checkout id for the ids. */
struct fsp_kcidb_opts {
	const char *origin;	/* [a-z0-9_]+ */
	const char *checkout;	/* NULL: the kernel release */
};
/* origin matches KCIDB's origin pattern [a-z0-9_]+. */
int fsp_kcidb_origin_valid(const char *origin);
/* The KCIDB document of nr result documents (a run, or a matrix's);
 * NULL if the origin is not valid. */
struct json_object *fsp_kcidb_json(const struct fsp_res_doc *const *docs,
				   int nr, const struct fsp_kcidb_opts *o);
int fsp_report_kcidb(FILE *out, const struct fsp_res_doc *const *docs,
		     int nr, const struct fsp_kcidb_opts *o);
/* LAVA: "NAME RESULT [MEASUREMENT UNITS]" lines, as Linaro's
 * test-definitions send-to-lava.sh reads them. */
int fsp_report_lava(FILE *out, const struct fsp_res_doc *doc);
/*
 * Verdict and probe result changes between two runs, for people. *worse
 * is set to 1 if a measured verdict ranks lower than before or a probe
 * went pass -> fail; skip/error on either side is "not measured" and
 * never counts as worse. Returns 0 or -errno (-EINVAL: not a document).
 */
int fsp_compare(FILE *out, const struct fsp_res_doc *old_doc,
		const struct fsp_res_doc *new_doc, int *worse);
/*
 * The same engine, brief, for a matrix's consecutive kernels: only the
 * profiles that changed (verdict, route, orders or a probe), then who
 * lost or gained PMD text; nothing at all if nothing changed.
 */
int fsp_compare_changes(FILE *out, const struct fsp_res_doc *old_doc,
			const struct fsp_res_doc *new_doc, int *worse);

/*
 * A matrix document (result.h's fsp_res_matrix, report_matrix.c): the
 * grid of profiles x kernels (verdict, route, largest folio), then what
 * changed from each kernel to the next and where PMD text was lost.
 */
int fsp_report_matrix_table(FILE *out, const struct fsp_res_matrix *m,
			    const struct fsp_render_opts *o);
int fsp_report_matrix_json(FILE *out, const struct fsp_res_matrix *m);
/* One HTML page: the profile x kernel grid, then each kernel's page
 * body as fsp_report_html draws it (report_html.c). */
int fsp_report_matrix_html(FILE *out, const struct fsp_res_matrix *m);
/* FSP_EXIT_FAIL if any kernel's document would make `run` exit 1. */
int fsp_matrix_exit_status(const struct fsp_res_matrix *m);
/*
 * Two matrices kernel by kernel, matched by release (then the n-th of
 * a release with the n-th), each pair as fsp_compare does it; *worse
 * if any pair is worse.
 */
int fsp_compare_matrix(FILE *out, const struct fsp_res_matrix *a,
		       const struct fsp_res_matrix *b, int *worse);

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

/*
 * Evidence stays free-form json-c (docs/json.md): accessors for it that
 * accept a NULL object and missing or null members.
 */
static inline struct json_object *fsp_json_get(struct json_object *obj,
					       const char *key)
{
	struct json_object *v = NULL;

	if (obj && json_object_is_type(obj, json_type_object))
		json_object_object_get_ex(obj, key, &v);
	return v;
}

/* The member as text (numbers and booleans too), or dflt if absent/null. */
static inline const char *fsp_json_get_str(struct json_object *obj,
					   const char *key, const char *dflt)
{
	struct json_object *v = fsp_json_get(obj, key);

	return v ? json_object_get_string(v) : dflt;
}

/* Number of elements of an array, 0 if absent or not an array. */
static inline size_t fsp_json_array_len(struct json_object *arr)
{
	if (!arr || !json_object_is_type(arr, json_type_array))
		return 0;
	return json_object_array_length(arr);
}

#endif
