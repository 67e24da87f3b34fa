// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c - `fsprobe compare OLD.json NEW.json`, for kernel QA: which
 * profiles changed verdict between two runs, which probes changed
 * result, and who lost or gained PMD text. Profiles (and the probes
 * inside them) are matched by name, the n-th of a name with the n-th.
 * Verdicts are ranked in one table below; only a measured regression
 * counts as worse: a lower-ranked verdict of the same kind (file or
 * shmem), or a probe that went pass -> fail. skip and error mean "not
 * measured", so a change to or from them is reported as such and never
 * sets *worse: a run where mkfs.btrfs was missing says nothing about the
 * kernel. The loader reads a saved -f json document and checks the keys
 * compare relies on, naming the file and the key when one is missing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define ARROW " \xe2\x86\x92 "	/* U+2192 */
#define DOC_MAX (64L << 20)

enum { FAM_FILE = 1, FAM_SHMEM };

/* The verdict ranking (docs/verdicts.md), higher is better. */
static const struct verdict_rank {
	const char *name;
	int family;
	int rank;
} verdict_ranks[] = {
	{ "pmd", FAM_FILE, 4 },
	{ "pmd-collapse-only", FAM_FILE, 3 },
	{ "large", FAM_FILE, 2 },
	{ "base", FAM_FILE, 1 },
	{ "shmem-pmd", FAM_SHMEM, 2 },
	{ "shmem-base", FAM_SHMEM, 1 },
};

/* NULL: not a measurement (skip, error, or a verdict we do not know). */
static const struct verdict_rank *verdict_rank(const char *v)
{
	size_t i;

	for (i = 0; i < sizeof(verdict_ranks) / sizeof(verdict_ranks[0]); i++)
		if (!strcmp(verdict_ranks[i].name, v))
			return &verdict_ranks[i];
	return NULL;
}

enum change { CH_SAME, CH_BETTER, CH_WORSE, CH_UNMEASURED, CH_OTHER };

static enum change verdict_change(const char *a, const char *b)
{
	const struct verdict_rank *ra = verdict_rank(a), *rb = verdict_rank(b);

	if (!strcmp(a, b))
		return CH_SAME;
	if (!ra || !rb)
		return CH_UNMEASURED;
	if (ra->family != rb->family)
		return CH_OTHER;
	return rb->rank > ra->rank ? CH_BETTER : CH_WORSE;
}

struct pair {
	struct json_object *o, *n;	/* either may be NULL */
};

/* Match the elements of two arrays by "name", in old order, then added. */
static int pair_up(struct json_object *a, struct json_object *b,
		   struct pair **out, size_t *nr)
{
	size_t na = fsp_json_array_len(a), nb = fsp_json_array_len(b);
	size_t i, j, k = 0;
	struct pair *p;
	char *used;

	*out = NULL;
	*nr = 0;
	p = calloc(na + nb + 1, sizeof(*p));
	used = calloc(nb + 1, 1);
	if (!p || !used) {
		free(p);
		free(used);
		return -ENOMEM;
	}
	for (i = 0; i < na; i++) {
		struct json_object *x = json_object_array_get_idx(a, i);
		const char *name = fsp_json_get_str(x, "name", "");

		p[k].o = x;
		for (j = 0; j < nb; j++) {
			struct json_object *y = json_object_array_get_idx(b, j);

			if (!used[j] &&
			    !strcmp(name, fsp_json_get_str(y, "name", ""))) {
				used[j] = 1;
				p[k].n = y;
				break;
			}
		}
		k++;
	}
	for (j = 0; j < nb; j++)
		if (!used[j])
			p[k++].n = json_object_array_get_idx(b, j);
	free(used);
	*out = p;
	*nr = k;
	return 0;
}

static const char *verdict_of(struct json_object *p)
{
	return fsp_json_get_str(p, "verdict", "?");
}

