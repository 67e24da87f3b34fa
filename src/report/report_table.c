// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_table.c - the report for people, short enough to read: a header
 * with the kernel and THP facts, one line per profile (verdict, route,
 * largest folio on read and on fault in sizes, why), the probes that
 * failed or errored with their evidence (every probe with -v), and a
 * summary of who keeps PMD text once CONFIG_READ_ONLY_THP_FOR_FS is
 * gone. Colour only when the caller asks (a terminal, NO_COLOR unset).
 * Names of verdicts, results and routes come from conformance/verdict.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "report.h"

#define BOLD_GREEN "1;32"
#define YELLOW "33"
#define RED "31"
#define BOLD_RED "1;31"
#define DIM "2"

static const char *or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

/* s padded to width, in colour code if the options ask for colour. */
static void paint(FILE *out, const struct fsp_render_opts *o,
		  const char *code, int width, const char *s)
{
	if (o->colour && code)
		fprintf(out, "\033[%sm%-*s\033[0m", code, width, s);
	else
		fprintf(out, "%-*s", width, s);
}

static const char *verdict_colour(enum fsp_verdict_id v)
{
	switch (v) {
	case FSP_V_PMD:
	case FSP_V_SHMEM_PMD:
		return BOLD_GREEN;
	case FSP_V_PMD_COLLAPSE_ONLY:
	case FSP_V_LARGE:
		return YELLOW;
	case FSP_V_BASE:
	case FSP_V_SHMEM_BASE:
		return RED;
	case FSP_V_ERROR:
		return BOLD_RED;
	default:
		return DIM;
	}
}

void fsp_report_folio_size(long long page_size, int order, char *buf,
			   size_t len)
{
	static const char units[] = "KMGT";
	unsigned long long kb;
	int u = 0;

	if (order < 0) {
		snprintf(buf, len, "-");
		return;
	}
	if (page_size <= 0 || order > 40) {
		snprintf(buf, len, "order %d", order);
		return;
	}
	kb = ((unsigned long long)page_size << order) >> 10;
	while (kb >= 1024 && !(kb % 1024) && u < 3) {
		kb /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%c", kb, units[u]);
}

static void routes_str(const struct fsp_res_profile *p, char *buf,
		       size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < FSP_NR_ROUTES && used < len; i++)
		if (p->routes & (1 << i))
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? "," : "", fsp_route_names[i]);
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* Evidence as key=value words, wrapped under the probe's line. */
static void print_evidence(FILE *out, struct json_object *ev, int col)
{
	if (!ev || !json_object_is_type(ev, json_type_object)) {
		if (col)
			fputc('\n', out);
		return;
	}
	json_object_object_foreach(ev, key, val) {
		const char *s = val ? json_object_get_string(val) : "null";
		int n = (int)(strlen(key) + strlen(s) + 2);

		/* Whole reports are for JSON readers; people get the gist. */
		if (strlen(s) > 48) {
			if (col)
				fputc('\n', out);
			col = fprintf(out, "%24s %s=%.48s...", "", key, s);
			continue;
		}

		if (col && col + n > 79) {
			fputc('\n', out);
			col = 0;
		}
		if (!col)
			col = fprintf(out, "%24s", "");
		col += fprintf(out, " %s=%s", key, s);
	}
	if (col)
		fputc('\n', out);
}

struct summary {
	char keep[1024], lose[1024], never[1024], shmem[1024], none[1024];
	char keep_routes[1536], large[1024], base[1024];
	char absent[2048];	/* skipped: their fs is not in the kernel */
	int pass, fail, skip, error, shown;
};

static void add_name(char *list, size_t len, const char *name,
		     const char *tag)
{
	size_t used = strlen(list);

	snprintf(list + used, len - used, "%s%s%s%s%s", used ? ", " : "",
		 name, tag ? " (" : "", tag ? tag : "", tag ? ")" : "");
}

/* "name (fault,collapse)": a profile with PMD text and its routes. */
static void add_routes(struct summary *s, const char *name, int routes)
{
	char tag[128] = "";
	size_t used = 0;
	int i;

	for (i = 0; i < FSP_NR_ROUTES; i++)
		if (routes & (1 << i) && used < sizeof(tag))
			used += snprintf(tag + used, sizeof(tag) - used, "%s%s",
					 used ? "," : "", fsp_route_names[i]);
	add_name(s->keep_routes, sizeof(s->keep_routes), name,
		 used ? tag : NULL);
}

