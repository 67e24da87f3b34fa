// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_matrix.c - a matrix document for people and for compare: the
 * grid of profiles (rows) by kernels (columns), each cell the verdict,
 * its route and the largest folio seen on read or fault; then what
 * changed from each kernel to the next, by compare's engine
 * (fsp_compare_changes), and where a profile lost PMD text. A profile
 * missing on a kernel is a blank cell. `compare` of two matrices pairs
 * their kernels by release and compares each pair as it would two runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define ARROW " \xe2\x86\x92 "	/* U+2192 */
#define CELL_MAX 96

static const char *or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

/* Profile name of doc d's profile i, or "". */
static const char *pname(const struct fsp_res_doc *d, int i)
{
	return or(d->profiles[i].name, "");
}

static const struct fsp_res_profile *find(const struct fsp_res_doc *d,
					  const char *name)
{
	int i;

	for (i = 0; i < d->nr_profiles; i++)
		if (!strcmp(pname(d, i), name))
			return &d->profiles[i];
	return NULL;
}

/* "pmd fault 2M": verdict, routes, largest folio of read and fault. */
static void cell(const struct fsp_res_doc *d, const struct fsp_res_profile *p,
		 char *buf, size_t len)
{
	int i, used, order;
	char size[32];

	if (!p) {
		buf[0] = '\0';
		return;
	}
	used = snprintf(buf, len, "%s", or(fsp_res_verdict_name(p), "?"));
	if (!p->has_probes || !fsp_verdict_measured(p->verdict))
		return;
	for (i = 0; i < FSP_NR_ROUTES && used < (int)len; i++)
		if (p->routes & (1 << i))
			used += snprintf(buf + used, len - used, "%s%s",
					 strchr(buf, ' ') ? "," : " ",
					 fsp_route_names[i]);
	order = p->max_order_read > p->max_order_fault ? p->max_order_read :
		p->max_order_fault;
	fsp_report_folio_size(d->page_size, order, size, sizeof(size));
	if (used < (int)len)
		snprintf(buf + used, len - used, " %s", size);
}

/* Every profile name of the matrix once, in order of first sight. */
static int row_names(const struct fsp_res_matrix *m, const char ***names,
		     int *nr)
{
	const char **n = NULL, **nn;
	int k, i, j, cnt = 0;

	for (k = 0; k < m->nr; k++) {
		for (i = 0; i < m->kernels[k]->nr_profiles; i++) {
			const char *s = pname(m->kernels[k], i);

			for (j = 0; j < cnt && strcmp(n[j], s); j++)
				;
			if (j < cnt)
				continue;
			nn = realloc(n, (cnt + 1) * sizeof(*n));
			if (!nn) {
				free(n);
				return -ENOMEM;
			}
			n = nn;
			n[cnt++] = s;
		}
	}
	*names = n;
	*nr = cnt;
	return 0;
}

static void legend(FILE *out, const struct fsp_res_matrix *m)
{
	int k, w = 0;

	for (k = 0; k < m->nr; k++)
		if ((int)strlen(or(m->kernels[k]->kernel, "?")) > w)
			w = strlen(or(m->kernels[k]->kernel, "?"));
	fprintf(out, "fsprobe matrix: %d kernel%s (fsprobe ", m->nr,
		m->nr == 1 ? "" : "s");
	fsp_report_put_line(out, or(m->fsprobe, "?"), 0);
	fputs(")\n", out);
	for (k = 0; k < m->nr; k++) {
		const struct fsp_res_doc *d = m->kernels[k];

		fprintf(out, "  K%-2d ", k + 1);
		fsp_report_put_line(out, or(d->kernel, "?"), 0);
		if (d->vm || d->has_resources)
			fprintf(out, "%*s", w - (int)strlen(or(d->kernel, "?")),
				"");
		if (d->vm)
			fprintf(out, "  (vm, %s, qemu %.1f s)",
				or(d->vm->accel, "?"), d->vm->qemu_ms / 1000.0);
		else if (d->has_resources)
			fprintf(out, "  (host, %.1f s)",
				d->resources.wall_ms / 1000.0);
		fputc('\n', out);
	}
}

/* Column widths: the widest cell of each kernel, at least "Kn". */
static void widths(const struct fsp_res_matrix *m, const char **names,
		   int nr, int *w, int *w0)
{
	char c[CELL_MAX];
	int k, i, l;

	*w0 = 7;
	for (i = 0; i < nr; i++)
		if ((l = strlen(names[i])) > *w0)
			*w0 = l;
	for (k = 0; k < m->nr; k++) {
		w[k] = 3;
		for (i = 0; i < nr; i++) {
			cell(m->kernels[k], find(m->kernels[k], names[i]), c,
			     sizeof(c));
			if ((l = strlen(c)) > w[k])
				w[k] = l;
		}
	}
}

static void grid(FILE *out, const struct fsp_res_matrix *m,
		 const char **names, int nr, const struct fsp_render_opts *o)
{
	char c[CELL_MAX], h[16];
	int *w = calloc(m->nr + 1, sizeof(*w));
	int k, i, w0, last;

	if (!w)
		return;
	widths(m, names, nr, w, &w0);
	fprintf(out, "\n%-*s", w0, "profile");
	for (k = 0; k < m->nr; k++) {
		snprintf(h, sizeof(h), "K%d", k + 1);
		fprintf(out, "  %-*s", k + 1 < m->nr ? w[k] : 0, h);
	}
	fputc('\n', out);
	for (i = 0; i < nr; i++) {
		for (last = m->nr - 1; last > 0; last--)
			if (find(m->kernels[last], names[i]))
				break;
		fputs(names[i], out);
		fprintf(out, "%*s", w0 - (int)strlen(names[i]), "");
		for (k = 0; k <= last; k++) {
			const struct fsp_res_profile *p =
				find(m->kernels[k], names[i]);

			cell(m->kernels[k], p, c, sizeof(c));
			fputs("  ", out);
			if (o && o->colour && p)
				fprintf(out, "\033[%sm%-*s\033[0m",
					p->verdict == FSP_V_ERROR ? "1;31" :
					fsp_verdict_measured(p->verdict) ?
					"1" : "2", k < last ? w[k] : 0, c);
			else
				fprintf(out, "%-*s", k < last ? w[k] : 0, c);
		}
		fputc('\n', out);
	}
	free(w);
}

