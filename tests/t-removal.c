// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-removal.c - what fsprobe says on either side of the removal of
 * CONFIG_READ_ONLY_THP_FOR_FS, on run documents recorded in Debian's
 * guests (tests/data/run-{6.12,6.17,7.2}-guest.json: `fsprobe vm -k
 * debian:VERSION` with ext4, xfs, btrfs and tmpfs huge=advise/never),
 * no root needed: the option's state per kernel, the cause a refused
 * MADV_COLLAPSE is given (the option where it is not set, the mapping's
 * largest observed order where it is gone), tmpfs text measured by
 * ShmemPmdMapped, the table's summary worded for the kernel (the removal
 * to come, or done), compare naming exactly the profiles that lost PMD
 * text across it, and the attribution rule itself on constructed probes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tap-data.h"
#include "report.h"
#include "verdict.h"

#define ARROW "\xe2\x86\x92"
#define LOSE_LINE "  lose PMD text across the removal of " \
	"READ_ONLY_THP_FOR_FS (any route): "


static const struct fsp_res_profile *profile(const struct fsp_res_doc *d,
					     const char *name)
{
	int i;

	for (i = 0; d && i < d->nr_profiles; i++)
		if (d->profiles[i].name && !strcmp(d->profiles[i].name, name))
			return &d->profiles[i];
	return NULL;
}

static const struct fsp_res_probe *probe(const struct fsp_res_doc *d,
					 const char *prof, const char *name)
{
	const struct fsp_res_profile *p = profile(d, prof);
	int i;

	for (i = 0; p && i < p->nr_probes; i++)
		if (p->probes[i].name && !strcmp(p->probes[i].name, name))
			return &p->probes[i];
	return NULL;
}

static const char *reason(const struct fsp_res_probe *pr)
{
	return pr && pr->reason ? pr->reason : "";
}

static int largest(const struct fsp_res_profile *p)
{
	return p->max_order_read > p->max_order_fault ? p->max_order_read :
	       p->max_order_fault;
}

static char *table(const struct fsp_res_doc *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fsp_report_table(m, doc, NULL);
	fclose(m);
	return buf;
}

static char *compare(const struct fsp_res_doc *a, const struct fsp_res_doc *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int worse;

	if (!m)
		return NULL;
	fsp_compare(m, a, b, &worse);
	fclose(m);
	return buf;
}

static const char *const files[] = { "ext4-default", "xfs-default",
				     "btrfs-default" };

/* The option's state, as each kernel's own config says. */
static void test_state(const struct fsp_res_doc *k612,
		       const struct fsp_res_doc *k617,
		       const struct fsp_res_doc *k72)
{
	const struct fsp_res_doc *pre[] = { k612, k617 };
	int i;

	for (i = 0; i < 2; i++)
		tap_ok(pre[i]->thp.read_only_thp_for_fs == 0 &&
		       pre[i]->thp.read_only_thp_for_fs_state &&
		       !strcmp(pre[i]->thp.read_only_thp_for_fs_state,
			       "not set"),
		       "%s: READ_ONLY_THP_FOR_FS not set", pre[i]->kernel);
	tap_ok(k72->thp.read_only_thp_for_fs == 0 &&
	       k72->thp.read_only_thp_for_fs_state &&
	       !strcmp(k72->thp.read_only_thp_for_fs_state, "absent"),
	       "%s: READ_ONLY_THP_FOR_FS absent", k72->kernel);
}

/* Before the removal, option not set: every file collapse names it. */
static void test_cause_pre(const struct fsp_res_doc *d)
{
	static const char *const probes[] = { "collapse", "collapse-exec" };
	size_t i, j;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		for (j = 0; j < 2; j++) {
			const struct fsp_res_probe *pr = probe(d, files[i],
							       probes[j]);

			tap_ok(pr && pr->result == FSP_SKIP &&
			       !strcmp(reason(pr), "MADV_COLLAPSE: EINVAL "
				       "(READ_ONLY_THP_FOR_FS not set)"),
			       "%s %s %s: refused, the option named (%s)",
			       d->kernel, files[i], probes[j], reason(pr));
		}
}

