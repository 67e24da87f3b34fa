// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_html.c - -f html: the document as one self-contained page, for
 * people to look at and to print. No script, no network, no external
 * style or font (a Content-Security-Policy says so to the browser): the
 * environment, the verdict table coloured by verdict, per profile an
 * inline SVG histogram of the folio orders seen on read and on fault
 * (taken from the read-order and fault-pmd evidence), and every probe's
 * result and evidence in a <details>, open when it failed or errored.
 * Every text from the document is escaped; malformed UTF-8 and control
 * characters become U+FFFD. A matrix is one page too: a grid of
 * profiles by kernels linking to each kernel's sections below it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "report.h"
#include "utf8.h"

#define REPLACEMENT FSP_UTF8_REPLACEMENT
#define NR_ORDERS 32

/* len bytes of s as HTML text or attribute value. */
static void put_len(FILE *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int cp;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = s[i];

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\'')
			fputs("&#39;", out);
		else if (c == '\t' || c == '\n')
			fputc(c, out);
		else if (c < 0x20 || c == 0x7f)
			fputs(REPLACEMENT, out);
		else if ((n = fsp_utf8_seq(s + i, len - i, &cp)) > 0 &&
			 !fsp_utf8_surrogate(cp)) {
			fwrite(s + i, 1, n, out);
			i += n;
			continue;
		} else {
			fputs(REPLACEMENT, out);
		}
		i++;
	}
}

static void put(FILE *out, const char *s, const char *dflt)
{
	if (!s)
		s = dflt;
	put_len(out, s, strlen(s));
}

/* A JSON value as text: strings keep embedded NULs (-> U+FFFD). */
static void put_value(FILE *out, struct json_object *v)
{
	size_t len;
	const char *s = fsp_report_value_text(v, &len);

	put_len(out, s, len);
}

/* A CSS class for the verdict: from the table, never from the text. */
static const char *verdict_class(enum fsp_verdict_id v)
{
	switch (v) {
	case FSP_V_PMD: return "v-pmd";
	case FSP_V_PMD_COLLAPSE_ONLY: return "v-collapse";
	case FSP_V_LARGE: return "v-large";
	case FSP_V_BASE: return "v-base";
	case FSP_V_SHMEM_PMD: return "v-shmem-pmd";
	case FSP_V_SHMEM_BASE: return "v-shmem-base";
	case FSP_V_SKIP: return "v-skip";
	case FSP_V_ERROR: return "v-error";
	default: return "v-other";
	}
}

static const char *result_class(const struct fsp_res_probe *pr)
{
	switch (pr->result) {
	case FSP_PASS: return "r-pass";
	case FSP_FAIL: return "r-fail";
	case FSP_SKIP: return "r-skip";
	case FSP_ERROR: return "r-error";
	default: return "r-error";
	}
}

struct hist {
	unsigned long count[NR_ORDERS];
	int max;		/* largest order with a count, -1: none */
	const char *probe, *key;	/* where it came from */
};

/* "0:258 1:1 9:4" (fsp_order_hist_fmt) or {"0": 3, "9": 4}; 0 if any. */
static int parse_orders(struct json_object *v, struct hist *h)
{
	memset(h->count, 0, sizeof(h->count));
	h->max = -1;
	if (json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, key, val) {
			int o = atoi(key);

			if (o >= 0 && o < NR_ORDERS && json_object_get_int64(val) > 0)
				h->count[o] = json_object_get_int64(val);
		}
	} else if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);
		int o, n;
		unsigned long c;

		while (sscanf(s, " %d:%lu%n", &o, &c, &n) == 2) {
			if (o >= 0 && o < NR_ORDERS)
				h->count[o] = c;
			s += n;
		}
	}
	for (int o = 0; o < NR_ORDERS; o++)
		if (h->count[o])
			h->max = o;
	return h->max >= 0 ? 0 : -ENOENT;
}

