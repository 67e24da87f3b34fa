// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c - `fsprobe compare OLD.json NEW.json`, for kernel QA: which
 * profiles changed verdict between two runs, which probes changed
 * result, and who lost or gained PMD text. Profiles (and the probes
 * inside them) are matched by name, the n-th of a name with the n-th.
 * Verdicts are ranked by the verdict table (conformance/verdict.c);
 * only a measured regression counts as worse: a lower-ranked verdict of
 * the same family (file or shmem), or a probe that went pass -> fail.
 * A verdict outside both families (skip, error, unknown) means "not
 * measured", so a change to or from it is reported as such and never
 * sets *worse: a run where mkfs.btrfs was missing says nothing about the
 * kernel. Both documents come from the decoder (result_decode.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define ARROW " \xe2\x86\x92 "	/* U+2192 */

static const char *or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

/* A profile's verdict as written, "?" for none or no profile. */
static const char *verdict_of(const struct fsp_res_profile *p)
{
	return p ? or(fsp_res_verdict_name(p), "?") : "?";
}

/* skip, error, null or unknown: not a measurement (verdict.c's table). */
static int measured(const struct fsp_res_profile *p)
{
	return p && fsp_verdict_measured(p->verdict);
}

enum change { CH_SAME, CH_BETTER, CH_WORSE, CH_UNMEASURED, CH_OTHER };

static enum change verdict_change(const struct fsp_res_profile *a,
				  const struct fsp_res_profile *b)
{
	const struct fsp_verdict_info *ra, *rb;

	if (!strcmp(verdict_of(a), verdict_of(b)))
		return CH_SAME;
	if (!measured(a) || !measured(b))
		return CH_UNMEASURED;
	ra = fsp_verdict_info(a->verdict);
	rb = fsp_verdict_info(b->verdict);
	if (ra->family != rb->family)
		return CH_OTHER;
	return rb->rank > ra->rank ? CH_BETTER : CH_WORSE;
}

/* Indices into the old and the new array; -1: not on that side. */
struct pair {
	int o, n;
};

/* The name of element i of an array of structs with a char *name. */
static const char *name_at(const void *arr, size_t size, size_t off, int i)
{
	const char *name = *(char *const *)((const char *)arr +
					    (size_t)i * size + off);

	return or(name, "");
}

/* An element's name and index, sorted by both: equal names keep order. */
struct keyed {
	const char *name;
	int i;
};

static int cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The elements of arr by name (then index); NULL if out of memory. */
static struct keyed *sorted_keys(const void *arr, int n, size_t size,
				 size_t off)
{
	struct keyed *k = malloc(((size_t)n + 1) * sizeof(*k));
	int i;

	if (!k)
		return NULL;
	for (i = 0; i < n; i++)
		k[i] = (struct keyed){ name_at(arr, size, off, i), i };
	qsort(k, (size_t)n, sizeof(*k), cmp_keyed);
	return k;
}

/*
 * match[i]: the new index of old element i, or -1. Both sides sorted by
 * name and index, one merge pairs the n-th of a name with the n-th: the
 * same pairs as a search of the new side for each old element, in
 * O(n log n) rather than O(n * m) (1.8M profiles ran past 300 s).
 */
static void merge_keys(const struct keyed *ka, int na, const struct keyed *kb,
		       int nb, int *match, char *used)
{
	int i = 0, j = 0, c;

	while (i < na && j < nb) {
		c = strcmp(ka[i].name, kb[j].name);
		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			match[ka[i].i] = kb[j].i;
			used[kb[j].i] = 1;
			i++;
			j++;
		}
	}
}

/* Match two arrays by name, the n-th with the n-th, in old order, then
 * the added ones. */
