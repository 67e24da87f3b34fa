// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_table.c - the report for people: a header with the kernel and
 * THP facts, one line per profile (verdict, route, largest order, why),
 * each probe with its evidence beneath, and a summary of who keeps PMD
 * text once CONFIG_READ_ONLY_THP_FOR_FS is gone.
 */
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "report.h"

static const char *jstr(struct json_object *o, const char *key,
			const char *dflt)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return dflt;
	return json_object_get_string(v);
}

static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (o)
		json_object_object_get_ex(o, key, &v);
	return v;
}

static void routes_str(struct json_object *p, char *buf, size_t len)
{
	struct json_object *r = jget(p, "route");
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; r && i < json_object_array_length(r) && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? "," : "",
				 json_object_get_string(
					 json_object_array_get_idx(r, i)));
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void orders_str(struct json_object *p, char *buf, size_t len)
{
	struct json_object *mo = jget(p, "max_order");

	snprintf(buf, len, "r=%s f=%s", jstr(mo, "read", "-"),
		 jstr(mo, "fault", "-"));
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

static void summarize(struct summary *s, struct json_object *p)
{
	const char *name = jstr(p, "name", "?"), *v = jstr(p, "verdict", "?");

	if (!strcmp(v, "pmd"))
		add_name(s->keep, sizeof(s->keep), name, NULL);
	else if (!strcmp(v, "pmd-collapse-only"))
		add_name(s->lose, sizeof(s->lose), name, NULL);
	else if (!strcmp(v, "large") || !strcmp(v, "base"))
		add_name(s->never, sizeof(s->never), name, v);
	else if (!strncmp(v, "shmem", 5))
		add_name(s->shmem, sizeof(s->shmem), name, v);
	else
		add_name(s->none, sizeof(s->none), name, v);
}

int fsp_report_table(FILE *out, struct json_object *doc)
{
	struct json_object *thp = jget(doc, "thp"), *profs, *ro;
	struct summary s;
	size_t i, k;

	memset(&s, 0, sizeof(s));
	ro = jget(thp, "read_only_thp_for_fs");
	fprintf(out, "fsprobe %s on Linux %s %s, page size %s, PMD order %s\n",
		jstr(doc, "fsprobe", "?"), jstr(doc, "kernel", "?"),
		jstr(doc, "arch", "?"), jstr(doc, "page_size", "?"),
		jstr(doc, "pmd_order", "?"));
	fprintf(out, "THP enabled=%s shmem_enabled=%s; "
		"CONFIG_READ_ONLY_THP_FOR_FS %s\n\n",
		jstr(thp, "enabled", "?"), jstr(thp, "shmem_enabled", "?"),
		!ro ? "unknown (no kernel config found)" :
		json_object_get_boolean(ro) ? "=y" : "not set");
	profs = jget(doc, "profiles");
	fprintf(out, "%-22s %-8s %-18s %-14s %-9s %s\n", "PROFILE", "FS",
		"VERDICT", "ROUTE", "MAX ORDER", "REASON");
	for (i = 0; profs && i < json_object_array_length(profs); i++) {
		struct json_object *p = json_object_array_get_idx(profs, i);
		char routes[64], orders[32];

		routes_str(p, routes, sizeof(routes));
		orders_str(p, orders, sizeof(orders));
		fprintf(out, "%-22s %-8s %-18s %-14s %-9s %s\n",
			jstr(p, "name", "?"), jstr(p, "fs", "?"),
			jstr(p, "verdict", "?"), routes, orders,
			jstr(p, "reason", ""));
		summarize(&s, p);
	}
	for (i = 0; profs && i < json_object_array_length(profs); i++) {
		struct json_object *p = json_object_array_get_idx(profs, i);
		struct json_object *probes = jget(p, "probes");

		if (!probes || !json_object_array_length(probes))
			continue;
		fprintf(out, "\n%s:\n", jstr(p, "name", "?"));
		for (k = 0; k < json_object_array_length(probes); k++) {
			struct json_object *pr =
				json_object_array_get_idx(probes, k);
			const char *res = jstr(pr, "result", "?"), *reason;
			int col;

			s.pass += !strcmp(res, "pass");
			s.fail += !strcmp(res, "fail");
			s.skip += !strcmp(res, "skip");
			reason = jstr(pr, "reason", "");
			col = fprintf(out, "  %-5s %-16s", !strcmp(res, "fail") ?
				      "FAIL" : res, jstr(pr, "name", "?"));
			if (*reason) {
				fprintf(out, " %s\n", reason);
				col = 0;
			}
			print_evidence(out, jget(pr, "evidence"), col);
		}
	}
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
	return 0;
}