static struct json_object *probe_ev(const struct fsp_res_profile *p,
				    const char *name)
{
	for (int k = 0; k < p->nr_probes; k++)
		if (p->probes[k].name && !strcmp(p->probes[k].name, name) &&
		    p->probes[k].result != FSP_ERROR)
			return p->probes[k].evidence;
	return NULL;
}

/* The first of keys in probe's evidence that holds a histogram. */
static int find_hist(const struct fsp_res_profile *p, const char *probe,
		     const char *const *keys, struct hist *h)
{
	struct json_object *ev = probe_ev(p, probe);

	for (; *keys; keys++)
		if (!parse_orders(fsp_json_get(ev, *keys), h)) {
			h->probe = probe;
			h->key = *keys;
			return 0;
		}
	return -ENOENT;
}

/* Folio orders on buffered read and on the (hinted) fault path. */
static int read_hist(const struct fsp_res_profile *p, struct hist *h)
{
	static const char *const keys[] = {
		"read_orders_trace", "read_orders_pagemap", "orders", NULL,
	};

	return find_hist(p, "read-order", keys, h);
}

static int fault_hist(const struct fsp_res_profile *p, struct hist *h)
{
	static const char *const fkeys[] = { "folio_orders", NULL };
	static const char *const rkeys[] = {
		"fault_hint_orders_trace", "fault_hint_orders_pagemap", NULL,
	};

	if (!find_hist(p, "fault-pmd", fkeys, h))
		return 0;
	return find_hist(p, "read-order", rkeys, h);
}

/* Bar height on a log scale: 1 folio still shows, 8192 fills. */
static int bar_height(unsigned long c, unsigned long top, int full)
{
	int bits = 0, tbits = 0;

	while (c >> bits)
		bits++;
	while (top >> tbits)
		tbits++;
	return tbits ? 4 + (full - 4) * bits / tbits : 0;
}