static int pair_up(const void *a, int na, const void *b, int nb,
		   size_t size, size_t off, struct pair **out, int *nr)
{
	struct keyed *ka = sorted_keys(a, na, size, off);
	struct keyed *kb = sorted_keys(b, nb, size, off);
	struct pair *p = calloc((size_t)na + nb + 1, sizeof(*p));
	int *match = malloc(((size_t)na + 1) * sizeof(*match));
	char *used = calloc((size_t)nb + 1, 1);
	int i, k = 0, ret = -ENOMEM;

	*out = NULL;
	*nr = 0;
	if (!ka || !kb || !p || !match || !used)
		goto out;
	for (i = 0; i < na; i++)
		match[i] = -1;
	merge_keys(ka, na, kb, nb, match, used);
	for (i = 0; i < na; i++)
		p[k++] = (struct pair){ i, match[i] };
	for (i = 0; i < nb; i++)
		if (!used[i])
			p[k++] = (struct pair){ -1, i };
	*out = p;
	*nr = k;
	p = NULL;
	ret = 0;
out:
	free(ka);
	free(kb);
	free(p);
	free(match);
	free(used);
	return ret;
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

static void put_reason(FILE *out, const char *sep, const char *why)
{
	if (why && *why) {
		fputs(sep, out);
		fsp_report_put_line(out, why, 0);
	}
}

static void order_str(const struct fsp_res_profile *p, int fault,
		      char *buf, size_t len)
{
	int order = fault ? p->max_order_fault : p->max_order_read;

	if (p->has_probes && order >= 0)
		snprintf(buf, len, "%d", order);
	else
		snprintf(buf, len, "-");
}

/* "; max_order read 0 → 9, fault 0 → 9" when the orders moved. */
static void order_change(FILE *out, const struct fsp_res_profile *o,
			 const struct fsp_res_profile *n)
{
	static const char *const keys[] = { "read", "fault" };
	const char *sep = "; max_order ";
	char a[16], b[16];
	int i;

	for (i = 0; i < 2; i++) {
		order_str(o, i, a, sizeof(a));
		order_str(n, i, b, sizeof(b));
		if (!strcmp(a, b))
			continue;
		fprintf(out, "%s%s ", sep, keys[i]);
		say(out, "", a, b, "");
		sep = ", ";
	}
}

static void route_str(const struct fsp_res_profile *p, char *buf,
		      size_t len)
{
	int i, routes = p->has_probes ? p->routes : 0;
	size_t used = 0;

	buf[0] = '\0';
	for (i = 0; i < FSP_NR_ROUTES && used < len; i++)
		if (routes & (1 << i))
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? "," : "", fsp_route_names[i]);
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* "; route fault,collapse → fault" when the routes changed. */
static void route_change(FILE *out, const struct fsp_res_profile *o,
			 const struct fsp_res_profile *n)
{
	char a[128], b[128];

	route_str(o, a, sizeof(a));
	route_str(n, b, sizeof(b));
	if (strcmp(a, b))
		say(out, "; route ", a, b, "");
}

static const char *result_of(const struct fsp_res_probe *pr)
{
	return pr ? or(fsp_res_result_name(pr), "?") : "?";
}

/* One probe's line; returns 1 if it went pass -> fail. */
static int probe_change(FILE *out, const struct fsp_res_probe *x,
			const struct fsp_res_probe *y)
{
	const char *a = result_of(x), *b = result_of(y);

	fputs("      ", out);
	fsp_report_put_line(out, or((x ? x : y)->name, "?"), 0);
	if (!y) {
		say(out, ": removed (was ", a, NULL, ")\n");
		return 0;
	}
	if (!x) {
		say(out, ": added (", b, NULL, ")");
		put_reason(out, ": ", y->reason);
		fputc('\n', out);
		return 0;
	}
	say(out, ": ", a, b, "");
	if (x->result == FSP_PASS && y->result == FSP_FAIL)
		fputs(" (WORSE)", out);
	else if (y->result == FSP_FAIL)
		fputs(" (fails; did not pass before)", out);
	else if (x->result == FSP_FAIL && y->result == FSP_PASS)
		fputs(" (fixed)", out);
	else if (y->result != FSP_PASS)
		fputs(" (not measured)", out);
	if (y->result != FSP_PASS)
		put_reason(out, ": ", y->reason);
	fputc('\n', out);
	return x->result == FSP_PASS && y->result == FSP_FAIL;
}

/* Probe result changes of one profile; returns how many are worse. */
static int probe_changes(FILE *out, const struct fsp_res_profile *o,
			 const struct fsp_res_profile *n)
{
	int no = o->has_probes ? o->nr_probes : 0;
	int nn = n->has_probes ? n->nr_probes : 0;
	struct pair *pp;
	int i, nr, worse = 0;

	if (pair_up(o->probes, no, n->probes, nn, sizeof(*o->probes),
		    offsetof(struct fsp_res_probe, name), &pp, &nr))
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		const struct fsp_res_probe *x = pp[i].o < 0 ? NULL :
						&o->probes[pp[i].o];
		const struct fsp_res_probe *y = pp[i].n < 0 ? NULL :
						&n->probes[pp[i].n];

		if (x && y && !strcmp(result_of(x), result_of(y)))
			continue;
		worse += probe_change(out, x, y);
	}
	free(pp);
	return worse;
}