/* pre, a (→ b if b), post: a and b come from the documents, sanitized. */
static void say(FILE *out, const char *pre, const char *a, const char *b,
		const char *post)
{
	fputs(pre, out);
	fsp_report_put_line(out, a, 0);
	if (b) {
		fputs(ARROW, out);
		fsp_report_put_line(out, b, 0);
	}
	fputs(post, out);
}

static void put_reason(FILE *out, const char *sep, struct json_object *p)
{
	const char *why = fsp_json_get_str(p, "reason", NULL);

	if (why && *why) {
		fputs(sep, out);
		fsp_report_put_line(out, why, 0);
	}
}

/* "; max_order read 0 → 9, fault 0 → 9" when the orders moved. */
static void order_change(FILE *out, struct json_object *o,
			 struct json_object *n)
{
	static const char *const keys[] = { "read", "fault" };
	struct json_object *mo = fsp_json_get(o, "max_order");
	struct json_object *mn = fsp_json_get(n, "max_order");
	const char *sep = "; max_order ";
	size_t i;

	for (i = 0; i < 2; i++) {
		const char *a = fsp_json_get_str(mo, keys[i], "-");
		const char *b = fsp_json_get_str(mn, keys[i], "-");

		if (!strcmp(a, b))
			continue;
		fprintf(out, "%s%s ", sep, keys[i]);
		say(out, "", a, b, "");
		sep = ", ";
	}
}

static void route_str(struct json_object *p, char *buf, size_t len)
{
	struct json_object *r = fsp_json_get(p, "route");
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < fsp_json_array_len(r) && used < len; i++) {
		const char *s = json_object_get_string(
			json_object_array_get_idx(r, i));

		used += snprintf(buf + used, len - used, "%s%s", i ? "," : "",
				 s ? s : "null");
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* "; route fault,collapse → fault" when the routes changed. */
static void route_change(FILE *out, struct json_object *o,
			 struct json_object *n)
{
	char a[128], b[128];

	route_str(o, a, sizeof(a));
	route_str(n, b, sizeof(b));
	if (strcmp(a, b))
		say(out, "; route ", a, b, "");
}

/* Probe result changes of one profile; returns how many are worse. */
static int probe_changes(FILE *out, struct json_object *o,
			 struct json_object *n)
{
	struct pair *pp;
	size_t i, nr;
	int worse = 0;

	if (pair_up(fsp_json_get(o, "probes"), fsp_json_get(n, "probes"),
		    &pp, &nr))
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct json_object *x = pp[i].o, *y = pp[i].n;
		const char *a = fsp_json_get_str(x, "result", "?");
		const char *b = fsp_json_get_str(y, "result", "?");
		enum fsp_result ra = fsp_report_result(x);
		enum fsp_result rb = fsp_report_result(y);

		if (x && y && !strcmp(a, b))
			continue;
		fputs("      ", out);
		fsp_report_put_line(out, fsp_json_get_str(x ? x : y, "name",
							  "?"), 0);
		if (!y) {
			say(out, ": removed (was ", a, NULL, ")\n");
			continue;
		}
		if (!x) {
			say(out, ": added (", b, NULL, ")");
			put_reason(out, ": ", y);
			fputc('\n', out);
			continue;
		}
		say(out, ": ", a, b, "");
		if (ra == FSP_RES_PASS && rb == FSP_RES_FAIL) {
			fputs(" (WORSE)", out);
			worse++;
		} else if (rb == FSP_RES_FAIL) {
			fputs(" (fails; did not pass before)", out);
		} else if (ra == FSP_RES_FAIL && rb == FSP_RES_PASS) {
			fputs(" (fixed)", out);
		} else if (rb != FSP_RES_PASS) {
			fputs(" (not measured)", out);
		}
		if (rb != FSP_RES_PASS)
			put_reason(out, ": ", y);
		fputc('\n', out);
	}
	free(pp);
	return worse;
}