/* One histogram as inline SVG: a <rect class="bar"> per observed order. */
static void put_svg(FILE *out, const struct fsp_res_doc *doc,
		    const struct hist *h, const char *title)
{
	int last = h->max > doc->pmd_order ? h->max : doc->pmd_order;
	int o, x, y, bh, w = 34, top = 18, full = 110, base = top + full;
	unsigned long peak = 0;
	char size[24];

	if (last < 0 || last >= NR_ORDERS)	/* a foreign pmd_order */
		last = h->max;
	for (o = 0; o <= last; o++)
		if (h->count[o] > peak)
			peak = h->count[o];
	fprintf(out, "<svg class=\"hist\" role=\"img\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\"><title>", 40 + w * (last + 1),
		base + 36, 40 + w * (last + 1), base + 36);
	put(out, title, NULL);
	fprintf(out, "</title><line class=\"axis\" x1=\"30\" y1=\"%d\" "
		"x2=\"%d\" y2=\"%d\"/>", base, 34 + w * (last + 1), base);
	for (o = 0; o <= last; o++) {
		x = 34 + w * o;
		fsp_report_folio_size(doc->page_size, o, size, sizeof(size));
		fprintf(out, "<text class=\"xl\" x=\"%d\" y=\"%d\">%s</text>",
			x + w / 2 - 2, base + 14, size);
		if (!h->count[o])
			continue;
		bh = bar_height(h->count[o], peak, full);
		y = base - bh;
		fprintf(out, "<rect class=\"bar%s\" data-order=\"%d\" "
			"data-count=\"%lu\" x=\"%d\" y=\"%d\" width=\"%d\" "
			"height=\"%d\"><title>order %d (%s): %lu folios"
			"</title></rect><text class=\"n\" x=\"%d\" y=\"%d\">"
			"%lu</text>", o == doc->pmd_order ? " pmd" : "", o,
			h->count[o], x, y, w - 6, bh, o, size, h->count[o],
			x + w / 2 - 2, y - 3, h->count[o]);
	}
	fprintf(out, "<text class=\"cap\" x=\"30\" y=\"%d\">folio size "
		"(count, log scale)</text></svg>\n", base + 30);
}

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;color:#1b1b1b;"
	"max-width:1240px;margin:0 auto;padding:16px 20px;background:#fff}"
	"h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:0 0 6px}"
	"code,pre,.mono{font-family:ui-monospace,monospace;font-size:12px}"
	"table{border-collapse:collapse}"
	"th,td{padding:3px 8px;text-align:left;vertical-align:top}"
	"#verdicts{width:100%;margin:8px 0 16px}"
	"#verdicts th{border-bottom:2px solid #444}"
	"#verdicts td{border-bottom:1px solid #ddd}"
	"dl.env{display:grid;grid-template-columns:max-content 1fr;"
	"gap:2px 14px;margin:0 0 12px}dl.env dt{font-weight:600}"
	"dl.env dd{margin:0}"
	".v-pmd{background:#c9efc9}.v-shmem-pmd{background:#c6e7f2}"
	".v-collapse{background:#ffe1a8}.v-large{background:#fff3b0}"
	".v-base{background:#f7c6c6}.v-shmem-base{background:#ecd2ee}"
	".v-skip{background:#e6e6e6;color:#555}"
	".v-error{background:#b3261e;color:#fff}.v-other{background:#ccc}"
	".verdict{font-weight:600}"
	".legend span{display:inline-block;padding:1px 6px;margin:0 6px 4px 0;"
	"border-radius:3px}"
	"section.profile{border:1px solid #ccc;border-radius:6px;"
	"padding:10px 14px;margin:14px 0;break-inside:avoid}"
	".badge{padding:1px 8px;border-radius:3px;font-weight:600}"
	".hists{display:flex;flex-wrap:wrap;gap:24px;margin:8px 0}"
	".hists figure{margin:0}.hists figcaption{font-weight:600}"
	".nohist{color:#777;font-style:italic}"
	"svg.hist{display:block}svg.hist .bar{fill:#3a6ea5}svg.hist .bar.pmd{fill:#1f8a3b}"
	"svg.hist .axis{stroke:#444}svg.hist text{font:10px sans-serif;"
	"text-anchor:middle;fill:#333}svg.hist .cap{text-anchor:start}"
	"details{margin:2px 0}summary{cursor:pointer}"
	".r-pass{color:#1f6f35}.r-fail,.r-error{color:#b3261e;font-weight:700}"
	".r-skip{color:#666}table.ev td{padding:1px 8px;border:0}"
	"table.ev td:first-child{color:#555}"
	"table.ev td{word-break:break-all}"
	"@media print{body{max-width:none;font-size:11px;padding:0}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"details::details-content{content-visibility:visible;display:block}"
	"section.profile{break-inside:avoid;border-color:#999}"
	"summary{list-style:none}}";

static void env_row(FILE *out, const char *key, const char *val)
{
	fprintf(out, "<dt>%s</dt><dd>", key);
	put(out, val, "unknown");
	fprintf(out, "</dd>");
}

static void put_env(FILE *out, const struct fsp_res_doc *doc)
{
	int ro = doc->thp.read_only_thp_for_fs;
	char buf[128], pmd[32];

	fprintf(out, "<dl class=\"env\" id=\"env\">");
	env_row(out, "fsprobe", doc->fsprobe);
	snprintf(buf, sizeof(buf), "Linux %s %s", doc->kernel ? doc->kernel :
		 "?", doc->arch ? doc->arch : "?");
	env_row(out, "kernel", buf);
	fsp_report_folio_size(doc->page_size, 0, buf, sizeof(buf));
	fsp_report_folio_size(doc->page_size, doc->pmd_order, pmd,
			      sizeof(pmd));
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
		 " pages, PMD %s (order %d)", pmd, doc->pmd_order);
	env_row(out, "page size", buf);
	env_row(out, "THP enabled", doc->thp.enabled);
	env_row(out, "THP shmem_enabled", doc->thp.shmem_enabled);
	env_row(out, "THP defrag", doc->thp.defrag);
	env_row(out, "READ_ONLY_THP_FOR_FS", ro < 0 ? "unknown" :
		ro ? "=y" : "not set");
	env_row(out, "kernel config", doc->thp.config_source);
	if (doc->vm) {
		env_row(out, "vm kernel", doc->vm->kernel_image);
		if (doc->vm->deb)
			env_row(out, "vm package", doc->vm->deb);
		env_row(out, "vm accel", doc->vm->accel);
		env_row(out, "vm memory", doc->vm->memory);
	}
	if (doc->has_resources) {
		snprintf(buf, sizeof(buf), "%lld ms, %d jobs",
			 doc->resources.wall_ms, doc->resources.jobs);
		env_row(out, "run", buf);
	}
	fprintf(out, "</dl>\n");
}

