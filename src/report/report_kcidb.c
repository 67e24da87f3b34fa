// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_kcidb.c - a KCIDB I/O document (schema v5.3, kernelci/kcidb-io
 * kcidb_io/schema/v05_03.py; docs/kernelci.md) of one or more result
 * documents, for kcidb-submit. Each result document is a kernel under
 * test: a checkout (ORIGIN:CHECKOUT, default ORIGIN:KERNEL-RELEASE), a
 * build of it for the document's arch, and one test per profile x probe
 * with path "fsprobe.PROFILE.PROBE" (a profile that ran no probe gets
 * one test "fsprobe.PROFILE"). Statuses map pass/fail/skip/error to
 * PASS/FAIL/SKIP/ERROR (an unknown result is ERROR); the probe's key
 * number goes to "number": its PMD-mapped size in bytes (binary prefix)
 * where it measures one, else the largest folio order it saw. Nothing
 * is ever null: KCIDB forbids null properties, so absent facts are left
 * out. A list of documents (a matrix) shares checkouts and builds by id.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* The schema version the document claims (v05_03.py). */
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3

/* v05_00.py test_path_re: [a-zA-Z0-9_-]+ parts joined by '.'. */
static void path_part(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n + 1 < len && n)
		buf[n++] = '.';
	if (!*s && n + 1 < len)
		buf[n++] = '_';
	for (; *s && n + 1 < len; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			c = '_';
		buf[n++] = c;
	}
	buf[n] = '\0';
}