/*
 * After it: ext4 and xfs collapse; btrfs is refused for the mapping's
 * largest observed order, the profile's (read-order saw it), below PMD.
 */
static void test_cause_post(const struct fsp_res_doc *d)
{
	const struct fsp_res_profile *b = profile(d, "btrfs-default");
	char want[128];
	int i;

	for (i = 0; i < 2; i++) {
		const struct fsp_res_profile *p = profile(d, files[i]);

		tap_ok(p && probe(d, files[i], "collapse")->result == FSP_PASS &&
		       probe(d, files[i], "collapse-exec")->result == FSP_PASS &&
		       p->routes & FSP_ROUTE_COLLAPSE && p->verdict == FSP_V_PMD,
		       "%s %s: collapse and collapse-exec pass, pmd with the "
		       "collapse route", d->kernel, files[i]);
	}
	if (!b) {
		tap_ok(0, "%s: no btrfs-default", d->kernel);
		return;
	}
	tap_ok(b->verdict == FSP_V_LARGE && largest(b) > 0 &&
	       largest(b) < d->pmd_order,
	       "%s btrfs-default: large, order %d < %d", d->kernel,
	       largest(b), d->pmd_order);
	snprintf(want, sizeof(want), "MADV_COLLAPSE: EINVAL: largest folio "
		 "order observed %d < PMD order %d", largest(b), d->pmd_order);
	tap_ok(!strcmp(reason(probe(d, "btrfs-default", "collapse")), want) &&
	       !strcmp(reason(probe(d, "btrfs-default", "collapse-exec")),
		       want),
	       "%s btrfs-default: collapse refused with the profile's "
	       "largest order (%s)", d->kernel,
	       reason(probe(d, "btrfs-default", "collapse")));
}

/* tmpfs text by ShmemPmdMapped; huge=never PMD by MADV_COLLAPSE only. */
static void test_tmpfs(const struct fsp_res_doc *d)
{
	const struct fsp_res_profile *nv = profile(d, "tmpfs-huge-never");
	static const char *const text[] = { "exec-text", "dso-text" };
	int i;

	for (i = 0; i < 2; i++) {
		const struct fsp_res_probe *pr = probe(d, "tmpfs-huge-advise",
						       text[i]);
		struct json_object *ev = pr ? pr->evidence : NULL;
		struct json_object *s = fsp_json_get(ev,
					"cold_shmem_pmd_mapped_kb");
		struct json_object *f = fsp_json_get(ev,
					"cold_file_pmd_mapped_kb");

		tap_ok(pr && pr->result == FSP_PASS && s && f &&
		       json_object_get_int(s) > 0 && !json_object_get_int(f),
		       "%s tmpfs-huge-advise %s: measured by ShmemPmdMapped "
		       "(%s kB; FilePmdMapped %s kB)", d->kernel, text[i],
		       fsp_json_get_str(ev, "cold_shmem_pmd_mapped_kb", "-"),
		       fsp_json_get_str(ev, "cold_file_pmd_mapped_kb", "-"));
	}
	tap_ok(nv && nv->verdict == FSP_V_SHMEM_PMD &&
	       nv->routes == FSP_ROUTE_COLLAPSE && nv->reason &&
	       !strcmp(nv->reason, "PMD only through MADV_COLLAPSE; none on "
		       "the fault path"),
	       "%s tmpfs-huge-never: shmem-pmd by the collapse route only, "
	       "the reason says so (%s)", d->kernel,
	       nv && nv->reason ? nv->reason : "");
}

/* The summary: the removal to come (not set), or done (absent). */
static void test_summary_pre(const struct fsp_res_doc *d)
{
	char *t = table(d);

	tap_ok(t && strstr(t, "READ_ONLY_THP_FOR_FS not set (/boot/config-") &&
	       strstr(t, "\n  keep PMD text without READ_ONLY_THP_FOR_FS "
		      "(fault route): ") &&
	       tap_has_line(t, "  lose PMD text when READ_ONLY_THP_FOR_FS goes "
			"(collapse only): none") &&
	       !strstr(t, "gone from this kernel") &&
	       !strstr(t, "since the removal"),
	       "%s: the summary speaks of the removal to come", d->kernel);
	free(t);
}