static void put_routes(FILE *out, const struct fsp_res_profile *p)
{
	int i, n = 0;

	for (i = 0; i < FSP_NR_ROUTES; i++)
		if (p->routes & (1 << i))
			fprintf(out, "%s%s", n++ ? ", " : "",
				fsp_route_names[i]);
	if (!n)
		fputs("-", out);
}

static void verdict_row(FILE *out, const struct fsp_res_doc *doc,
			const struct fsp_res_profile *p, int i)
{
	char rd[24], ft[24];

	fsp_report_folio_size(doc->page_size, p->max_order_read, rd,
			      sizeof(rd));
	fsp_report_folio_size(doc->page_size, p->max_order_fault, ft,
			      sizeof(ft));
	fprintf(out, "<tr class=\"%s\"><td class=\"profile\">"
		"<a href=\"#p%d\">", verdict_class(p->verdict), i);
	put(out, p->name, "?");
	fprintf(out, "</a></td><td>");
	put(out, p->fs, "?");
	fprintf(out, "</td><td class=\"verdict\" data-profile=\"");
	put(out, p->name, "?");
	fprintf(out, "\">");
	put(out, fsp_res_verdict_name(p), "?");
	fprintf(out, "</td><td>");
	put_routes(out, p);
	fprintf(out, "</td><td>%s</td><td>%s</td><td>", rd, ft);
	put(out, p->reason, "");
	fprintf(out, "</td></tr>\n");
}

/* The verdict table; its links go to profile sections base + i. */
static void put_verdicts_at(FILE *out, const struct fsp_res_doc *doc,
			    int base)
{
	enum fsp_verdict_id v;
	int i;

	fprintf(out, "<table id=\"verdicts\"><thead><tr><th>profile</th>"
		"<th>fs</th><th>verdict</th><th>route</th>"
		"<th>largest folio on read</th><th>on fault</th>"
		"<th>reason</th></tr></thead><tbody>\n");
	for (i = 0; i < doc->nr_profiles; i++)
		verdict_row(out, doc, &doc->profiles[i], base + i);
	fprintf(out, "</tbody></table>\n<p class=\"legend\">");
	for (v = FSP_V_PMD; v < FSP_V_OTHER; v++)
	{
		fprintf(out, "<span class=\"%s\"><b>", verdict_class(v));
		put(out, fsp_verdict_name(v), "?");
		fprintf(out, "</b>: ");
		put(out, fsp_verdict_info(v)->meaning, "");
		fprintf(out, "</span>");
	}
	fprintf(out, "</p>\n");
}

static void put_hist(FILE *out, const struct fsp_res_doc *doc,
		     const struct fsp_res_profile *p, int fault)
{
	const char *what = fault ? "fault" : "read";
	char title[96];
	struct hist h;
	int ret;

	ret = fault ? fault_hist(p, &h) : read_hist(p, &h);
	fprintf(out, "<figure class=\"%s\"><figcaption>Folio orders on %s"
		"</figcaption>", what, what);
	if (ret) {
		fprintf(out, "<p class=\"nohist\">not measured</p></figure>\n");
		return;
	}
	snprintf(title, sizeof(title), "folio orders on %s", what);
	put_svg(out, doc, &h, title);
	fprintf(out, "<small>%s: <code>%s</code></small></figure>\n",
		h.probe, h.key);
}

