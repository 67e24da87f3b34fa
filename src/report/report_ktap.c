// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_ktap.c - KTAP v1 output (Documentation/dev-tools/ktap.rst) of
 * the result document: one test per profile, its probes as an indented
 * subtest, evidence as "# key: value" diagnostic lines directly before
 * the result they belong to, and the verdict before the profile's own
 * result line. Probe skips use the SKIP directive, harness errors the
 * ERROR directive; a profile is "not ok" when any probe failed or erred
 * or its verdict is error, and "ok ... # SKIP" when it could not be
 * tested. The verdict itself is information, so it never makes a
 * profile fail. Everything printed is forced onto one line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* ktap.rst: "One level of indentation is two spaces". */
#define KTAP_INDENT "  "

static void put_mem(FILE *out, const char *s, size_t len, int name)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	/* A newline would end the KTAP line; a name cannot contain '#'. */
	for (i = 0; i < len; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f)
			fputc(' ', out);
		else if (name && p[i] == '#')
			fputc('_', out);
		else
			fputc(p[i], out);
	}
}

void fsp_report_put_line(FILE *out, const char *s, int name)
{
	if (s)
		put_mem(out, s, strlen(s), name);
}

/* The text of a JSON value on one line: scalars raw, containers as JSON. */
void fsp_report_put_value(FILE *out, struct json_object *v)
{
	if (!v)
		fputs("null", out);
	else if (json_object_is_type(v, json_type_string))
		put_mem(out, json_object_get_string(v),
			(size_t)json_object_get_string_len(v), 0);
	else if (json_object_is_type(v, json_type_object) ||
		 json_object_is_type(v, json_type_array))
		fsp_report_put_line(out, json_object_to_json_string_ext(v,
				    JSON_C_TO_STRING_PLAIN), 0);
	else
		fsp_report_put_line(out, json_object_get_string(v), 0);
}

void fsp_report_put_list(FILE *out, struct json_object *arr,
			 const char *sep, const char *empty)
{
	size_t i, n = fsp_json_array_len(arr);

	if (!n)
		fputs(empty, out);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(sep, out);
		fsp_report_put_value(out, json_object_array_get_idx(arr, i));
	}
}

enum fsp_result fsp_report_result(struct json_object *probe)
{
	const char *r = fsp_json_get_str(probe, "result", "");

	if (!strcmp(r, "pass"))
		return FSP_RES_PASS;
	if (!strcmp(r, "fail"))
		return FSP_RES_FAIL;
	if (!strcmp(r, "skip"))
		return FSP_RES_SKIP;
	if (!strcmp(r, "error"))
		return FSP_RES_ERROR;
	return FSP_RES_UNKNOWN;
}

static void diag(FILE *out, const char *indent, const char *key,
		 struct json_object *v)
{
	fprintf(out, "%s# ", indent);
	fsp_report_put_line(out, key, 0);
	fputs(": ", out);
	fsp_report_put_value(out, v);
	fputc('\n', out);
}

static void diag_object(FILE *out, const char *indent,
			struct json_object *obj)
{
	if (!obj || !json_object_is_type(obj, json_type_object))
		return;
	json_object_object_foreach(obj, key, val)
		diag(out, indent, key, val);
}

/* Result line: "<ok|not ok> N name[ # DIRECTIVE[ reason]]". */
static void result_line(FILE *out, const char *indent, int ok, size_t n,
			const char *name, const char *directive,
			const char *why)
{
	fprintf(out, "%s%sok %zu ", indent, ok ? "" : "not ", n);
	fsp_report_put_line(out, name && *name ? name : "(unnamed)", 1);
	if (directive) {
		fprintf(out, " # %s", directive);
		if (why && *why) {
			fputc(' ', out);
			fsp_report_put_line(out, why, 0);
		}
	}
	fputc('\n', out);
}

/* One probe inside a profile's subtest; returns 1 if it is not ok. */
static int probe_ktap(FILE *out, struct json_object *pr, size_t n)
{
	const char *name = fsp_json_get_str(pr, "name", NULL);
	const char *why = fsp_json_get_str(pr, "reason", NULL);
	struct json_object *reason = fsp_json_get(pr, "reason");
	char unknown[128];

	diag_object(out, KTAP_INDENT, fsp_json_get(pr, "evidence"));
	switch (fsp_report_result(pr)) {
	case FSP_RES_PASS:
		if (reason)
			diag(out, KTAP_INDENT, "reason", reason);
		result_line(out, KTAP_INDENT, 1, n, name, NULL, NULL);
		return 0;
	case FSP_RES_SKIP:
		result_line(out, KTAP_INDENT, 1, n, name, "SKIP", why);
		return 0;
	case FSP_RES_FAIL:
		/* As a diagnostic line: after "not ok", a reason starting with
		 * a directive word would be read as that directive. */
		if (reason)
			diag(out, KTAP_INDENT, "reason", reason);
		result_line(out, KTAP_INDENT, 0, n, name, NULL, NULL);
		return 1;
	case FSP_RES_ERROR:
		result_line(out, KTAP_INDENT, 0, n, name, "ERROR", why);
		return 1;
	default:
		snprintf(unknown, sizeof(unknown), "unknown result '%s'",
			 fsp_json_get_str(pr, "result", "(none)"));
		if (reason)
			diag(out, KTAP_INDENT, "reason", reason);
		result_line(out, KTAP_INDENT, 0, n, name, "ERROR", unknown);
		return 1;
	}
}