static void summarize(struct summary *s, const struct fsp_res_profile *p)
{
	const char *name = or(p->name, "?");
	const char *v = or(fsp_res_verdict_name(p), "?");
	int k;

	for (k = 0; k < p->nr_probes; k++) {
		s->pass += p->probes[k].result == FSP_PASS;
		s->fail += p->probes[k].result == FSP_FAIL;
		s->skip += p->probes[k].result == FSP_SKIP;
		s->error += p->probes[k].result == FSP_ERROR;
	}
#define ADD(list, tag)	add_name(s->list, sizeof(s->list), name, tag)
	if (p->verdict == FSP_V_LARGE)
		ADD(large, NULL);
	else if (p->verdict == FSP_V_BASE)
		ADD(base, NULL);
	if (p->verdict == FSP_V_PMD) {
		add_routes(s, name, p->has_probes ? p->routes : 0);
		ADD(keep, NULL);
	} else if (p->verdict == FSP_V_PMD_COLLAPSE_ONLY) {
		add_routes(s, name, p->has_probes ? p->routes : 0);
		ADD(lose, NULL);
	} else if (fsp_verdict_info(p->verdict)->family == FSP_FAM_FILE) {
		ADD(never, v);
	} else if (fsp_verdict_info(p->verdict)->family == FSP_FAM_SHMEM) {
		ADD(shmem, v);
	} else {
		ADD(none, v);
	}
#undef ADD
}

static void header(FILE *out, const struct fsp_res_doc *doc)
{
	char ps[32] = "?", pmd[48] = "?";
	int ro = doc->thp.read_only_thp_for_fs;
	const char *st = doc->thp.read_only_thp_for_fs_state;

	if (doc->page_size > 0)
		fsp_report_folio_size(doc->page_size, 0, ps, sizeof(ps));
	if (doc->pmd_order >= 0) {
		fsp_report_folio_size(doc->page_size, doc->pmd_order, pmd,
				      sizeof(pmd));
		snprintf(pmd + strlen(pmd), sizeof(pmd) - strlen(pmd),
			 " (order %d)", doc->pmd_order);
	}
	fprintf(out, "fsprobe %s on Linux %s %s, page %s, PMD %s\n",
		or(doc->fsprobe, "?"), or(doc->kernel, "?"),
		or(doc->arch, "?"), ps, pmd);
	fprintf(out, "THP enabled=%s shmem_enabled=%s defrag=%s; "
		"READ_ONLY_THP_FOR_FS%s", or(doc->thp.enabled, "?"),
		or(doc->thp.shmem_enabled, "?"), or(doc->thp.defrag, "?"),
		st && !strcmp(st, "absent") ? " absent (not in the config)" :
		ro < 0 ? " unknown" : ro ? "=y" : " not set");
	if (doc->thp.config_source)
		fprintf(out, " (%s)\n\n", doc->thp.config_source);
	else
		fprintf(out, " (no kernel config found)\n\n");
}

/* The widths of the name, fs and route columns: their longest cell. */
struct columns {
	int name, fs, route;
};

static void column_widths(const struct fsp_res_doc *doc, struct columns *c)
{
	char routes[64];
	int i;

	c->name = 7;
	c->fs = 8;	/* fuse.SUBTYPE is longer */
	c->route = 14;	/* "collapse,shmem" */
	for (i = 0; i < doc->nr_profiles; i++) {
		if (doc->profiles[i].name &&
		    (int)strlen(doc->profiles[i].name) > c->name)
			c->name = (int)strlen(doc->profiles[i].name);
		if (doc->profiles[i].fs &&
		    (int)strlen(doc->profiles[i].fs) > c->fs)
			c->fs = (int)strlen(doc->profiles[i].fs);
		routes_str(&doc->profiles[i], routes, sizeof(routes));
		if ((int)strlen(routes) > c->route)
			c->route = (int)strlen(routes);
	}
}

/*
 * A profile skipped because the kernel lacks its filesystem: without -v
 * these share one line under the table, so a host that lacks the guest
 * kernels' filesystems keeps a short table.
 */
static int fs_absent(const struct fsp_res_profile *p)
{
	return p->verdict == FSP_V_SKIP && !p->nr_probes && p->reason &&
	       strstr(p->reason, "is not in this kernel");
}