static void put_probe(FILE *out, const struct fsp_res_probe *pr)
{
	struct json_object *ev = pr->evidence;
	int bad = pr->result == FSP_FAIL || pr->result == FSP_ERROR ||
		  pr->result == FSP_NR_OUTCOMES;

	fprintf(out, "<details class=\"probe\"%s><summary><span class=\"%s\">",
		bad ? " open" : "", result_class(pr));
	put(out, fsp_res_result_name(pr), "?");
	fprintf(out, "</span> <b>");
	put(out, pr->name, "?");
	fprintf(out, "</b>");
	if (pr->reason && *pr->reason) {
		fprintf(out, ": ");
		put(out, pr->reason, "");
	}
	if (pr->ms >= 0)
		fprintf(out, " <small>(%lld ms)</small>", pr->ms);
	fprintf(out, "</summary>");
	if (ev && json_object_is_type(ev, json_type_object)) {
		fprintf(out, "<table class=\"ev mono\">");
		json_object_object_foreach(ev, key, val) {
			fprintf(out, "<tr><td>");
			put(out, key, "");
			fprintf(out, "</td><td>");
			put_value(out, val);
			fprintf(out, "</td></tr>");
		}
		fprintf(out, "</table>");
	} else {
		fprintf(out, "<p class=\"nohist\">no evidence</p>");
	}
	fprintf(out, "</details>\n");
}

static void put_profile(FILE *out, const struct fsp_res_doc *doc,
			const struct fsp_res_profile *p, int i)
{
	int k;

	fprintf(out, "<section class=\"profile\" id=\"p%d\"><h2>", i);
	put(out, p->name, "?");
	fprintf(out, " <span class=\"badge %s\">", verdict_class(p->verdict));
	put(out, fsp_res_verdict_name(p), "?");
	fprintf(out, "</span></h2><p>");
	put(out, p->fs, "?");
	if (p->description) {
		fprintf(out, ": ");
		put(out, p->description, "");
	}
	if (p->nr_mkfs) {
		fprintf(out, "<br>mkfs <code>");
		for (k = 0; k < p->nr_mkfs; k++) {
			put(out, p->mkfs[k], "");
			fputc(' ', out);
		}
		fprintf(out, "</code>");
	}
	if (p->mount_options && *p->mount_options) {
		fprintf(out, "<br>mount <code>-o ");
		put(out, p->mount_options, "");
		fprintf(out, "</code>");
	}
	if (p->reason) {
		fprintf(out, "<br>");
		put(out, p->reason, "");
	}
	fprintf(out, "</p>\n");
	if (p->nr_probes) {
		fprintf(out, "<div class=\"hists\">");
		put_hist(out, doc, p, 0);
		put_hist(out, doc, p, 1);
		fprintf(out, "</div>\n");
	}
	for (k = 0; k < p->nr_probes; k++)
		put_probe(out, &p->probes[k]);
	fprintf(out, "</section>\n");
}

int fsp_report_html(FILE *out, const struct fsp_res_doc *doc)
{
	int i;

	if (!doc)
		return -EINVAL;
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		"<meta charset=\"utf-8\">"
		"<meta http-equiv=\"Content-Security-Policy\" content=\""
		"default-src 'none'; style-src 'unsafe-inline'\">"
		"<meta name=\"viewport\" content=\"width=device-width\">"
		"<title>fsprobe: Linux ");
	put(out, doc->kernel, "?");
	fprintf(out, "</title><style>%s</style></head>\n<body>\n"
		"<h1>fsprobe: does the page cache reach PMD-size folios?"
		"</h1>\n", style);
	put_env(out, doc);
	put_verdicts_at(out, doc, 0);
	for (i = 0; i < doc->nr_profiles; i++)
		put_profile(out, doc, &doc->profiles[i], i);
	fprintf(out, "</body></html>\n");
	return ferror(out) ? -EIO : 0;
}

