// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-report.c - the renderers on recorded result documents (tests/data/
 * run-6.18.json, run-6.12-rothp.json, escape.json), no root needed:
 * KTAP structure checked line by line against ktap.rst (version, plan,
 * numbering per level, SKIP/ERROR directives, no '#' in names, one line
 * per item), JUnit counts and escaping of hostile text (markup, control
 * characters, invalid UTF-8), compare's verdict lines and its worse flag,
 * the table's verdict and summary lines, and the loader's messages for
 * broken documents.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tap-data.h"
#include "report.h"
#include "verdict.h"

#define ARROW "\xe2\x86\x92"
#define R "\xef\xbf\xbd"	/* U+FFFD */


typedef int (*render_fn)(FILE *out, const struct fsp_res_doc *doc);

/* A json-c tree through the decoder (consumes obj); NULL if it fails. */
static struct fsp_res_doc *decode(struct json_object *obj)
{
	struct fsp_res_doc *doc = NULL;
	char err[512];

	if (fsp_res_doc_decode(obj, "test", &doc, err, sizeof(err)))
		tap_diag("decode: %s", err);
	json_object_put(obj);
	return doc;
}

/*
 * What a renderer writes, as a malloc'd string; *ret gets its return.
 * fn renders a; without fn, fsp_compare(a, b, worse) is what runs.
 */
static char *capture(render_fn fn, const struct fsp_res_doc *a,
		     const struct fsp_res_doc *b, int *worse, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	*ret = fn ? fn(m, a) : fsp_compare(m, a, b, worse);
	fclose(m);
	return buf;
}

static char *render(render_fn fn, const struct fsp_res_doc *doc, int *ret)
{
	return capture(fn, doc, NULL, NULL, ret);
}

/*
 * render() into *text as one TAP test, "WHAT renders", and where head
 * is given a second, named desc: the text starts with head. 0 if there
 * is no text (*text NULL), else 1.
 */
static int render_ok(char **text, render_fn fn, const struct fsp_res_doc *doc,
		     const char *what, const char *head, const char *desc)
{
	int ret;

	*text = render(fn, doc, &ret);
	tap_ok(*text && !ret, "%s renders", what);
	if (*text && head)
		tap_ok(!strncmp(*text, head, strlen(head)), "%s", desc);
	return !!*text;
}

static char *compare(const struct fsp_res_doc *a, const struct fsp_res_doc *b,
		     int *worse, int *ret)
{
	return capture(NULL, a, b, worse, ret);
}

/* Lines of text that start with prefix. */
static int count_prefix(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text;
	int count = 0;

	while (p && *p) {
		if (!strncmp(p, prefix, n))
			count++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return count;
}

static int count_str(const char *text, const char *s)
{
	int count = 0;

	while ((text = strstr(text, s))) {
		count++;
		text += strlen(s);
	}
	return count;
}

/* A control character other than '\n' (and '\t' if tab: XML text). */
static int has_control(const char *text, int tab)
{
	for (; *text; text++)
		if ((unsigned char)*text < 0x20 && *text != '\n' &&
		    !(tab && *text == '\t'))
			return 1;
	return 0;
}

static int valid_utf8(const unsigned char *s)
{
	while (*s) {
		int n = *s < 0x80 ? 1 : (*s & 0xe0) == 0xc0 ? 2 :
			(*s & 0xf0) == 0xe0 ? 3 : (*s & 0xf8) == 0xf0 ? 4 : 0;
		int i;

		if (!n || (n == 2 && *s < 0xc2))
			return 0;
		for (i = 1; i < n; i++)
			if ((s[i] & 0xc0) != 0x80)
				return 0;
		s += n;
	}
	return 1;
}

/*
 * A KTAP v1 structure check: every line is a version, plan, result or
 * diagnostic line; subtests are indented two spaces per level; results
 * are numbered 1..N at each level and match the plan; a description has
 * no '#'. Returns 0, or -1 with the offending line in why.
 */
static int ktap_check(const char *text, char *why, size_t len)
{
	int plan[8], next[8], depth = -1, lineno = 0;
	const char *p = text;

	while (*p) {
		const char *eol = strchr(p, '\n');
		char line[1024], *s;
		int indent = 0, level, n;

		if (!eol)
			eol = p + strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)(eol - p), p);
		p = *eol ? eol + 1 : eol;
		lineno++;
		while (line[indent] == ' ')
			indent++;
		s = line + indent;
		level = indent / 2;
		if (indent % 2 || level > 7)
			goto bad;
		if (!strcmp(s, "KTAP version 1")) {
			if (level != depth + 1)
				goto bad;
			depth = level;
			plan[depth] = -1;
			next[depth] = 1;
		} else if (!strncmp(s, "1..", 3)) {
			if (level != depth || plan[depth] != -1 ||
			    next[depth] != 1)
				goto bad;
			plan[depth] = atoi(s + 3);
		} else if (!strncmp(s, "ok ", 3) || !strncmp(s, "not ok ", 7)) {
			const char *d = s + (*s == 'o' ? 3 : 7), *hash;

			if (level > depth)
				goto bad;
			for (; depth > level; depth--)
				if (plan[depth] != next[depth] - 1)
					goto bad;
			n = atoi(d);
			if (n != next[level]++)
				goto bad;
			d = strchr(d, ' ');
			hash = strchr(line, '#');
			if (!d || (hash && strncmp(hash - 1, " # ", 3)))
				goto bad;
		} else if (*s != '#') {
			goto bad;
		}
	}
	if (depth != 0 || plan[0] != next[0] - 1) {
		snprintf(why, len, "plan 1..%d, %d results at the end",
			 depth >= 0 ? plan[0] : -1,
			 depth >= 0 ? next[0] - 1 : 0);
		return -1;
	}
	return 0;
bad:
	snprintf(why, len, "line %d", lineno);
	return -1;
}