static void profile_line(FILE *out, const struct fsp_res_doc *doc,
			 const struct fsp_res_profile *p,
			 const struct columns *c,
			 const struct fsp_render_opts *o)
{
	char routes[64], rd[24], ft[24];

	routes_str(p, routes, sizeof(routes));
	fsp_report_folio_size(doc->page_size, p->max_order_read, rd,
			      sizeof(rd));
	fsp_report_folio_size(doc->page_size, p->max_order_fault, ft,
			      sizeof(ft));
	fprintf(out, "%-*s %-*s ", c->name, or(p->name, "?"), c->fs,
		or(p->fs, "?"));
	paint(out, o, verdict_colour(p->verdict), 17,
	      or(fsp_res_verdict_name(p), "?"));
	fprintf(out, " %-*s %-5s ", c->route, routes, rd);
	if (p->reason && *p->reason)
		fprintf(out, "%-5s %s\n", ft, p->reason);
	else
		fprintf(out, "%s\n", ft);
}

/* -v: the profile's attributes, and what the kernel read back. */
static void attribute_line(FILE *out, const struct fsp_res_profile *p)
{
	struct json_object *flat, *control = NULL;
	char names[128] = "";
	size_t used = 0;
	int i, col;

	for (i = 0; i < p->nr_attributes && used < sizeof(names); i++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s",
				 i ? "," : "", p->attributes[i]);
	col = fprintf(out, "  attrs %-16s", names);
	flat = json_object_new_object();
	json_object_object_foreach(p->attribute_evidence, key, val) {
		if (strcmp(key, "control"))
			json_object_object_add(flat, key, json_object_get(val));
		else
			control = val;
	}
	print_evidence(out, flat, col);
	json_object_put(flat);
	if (!control)
		return;
	/* The control's verdict-relevant facts; JSON has its evidence. */
	fprintf(out, "  ctrl  %-16s", "plain dir");
	flat = json_object_new_object();
	json_object_object_foreach(control, k2, v2)
		if (strcmp(k2, "evidence") && strcmp(k2, "dir"))
			json_object_object_add(flat, k2, json_object_get(v2));
	print_evidence(out, flat, 24);
	json_object_put(flat);
}

/* The profile's probes: all if verbose, else those that went wrong. */
static void probe_lines(FILE *out, struct summary *s,
			const struct fsp_res_profile *p,
			const struct fsp_render_opts *o)
{
	int k, named = 0;

	for (k = 0; k < p->nr_probes; k++) {
		const struct fsp_res_probe *pr = &p->probes[k];
		int bad = pr->result == FSP_FAIL || pr->result == FSP_ERROR;
		int col;

		if (!bad && !o->verbose)
			continue;
		if (!named++) {
			if (!s->shown++ && !o->verbose)
				fprintf(out, "\nProbes that failed or errored "
					"(-v shows every probe):\n");
			fprintf(out, "\n%s:\n", or(p->name, "?"));
		}
		fprintf(out, "  ");
		paint(out, o, bad ? BOLD_RED : NULL, 5,
		      pr->result == FSP_FAIL ? "FAIL" :
		      pr->result == FSP_ERROR ? "ERROR" :
		      or(fsp_res_result_name(pr), "?"));
		col = fprintf(out, " %-16s", or(pr->name, "?")) + 7;
		if (pr->reason && *pr->reason) {
			fprintf(out, " %s\n", pr->reason);
			col = 0;
		}
		print_evidence(out, pr->evidence, col);
	}
	if (named && o->verbose && p->attribute_evidence)
		attribute_line(out, p);
}

static const char *wd_str(struct json_object *wd, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(wd, key, &v) && v ?
	       json_object_get_string(v) : "?";
}

/*
 * A step over --step-timeout: the stuck task and its kernel stack (the
 * kernel log since the step began is in the JSON only).
 */