static void test_summary_post(const struct fsp_res_doc *d)
{
	char *t = table(d);

	tap_ok(t && strstr(t, "READ_ONLY_THP_FOR_FS absent (not in the "
			   "config) (/boot/config-7.2") &&
	       strstr(t, "\n  PMD text without READ_ONLY_THP_FOR_FS (gone "
		      "from this kernel), by route:\n    ext4-default "
		      "(fault,collapse") &&
	       strstr(t, "xfs-default (fault,collapse") &&
	       tap_has_line(t, "  large folios below PMD size: no huge text "
			"since the removal: btrfs-default") &&
	       tap_has_line(t, "  order-0 folios only: none") &&
	       !strstr(t, "when READ_ONLY_THP_FOR_FS goes") &&
	       !strstr(t, "keep PMD text"),
	       "%s: the summary speaks of the removal as done", d->kernel);
	tap_ok(t && tap_has_line(t, "  tmpfs: tmpfs-huge-advise (shmem-pmd), "
			     "tmpfs-huge-never (shmem-pmd)"),
	       "%s: the tmpfs line", d->kernel);
	free(t);
}

/*
 * The profiles of old with PMD text (pmd, pmd-collapse-only) that new
 * has measured without any, computed from the documents: compare's
 * line must name exactly these.
 */