static void test_ktap(struct fsp_res_doc *new, struct fsp_res_doc *old, struct fsp_res_doc *esc)
{
	char *k, why[64];
	int ret;

	if (!render_ok(&k, fsp_report_ktap, new, "ktap 6.18",
		       "KTAP version 1\n1..6\n",
		       "ktap 6.18: version line, then plan 1..6"))
		return;
	tap_ok(!ktap_check(k, why, sizeof(why)), "ktap 6.18 structure (%s)",
	       ktap_check(k, why, sizeof(why)) ? why : "ok");
	TAP_EQ_LONG(count_prefix(k, "ok "), 5, "ktap 6.18: top-level ok");
	TAP_EQ_LONG(count_prefix(k, "not ok "), 1,
		    "ktap 6.18: top-level not ok");
	tap_ok(tap_has_line(k, "not ok 2 xfs-default"),
	       "ktap 6.18: a failed probe makes its profile not ok");
	tap_ok(tap_has_line(k, "  not ok 5 truncate-split"),
	       "ktap 6.18: the failed probe in the subtest");
	tap_ok(tap_has_line(k, "  # reason: EOF page not zeroed past the cut: "
			"byte 5246977 reads 0xa5, want 0x00"),
	       "ktap 6.18: a failure's reason as a diagnostic line");
	tap_ok(tap_has_line(k, "  ok 3 collapse # SKIP MADV_COLLAPSE: EINVAL "
			"(READ_ONLY_THP_FOR_FS not set)"),
	       "ktap 6.18: probe skip with the SKIP directive and the reason");
	tap_ok(tap_has_line(k, "ok 6 erofs-lz4 # SKIP required tool mkfs.erofs "
			"not found"),
	       "ktap 6.18: a skipped profile without probes");
	tap_ok(tap_has_line(k, "ok 3 btrfs-default"),
	       "ktap 6.18: verdict base is information, not a failure");
	tap_ok(tap_has_line(k, "# verdict: pmd route: fault max_order: read=9 "
			"fault=9"), "ktap 6.18: verdict diagnostic line");
	tap_ok(tap_has_line(k, "# verdict: skip route: none max_order: read=- "
			"fault=-"), "ktap 6.18: missing route/max_order");
	tap_ok(tap_has_line(k, "  # file_pmd_mapped_kb: 8192"),
	       "ktap 6.18: evidence as key: value diagnostic lines");
	tap_ok(tap_has_line(k, "  # orders: {\"0\":3,\"2\":1,\"9\":4}"),
	       "ktap 6.18: nested evidence as one line of JSON");
	TAP_EQ_LONG(count_prefix(k, "  KTAP version 1"), 5,
		    "ktap 6.18: one subtest per profile with probes");
	TAP_EQ_LONG(count_prefix(k, "  1..9"), 3, "ktap 6.18: subtest plans");
	free(k);

	k = render(fsp_report_ktap, old, &ret);
	tap_ok(k && !ret && !ktap_check(k, why, sizeof(why)),
	       "ktap 6.12 renders with a valid structure");
	tap_ok(k && tap_has_line(k, "not ok 6 squashfs-xz # ERROR worker killed "
			     "by signal 9"),
	       "ktap 6.12: verdict error is not ok with the ERROR directive");
	tap_ok(k && tap_has_line(k, "# verdict: pmd-collapse-only route: collapse "
			     "max_order: read=0 fault=0"),
	       "ktap 6.12: collapse-only verdict line");
	tap_ok(k && tap_has_line(k, "# thp: enabled=madvise shmem_enabled=never "
			     "read_only_thp_for_fs=true"),
	       "ktap 6.12: THP header diagnostic");
	free(k);

	k = render(fsp_report_ktap, esc, &ret);
	tap_ok(k && !ret && !ktap_check(k, why, sizeof(why)),
	       "ktap hostile text: valid structure (%s)",
	       k && ktap_check(k, why, sizeof(why)) ? why : "ok");
	if (!k)
		return;
	tap_ok(!has_control(k, 0), "ktap hostile text: no control characters");
	tap_ok(tap_has_line(k, "not ok 1 weird_one <&>") &&
	       tap_has_line(k, "  not ok 1 odd_name"),
	       "ktap hostile text: hash signs in names replaced");
	tap_ok(tap_has_line(k, "  not ok 3 mystery # ERROR unknown result "
			"'frobnicated'"), "ktap: unknown result is an ERROR");
	tap_ok(tap_has_line(k, "  # nul: a b"), "ktap: embedded NUL kept apart");
	tap_ok(tap_has_line(k, "not ok 3 broken # ERROR mkfs said <&\"'> then  "
			"bell [0m tab newline ]]> \xc3\xa9t\xc3\xa9 " ARROW),
	       "ktap: an error reason stays on its result line");
	free(k);
}

static int table_plain(FILE *out, const struct fsp_res_doc *doc)
{
	return fsp_report_table(out, doc, NULL);
}

static int table_verbose(FILE *out, const struct fsp_res_doc *doc)
{
	struct fsp_render_opts o = { .verbose = 1 };

	return fsp_report_table(out, doc, &o);
}

static int table_colour(FILE *out, const struct fsp_res_doc *doc)
{
	struct fsp_render_opts o = { .colour = 1 };

	return fsp_report_table(out, doc, &o);
}