/* One line per profile, then its probe changes; returns worse count. */
static int profile_change(FILE *out, const struct pair *p)
{
	const char *name = fsp_json_get_str(p->o ? p->o : p->n, "name", "?");
	const char *a = verdict_of(p->o), *b = verdict_of(p->n);
	int worse = 0, ret;

	fputs("  ", out);
	fsp_report_put_line(out, name, 0);
	if (!p->n) {
		say(out, ": removed (was ", a, NULL, ")\n");
		return 0;
	}
	if (!p->o) {
		say(out, ": added (", b, NULL, "");
		put_reason(out, ": ", p->n);
		fputs(")\n", out);
		return 0;
	}
	switch (verdict_change(a, b)) {
	case CH_SAME:
		say(out, ": ", b, NULL, " (unchanged)");
		break;
	case CH_BETTER:
		say(out, ": ", a, b, " (better)");
		break;
	case CH_WORSE:
		say(out, ": ", a, b, " (WORSE)");
		worse++;
		break;
	case CH_UNMEASURED:
		say(out, ": ", a, b, " (not measured");
		put_reason(out, ": ", verdict_rank(b) ? p->o : p->n);
		fputc(')', out);
		break;
	case CH_OTHER:
		say(out, ": ", a, b, " (not comparable: different kind of "
		    "filesystem)");
		break;
	}
	if (verdict_rank(a) && verdict_rank(b)) {
		route_change(out, p->o, p->n);
		order_change(out, p->o, p->n);
	}
	fputc('\n', out);
	ret = probe_changes(out, p->o, p->n);
	if (ret < 0)
		return ret;
	return worse + ret;
}

enum which { LOSE, LOSE_COLLAPSE, GAIN, UNMEASURED, ADDED, REMOVED };

/* Does pair p belong on summary line w? */
static int in_summary(const struct pair *p, enum which w)
{
	const char *a = verdict_of(p->o), *b = verdict_of(p->n);
	int measured = p->o && p->n && verdict_rank(a) && verdict_rank(b);

	switch (w) {
	case LOSE:
		return measured && !strcmp(a, "pmd") && strcmp(b, "pmd");
	case LOSE_COLLAPSE:
		return measured && !strcmp(a, "pmd-collapse-only") &&
		       strcmp(b, "pmd") && strcmp(b, "pmd-collapse-only");
	case GAIN:
		return measured && strcmp(a, "pmd") && !strcmp(b, "pmd");
	case UNMEASURED:
		return p->o && p->n &&
		       verdict_change(a, b) == CH_UNMEASURED;
	case ADDED:
		return !p->o;
	case REMOVED:
		return !p->n;
	}
	return 0;
}

static void summary_line(FILE *out, const struct pair *pairs, size_t nr,
			 enum which w, const char *label, int always)
{
	size_t i, n = 0;

	for (i = 0; i < nr; i++)
		n += in_summary(&pairs[i], w);
	if (!n && !always)
		return;
	fprintf(out, "  %s: %s", label, n ? "" : "none");
	for (i = 0; i < nr; i++) {
		const struct pair *p = &pairs[i];

		if (!in_summary(p, w))
			continue;
		fsp_report_put_line(out, fsp_json_get_str(p->o ? p->o : p->n,
							  "name", "?"), 0);
		if (p->o && p->n)
			say(out, " (", verdict_of(p->o), verdict_of(p->n),
			    ")");
		else
			say(out, " (", verdict_of(p->o ? p->o : p->n), NULL,
			    ")");
		if (--n)
			fputs(", ", out);
	}
	fputc('\n', out);
}

