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
	size_t len;
	const char *s = fsp_report_value_text(v, &len);

	put_mem(out, s, len, 0);
}

/* Bit i of routes as fsp_route_names[i], joined by sep; empty if none. */
void fsp_report_put_routes(FILE *out, int routes, const char *sep,
			   const char *empty)
{
	int i, n = 0;

	for (i = 0; i < FSP_NR_ROUTES; i++) {
		if (!(routes & (1 << i)))
			continue;
		fprintf(out, "%s%s", n++ ? sep : "", fsp_route_names[i]);
	}
	if (!n)
		fputs(empty, out);
}

/* An order (max_order.read/fault) as a number, or dflt if not measured. */
void fsp_report_put_order(FILE *out, int order, const char *dflt)
{
	if (order >= 0)
		fprintf(out, "%d", order);
	else
		fputs(dflt, out);
}

static void diag(FILE *out, const char *indent, const char *key,
		 const char *val)
{
	fprintf(out, "%s# ", indent);
	fsp_report_put_line(out, key, 0);
	fputs(": ", out);
	fsp_report_put_line(out, val, 0);
	fputc('\n', out);
}

static void diag_object(FILE *out, const char *indent,
			struct json_object *obj)
{
	if (!obj || !json_object_is_type(obj, json_type_object))
		return;
	json_object_object_foreach(obj, key, val) {
		fprintf(out, "%s# ", indent);
		fsp_report_put_line(out, key, 0);
		fputs(": ", out);
		fsp_report_put_value(out, val);
		fputc('\n', out);
	}
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
static int probe_ktap(FILE *out, const struct fsp_res_probe *pr, size_t n)
{
	const char *why = pr->reason, *directive = NULL, *on_line = NULL;
	char unknown[128];
	int ok = 0;

	diag_object(out, KTAP_INDENT, pr->evidence);
	switch (pr->result) {
	case FSP_PASS:
		ok = 1;
		break;
	case FSP_SKIP:
		ok = 1;
		directive = "SKIP";
		on_line = why;
		break;
	case FSP_FAIL:
		break;
	case FSP_ERROR:
		directive = "ERROR";
		on_line = why;
		break;
	default:
		snprintf(unknown, sizeof(unknown), "unknown result '%s'",
			 pr->result_other ? pr->result_other : "(none)");
		directive = "ERROR";
		on_line = unknown;
		break;
	}
	/* A reason not on the result line goes before it, as a diagnostic
	 * line: after "not ok", a reason starting with a directive word
	 * would be read as that directive. */
	if (why && on_line != why)
		diag(out, KTAP_INDENT, "reason", why);
	result_line(out, KTAP_INDENT, ok, n, pr->name, directive, on_line);
	return !ok;
}

static const char *or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

static void verdict_diag(FILE *out, const struct fsp_res_profile *p)
{
	/* Without probes (check's error shape) there are no route/orders. */
	int has = p->has_probes;

	fputs("# verdict: ", out);
	fsp_report_put_line(out, or(fsp_res_verdict_name(p), "?"), 0);
	fputs(" route: ", out);
	fsp_report_put_routes(out, has ? p->routes : 0, ",", "none");
	fputs(" max_order: read=", out);
	fsp_report_put_order(out, has ? p->max_order_read : -1, "-");
	fputs(" fault=", out);
	fsp_report_put_order(out, has ? p->max_order_fault : -1, "-");
	fputc('\n', out);
}

static void timing_diag(FILE *out, const struct fsp_res_timing *t)
{
	const char *key;
	long long v;
	int i, first = 1;

	for (i = 0; fsp_res_timing_at(t, i, &key, &v); i++) {
		if (v == FSP_RES_ABSENT)
			continue;
		fprintf(out, "%s%s=%lld", first ? "# timing_ms: " : ", ",
			key, v);
		first = 0;
	}
	if (!first)
		fputc('\n', out);
}

static void profile_diags(FILE *out, const struct fsp_res_profile *p)
{
	int i;

	verdict_diag(out, p);
	if (p->reason)
		diag(out, "", "reason", p->reason);
	fputs("# fs: ", out);
	fsp_report_put_line(out, or(p->fs, "?"), 0);
	fputs(" mkfs: ", out);
	for (i = 0; i < p->nr_mkfs; i++) {
		if (i)
			fputc(' ', out);
		fsp_report_put_line(out, p->mkfs[i], 0);
	}
	if (!p->nr_mkfs)
		fputc('-', out);
	fputs(" mount_options: ", out);
	fsp_report_put_line(out, p->mount_options && *p->mount_options ?
			    p->mount_options : "-", 0);
	fputc('\n', out);
	timing_diag(out, &p->timing);
}

static void profile_ktap(FILE *out, const struct fsp_res_profile *p,
			 size_t n)
{
	int i, nr = p->has_probes ? p->nr_probes : 0, bad = 0;

	/* A profile without probes is a plain test, not an empty subtest. */
	if (nr) {
		/* "# Subtest:" is a diagnostic line to ktap.rst; KUnit prints
		 * it and kunit.py names the subtest from it. */
		fprintf(out, KTAP_INDENT "KTAP version 1\n");
		fputs(KTAP_INDENT "# Subtest: ", out);
		fsp_report_put_line(out, p->name && *p->name ? p->name :
				    "(unnamed)", 1);
		fprintf(out, "\n" KTAP_INDENT "1..%d\n", nr);
	}
	for (i = 0; i < nr; i++)
		bad += probe_ktap(out, &p->probes[i], i + 1);
	profile_diags(out, p);
	if (p->verdict == FSP_V_ERROR)
		result_line(out, "", 0, n, p->name, "ERROR", p->reason);
	else if (bad)
		result_line(out, "", 0, n, p->name, NULL, NULL);
	else if (p->verdict == FSP_V_SKIP)
		result_line(out, "", 1, n, p->name, "SKIP", p->reason);
	else
		result_line(out, "", 1, n, p->name, NULL, NULL);
}

static void header(FILE *out, const struct fsp_res_doc *doc)
{
	int ro = doc->has_thp ? doc->thp.read_only_thp_for_fs : -1;

	fprintf(out, "KTAP version 1\n1..%d\n", doc->nr_profiles);
	fputs("# fsprobe ", out);
	fsp_report_put_line(out, or(doc->fsprobe, "?"), 0);
	fputs(" kernel: ", out);
	fsp_report_put_line(out, or(doc->kernel, "?"), 0);
	fputs(" arch: ", out);
	fsp_report_put_line(out, or(doc->arch, "?"), 0);
	fputs(" page_size: ", out);
	if (doc->page_size != FSP_RES_ABSENT)
		fprintf(out, "%lld", doc->page_size);
	else
		fputc('?', out);
	fputs(" pmd_order: ", out);
	fsp_report_put_order(out, doc->pmd_order, "?");
	fputs("\n# thp: enabled=", out);
	fsp_report_put_line(out, doc->has_thp ? or(doc->thp.enabled, "?") :
			    "?", 0);
	fputs(" shmem_enabled=", out);
	fsp_report_put_line(out, doc->has_thp ?
			    or(doc->thp.shmem_enabled, "?") : "?", 0);
	fprintf(out, " read_only_thp_for_fs=%s", ro < 0 ? "unknown" :
		ro ? "true" : "false");
	fputs("\n# max_order is a lower bound of the mapping's max folio "
	      "order\n", out);
}

int fsp_report_ktap(FILE *out, const struct fsp_res_doc *doc)
{
	int i;

	if (!doc)
		return -EINVAL;
	header(out, doc);
	for (i = 0; i < doc->nr_profiles; i++)
		profile_ktap(out, &doc->profiles[i], i + 1);
	return ferror(out) ? -EIO : 0;
}