static void test_folio_size(void)
{
	static const struct { long long ps; int order; const char *want; }
	cases[] = {
		{ 4096, 0, "4K" }, { 4096, 6, "256K" }, { 4096, 9, "2M" },
		{ 4096, 8, "1M" }, { 4096, 18, "1G" }, { 65536, 13, "512M" },
		{ 4096, -1, "-" }, { FSP_RES_ABSENT, 9, "order 9" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fsp_report_folio_size(cases[i].ps, cases[i].order, buf,
				      sizeof(buf));
		tap_ok(!strcmp(buf, cases[i].want), "folio size: page %lld "
		       "order %d is %s (got %s)", cases[i].ps, cases[i].order,
		       cases[i].want, buf);
	}
}

/* The short table: header, a line per profile, failures, summary. */
static void test_table(const struct fsp_res_doc *new,
		       const struct fsp_res_doc *old)
{
	char *t;
	int ret;

	if (!render_ok(&t, table_plain, new, "table 6.18", NULL, NULL))
		return;
	tap_ok(tap_has_line(t, "fsprobe 0.1.0 on Linux 6.18.0 x86_64, page 4K, "
			"PMD 2M (order 9)"), "table: kernel header line");
	tap_ok(tap_has_line(t, "THP enabled=madvise shmem_enabled=never "
			"defrag=madvise; READ_ONLY_THP_FOR_FS not set "
			"(/boot/config-6.18.0)"), "table: THP header line");
	tap_ok(tap_has_line(t, "PROFILE           FS       VERDICT           "
			"ROUTE          READ  FAULT REASON"),
	       "table: column heads sized to the longest profile name");
	tap_ok(tap_has_line(t, "xfs-default       xfs      pmd               "
			"fault          2M    2M"), "table: xfs verdict line");
	tap_ok(tap_has_line(t, "btrfs-default     btrfs    base              "
			"-              4K    4K    only order-0 folios "
			"observed"), "table: btrfs verdict line with its reason");
	tap_ok(tap_has_line(t, "tmpfs-huge-always tmpfs    shmem-pmd         "
			"shmem          2M    2M"), "table: tmpfs verdict line");
	tap_ok(tap_has_line(t, "erofs-lz4         erofs    skip              "
			"-              -     -     required tool mkfs.erofs "
			"not found"), "table: a skip has no folio sizes");
	tap_ok(tap_has_line(t, "Probes that failed or errored (-v shows every "
			"probe):") && tap_has_line(t, "xfs-default:") &&
	       tap_has_line(t, "  FAIL  truncate-split   EOF page not zeroed past "
			"the cut: byte 5246977 reads 0xa5, want 0x00") &&
	       tap_has_line(t, "                         eof_tail_zero=false "
			"first_bad_offset=5246977"),
	       "table: a failed probe in capitals, its reason and evidence");
	TAP_EQ_LONG(count_prefix(t, "  pass "), 0, "table: no passing probe "
		    "without -v");
	TAP_EQ_LONG(count_prefix(t, "ext4-default:"), 0,
		    "table: no section for a profile whose probes all passed");
	tap_ok(tap_has_line(t, "  keep PMD text without READ_ONLY_THP_FOR_FS "
			"(fault route): ext4-default,") &&
	       tap_has_line(t, "    xfs-default") &&
	       tap_has_line(t, "  never reached PMD here: btrfs-default (base), "
			"squashfs-xz (base)") &&
	       tap_has_line(t, "  tmpfs: tmpfs-huge-always (shmem-pmd)") &&
	       tap_has_line(t, "  not measured: erofs-lz4 (skip)"),
	       "table 6.18: summary, wrapped at 79 columns");
	tap_ok(tap_has_line(t, "  probes: 23 pass, 1 fail, 15 skip"),
	       "table 6.18: probe counts");
	TAP_EQ_LONG(count_str(t, "\n"), 27, "table 6.18: 27 lines");
	TAP_EQ_LONG(count_str(t, "\033["), 0, "table: no colour unless asked");
	free(t);

	t = render(table_verbose, new, &ret);
	tap_ok(t && !ret && tap_has_line(t, "ext4-default:") &&
	       tap_has_line(t, "  pass  read-order       source=tracefs "
			"max_order=9") &&
	       tap_has_line(t, "  FAIL  truncate-split   EOF page not zeroed past "
			"the cut: byte 5246977 reads 0xa5, want 0x00") &&
	       !strstr(t, "Probes that failed"),
	       "table -v: every probe with its evidence");
	TAP_EQ_LONG(count_prefix(t, "  pass "), 23, "table -v: 23 passes");
	free(t);

	t = render(table_colour, new, &ret);
	tap_ok(t && !ret && strstr(t, "xfs-default       xfs      "
				   "\033[1;32mpmd              \033[0m fault") &&
	       strstr(t, "  \033[1;31mFAIL \033[0m truncate-split") &&
	       strstr(t, "\033[31mbase             \033[0m"),
	       "table: colour codes around verdicts and FAIL when asked");
	free(t);

	t = render(table_plain, old, &ret);
	tap_ok(t && !ret && tap_has_line(t, "THP enabled=madvise shmem_enabled="
				     "never defrag=madvise; "
				     "READ_ONLY_THP_FOR_FS=y "
				     "(/boot/config-6.12.57-rothp)") &&
	       tap_has_line(t, "  lose PMD text when READ_ONLY_THP_FOR_FS goes "
			"(collapse only): ext4-default,") &&
	       tap_has_line(t, "    btrfs-default"),
	       "table 6.12: READ_ONLY_THP_FOR_FS and collapse-only summary, "
	       "wrapped");
	free(t);
	t = render(table_plain, NULL, &ret);
	TAP_EQ_LONG(ret, -EINVAL, "table: no document");
	free(t);
	test_folio_size();
}

/*
 * In doc (fsp_res_doc_json's tree), add key: val to each profile named
 * name, or to its member object where member is given; consumes val.
 */
static void profile_add(struct json_object *doc, const char *name,
			const char *member, const char *key,
			struct json_object *val)
{
	struct json_object *profs = fsp_json_get(doc, "profiles");
	size_t i;

	for (i = 0; i < json_object_array_length(profs); i++) {
		struct json_object *p = json_object_array_get_idx(profs, i);
		struct json_object *n = fsp_json_get(p, "name");

		if (member)
			p = fsp_json_get(p, member);
		if (p && n && !strcmp(json_object_get_string(n), name))
			json_object_object_add(p, key, json_object_get(val));
	}
	json_object_put(val);
}

/* erofs-lz4 of run-6.18.json as a profile whose fs the kernel lacks. */
static struct fsp_res_doc *fs_absent_doc(const struct fsp_res_doc *from)
{
	struct json_object *doc = fsp_res_doc_json(from);

	profile_add(doc, "erofs-lz4", NULL, "reason",
		    json_object_new_string("filesystem 'erofs' is not in "
					   "this kernel (/proc/filesystems)"));
	profile_add(doc, "xfs-default", "max_order", "min",
		    json_object_new_int(2));
	return decode(doc);
}

/*
 * Profiles whose filesystem is not in the kernel share one line under
 * the table (-v: a line each); max_order.min survives decode/encode.
 */
static void test_table_absent(const struct fsp_res_doc *new)
{
	struct fsp_res_doc *d = fs_absent_doc(new);
	struct json_object *j;
	char *t;
	int ret, i, min = -9;

	tap_ok(d != NULL, "a document with a filesystem not in the kernel");
	if (!d)
		return;
	t = render(table_plain, d, &ret);
	tap_ok(t && !ret && !count_prefix(t, "erofs-lz4 ") &&
	       tap_has_line(t, "  skip, filesystem not in this kernel: erofs-lz4") &&
	       !strstr(t, "not measured: erofs-lz4"),
	       "table: a filesystem not in the kernel is on the one line");
	free(t);
	t = render(table_verbose, d, &ret);
	tap_ok(t && !ret && count_prefix(t, "erofs-lz4 ") == 1 &&
	       !strstr(t, "filesystem not in this kernel:"),
	       "table -v: it has a line of its own");
	free(t);
	for (i = 0; i < d->nr_profiles; i++)
		if (!strcmp(d->profiles[i].name, "xfs-default"))
			min = d->profiles[i].min_order;
	TAP_EQ_LONG(min, 2, "max_order.min decoded");
	j = fsp_res_doc_json(d);
	t = j ? strdup(json_object_to_json_string(j)) : NULL;
	tap_ok(t && strstr(t, "\"read\": 9, \"fault\": 9, \"min\": 2") &&
	       count_str(t, "\"min\"") == 1,
	       "max_order.min encoded, only where it was set");
	free(t);
	json_object_put(j);
	fsp_res_doc_free(d);
}

static void test_junit(struct fsp_res_doc *new, struct fsp_res_doc *esc)
{
	struct json_object *doc, *pr, *ev, *profs;
	struct fsp_res_doc *m;
	char *x;
	int ret;

	if (!render_ok(&x, fsp_report_junit, new, "junit 6.18",
		       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
		       "junit: XML declaration first"))
		return;
	tap_ok(strstr(x, "<testsuites name=\"fsprobe\" tests=\"40\" "
		      "failures=\"1\" errors=\"0\" skipped=\"16\" "
		      "time=\"5.762\">") != NULL, "junit 6.18: totals");
	TAP_EQ_LONG(count_str(x, "<testsuite "), 6, "junit: one suite each");
	TAP_EQ_LONG(count_str(x, "<testcase "), 40, "junit: testcases");
	TAP_EQ_LONG(count_str(x, "<skipped "), 16, "junit: skipped");
	tap_ok(strstr(x, "<testsuite name=\"xfs-default\" tests=\"9\" "
		      "failures=\"1\" errors=\"0\" skipped=\"2\" "
		      "time=\"1.240\">") != NULL, "junit: xfs suite counts");
	tap_ok(strstr(x, "<testcase classname=\"fsprobe.xfs-default\" "
		      "name=\"truncate-split\" time=\"0.063\">\n"
		      "      <failure message=\"EOF page not zeroed past the "
		      "cut: byte 5246977 reads 0xa5, want 0x00\" "
		      "type=\"fail\">") != NULL, "junit: failure with message");
	tap_ok(strstr(x, "<testcase classname=\"fsprobe.erofs-lz4\" "
		      "name=\"profile\">\n      <skipped message=\"required "
		      "tool mkfs.erofs not found\"/>") != NULL,
	       "junit: skipped profile without probes: testcase 'profile'");
	tap_ok(strstr(x, "<property name=\"verdict\" value=\"shmem-pmd\"/>") &&
	       strstr(x, "<property name=\"kernel\" value=\"6.18.0\"/>") &&
	       strstr(x, "<property name=\"max_order.fault\" "
		      "value=\"unmeasured\"/>"),
	       "junit: properties, unmeasured order");
	tap_ok(strstr(x, "file_pmd_mapped_kb: 8192\n") != NULL,
	       "junit: evidence in system-out");
	free(x);

	if (!render_ok(&x, fsp_report_junit, esc, "junit hostile text", NULL,
		       NULL))
		return;
	tap_ok(!has_control(x, 1) && valid_utf8((unsigned char *)x),
	       "junit hostile text: no control characters, valid UTF-8");
	tap_ok(strstr(x, "<failure message=\"mkfs said &lt;&amp;&quot;&apos;"
		      "&gt; then \xef\xbf\xbd" "bell\xef\xbf\xbd[0m&#9;tab"
		      "&#10;newline ]]&gt; \xc3\xa9t\xc3\xa9 " ARROW "\"") !=
	       NULL, "junit: attribute escaping, controls -> U+FFFD");
	tap_ok(strstr(x, "reason: mkfs said &lt;&amp;\"'&gt; then "
		      "\xef\xbf\xbd" "bell") != NULL,
	       "junit: text escaping");
	tap_ok(strstr(x, "<testsuite name=\"weird#one &lt;&amp;&gt;\"") &&
	       strstr(x, "classname=\"fsprobe.weird#one &lt;&amp;&gt;\""),
	       "junit: names escaped");
	tap_ok(strstr(x, "nul: a\xef\xbf\xbd" "b\n") != NULL,
	       "junit: embedded NUL -> U+FFFD");
	tap_ok(strstr(x, "<testcase classname=\"fsprobe.broken\" "
		      "name=\"profile\">\n      <error message=") != NULL,
	       "junit: verdict error gets an errored 'profile' testcase");
	tap_ok(strstr(x, "errors=\"3\" skipped=\"2\"") != NULL,
	       "junit: unknown result and errors counted as errors");
	free(x);

	/* Bytes no JSON file of ours holds: broken UTF-8, U+FFFE, dots. */
	doc = fsp_res_doc_json(esc);
	profs = fsp_json_get(doc, "profiles");
	pr = json_object_array_get_idx(fsp_json_get(
		json_object_array_get_idx(profs, 0), "probes"), 0);
	ev = fsp_json_get(pr, "evidence");
	json_object_object_add(ev, "raw", json_object_new_string(
		"\xff|\xc0\xaf|\xed\xa0\x80|\xef\xbf\xbe|\xf4\x90\x80\x80|"
		"\xe2\x82|ok\xf0\x9f\x90\xa7"));
	json_object_object_add(json_object_array_get_idx(profs, 1), "name",
			       json_object_new_string("ext4.1k"));
	m = decode(doc);
	x = render(fsp_report_junit, m, &ret);
	tap_ok(x && valid_utf8((unsigned char *)x) &&
	       strstr(x, "raw: " R "|" R R "|" R "|" R "|" R R R R "|" R R
		      "|ok") &&
	       strstr(x, "|ok\xf0\x9f\x90\xa7\n"),
	       "junit: invalid UTF-8 replaced, valid 4-byte kept");
	tap_ok(x && strstr(x, "classname=\"fsprobe.ext4_1k\"") &&
	       strstr(x, "<testsuite name=\"ext4.1k\""),
	       "junit: dots in classname only become '_'");
	free(x);
	fsp_res_doc_free(m);
}

static void test_tolerant(void)
{
	struct fsp_res_doc *doc = decode(json_tokener_parse(
		"{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":[{\"name\":"
		"\"p\",\"verdict\":\"pmd\",\"max_order\":{\"read\":null},"
		"\"probes\":[{\"name\":\"a\",\"result\":\"pass\"}]}]}"));
	struct fsp_res_doc *empty = decode(json_tokener_parse(
		"{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":[]}"));
	char *k, *x;
	int r1, r2;

	k = render(fsp_report_ktap, doc, &r1);
	x = render(fsp_report_junit, doc, &r2);
	tap_ok(k && !r1 && tap_has_line(k, "ok 1 p") &&
	       tap_has_line(k, "# verdict: pmd route: none max_order: read=- "
			"fault=-") && tap_has_line(k, "  ok 1 a"),
	       "ktap: optional keys missing");
	tap_ok(x && !r2 && strstr(x, "<testcase classname=\"fsprobe.p\" "
				  "name=\"a\">") &&
	       strstr(x, "tests=\"1\" failures=\"0\" errors=\"0\" "
		      "skipped=\"0\">"),
	       "junit: optional keys missing, no time attributes");
	free(k);
	free(x);
	k = render(fsp_report_ktap, empty, &r1);
	tap_ok(k && !r1 && !strncmp(k, "KTAP version 1\n1..0\n", 20),
	       "ktap: no profiles is plan 1..0");
	free(k);
	k = render(fsp_report_ktap, NULL, &r1);
	TAP_EQ_LONG(r1, -EINVAL, "ktap: no document");
	free(k);
	fsp_res_doc_free(doc);
	fsp_res_doc_free(empty);
}

/*
 * compare(doc, a copy of doc with the verdicts set that follow ret:
 * profile, verdict, ..., NULL), the worse flag checked as one TAP test
 * (want, desc). The text, *ret the return.
 */
static char *compare_changed(const struct fsp_res_doc *doc, int want,
			     const char *desc, int *ret, ...)
{
	struct json_object *obj = fsp_res_doc_json(doc);
	struct fsp_res_doc *copy;
	const char *profile;
	int worse = -1;
	va_list ap;
	char *text;

	va_start(ap, ret);
	while ((profile = va_arg(ap, const char *)))
		profile_add(obj, profile, NULL, "verdict",
			    json_object_new_string(va_arg(ap, const char *)));
	va_end(ap);
	copy = decode(obj);
	text = compare(doc, copy, &worse, ret);
	TAP_EQ_LONG(worse, want, desc);
	fsp_res_doc_free(copy);
	return text;
}

static void test_compare(struct fsp_res_doc *new, struct fsp_res_doc *old)
{
	int worse = -1, ret;
	char *c;

	c = compare(old, new, &worse, &ret);
	tap_ok(c && !ret, "compare 6.12 -> 6.18 renders");
	if (!c)
		return;
	TAP_EQ_LONG(worse, 1, "compare 6.12 -> 6.18: worse");
	tap_ok(tap_has_line(c, "  old: kernel 6.12.57-rothp (x86_64, fsprobe "
			"0.1.0, READ_ONLY_THP_FOR_FS=y, THP "
			"enabled=madvise)") &&
	       strstr(c, "  new: kernel 6.18.0 ("),
	       "compare: header names both kernels");
	tap_ok(tap_has_line(c, "  btrfs-default: pmd-collapse-only " ARROW
			" base (WORSE); route collapse " ARROW " none"),
	       "compare: collapse-only -> base");
	tap_ok(tap_has_line(c, "      truncate-split: pass " ARROW " fail "
			"(WORSE): EOF page not zeroed past the cut: byte "
			"5246977 reads 0xa5, want 0x00"),
	       "compare: probe pass -> fail");
	tap_ok(!!strstr(c, "\n  ext4-default: pmd-collapse-only " ARROW
		      " pmd (better); route collapse " ARROW " fault; "
		      "max_order read 0 " ARROW " 9, fault 0 " ARROW " 9\n"),
	       "compare: better, with route and order changes");
	tap_ok(tap_has_line(c, "  reiserfs-default: removed (was base)") &&
	       tap_has_line(c, "  erofs-lz4: added (skip: required tool "
			"mkfs.erofs not found)"),
	       "compare: removed and added profiles");
	tap_ok(tap_has_line(c, "  squashfs-xz: error " ARROW " base (not "
			"measured before: worker killed by signal 9)"),
	       "compare: error -> measured is 'not measured before', "
	       "with the old side's reason");
	tap_ok(tap_has_line(c, "  gain PMD text (now pmd): ext4-default "
			"(pmd-collapse-only " ARROW " pmd)") &&
	       tap_has_line(c, "  lose PMD text (was pmd): none") &&
	       tap_has_line(c, "  result: WORSE, 2 measured regressions"),
	       "compare: summary");
	free(c);

	c = compare_changed(new, 1, "compare pmd -> base: worse", &ret,
			    "xfs-default", "base", NULL);
	tap_ok(c && !ret && tap_has_line(c, "  xfs-default: pmd " ARROW
				     " base (WORSE)"),
	       "compare: 'xfs-default: pmd " ARROW " base'");
	tap_ok(c && tap_has_line(c, "  lose PMD text (was pmd): xfs-default "
			     "(pmd " ARROW " base)"),
	       "compare: lose PMD text names xfs-default");
	free(c);

	c = compare(new, new, &worse, &ret);
	TAP_EQ_LONG(worse, 0, "compare equal documents: not worse");
	tap_ok(c && !ret && tap_has_line(c, "  xfs-default: pmd (unchanged)") &&
	       tap_has_line(c, "  result: no measured regression") &&
	       !strstr(c, ARROW " fail"), "compare equal: all unchanged");
	free(c);

	c = compare_changed(new, 0, "compare pmd -> skip: not measured, not "
			    "worse", &ret, "ext4-default", "skip",
			    "tmpfs-huge-always", "error", NULL);
	tap_ok(c && strstr(c, "\n  ext4-default: pmd " ARROW " skip (not "
			   "measured)\n") &&
	       strstr(c, "not measured on one side (skip/error, not "
		      "counted): ext4-default (pmd " ARROW " skip), "
		      "tmpfs-huge-always (shmem-pmd " ARROW " error)"),
	       "compare: skip/error transitions reported as not measured");
	free(c);

	c = compare(new, old, &worse, &ret);
	TAP_EQ_LONG(worse, 1, "compare 6.18 -> 6.12: worse");
	tap_ok(c && tap_has_line(c, "      truncate-split: fail " ARROW " pass "
			     "(fixed)") &&
	       strstr(c, "\n  ext4-default: pmd " ARROW " pmd-collapse-only "
		      "(WORSE)"), "compare backwards: fixed, and pmd lost");
	free(c);
	c = compare(NULL, new, &worse, &ret);
	TAP_EQ_LONG(ret, -EINVAL, "compare: no document");
	free(c);
}

/* Write text to a temporary file and load it; the message in err. */
static int load_text(const char *text, char *path, size_t plen,
		     char *err, size_t elen, struct fsp_res_doc **doc)
{
	const char *tmp = getenv("TMPDIR");
	FILE *f;
	int fd, ret;

	*doc = NULL;
	snprintf(path, plen, "%s/t-report.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -errno;
	}
	fputs(text, f);
	fclose(f);
	*doc = (struct fsp_res_doc *)1;
	ret = fsp_doc_load(path, doc, err, elen);
	unlink(path);
	return ret;
}

static void expect_load_error(const char *text, const char *msg,
			      const char *what)
{
	struct fsp_res_doc *doc;
	char path[4200], err[512];
	int ret;

	ret = load_text(text, path, sizeof(path), err, sizeof(err), &doc);
	tap_ok(ret == -EINVAL && !doc && strstr(err, path) == err &&
	       strstr(err, msg), "load %s: -EINVAL, '%s' (got %d '%s')",
	       what, msg, ret, err);
}

static void test_load(void)
{
	struct fsp_res_doc *doc = (struct fsp_res_doc *)1;
	char err[512], path[4200];
	int ret;

	ret = fsp_doc_load("/nonexistent/run.json", &doc, err, sizeof(err));
	tap_ok(ret == -ENOENT && !doc &&
	       !strcmp(err, "/nonexistent/run.json: No such file or "
		       "directory"), "load missing file: -ENOENT (%s)", err);
	expect_load_error("{\"fsprobe\": \"0\",\n \"kernel\": }", ":2: not a "
			  "JSON document", "broken JSON");
	expect_load_error("{\"fsprobe\": \"0\"", "ends early", "truncated");
	expect_load_error("{} {}", "text after the end", "two documents");
	expect_load_error("[1]", "top level is not an object", "an array");
	expect_load_error("null", "top level is null", "null");
	expect_load_error(" \n", "empty file", "empty");
	expect_load_error("{\"fsprobe\":\"0\",\"profiles\":[]}",
			  "missing key 'kernel'", "no kernel");
	expect_load_error("{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":"
			  "{}}", "key 'profiles' is not an array (object)",
			  "profiles not an array");
	expect_load_error("{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":"
			  "[{\"name\":\"xfs\"}]}", "profile 'xfs' "
			  "(profiles[0]): missing key 'verdict'", "no verdict");
	expect_load_error("{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":"
			  "[{\"verdict\":\"pmd\"}]}", "profiles[0]: missing "
			  "key 'name'", "no name");
	expect_load_error("{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":"
			  "[{\"name\":\"x\",\"verdict\":\"pmd\"}]}",
			  "missing key 'probes'", "measured without probes");
	expect_load_error("{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":"
			  "[{\"name\":\"x\",\"verdict\":\"pmd\",\"probes\":"
			  "[{\"name\":\"a\",\"result\":\"pass\"},{\"name\":"
			  "\"b\"}]}]}", "profile 'x' (profiles[0]): "
			  "probes[1]: missing key 'result'", "no result");
	expect_load_error("{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":"
			  "[{\"name\":\"x\",\"verdict\":null,\"probes\":[]}]}",
			  "key 'verdict' is not a string (null)",
			  "null verdict");
	ret = load_text("{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":"
			"[{\"name\":\"x\",\"verdict\":\"skip\",\"reason\":"
			"\"not root\"}]}\n", path, sizeof(path), err,
			sizeof(err), &doc);
	tap_ok(!ret && doc, "load: a skipped profile may have no probes");
	fsp_res_doc_free(doc);
}

/* A copy of doc with thp.read_only_thp_for_fs_state set to v. */
static struct fsp_res_doc *set_ro_state(const struct fsp_res_doc *from,
					struct json_object *v)
{
	struct json_object *doc = fsp_res_doc_json(from);

	json_object_object_add(fsp_json_get(doc, "thp"),
			       "read_only_thp_for_fs_state", v);
	return decode(doc);
}

/*
 * The option's state: decoded, encoded beside the boolean, shown by the
 * table and compare headers; documents without the key stay without it.
 */
static void test_ro_state(struct fsp_res_doc *new, struct fsp_res_doc *old)
{
	struct fsp_res_doc *abs = set_ro_state(new,
				json_object_new_string("absent"));
	struct fsp_res_doc *bad = set_ro_state(new,
				json_object_new_string("maybe"));
	struct json_object *o = fsp_res_doc_json(new);
	const char *js;
	int worse, ret;
	char *t, *c;

	tap_ok(!fsp_json_get(fsp_json_get(o, "thp"),
			     "read_only_thp_for_fs_state"),
	       "ro state: a document without the key is encoded without it");
	json_object_put(o);
	tap_ok(!bad, "ro state: 'maybe' is refused by the decoder");
	tap_ok(abs && abs->thp.has_ro_state &&
	       !strcmp(abs->thp.read_only_thp_for_fs_state, "absent"),
	       "ro state: 'absent' decoded");
	if (!abs)
		return;
	o = fsp_res_doc_json(abs);
	js = json_object_to_json_string(fsp_json_get(o, "thp"));
	tap_ok(!!strstr(js, "\"read_only_thp_for_fs\": false, "
		      "\"read_only_thp_for_fs_state\": \"absent\", "
		      "\"config_source\""),
	       "ro state: encoded after the boolean (%s)", js);
	json_object_put(o);
	t = render(table_plain, abs, &ret);
	tap_ok(t && strstr(t, "READ_ONLY_THP_FOR_FS absent (not in the "
			   "config)"), "ro state: table header says absent");
	tap_ok(t && strstr(t, "  PMD text without READ_ONLY_THP_FOR_FS (gone "
			   "from this kernel), by route:\n") &&
	       strstr(t, "xfs-default (fault)") &&
	       strstr(t, "  order-0 folios only: btrfs-default") &&
	       !strstr(t, "when READ_ONLY_THP_FOR_FS goes"),
	       "ro state absent: the summary speaks of the removal as done");
	free(t);
	t = render(table_plain, new, &ret);
	tap_ok(t && strstr(t, "  keep PMD text without READ_ONLY_THP_FOR_FS "
			   "(fault route): ") &&
	       strstr(t, "  lose PMD text when READ_ONLY_THP_FOR_FS goes "
		      "(collapse only): "),
	       "ro state not set: the summary speaks of the removal to come");
	c = compare(old, abs, &worse, &ret);
	tap_ok(c && strstr(c, "  new: kernel 6.18.0 (x86_64, fsprobe 0.1.0, "
			   "READ_ONLY_THP_FOR_FS absent, THP enabled="),
	       "ro state: compare header says absent");
	free(t);
	free(c);
	fsp_res_doc_free(abs);
}

/* The exit status from the model: error makes it 1, skip does not. */
static void test_exit(void)
{
#define DOC(profiles) "{\"fsprobe\":\"0\",\"kernel\":\"k\",\"profiles\":[" \
	profiles "]}"
#define PROBE(r) "{\"name\":\"a\",\"result\":\"" r "\"}"
	struct fsp_res_doc *err = decode(json_tokener_parse(DOC(
		"{\"name\":\"e\",\"verdict\":\"error\",\"reason\":"
		"\"mkfs.ext4 failed (exit 1)\"}")));
	struct fsp_res_doc *skip = decode(json_tokener_parse(DOC(
		"{\"name\":\"s\",\"verdict\":\"skip\",\"reason\":\"no\"},"
		"{\"name\":\"t\",\"verdict\":\"skip\",\"probes\":["
		PROBE("skip") "," PROBE("pass") "]}")));
	struct fsp_res_doc *both = decode(json_tokener_parse(DOC(
		"{\"name\":\"p\",\"verdict\":\"pmd\",\"probes\":["
		PROBE("pass") "]},{\"name\":\"e\",\"verdict\":\"error\","
		"\"probes\":[" PROBE("pass") "]}")));
	struct fsp_res_doc *fail = decode(json_tokener_parse(DOC(
		"{\"name\":\"p\",\"verdict\":\"pmd\",\"probes\":["
		PROBE("fail") "]}")));
	struct fsp_res_doc *good = decode(json_tokener_parse(DOC(
		"{\"name\":\"p\",\"verdict\":\"base\",\"probes\":["
		PROBE("pass") "," PROBE("skip") "]}")));
	char *k, *x;
	int r1, r2;

	TAP_EQ_LONG(fsp_doc_exit_status(err), 1,
		    "exit status: verdict error alone is 1");
	TAP_EQ_LONG(fsp_doc_exit_status(both), 1,
		    "exit status: an error profile among measured ones is 1");
	TAP_EQ_LONG(fsp_doc_exit_status(skip), 0,
		    "exit status: skip verdicts and skipped probes are 0");
	TAP_EQ_LONG(fsp_doc_exit_status(fail), 1,
		    "exit status: a failed probe is 1");
	TAP_EQ_LONG(fsp_doc_exit_status(good), 0,
		    "exit status: verdict base with passed probes is 0");
	k = render(fsp_report_ktap, err, &r1);
	x = render(fsp_report_junit, err, &r2);
	tap_ok(k && !r1 && tap_has_line(k, "not ok 1 e # ERROR mkfs.ext4 failed "
				    "(exit 1)"),
	       "ktap: verdict error is 'not ok ... # ERROR reason'");
	tap_ok(x && !r2 && strstr(x, "errors=\"1\"") &&
	       strstr(x, "<error message=\"mkfs.ext4 failed (exit 1)\" "
		      "type=\"error\">"),
	       "junit: verdict error is an <error>");
	free(k);
	free(x);
	k = render(fsp_report_ktap, skip, &r1);
	tap_ok(k && !r1 && tap_has_line(k, "ok 1 s # SKIP no") &&
	       tap_has_line(k, "ok 2 t # SKIP"), "ktap: skip verdicts are ok, SKIP directive");
	free(k);
	fsp_res_doc_free(err);
	fsp_res_doc_free(skip);
	fsp_res_doc_free(both);
	fsp_res_doc_free(fail);
	fsp_res_doc_free(good);
#undef DOC
#undef PROBE
}

/* A document over FSP_RES_DOC_MAX is refused before it is parsed. */
static void test_too_large(void)
{
	char path[] = "/tmp/t-report-big.XXXXXX", err[512];
	struct fsp_res_doc *doc = NULL;
	int fd = mkstemp(path), ret;

	if (fd < 0 || ftruncate(fd, FSP_RES_DOC_MAX + 1)) {
		tap_ok(0, "document over 64 MiB: cannot make one");
		return;
	}
	close(fd);
	ret = fsp_doc_load(path, &doc, err, sizeof(err));
	tap_ok(ret == -EFBIG && !doc && strstr(err, path) &&
	       strstr(err, "larger than 64 MiB"),
	       "document over 64 MiB refused, file named (%d '%s')", ret, err);
	unlink(path);
}

/* Derive a verdict from one probe of the given name and facts. */
static void derive(const char *name, enum fsp_outcome res, int routes,
		   int order_fault, int shmem, struct fsp_verdict *v)
{
	struct fsp_case c = { .name = name };
	struct fsp_probe p;

	memset(&p, 0, sizeof(p));
	p.c = &c;
	p.result = res;
	p.routes = routes;
	p.order_read = -1;
	p.order_fault = order_fault;
	fsp_verdict_derive(&p, 1, shmem, 9, v);
}

/* The rules of docs/verdicts.md that tell shmem-pmd from shmem-base. */
static void test_verdict_rules(void)
{
	struct fsp_verdict v;

	derive("fault-pmd", FSP_SKIP, 0, 0, 1, &v);
	tap_ok(v.verdict == FSP_V_SHMEM_BASE && !v.reason[0],
	       "verdict: tmpfs, nothing PMD: shmem-base, no reason");
	derive("collapse", FSP_PASS, FSP_ROUTE_COLLAPSE, 0, 1, &v);
	tap_ok(v.verdict == FSP_V_SHMEM_PMD && v.routes == FSP_ROUTE_COLLAPSE &&
	       !strcmp(v.reason, "PMD only through MADV_COLLAPSE; none on "
		       "the fault path"),
	       "verdict: tmpfs, collapse route only: shmem-pmd (%s)",
	       v.reason);
	derive("khugepaged", FSP_PASS, FSP_ROUTE_KHUGEPAGED |
	       FSP_ROUTE_COLLAPSE, -1, 1, &v);
	tap_ok(v.verdict == FSP_V_SHMEM_PMD &&
	       !strcmp(v.reason, "PMD only through MADV_COLLAPSE and "
		       "khugepaged; none on the fault path"),
	       "verdict: tmpfs, collapse and khugepaged: both named (%s)",
	       v.reason);
	derive("fault-pmd", FSP_PASS, FSP_ROUTE_SHMEM | FSP_ROUTE_COLLAPSE, 9,
	       1, &v);
	tap_ok(v.verdict == FSP_V_SHMEM_PMD && !v.reason[0],
	       "verdict: tmpfs, shmem route: shmem-pmd, no reason");
	derive("collapse", FSP_PASS, FSP_ROUTE_COLLAPSE, 0, 0, &v);
	tap_ok(v.verdict == FSP_V_PMD_COLLAPSE_ONLY,
	       "verdict: a file with the collapse route: pmd-collapse-only");
}

/* profiles[].attributes and attribute_evidence survive encode + decode. */
static void test_attributes(void)
{
	struct fsp_res_profile p, back;
	struct json_object *o, *ev = json_object_new_object();
	char err[256] = "";
	int ret;

	fsp_res_profile_init(&p);
	p.name = strdup("ext4-encrypt");
	p.fs = strdup("ext4");
	p.mount_options = strdup("");
	fsp_res_set_verdict(&p, FSP_V_BASE, "only order-0 folios observed");
	fsp_res_add_attribute(&p, "encrypt");
	fsp_res_add_attribute(&p, "immutable");
	json_object_object_add(ev, "files_encrypted", json_object_new_int(14));
	p.attribute_evidence = ev;
	o = fsp_res_profile_json(&p);
	ret = fsp_res_profile_decode(o, "test", "", &back, err, sizeof(err));
	tap_ok(!ret && back.nr_attributes == 2 &&
	       !strcmp(back.attributes[0], "encrypt") &&
	       !strcmp(back.attributes[1], "immutable") &&
	       !back.attributes[2], "attributes round-trip (%s)", err);
	tap_ok(!ret && back.attribute_evidence &&
	       json_object_equal(back.attribute_evidence, ev),
	       "attribute_evidence round-trips");
	json_object_put(o);
	fsp_res_profile_clear(&back);
	fsp_res_profile_clear(&p);
	fsp_res_profile_init(&p);
	p.name = strdup("xfs-default");
	o = fsp_res_profile_json(&p);
	tap_ok(!json_object_object_get_ex(o, "attributes", NULL) &&
	       !json_object_object_get_ex(o, "attribute_evidence", NULL),
	       "no attributes: neither key is written");
	json_object_put(o);
	fsp_res_profile_clear(&p);
}

int main(void)
{
	struct fsp_res_doc *new, *old, *esc;

	tap_data_init();
	new = tap_load_doc("run-6.18.json");
	old = tap_load_doc("run-6.12-rothp.json");
	esc = tap_load_doc("escape.json");
	if (!new || !old || !esc) {
		tap_diag("fixtures missing in %s (set srcdir)", tap_datadir);
		return tap_done();
	}
	test_ktap(new, old, esc);
	test_junit(new, esc);
	test_table(new, old);
	test_table_absent(new);
	test_tolerant();
	test_compare(new, old);
	test_ro_state(new, old);
	test_verdict_rules();
	test_load();
	test_exit();
	test_too_large();
	test_attributes();
	fsp_res_doc_free(new);
	fsp_res_doc_free(old);
	fsp_res_doc_free(esc);
	return tap_done();
}