static void side(FILE *out, const char *label, struct json_object *doc)
{
	struct json_object *thp = fsp_json_get(doc, "thp");
	struct json_object *ro = fsp_json_get(thp, "read_only_thp_for_fs");
	const char *st = fsp_json_get_str(thp, "read_only_thp_for_fs_state",
					  "");

	fprintf(out, "  %s: kernel ", label);
	fsp_report_put_line(out, fsp_json_get_str(doc, "kernel", "?"), 0);
	fputs(" (", out);
	fsp_report_put_line(out, fsp_json_get_str(doc, "arch", "?"), 0);
	fputs(", fsprobe ", out);
	fsp_report_put_line(out, fsp_json_get_str(doc, "fsprobe", "?"), 0);
	fprintf(out, ", READ_ONLY_THP_FOR_FS%s, THP enabled=",
		!strcmp(st, "absent") ? " absent" :
		!ro ? " unknown" : json_object_get_boolean(ro) ? "=y" :
		" not set");
	fsp_report_put_line(out, fsp_json_get_str(thp, "enabled", "?"), 0);
	fputs(")\n", out);
}

/* Orders only mean the same thing with the same page and PMD size. */
static void same_geometry(FILE *out, struct json_object *a,
			  struct json_object *b)
{
	static const char *const keys[] = { "page_size", "pmd_order" };
	size_t i;

	for (i = 0; i < 2; i++) {
		const char *x = fsp_json_get_str(a, keys[i], "?");
		const char *y = fsp_json_get_str(b, keys[i], "?");

		if (!strcmp(x, y))
			continue;
		fprintf(out, "  note: %s differs (", keys[i]);
		say(out, "", x, y, "): folio orders do not compare "
		    "directly\n");
	}
}

static int compare_json(FILE *out, struct json_object *old_doc,
			struct json_object *new_doc, int *worse)
{
	struct pair *pairs;
	size_t i, nr;
	int bad = 0, ret;

	*worse = 0;
	if (!old_doc || !new_doc ||
	    !json_object_is_type(old_doc, json_type_object) ||
	    !json_object_is_type(new_doc, json_type_object))
		return -EINVAL;
	ret = pair_up(fsp_json_get(old_doc, "profiles"),
		      fsp_json_get(new_doc, "profiles"), &pairs, &nr);
	if (ret)
		return ret;
	fputs("fsprobe compare: old" ARROW "new\n", out);
	side(out, "old", old_doc);
	side(out, "new", new_doc);
	same_geometry(out, old_doc, new_doc);
	fputs("\nProfiles (verdict old" ARROW "new, then changed probes):\n",
	      out);
	if (!nr)
		fputs("  none\n", out);
	for (i = 0; i < nr; i++) {
		ret = profile_change(out, &pairs[i]);
		if (ret < 0)
			goto out;
		bad += ret;
	}
	fputs("\nSummary:\n", out);
	summary_line(out, pairs, nr, LOSE, "lose PMD text (was pmd)", 1);
	summary_line(out, pairs, nr, GAIN, "gain PMD text (now pmd)", 1);
	summary_line(out, pairs, nr, LOSE_COLLAPSE, "lose collapse-only PMD "
		     "text (READ_ONLY_THP_FOR_FS route)", 0);
	summary_line(out, pairs, nr, UNMEASURED, "not measured on one side "
		     "(skip/error, not counted)", 0);
	summary_line(out, pairs, nr, ADDED, "added", 0);
	summary_line(out, pairs, nr, REMOVED, "removed", 0);
	if (bad)
		fprintf(out, "  result: WORSE, %d measured regression%s\n",
			bad, bad == 1 ? "" : "s");
	else
		fputs("  result: no measured regression\n", out);
	*worse = bad > 0;
	ret = 0;
out:
	free(pairs);
	if (!ret && ferror(out))
		ret = -EIO;
	return ret;
}

int fsp_compare(FILE *out, const struct fsp_res_doc *old_doc,
		const struct fsp_res_doc *new_doc, int *worse)
{
	struct json_object *a, *b;
	int ret;

	*worse = 0;
	if (!old_doc || !new_doc)
		return -EINVAL;
	a = fsp_res_doc_json(old_doc);
	b = fsp_res_doc_json(new_doc);
	ret = compare_json(out, a, b, worse);
	json_object_put(a);
	json_object_put(b);
	return ret;
}
