// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_table.c - the report for people: a header with the kernel and
 * THP facts, one line per profile (verdict, route, largest order, why),
 * each probe with its evidence beneath, and a summary of who keeps PMD
 * text once CONFIG_READ_ONLY_THP_FOR_FS is gone. Names of verdicts,
 * results and routes come from the tables in conformance/verdict.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "report.h"

static const char *or(const char *s, const char *dflt)
{
	return s ? s : dflt;
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

static void order_str(int order, char *buf, size_t len)
{
	if (order >= 0)
		snprintf(buf, len, "%d", order);
	else
		snprintf(buf, len, "-");
}

static void orders_str(const struct fsp_res_profile *p, char *buf,
		       size_t len)
{
	char r[16], f[16];

	order_str(p->max_order_read, r, sizeof(r));
	order_str(p->max_order_fault, f, sizeof(f));
	snprintf(buf, len, "r=%s f=%s", r, f);
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
	int pass, fail, skip;
};

static void add_name(char *list, size_t len, const char *name,
		     const char *tag)
{
	size_t used = strlen(list);

	snprintf(list + used, len - used, "%s%s%s%s%s", used ? ", " : "",
		 name, tag ? " (" : "", tag ? tag : "", tag ? ")" : "");
}

static void summarize(struct summary *s, const struct fsp_res_profile *p)
{
	const char *name = or(p->name, "?");
	const char *v = or(fsp_res_verdict_name(p), "?");

	switch (p->verdict) {
	case FSP_V_PMD:
		add_name(s->keep, sizeof(s->keep), name, NULL);
		break;
	case FSP_V_PMD_COLLAPSE_ONLY:
		add_name(s->lose, sizeof(s->lose), name, NULL);
		break;
	default:
		switch (fsp_verdict_info(p->verdict)->family) {
		case FSP_FAM_FILE:
			add_name(s->never, sizeof(s->never), name, v);
			break;
		case FSP_FAM_SHMEM:
			add_name(s->shmem, sizeof(s->shmem), name, v);
			break;
		default:
			add_name(s->none, sizeof(s->none), name, v);
		}
	}
}

static void header(FILE *out, const struct fsp_res_doc *doc)
{
	char ps[32] = "?", po[16] = "?";
	int ro = doc->thp.read_only_thp_for_fs;
	const char *st = doc->thp.read_only_thp_for_fs_state;

	if (doc->page_size >= 0)
		snprintf(ps, sizeof(ps), "%lld", doc->page_size);
	if (doc->pmd_order >= 0)
		snprintf(po, sizeof(po), "%d", doc->pmd_order);
	fprintf(out, "fsprobe %s on Linux %s %s, page size %s, PMD order %s\n",
		or(doc->fsprobe, "?"), or(doc->kernel, "?"),
		or(doc->arch, "?"), ps, po);
	fprintf(out, "THP enabled=%s shmem_enabled=%s; "
		"CONFIG_READ_ONLY_THP_FOR_FS %s\n\n",
		or(doc->thp.enabled, "?"), or(doc->thp.shmem_enabled, "?"),
		st && !strcmp(st, "absent") ? "absent (not in the config)" :
		ro < 0 ? "unknown (no kernel config found)" :
		ro ? "=y" : "not set");
}

static void probe_lines(FILE *out, struct summary *s,
			const struct fsp_res_profile *p)
{
	int k;

	fprintf(out, "\n%s:\n", or(p->name, "?"));
	for (k = 0; k < p->nr_probes; k++) {
		const struct fsp_res_probe *pr = &p->probes[k];
		const char *res = or(fsp_res_result_name(pr), "?");
		int col;

		s->pass += pr->result == FSP_PASS;
		s->fail += pr->result == FSP_FAIL;
		s->skip += pr->result == FSP_SKIP;
		col = fprintf(out, "  %-5s %-16s", pr->result == FSP_FAIL ?
			      "FAIL" : res, or(pr->name, "?"));
		if (pr->reason && *pr->reason) {
			fprintf(out, " %s\n", pr->reason);
			col = 0;
		}
		print_evidence(out, pr->evidence, col);
	}
}

int fsp_report_table(FILE *out, const struct fsp_res_doc *doc)
{
	struct summary s;
	int i;

	if (!doc)
		return -EINVAL;
	memset(&s, 0, sizeof(s));
	header(out, doc);
	fprintf(out, "%-22s %-8s %-18s %-14s %-9s %s\n", "PROFILE", "FS",
		"VERDICT", "ROUTE", "MAX ORDER", "REASON");
	for (i = 0; i < doc->nr_profiles; i++) {
		const struct fsp_res_profile *p = &doc->profiles[i];
		char routes[64], orders[32];

		routes_str(p, routes, sizeof(routes));
		orders_str(p, orders, sizeof(orders));
		fprintf(out, "%-22s %-8s %-18s %-14s %-9s %s\n",
			or(p->name, "?"), or(p->fs, "?"),
			or(fsp_res_verdict_name(p), "?"), routes, orders,
			or(p->reason, ""));
		summarize(&s, p);
	}
	for (i = 0; i < doc->nr_profiles; i++)
		if (doc->profiles[i].nr_probes)
			probe_lines(out, &s, &doc->profiles[i]);
	fprintf(out, "\nSummary (max order is a lower bound of the mapping's "
		"max folio order):\n");
	fprintf(out, "  keep PMD text without READ_ONLY_THP_FOR_FS (fault "
		"route): %s\n", s.keep[0] ? s.keep : "none");
	fprintf(out, "  lose PMD text when READ_ONLY_THP_FOR_FS goes "
		"(collapse only): %s\n", s.lose[0] ? s.lose : "none");
	fprintf(out, "  never reached PMD here: %s\n",
		s.never[0] ? s.never : "none");
	if (s.shmem[0])
		fprintf(out, "  tmpfs: %s\n", s.shmem);
	if (s.none[0])
		fprintf(out, "  not measured: %s\n", s.none);
	fprintf(out, "  probes: %d pass, %d fail, %d skip\n", s.pass, s.fail,
		s.skip);
	return ferror(out) ? -EIO : 0;
}