static void verdict_diag(FILE *out, struct json_object *p)
{
	struct json_object *mo = fsp_json_get(p, "max_order");

	fputs("# verdict: ", out);
	fsp_report_put_line(out, fsp_json_get_str(p, "verdict", "?"), 0);
	fputs(" route: ", out);
	fsp_report_put_list(out, fsp_json_get(p, "route"), ",", "none");
	fputs(" max_order: read=", out);
	fsp_report_put_line(out, fsp_json_get_str(mo, "read", "-"), 0);
	fputs(" fault=", out);
	fsp_report_put_line(out, fsp_json_get_str(mo, "fault", "-"), 0);
	fputc('\n', out);
}

static void profile_diags(FILE *out, struct json_object *p)
{
	struct json_object *t = fsp_json_get(p, "timing_ms");
	const char *mo;

	verdict_diag(out, p);
	if (fsp_json_get(p, "reason"))
		diag(out, "", "reason", fsp_json_get(p, "reason"));
	fputs("# fs: ", out);
	fsp_report_put_line(out, fsp_json_get_str(p, "fs", "?"), 0);
	fputs(" mkfs: ", out);
	fsp_report_put_list(out, fsp_json_get(p, "mkfs"), " ", "-");
	mo = fsp_json_get_str(p, "mount_options", "");
	fputs(" mount_options: ", out);
	fsp_report_put_line(out, *mo ? mo : "-", 0);
	fputc('\n', out);
	if (t && json_object_is_type(t, json_type_object) &&
	    json_object_object_length(t)) {
		int first = 1;

		fputs("# timing_ms:", out);
		json_object_object_foreach(t, key, val) {
			fprintf(out, "%s", first ? " " : ", ");
			fsp_report_put_line(out, key, 0);
			fputc('=', out);
			fsp_report_put_value(out, val);
			first = 0;
		}
		fputc('\n', out);
	}
}

static void profile_ktap(FILE *out, struct json_object *p, size_t n)
{
	struct json_object *probes = fsp_json_get(p, "probes");
	const char *name = fsp_json_get_str(p, "name", NULL);
	const char *verdict = fsp_json_get_str(p, "verdict", "");
	const char *why = fsp_json_get_str(p, "reason", NULL);
	size_t i, nr = fsp_json_array_len(probes);
	int bad = 0;

	/* A profile without probes is a plain test, not an empty subtest. */
	if (nr) {
		/* "# Subtest:" is a diagnostic line to ktap.rst; KUnit prints
		 * it and kunit.py names the subtest from it. */
		fprintf(out, KTAP_INDENT "KTAP version 1\n");
		fputs(KTAP_INDENT "# Subtest: ", out);
		fsp_report_put_line(out, name && *name ? name : "(unnamed)", 1);
		fprintf(out, "\n" KTAP_INDENT "1..%zu\n", nr);
	}
	for (i = 0; i < nr; i++)
		bad += probe_ktap(out, json_object_array_get_idx(probes, i),
				  i + 1);
	profile_diags(out, p);
	if (!strcmp(verdict, "error"))
		result_line(out, "", 0, n, name, "ERROR", why);
	else if (bad)
		result_line(out, "", 0, n, name, NULL, NULL);
	else if (!strcmp(verdict, "skip"))
		result_line(out, "", 1, n, name, "SKIP", why);
	else
		result_line(out, "", 1, n, name, NULL, NULL);
}

static int render_json(FILE *out, struct json_object *doc)
{
	struct json_object *profs = fsp_json_get(doc, "profiles");
	struct json_object *thp = fsp_json_get(doc, "thp");
	size_t i, nr = fsp_json_array_len(profs);

	if (!doc || !json_object_is_type(doc, json_type_object))
		return -EINVAL;
	fprintf(out, "KTAP version 1\n1..%zu\n", nr);
	fputs("# fsprobe ", out);
	fsp_report_put_line(out, fsp_json_get_str(doc, "fsprobe", "?"), 0);
	fputs(" kernel: ", out);
	fsp_report_put_line(out, fsp_json_get_str(doc, "kernel", "?"), 0);
	fputs(" arch: ", out);
	fsp_report_put_line(out, fsp_json_get_str(doc, "arch", "?"), 0);
	fputs(" page_size: ", out);
	fsp_report_put_line(out, fsp_json_get_str(doc, "page_size", "?"), 0);
	fputs(" pmd_order: ", out);
	fsp_report_put_line(out, fsp_json_get_str(doc, "pmd_order", "?"), 0);
	fputs("\n# thp: enabled=", out);
	fsp_report_put_line(out, fsp_json_get_str(thp, "enabled", "?"), 0);
	fputs(" shmem_enabled=", out);
	fsp_report_put_line(out, fsp_json_get_str(thp, "shmem_enabled", "?"),
			    0);
	fputs(" read_only_thp_for_fs=", out);
	fsp_report_put_line(out, fsp_json_get_str(thp, "read_only_thp_for_fs",
						  "unknown"), 0);
	fputs("\n# max_order is a lower bound of the mapping's max folio "
	      "order\n", out);
	for (i = 0; i < nr; i++)
		profile_ktap(out, json_object_array_get_idx(profs, i), i + 1);
	return ferror(out) ? -EIO : 0;
}

/* The JSON walk above reads the encoder's output of the model. */
int fsp_report_ktap(FILE *out, const struct fsp_res_doc *doc)
{
	struct json_object *o;
	int ret;

	if (!doc)
		return -EINVAL;
	o = fsp_res_doc_json(doc);
	ret = render_json(out, o);
	json_object_put(o);
	return ret;
}
