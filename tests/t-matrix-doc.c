// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-matrix-doc.c - the matrix document on recorded runs, no root: tests/data/
 * matrix-a.json holds the run documents run-6.12-rothp.json,
 * run-6.18.json and run-6.18-default.json as `fsprobe matrix` would
 * write them; matrix-b.json the last two, with 6.18.0's ext4 down from
 * pmd to large. Checked: the loader tells a matrix from a run, the
 * encoder writes back what the decoder read, a broken item is named,
 * the table's grid cells, its changes between consecutive kernels (from
 * compare's engine) and its "PMD text lost" lines, the exit status, the
 * HTML grid, and compare of two matrices paired by release.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report.h"

#define ARROW "\xe2\x86\x92"

static char datadir[4096];

static struct fsp_res_matrix *load(const char *name)
{
	struct fsp_res_matrix *m = NULL;
	struct fsp_res_doc *d = NULL;
	char path[4200], err[512];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", datadir, name);
	ret = fsp_res_load_any(path, &d, &m, err, sizeof(err));
	tap_ok(!ret && m && !d, "load %s as a matrix%s%s", name,
	       ret ? ": " : "", ret ? err : "");
	fsp_res_doc_free(d);
	return m;
}

/* What fn wrote for m, as one string (free it). */
static char *render(int (*fn)(FILE *, const struct fsp_res_matrix *,
			      const struct fsp_render_opts *),
		    const struct fsp_res_matrix *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	tap_ok(!fn(f, m, NULL), "rendered");
	fclose(f);
	return buf;
}

static int html(FILE *f, const struct fsp_res_matrix *m,
		const struct fsp_render_opts *o)
{
	(void)o;
	return fsp_report_matrix_html(f, m);
}

static void has(const char *out, const char *want)
{
	tap_ok(strstr(out, want) != NULL, "has: %s", want);
}

static void table(const struct fsp_res_matrix *m)
{
	char *out = render(fsp_report_matrix_table, m);
	const char *k23;

	has(out, "fsprobe matrix: 3 kernels (fsprobe 0.1.0)\n"
	    "  K1  6.12.57-rothp\n  K2  6.18.0\n");
	has(out, "ext4-default            pmd-collapse-only collapse 4K  "
	    "pmd fault 2M        pmd fault 2M\n");
	has(out, "tmpfs-huge-advise                                       "
	    "                   shmem-pmd collapse,shmem 2M\n");
	has(out, "squashfs-xz             error                          "
	    "base 4K\nerofs-lz4");
	has(out, "Changes K1 " ARROW " K2 (6.12.57-rothp " ARROW " 6.18.0):"
	    "\n  ext4-default: pmd-collapse-only " ARROW " pmd (better)");
	has(out, "  btrfs-default: pmd-collapse-only " ARROW " base (WORSE)");
	has(out, "  gain PMD text (now pmd): ext4-default (pmd-collapse-only "
	    ARROW " pmd)\n  WORSE: 2 measured regressions\n");
	k23 = strstr(out, "Changes K2 " ARROW " K3");
	tap_ok(k23 && !strstr(k23, "ext4-default"), "K2 " ARROW " K3: "
	       "ext4-default did not change, so it is not listed");
	tap_ok(k23 && strstr(k23, "  xfs-default: pmd (unchanged)\n      "
			     "truncate-split: fail " ARROW " pass (fixed)"),
	       "K2 " ARROW " K3: a profile whose probe changed is listed");
	has(out, "PMD text lost:\n  btrfs-default: pmd-collapse-only on K1 "
	    ARROW " base on K2\n");
	free(out);
	out = render(html, m);
	has(out, "<table id=\"matrix\">");
	has(out, "<th><a href=\"#k3\">K3</a><br><small>6.18.44-fc-v1272"
	    "</small></th>");
	has(out, "<td class=\"v-pmd\"><a href=\"#p2000\">pmd</a><br>"
	    "<small>fault 2M</small></td>");
	has(out, "<section class=\"profile\" id=\"p3004\">");
	free(out);
}

/* Each item is encoded as the run document alone would be. */
static void roundtrip(const struct fsp_res_matrix *m)
{
	static const char *const runs[] = {
		"run-6.12-rothp.json", "run-6.18.json", "run-6.18-default.json",
	};
	struct json_object *mine = fsp_res_matrix_json(m), *items;
	char path[4200], err[512];
	int k, same = 1;

	items = json_object_object_get(mine, "kernels");
	for (k = 0; k < 3; k++) {
		struct fsp_res_doc *d = NULL;
		struct json_object *o;

		snprintf(path, sizeof(path), "%s/%s", datadir, runs[k]);
		if (fsp_doc_load(path, &d, err, sizeof(err))) {
			same = 0;
			continue;
		}
		o = fsp_res_doc_json(d);
		same &= json_object_equal(o, json_object_array_get_idx(items,
								       k));
		json_object_put(o);
		fsp_res_doc_free(d);
	}
	tap_ok(same && !strcmp(json_object_get_string(json_object_object_get(
		mine, "fsprobe")), "0.1.0"), "each kernel is written as its "
	       "run document alone is");
	json_object_put(mine);
	TAP_EQ_LONG(fsp_matrix_exit_status(m), FSP_EXIT_FAIL,
		    "exit 1: 6.18.0's xfs truncate-split failed");
}

static void broken(const char *text, const char *want)
{
	struct json_object *o = json_tokener_parse(text);
	struct fsp_res_matrix *m = NULL;
	char err[512] = "";

	tap_ok(fsp_res_is_matrix(o) &&
	       fsp_res_matrix_decode(o, "x.json", &m, err, sizeof(err)) ==
	       -EINVAL && !m && strstr(err, want), "%s: %s", text, err);
	json_object_put(o);
}

static void compare(const struct fsp_res_matrix *a,
		    const struct fsp_res_matrix *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int worse = -1;

	tap_ok(!fsp_compare_matrix(f, a, b, &worse), "compare a b");
	fclose(f);
	TAP_EQ_LONG(worse, 1, "a " ARROW " b is worse");
	has(buf, "== kernel 6.12.57-rothp: only in the old matrix\n");
	has(buf, "== kernel 6.18.0 ==\nfsprobe compare: old " ARROW " new\n");
	has(buf, "  ext4-default: pmd " ARROW " large (WORSE); max_order "
	    "read 9 " ARROW " 4, fault 9 " ARROW " 4\n");
	has(buf, "\nmatrix result: WORSE\n");
	free(buf);
	f = open_memstream(&buf, &len);
	tap_ok(!fsp_compare_matrix(f, a, a, &worse) && !worse,
	       "a matrix against itself: not worse");
	fclose(f);
	free(buf);
}

int main(void)
{
	const char *src = getenv("srcdir");
	struct fsp_res_matrix *a, *b;

	snprintf(datadir, sizeof(datadir), "%s/tests/data", src ? src : ".");
	a = load("matrix-a.json");
	b = load("matrix-b.json");
	if (!a || !b)
		return tap_done();
	TAP_EQ_LONG(a->nr, 3, "matrix-a: 3 kernels");
	table(a);
	roundtrip(a);
	compare(a, b);
	broken("{\"fsprobe\": \"0.1.0\", \"kernels\": 3}",
	       "x.json: key \"kernels\": not an array");
	broken("{\"kernels\": []}", "key \"fsprobe\": missing");
	broken("{\"fsprobe\": \"0.1.0\", \"kernels\": "
	       "[{\"fsprobe\": \"0.1.0\"}]}",
	       "x.json: kernels[0]");
	fsp_res_matrix_free(a);
	fsp_res_matrix_free(b);
	return tap_done();
}