/* Kernel k-1 to k through compare's engine, "none" if nothing moved. */
static int changes(FILE *out, const struct fsp_res_matrix *m, int k)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int worse, ret;

	if (!mem)
		return -ENOMEM;
	ret = fsp_compare_changes(mem, m->kernels[k - 1], m->kernels[k],
				  &worse);
	if (fclose(mem))
		ret = -ENOMEM;
	fprintf(out, "\nChanges K%d" ARROW "K%d (", k, k + 1);
	fsp_report_put_line(out, or(m->kernels[k - 1]->kernel, "?"), 0);
	fputs(ARROW, out);
	fsp_report_put_line(out, or(m->kernels[k]->kernel, "?"), 0);
	fputs("):\n", out);
	fputs(ret || !len ? "  none\n" : buf, out);
	free(buf);
	return ret;
}

static int had_pmd(const struct fsp_res_profile *p)
{
	return p && (p->verdict == FSP_V_PMD ||
		     p->verdict == FSP_V_PMD_COLLAPSE_ONLY);
}

/* Profiles that were pmd on kernel k-1 and measured less on k. */
static void lost_pmd(FILE *out, const struct fsp_res_matrix *m,
		     const char **names, int nr)
{
	int k, i, any = 0;

	fputs("\nPMD text lost:", out);
	for (i = 0; i < nr; i++) {
		for (k = 1; k < m->nr; k++) {
			const struct fsp_res_profile *a, *b;

			a = find(m->kernels[k - 1], names[i]);
			b = find(m->kernels[k], names[i]);
			if (!had_pmd(a) || !b || had_pmd(b) ||
			    !fsp_verdict_measured(b->verdict))
				continue;
			fprintf(out, "\n  %s: %s on K%d" ARROW "%s on K%d",
				names[i], fsp_res_verdict_name(a), k,
				or(fsp_res_verdict_name(b), "?"), k + 1);
			any = 1;
		}
	}
	fputs(any ? "\n" : " none\n", out);
}

int fsp_report_matrix_table(FILE *out, const struct fsp_res_matrix *m,
			    const struct fsp_render_opts *o)
{
	const char **names = NULL;
	int k, nr = 0, ret;

	ret = row_names(m, &names, &nr);
	if (ret)
		return ret;
	legend(out, m);
	grid(out, m, names, nr, o);
	for (k = 1; !ret && k < m->nr; k++)
		ret = changes(out, m, k);
	if (!ret && m->nr > 1)
		lost_pmd(out, m, names, nr);
	free(names);
	if (!ret && ferror(out))
		ret = -EIO;
	return ret;
}

int fsp_report_matrix_json(FILE *out, const struct fsp_res_matrix *m)
{
	return fsp_report_json_object(out, fsp_res_matrix_json(m));
}

int fsp_matrix_exit_status(const struct fsp_res_matrix *m)
{
	int k;

	for (k = 0; k < m->nr; k++)
		if (fsp_res_exit_status(m->kernels[k]))
			return FSP_EXIT_FAIL;
	return FSP_EXIT_OK;
}

/* The kernel of b matching a's k-th: same release, n-th with n-th. */
static int match(const struct fsp_res_matrix *a, int k,
		 const struct fsp_res_matrix *b, const char *used)
{
	const char *rel = or(a->kernels[k]->kernel, "");
	int j;

	for (j = 0; j < b->nr; j++)
		if (!used[j] && !strcmp(rel, or(b->kernels[j]->kernel, "")))
			return j;
	return -1;
}

static void only(FILE *out, const char *side, const struct fsp_res_doc *d)
{
	fputs("\n== kernel ", out);
	fsp_report_put_line(out, or(d->kernel, "?"), 0);
	fprintf(out, ": only in the %s matrix\n", side);
}

int fsp_compare_matrix(FILE *out, const struct fsp_res_matrix *a,
		       const struct fsp_res_matrix *b, int *worse)
{
	char *used = calloc(b->nr + 1, 1);
	int k, j, w, ret = 0;

	*worse = 0;
	if (!used)
		return -ENOMEM;
	fprintf(out, "fsprobe compare: two matrices, %d and %d kernels, "
		"paired by release\n", a->nr, b->nr);
	for (k = 0; !ret && k < a->nr; k++) {
		j = match(a, k, b, used);
		if (j < 0) {
			only(out, "old", a->kernels[k]);
			continue;
		}
		used[j] = 1;
		fputs("\n== kernel ", out);
		fsp_report_put_line(out, or(a->kernels[k]->kernel, "?"), 0);
		fputs(" ==\n", out);
		ret = fsp_compare(out, a->kernels[k], b->kernels[j], &w);
		*worse |= w;
	}
	for (j = 0; !ret && j < b->nr; j++)
		if (!used[j])
			only(out, "new", b->kernels[j]);
	free(used);
	if (!ret)
		fprintf(out, "\nmatrix result: %s\n", *worse ? "WORSE" :
			"no measured regression");
	return ret;
}