static void lost_from_docs(const struct fsp_res_doc *a,
			   const struct fsp_res_doc *b, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < a->nr_profiles; i++) {
		const struct fsp_res_profile *o = &a->profiles[i];
		const struct fsp_res_profile *n = profile(b, o->name);
		int had = o->verdict == FSP_V_PMD ||
			  o->verdict == FSP_V_PMD_COLLAPSE_ONLY;

		if (!had || !n || !fsp_verdict_measured(n->verdict) ||
		    n->verdict == FSP_V_PMD ||
		    n->verdict == FSP_V_PMD_COLLAPSE_ONLY)
			continue;
		used += snprintf(buf + used, len - used, "%s%s (%s " ARROW
				 " %s)", used ? ", " : "", o->name,
				 fsp_res_verdict_name(o),
				 fsp_res_verdict_name(n));
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

static void test_compare_lost(const struct fsp_res_doc *a,
			      const struct fsp_res_doc *b, const char *expect)
{
	char want[1024], line[1200];
	char *c = compare(a, b);

	lost_from_docs(a, b, want, sizeof(want));
	snprintf(line, sizeof(line), LOSE_LINE "%s", want);
	tap_ok(!strcmp(want, expect),
	       "compare %s " ARROW " %s: the documents say %s lost PMD text",
	       a->kernel, b->kernel, want);
	tap_ok(c && tap_has_line(c, line),
	       "compare %s " ARROW " %s names exactly those: '%s'", a->kernel,
	       b->kernel, line);
	free(c);
}

static void test_compare(const struct fsp_res_doc *k612,
			 const struct fsp_res_doc *k617,
			 const struct fsp_res_doc *k72,
			 const struct fsp_res_doc *rothp)
{
	char *c;

	test_compare_lost(k617, k72, "none");
	test_compare_lost(k612, k72, "none");
	test_compare_lost(rothp, k72, "btrfs-default (pmd-collapse-only "
			  ARROW " large)");
	c = compare(k617, k72);
	tap_ok(c && strstr(c, "  btrfs-default: base " ARROW " large "
			   "(better)") &&
	       tap_has_line(c, "  result: no measured regression"),
	       "compare 6.17 " ARROW " 7.2: btrfs base " ARROW " large, no "
	       "regression");
	free(c);
	c = compare(k612, k617);
	tap_ok(c && !strstr(c, "across the removal"),
	       "compare 6.12 " ARROW " 6.17: no removal between, no such line");
	free(c);
	c = compare(k72, k617);
	tap_ok(c && !strstr(c, "across the removal"),
	       "compare 7.2 " ARROW " 6.17 (backwards): no such line");
	free(c);
}

/* One constructed probe: name, result, facts. */
static void mk(struct fsp_probe *p, const struct fsp_case *c,
	       enum fsp_outcome res, int routes, int read, int fault,
	       int refused)
{
	memset(p, 0, sizeof(*p));
	p->c = c;
	p->result = res;
	p->routes = routes;
	p->order_read = read;
	p->order_fault = fault;
	p->order_refused = refused;
	if (refused)
		snprintf(p->reason, sizeof(p->reason), "MADV_COLLAPSE: EINVAL: "
			 "largest folio order observed %d < PMD order 9",
			 fault);
}

/* fsp_verdict_attribute() on probes built here, every branch. */
static void test_attribute(void)
{
	static const struct fsp_case rd = { .name = "read-order" },
				     col = { .name = "collapse" },
				     fp = { .name = "fault-pmd" };
	struct fsp_probe p[3];
	struct fsp_verdict v;

	mk(&p[0], &rd, FSP_PASS, 0, 6, -1, 0);
	mk(&p[1], &col, FSP_SKIP, 0, -1, 0, 1);
	fsp_verdict_derive(p, 2, 0, 9, &v);
	fsp_verdict_attribute(p, 2, &v, 9, 1);
	tap_ok(!strcmp(p[1].reason, "MADV_COLLAPSE: EINVAL: largest folio "
		       "order observed 6 < PMD order 9"),
	       "attribute: the profile's order 6, not the probe's 0 (%s)",
	       p[1].reason);
	mk(&p[1], &col, FSP_SKIP, 0, -1, 0, 1);
	fsp_verdict_attribute(p, 2, &v, 9, 0);
	tap_ok(!strcmp(p[1].reason, "MADV_COLLAPSE: EINVAL: largest folio "
		       "order observed 0 < PMD order 9"),
	       "attribute: not removed: reasons untouched");
	mk(&p[2], &fp, FSP_PASS, FSP_ROUTE_FAULT, -1, 9, 0);
	fsp_verdict_derive(p, 3, 0, 9, &v);
	fsp_verdict_attribute(p, 3, &v, 9, 1);
	tap_ok(!strcmp(p[1].reason, "MADV_COLLAPSE: EINVAL although order 9 "
		       "was observed: range not collapsible (dirty pages not "
		       "written back, or private COW pages)"),
	       "attribute: PMD reached elsewhere: order is not the cause (%s)",
	       p[1].reason);
	mk(&p[0], &col, FSP_PASS, FSP_ROUTE_COLLAPSE, -1, 0, 0);
	fsp_verdict_derive(p, 1, 0, 9, &v);
	tap_ok(v.verdict == FSP_V_PMD_COLLAPSE_ONLY &&
	       strstr(v.reason, "when READ_ONLY_THP_FOR_FS goes"),
	       "attribute: pmd-collapse-only before the removal: the option "
	       "going is named");
	fsp_verdict_attribute(p, 1, &v, 9, 1);
	tap_ok(v.verdict == FSP_V_PMD_COLLAPSE_ONLY &&
	       !strcmp(v.reason, "PMD only through MADV_COLLAPSE; none on the "
		       "fault path"),
	       "attribute: pmd-collapse-only after it: the routes only (%s)",
	       v.reason);
}

int main(void)
{
	struct fsp_res_doc *k612, *k617, *k72, *rothp;

	tap_data_init();
	k612 = tap_load_doc("run-6.12-guest.json");
	k617 = tap_load_doc("run-6.17-guest.json");
	k72 = tap_load_doc("run-7.2-guest.json");
	rothp = tap_load_doc("run-6.12-rothp.json");
	if (!k612 || !k617 || !k72 || !rothp) {
		tap_diag("fixtures missing in %s (set srcdir)", tap_datadir);
		return tap_done();
	}
	test_state(k612, k617, k72);
	test_cause_pre(k612);
	test_cause_pre(k617);
	test_cause_post(k72);
	test_tmpfs(k612);
	test_tmpfs(k617);
	test_tmpfs(k72);
	test_summary_pre(k612);
	test_summary_pre(k617);
	test_summary_post(k72);
	test_compare(k612, k617, k72, rothp);
	test_attribute();
	fsp_res_doc_free(k612);
	fsp_res_doc_free(k617);
	fsp_res_doc_free(k72);
	fsp_res_doc_free(rothp);
	return tap_done();
}