/* The two profiles of a pair; either may be NULL. */
struct side_pair {
	const struct fsp_res_profile *o, *n;
};

static struct side_pair sides(const struct fsp_res_doc *a,
			      const struct fsp_res_doc *b,
			      const struct pair *p)
{
	return (struct side_pair){
		p->o < 0 ? NULL : &a->profiles[p->o],
		p->n < 0 ? NULL : &b->profiles[p->n],
	};
}

/* The verdict line of a matched pair; returns 1 if it is worse. */
static int verdict_line(FILE *out, const struct fsp_res_profile *o,
			const struct fsp_res_profile *n)
{
	const char *a = verdict_of(o), *b = verdict_of(n);

	switch (verdict_change(o, n)) {
	case CH_SAME:
		say(out, ": ", b, NULL, " (unchanged)");
		break;
	case CH_BETTER:
		say(out, ": ", a, b, " (better)");
		break;
	case CH_WORSE:
		say(out, ": ", a, b, " (WORSE)");
		return 1;
	case CH_UNMEASURED:	/* the reason of the side not measured */
		say(out, ": ", a, b, measured(n) ? " (not measured before" :
		    " (not measured");
		put_reason(out, ": ", measured(n) ? o->reason : n->reason);
		fputc(')', out);
		break;
	case CH_OTHER:
		say(out, ": ", a, b, " (not comparable: different kind of "
		    "filesystem)");
		break;
	}
	return 0;
}

/* One line per profile, then its probe changes; returns worse count. */
static int profile_change(FILE *out, struct side_pair s)
{
	const struct fsp_res_profile *o = s.o, *n = s.n;
	int worse, ret;

	fputs("  ", out);
	fsp_report_put_line(out, or((o ? o : n)->name, "?"), 0);
	if (!n) {
		say(out, ": removed (was ", verdict_of(o), NULL, ")\n");
		return 0;
	}
	if (!o) {
		say(out, ": added (", verdict_of(n), NULL, "");
		put_reason(out, ": ", n->reason);
		fputs(")\n", out);
		return 0;
	}
	worse = verdict_line(out, o, n);
	if (measured(o) && measured(n)) {
		route_change(out, o, n);
		order_change(out, o, n);
	}
	fputc('\n', out);
	/*
	 * A profile not run on one side (its filesystem not in that
	 * kernel, say) has no probes there: a line per probe "added" or
	 * "removed" would say only that, eleven times.
	 */
	if (!o->nr_probes || !n->nr_probes)
		return worse;
	ret = probe_changes(out, o, n);
	if (ret < 0)
		return ret;
	return worse + ret;
}

enum which { LOSE, LOSE_COLLAPSE, LOSE_ANY, GAIN, UNMEASURED, ADDED,
	     REMOVED };

/* File PMD text by any route: pmd or pmd-collapse-only. */
static int pmd_text(const struct fsp_res_profile *p)
{
	return p->verdict == FSP_V_PMD ||
	       p->verdict == FSP_V_PMD_COLLAPSE_ONLY;
}

/* Does pair s belong on summary line w? */
static int in_summary(struct side_pair s, enum which w)
{
	int both = s.o && s.n && measured(s.o) && measured(s.n);

	switch (w) {
	case LOSE:
		return both && s.o->verdict == FSP_V_PMD &&
		       s.n->verdict != FSP_V_PMD;
	case LOSE_COLLAPSE:
		return both && s.o->verdict == FSP_V_PMD_COLLAPSE_ONLY &&
		       s.n->verdict != FSP_V_PMD &&
		       s.n->verdict != FSP_V_PMD_COLLAPSE_ONLY;
	case LOSE_ANY:
		return both && pmd_text(s.o) && !pmd_text(s.n);
	case GAIN:
		return both && s.o->verdict != FSP_V_PMD &&
		       s.n->verdict == FSP_V_PMD;
	case UNMEASURED:
		return s.o && s.n &&
		       verdict_change(s.o, s.n) == CH_UNMEASURED;
	case ADDED:
		return !s.o;
	case REMOVED:
		return !s.n;
	}
	return 0;
}