/* origin_pattern of kcidb-io: [a-z0-9_]+. */
int fsp_kcidb_origin_valid(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return 0;
	return 1;
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static void add_str(struct json_object *o, const char *k, const char *v)
{
	if (v)
		add(o, k, json_object_new_string(v));
}

/* Is there an object with this "id" in the array already? */
static int has_id(struct json_object *arr, const char *id)
{
	size_t i;

	for (i = 0; i < fsp_json_array_len(arr); i++)
		if (!strcmp(fsp_json_get_str(json_object_array_get_idx(arr, i),
					     "id", ""), id))
			return 1;
	return 0;
}

static const char *status_of(const struct fsp_res_probe *pr)
{
	static const char *const names[] = {
		[FSP_PASS] = "PASS", [FSP_FAIL] = "FAIL",
		[FSP_SKIP] = "SKIP", [FSP_ERROR] = "ERROR",
	};

	if (pr->result >= FSP_NR_OUTCOMES)
		return "ERROR";
	return names[pr->result];
}

static int ev_int(struct json_object *ev, const char *key, long long *v)
{
	struct json_object *o = fsp_json_get(ev, key);

	if (!o || !json_object_is_type(o, json_type_int))
		return 0;
	*v = json_object_get_int64(o);
	return 1;
}

/* The probe's key number, or NULL if it measured none. */
static struct json_object *number_of(const struct fsp_res_probe *pr)
{
	static const char *const kb_keys[] = {
		"file_pmd_mapped_kb", "shmem_pmd_mapped_kb", "warmed_pmd_kb",
	};
	static const char *const order_keys[] = { "max_order", "order_before" };
	struct json_object *n;
	long long v;
	size_t i;

	for (i = 0; i < sizeof(kb_keys) / sizeof(kb_keys[0]); i++) {
		if (ev_int(pr->evidence, kb_keys[i], &v) && v >= 0 &&
		    v <= LLONG_MAX / 1024) {
			n = json_object_new_object();
			add(n, "value", json_object_new_int64(v * 1024));
			add_str(n, "unit", "B");
			add_str(n, "prefix", "binary");
			return n;
		}
	}
	for (i = 0; i < sizeof(order_keys) / sizeof(order_keys[0]); i++) {
		if (ev_int(pr->evidence, order_keys[i], &v) && v >= 0) {
			n = json_object_new_object();
			add(n, "value", json_object_new_int64(v));
			add_str(n, "unit", "order");
			return n;
		}
	}
	return NULL;
}

struct ids {
	const char *origin;
	char build[512];
	struct json_object *env;	/* the test's "environment", shared */
	const struct fsp_res_doc *doc;
};

static struct json_object *test_base(const struct ids *ids,
				     const struct fsp_res_profile *p,
				     const char *probe)
{
	struct json_object *t = json_object_new_object();
	struct json_object *misc = json_object_new_object();
	char path[256] = "", id[1024];

	path_part(path, sizeof(path), "fsprobe");
	path_part(path, sizeof(path), p->name ? p->name : "");
	if (probe)
		path_part(path, sizeof(path), probe);
	snprintf(id, sizeof(id), "%s:%s", ids->build, path);
	add_str(t, "id", id);
	add_str(t, "build_id", ids->build);
	add_str(t, "origin", ids->origin);
	add_str(t, "path", path);
	add(t, "environment", json_object_get(ids->env));
	add_str(misc, "profile", p->name);
	add_str(misc, "fs", p->fs);
	add_str(misc, "mount_options", p->mount_options);
	add_str(misc, "verdict", fsp_res_verdict_name(p));
	add(t, "misc", misc);
	return t;
}

/* KCIDB: "no properties can be null"; evidence may hold nulls. */
static struct json_object *no_nulls(struct json_object *ev)
{
	struct json_object *o = json_object_new_object();

	if (!json_object_is_type(ev, json_type_object))
		return o;
	json_object_object_foreach(ev, key, val)
		if (val)
			add(o, key, json_object_get(val));
	return o;
}

static void profile_tests(struct json_object *tests, const struct ids *ids,
			  const struct fsp_res_profile *p)
{
	struct json_object *t, *n;
	int i;

	if (!p->nr_probes) {
		t = test_base(ids, p, NULL);
		add_str(t, "status", p->verdict == FSP_V_SKIP ? "SKIP" :
			p->verdict == FSP_V_ERROR ? "ERROR" : "MISS");
		add_str(t, "comment", p->reason);
		json_object_array_add(tests, t);
		return;
	}
	for (i = 0; i < p->nr_probes; i++) {
		const struct fsp_res_probe *pr = &p->probes[i];

		t = test_base(ids, p, pr->name ? pr->name : "");
		add_str(t, "status", status_of(pr));
		add_str(t, "comment", pr->reason);
		n = pr->result == FSP_SKIP ? NULL : number_of(pr);
		if (n)
			add(t, "number", n);
		if (pr->ms >= 0) {
			char sec[32];

			snprintf(sec, sizeof(sec), "%lld.%03lld", pr->ms / 1000,
				 pr->ms % 1000);
			add(t, "duration", json_object_new_double_s(
				pr->ms / 1000.0, sec));
		}
		if (pr->evidence)
			add(json_object_object_get(t, "misc"), "evidence",
			    no_nulls(pr->evidence));
		json_object_array_add(tests, t);
	}
}

static struct json_object *environment(const struct fsp_res_doc *d)
{
	struct json_object *env = json_object_new_object();
	struct json_object *misc = json_object_new_object();
	char comment[256];

	snprintf(comment, sizeof(comment), "Linux %s %s",
		 d->kernel ? d->kernel : "?", d->arch ? d->arch : "?");
	add_str(env, "comment", comment);
	add_str(misc, "kernel_release", d->kernel);
	add_str(misc, "arch", d->arch);
	if (d->page_size > 0)
		add(misc, "page_size", json_object_new_int64(d->page_size));
	if (d->pmd_order >= 0)
		add(misc, "pmd_order", json_object_new_int(d->pmd_order));
	if (d->has_thp) {
		add_str(misc, "thp_enabled", d->thp.enabled);
		add_str(misc, "thp_shmem_enabled", d->thp.shmem_enabled);
	}
	add_str(misc, "fsprobe", d->fsprobe);
	add(env, "misc", misc);
	return env;
}

/* The checkout and build of one document (once per id), then its tests. */
static void add_doc(struct json_object *k, const struct fsp_res_doc *d,
		    const struct fsp_kcidb_opts *o)
{
	struct json_object *checkouts = json_object_object_get(k, "checkouts");
	struct json_object *builds = json_object_object_get(k, "builds");
	struct json_object *tests = json_object_object_get(k, "tests");
	struct json_object *c, *b, *misc;
	char checkout[256], arch[64] = "";
	struct ids ids = { .origin = o->origin, .doc = d };
	int i;

	if (o->checkout)
		snprintf(checkout, sizeof(checkout), "%s:%s", o->origin,
			 o->checkout);
	else
		snprintf(checkout, sizeof(checkout), "%s:%s", o->origin,
			 d->kernel ? d->kernel : "unknown");
	/* build "architecture": ^[a-z0-9_]*$ */
	for (i = 0; d->arch && d->arch[i] && i < (int)sizeof(arch) - 1; i++)
		arch[i] = (d->arch[i] >= 'A' && d->arch[i] <= 'Z') ?
			  d->arch[i] - 'A' + 'a' : d->arch[i];
	for (i = 0; arch[i]; i++)
		if (!((arch[i] >= 'a' && arch[i] <= 'z') ||
		      (arch[i] >= '0' && arch[i] <= '9')))
			arch[i] = '_';
	snprintf(ids.build, sizeof(ids.build), "%s:%s", checkout,
		 *arch ? arch : "unknown");
	if (!has_id(checkouts, checkout)) {
		c = json_object_new_object();
		add_str(c, "id", checkout);
		add_str(c, "origin", o->origin);
		if (d->kernel) {
			char comment[160];

			snprintf(comment, sizeof(comment), "Linux %s",
				 d->kernel);
			add_str(c, "comment", comment);
		}
		add(c, "valid", json_object_new_boolean(1));
		json_object_array_add(checkouts, c);
	}
	if (!has_id(builds, ids.build)) {
		b = json_object_new_object();
		misc = json_object_new_object();
		add_str(b, "id", ids.build);
		add_str(b, "checkout_id", checkout);
		add_str(b, "origin", o->origin);
		if (*arch)
			add_str(b, "architecture", arch);
		add_str(b, "status", "PASS");
		add_str(misc, "kernel_release", d->kernel);
		add(b, "misc", misc);
		json_object_array_add(builds, b);
	}
	ids.env = environment(d);
	for (i = 0; i < d->nr_profiles; i++)
		profile_tests(tests, &ids, &d->profiles[i]);
	json_object_put(ids.env);
}

struct json_object *fsp_kcidb_json(const struct fsp_res_doc *const *docs,
				   int nr, const struct fsp_kcidb_opts *o)
{
	struct json_object *k, *v;
	int i;

	if (!o || !fsp_kcidb_origin_valid(o->origin))
		return NULL;
	k = json_object_new_object();
	v = json_object_new_object();
	add(v, "major", json_object_new_int(KCIDB_MAJOR));
	add(v, "minor", json_object_new_int(KCIDB_MINOR));
	add(k, "version", v);
	add(k, "checkouts", json_object_new_array());
	add(k, "builds", json_object_new_array());
	add(k, "tests", json_object_new_array());
	for (i = 0; i < nr; i++)
		if (docs[i])
			add_doc(k, docs[i], o);
	return k;
}

int fsp_report_kcidb(FILE *out, const struct fsp_res_doc *const *docs,
		     int nr, const struct fsp_kcidb_opts *o)
{
	struct json_object *k = fsp_kcidb_json(docs, nr, o);

	if (!k)
		return -EINVAL;
	fputs(json_object_to_json_string_ext(k, JSON_C_TO_STRING_PRETTY |
			JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE),
	      out);
	fputc('\n', out);
	json_object_put(k);
	return ferror(out) ? -EIO : 0;
}