static int grid_has(const struct fsp_res_doc *d, const char *name)
{
	int i;

	for (i = 0; i < d->nr_profiles; i++)
		if (d->profiles[i].name && !strcmp(d->profiles[i].name, name))
			return 1;
	return 0;
}

/* A matrix cell: verdict (coloured), route, largest folio. */
static void grid_cell(FILE *out, const struct fsp_res_doc *d, int k,
		      const char *name)
{
	const struct fsp_res_profile *p = NULL;
	char sz[24];
	int i, order;

	for (i = 0; i < d->nr_profiles && !p; i++)
		if (d->profiles[i].name && !strcmp(d->profiles[i].name, name))
			p = &d->profiles[i];
	if (!p) {
		fputs("<td></td>", out);
		return;
	}
	order = p->max_order_read > p->max_order_fault ? p->max_order_read :
		p->max_order_fault;
	fsp_report_folio_size(d->page_size, order, sz, sizeof(sz));
	fprintf(out, "<td class=\"%s\"><a href=\"#p%d\">",
		verdict_class(p->verdict),
		(k + 1) * 1000 + (int)(p - d->profiles));
	put(out, fsp_res_verdict_name(p), "?");
	fputs("</a><br><small>", out);
	put_routes(out, p);
	fprintf(out, " %s</small></td>", sz);
}

/* The grid: a row per profile of the first kernel that has it. */
static void put_grid(FILE *out, const struct fsp_res_matrix *m)
{
	int k, j, i, seen;

	fputs("<table id=\"matrix\"><thead><tr><th>profile</th>", out);
	for (k = 0; k < m->nr; k++) {
		fprintf(out, "<th><a href=\"#k%d\">K%d</a><br><small>", k + 1,
			k + 1);
		put(out, m->kernels[k]->kernel, "?");
		fputs("</small></th>", out);
	}
	fputs("</tr></thead><tbody>\n", out);
	for (k = 0; k < m->nr; k++) {
		for (i = 0; i < m->kernels[k]->nr_profiles; i++) {
			const char *name = m->kernels[k]->profiles[i].name;

			for (seen = 0, j = 0; j < k && !seen; j++)
				seen = grid_has(m->kernels[j], name);
			if (seen || !name)
				continue;
			fputs("<tr><td class=\"profile\">", out);
			put(out, name, "?");
			fputs("</td>", out);
			for (j = 0; j < m->nr; j++)
				grid_cell(out, m->kernels[j], j, name);
			fputs("</tr>\n", out);
		}
	}
	fputs("</tbody></table>\n", out);
}

int fsp_report_matrix_html(FILE *out, const struct fsp_res_matrix *m)
{
	int k, i;

	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		"<meta charset=\"utf-8\">"
		"<meta http-equiv=\"Content-Security-Policy\" content=\""
		"default-src 'none'; style-src 'unsafe-inline'\">"
		"<meta name=\"viewport\" content=\"width=device-width\">"
		"<title>fsprobe matrix: %d kernels</title><style>%s</style>"
		"</head>\n<body>\n<h1>fsprobe matrix: does the page cache "
		"reach PMD-size folios, kernel by kernel?</h1>\n", m->nr,
		style);
	put_grid(out, m);
	for (k = 0; k < m->nr; k++) {
		const struct fsp_res_doc *d = m->kernels[k];

		fprintf(out, "<h1 id=\"k%d\">K%d: Linux ", k + 1, k + 1);
		put(out, d->kernel, "?");
		fputs("</h1>\n", out);
		put_env(out, d);
		put_verdicts_at(out, d, (k + 1) * 1000);
		for (i = 0; i < d->nr_profiles; i++)
			put_profile(out, d, &d->profiles[i],
				    (k + 1) * 1000 + i);
	}
	fprintf(out, "</body></html>\n");
	return ferror(out) ? -EIO : 0;
}