static void watchdog_lines(FILE *out, const struct fsp_res_profile *p)
{
	struct json_object *wd = p->watchdog, *v;
	const char *s, *nl;

	if (!wd || !json_object_is_type(wd, json_type_object))
		return;
	fprintf(out, "\n%s: %s did not finish: task %s (%s), state %s, "
		"waiting in %s\n", or(p->name, "?"), wd_str(wd, "step"),
		wd_str(wd, "pid"), wd_str(wd, "comm"), wd_str(wd, "state"),
		wd_str(wd, "wchan"));
	if (!json_object_object_get_ex(wd, "stack", &v) || !v) {
		fprintf(out, "  (kernel stack not readable)\n");
		return;
	}
	for (s = json_object_get_string(v); s && *s; s = nl ? nl + 1 : NULL) {
		nl = strchr(s, '\n');
		fprintf(out, "    %.*s\n", nl ? (int)(nl - s) : (int)strlen(s),
			s);
	}
}

/* "  label: a, b, c" wrapped at 79 columns, continued 4 in. */
static void put_list(FILE *out, const char *label, const char *list)
{
	const char *p = list[0] ? list : "none";
	int col = fprintf(out, "  %s:", label);

	while (*p) {
		const char *end = strstr(p, ", ");
		int n = end ? (int)(end - p) : (int)strlen(p);

		if (col + 1 + n + 1 > 79 && col > 4)
			col = fprintf(out, "\n   ");
		col += fprintf(out, " %.*s%s", n, p, end ? "," : "");
		p += n + (end ? 2 : 0);
	}
	fputc('\n', out);
}

/*
 * Where the kernel's config has no READ_ONLY_THP_FOR_FS at all (Linux 7.2
 * removed it) the removal is done: what each profile has now, and what
 * the removal cost those whose folios stop below PMD size. Elsewhere it
 * is to come: who keeps PMD text (the fault route) and who loses it.
 */
static void summary(FILE *out, const struct summary *s, int removed)
{
	fprintf(out, "\nSummary (READ, FAULT: the largest folio seen there, "
		"a lower bound):\n");
	if (removed) {
		put_list(out, "PMD text without READ_ONLY_THP_FOR_FS (gone "
			 "from this kernel), by route", s->keep_routes);
		put_list(out, "large folios below PMD size: no huge text since "
			 "the removal", s->large);
		put_list(out, "order-0 folios only", s->base);
	} else {
		put_list(out, "keep PMD text without READ_ONLY_THP_FOR_FS "
			 "(fault route)", s->keep);
		put_list(out, "lose PMD text when READ_ONLY_THP_FOR_FS goes "
			 "(collapse only)", s->lose);
		put_list(out, "never reached PMD here", s->never);
	}
	if (s->shmem[0])
		put_list(out, "tmpfs", s->shmem);
	if (s->none[0])
		put_list(out, "not measured", s->none);
	fprintf(out, "  probes: %d pass, %d fail, %d skip", s->pass, s->fail,
		s->skip);
	if (s->error)
		fprintf(out, ", %d error", s->error);
	fprintf(out, "\n");
}

int fsp_report_table(FILE *out, const struct fsp_res_doc *doc,
		     const struct fsp_render_opts *o)
{
	static const struct fsp_render_opts dflt;
	struct summary s;
	const char *st;
	struct columns c;
	int i;

	if (!doc)
		return -EINVAL;
	if (!o)
		o = &dflt;
	memset(&s, 0, sizeof(s));
	header(out, doc);
	column_widths(doc, &c);
	fprintf(out, "%-*s %-*s %-17s %-*s %-5s %-5s %s\n", c.name, "PROFILE",
		c.fs, "FS", "VERDICT", c.route, "ROUTE", "READ", "FAULT",
		"REASON");
	for (i = 0; i < doc->nr_profiles; i++) {
		if (!o->verbose && fs_absent(&doc->profiles[i])) {
			add_name(s.absent, sizeof(s.absent),
				 or(doc->profiles[i].name, "?"), NULL);
			continue;
		}
		profile_line(out, doc, &doc->profiles[i], &c, o);
		summarize(&s, &doc->profiles[i]);
	}
	if (s.absent[0])
		put_list(out, "skip, filesystem not in this kernel", s.absent);
	for (i = 0; i < doc->nr_profiles; i++)
		probe_lines(out, &s, &doc->profiles[i], o);
	for (i = 0; i < doc->nr_profiles; i++)
		watchdog_lines(out, &doc->profiles[i]);
	st = doc->has_thp ? doc->thp.read_only_thp_for_fs_state : NULL;
	summary(out, &s, st && !strcmp(st, "absent"));
	return ferror(out) ? -EIO : 0;
}