struct cmp {
	FILE *out;
	const struct fsp_res_doc *a, *b;
	struct pair *pairs;
	int nr;
};

static void summary_line(const struct cmp *c, enum which w,
			 const char *label, int always)
{
	int i, n = 0;

	for (i = 0; i < c->nr; i++)
		n += in_summary(sides(c->a, c->b, &c->pairs[i]), w);
	if (!n && !always)
		return;
	fprintf(c->out, "  %s: %s", label, n ? "" : "none");
	for (i = 0; i < c->nr; i++) {
		struct side_pair s = sides(c->a, c->b, &c->pairs[i]);

		if (!in_summary(s, w))
			continue;
		fsp_report_put_line(c->out, or((s.o ? s.o : s.n)->name, "?"),
				    0);
		if (s.o && s.n)
			say(c->out, " (", verdict_of(s.o), verdict_of(s.n),
			    ")");
		else
			say(c->out, " (", verdict_of(s.o ? s.o : s.n), NULL,
			    ")");
		if (--n)
			fputs(", ", c->out);
	}
	fputc('\n', c->out);
}

static void side(FILE *out, const char *label, const struct fsp_res_doc *d)
{
	int ro = d->has_thp ? d->thp.read_only_thp_for_fs : -1;
	const char *st = d->has_thp ? d->thp.read_only_thp_for_fs_state :
			 NULL;

	fprintf(out, "  %s: kernel ", label);
	fsp_report_put_line(out, or(d->kernel, "?"), 0);
	fputs(" (", out);
	fsp_report_put_line(out, or(d->arch, "?"), 0);
	fputs(", fsprobe ", out);
	fsp_report_put_line(out, or(d->fsprobe, "?"), 0);
	fprintf(out, ", READ_ONLY_THP_FOR_FS%s, THP enabled=",
		st && !strcmp(st, "absent") ? " absent" :
		ro < 0 ? " unknown" : ro ? "=y" : " not set");
	fsp_report_put_line(out, d->has_thp ? or(d->thp.enabled, "?") : "?",
			    0);
	fputs(")\n", out);
}

/* Orders only mean the same thing with the same page and PMD size. */
static void same_geometry(FILE *out, const struct fsp_res_doc *a,
			  const struct fsp_res_doc *b)
{
	char x[2][32], y[2][32];
	int i;

	snprintf(x[0], sizeof(x[0]), "%lld", a->page_size);
	snprintf(y[0], sizeof(y[0]), "%lld", b->page_size);
	if (a->page_size == FSP_RES_ABSENT)
		snprintf(x[0], sizeof(x[0]), "?");
	if (b->page_size == FSP_RES_ABSENT)
		snprintf(y[0], sizeof(y[0]), "?");
	snprintf(x[1], sizeof(x[1]), a->pmd_order >= 0 ? "%d" : "?",
		 a->pmd_order);
	snprintf(y[1], sizeof(y[1]), b->pmd_order >= 0 ? "%d" : "?",
		 b->pmd_order);
	for (i = 0; i < 2; i++) {
		if (!strcmp(x[i], y[i]))
			continue;
		fprintf(out, "  note: %s differs (", i ? "pmd_order" :
			"page_size");
		say(out, "", x[i], y[i], "): folio orders do not compare "
		    "directly\n");
	}
}

/* "absent" in a document's thp object: the option removed (Linux 7.2). */
static int removed(const struct fsp_res_doc *d)
{
	const char *st = d->has_thp ? d->thp.read_only_thp_for_fs_state :
			 NULL;

	return st && !strcmp(st, "absent");
}

static void summary(const struct cmp *c, int bad)
{
	FILE *out = c->out;

	fputs("\nSummary:\n", out);
	/* Old before the removal, new after it: who it cost PMD text. */
	if (!removed(c->a) && removed(c->b))
		summary_line(c, LOSE_ANY, "lose PMD text across the removal "
			     "of READ_ONLY_THP_FOR_FS (any route)", 1);
	summary_line(c, LOSE, "lose PMD text (was pmd)", 1);
	summary_line(c, GAIN, "gain PMD text (now pmd)", 1);
	summary_line(c, LOSE_COLLAPSE, "lose collapse-only PMD text "
		     "(READ_ONLY_THP_FOR_FS route)", 0);
	summary_line(c, UNMEASURED, "not measured on one side "
		     "(skip/error, not counted)", 0);
	summary_line(c, ADDED, "added", 0);
	summary_line(c, REMOVED, "removed", 0);
	if (bad)
		fprintf(out, "  result: WORSE, %d measured regression%s\n",
			bad, bad == 1 ? "" : "s");
	else
		fputs("  result: no measured regression\n", out);
}

/*
 * One profile's lines; brief: nothing if it did not change at all (its
 * lines are written to memory first, to know).
 */
static int profile_lines(FILE *out, struct side_pair s, int brief)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int ret;

	if (!brief)
		return profile_change(out, s);
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -ENOMEM;
	ret = profile_change(mem, s);
	if (fclose(mem))
		ret = -ENOMEM;
	if (ret >= 0 && len && !(strchr(buf, '\n') == buf + len - 1 &&
				 strstr(buf, " (unchanged)\n")))
		fputs(buf, out);
	free(buf);
	return ret;
}

static int compare(struct cmp *c, int brief)
{
	const struct fsp_res_doc *a = c->a, *b = c->b;
	FILE *out = c->out;
	int i, bad = 0, ret;

	ret = pair_up(a->profiles, a->nr_profiles, b->profiles,
		      b->nr_profiles, sizeof(*a->profiles),
		      offsetof(struct fsp_res_profile, name), &c->pairs,
		      &c->nr);
	if (ret)
		return ret;
	if (!brief) {
		fputs("fsprobe compare: old" ARROW "new\n", out);
		side(out, "old", a);
		side(out, "new", b);
	}
	same_geometry(out, a, b);
	if (!brief)
		fputs("\nProfiles (verdict old" ARROW "new, then changed "
		      "probes):\n", out);
	if (!c->nr && !brief)
		fputs("  none\n", out);
	for (i = 0; i < c->nr; i++) {
		ret = profile_lines(out, sides(a, b, &c->pairs[i]), brief);
		if (ret < 0)
			goto out;
		bad += ret;
	}
	if (brief) {
		summary_line(c, LOSE, "lose PMD text (was pmd)", 0);
		summary_line(c, LOSE_COLLAPSE, "lose collapse-only PMD text "
			     "(READ_ONLY_THP_FOR_FS route)", 0);
		summary_line(c, GAIN, "gain PMD text (now pmd)", 0);
		if (bad)
			fprintf(out, "  WORSE: %d measured regression%s\n",
				bad, bad == 1 ? "" : "s");
	} else {
		summary(c, bad);
	}
	ret = bad > 0;
out:
	free(c->pairs);
	if (ret >= 0 && ferror(out))
		ret = -EIO;
	return ret;
}

static int compare_docs(FILE *out, const struct fsp_res_doc *old_doc,
			const struct fsp_res_doc *new_doc, int *worse,
			int changes_only)
{
	struct cmp c = { out, old_doc, new_doc, NULL, 0 };
	int ret;

	*worse = 0;
	if (!old_doc || !new_doc)
		return -EINVAL;
	ret = compare(&c, changes_only);
	*worse = ret > 0;
	return ret < 0 ? ret : 0;
}

int fsp_compare(FILE *out, const struct fsp_res_doc *old_doc,
		const struct fsp_res_doc *new_doc, int *worse)
{
	return compare_docs(out, old_doc, new_doc, worse, 0);
}

int fsp_compare_changes(FILE *out, const struct fsp_res_doc *old_doc,
			const struct fsp_res_doc *new_doc, int *worse)
{
	return compare_docs(out, old_doc, new_doc, worse, 1);
}
