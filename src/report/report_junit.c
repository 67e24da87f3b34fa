// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_junit.c - JUnit XML of the result document, in the shape the
 * Jenkins junit/xunit plugins read: <testsuites> with totals, one
 * <testsuite> per profile whose <properties> carry the kernel, THP and
 * verdict facts, one <testcase classname="fsprobe.PROFILE"> per probe
 * with <failure>, <error> or <skipped> and the evidence in <system-out>.
 * A profile that could not run (verdict skip without probes) or whose
 * harness failed (verdict error) gets a testcase named "profile", so a
 * CI dashboard shows it instead of an empty suite. All text goes through
 * one escaper that also produces well-formed XML 1.0 from any bytes:
 * invalid UTF-8 and the control characters XML 1.0 forbids become
 * U+FFFD, and tab/newline in attributes become character references so
 * attribute normalization cannot eat them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "utf8.h"

#define REPLACEMENT FSP_UTF8_REPLACEMENT

/* Not an XML 1.0 Char though well-formed: replaced as a whole. */
static int xml_forbidden(unsigned int cp)
{
	return fsp_utf8_surrogate(cp) || cp == 0xfffe || cp == 0xffff;
}

static void xml_put_len(FILE *out, const char *str, size_t len, int attr)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;
	unsigned int cp;

	while (i < len) {
		unsigned char c = s[i];

		switch (c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs(attr ? "&quot;" : "\"", out);
			break;
		case '\'':
			fputs(attr ? "&apos;" : "'", out);
			break;
		case '\t':
		case '\n':
		case '\r':
			if (attr || c == '\r')
				fprintf(out, "&#%d;", c);
			else
				fputc(c, out);
			break;
		default:
			if (c < 0x20) {
				fputs(REPLACEMENT, out);
				break;
			}
			n = fsp_utf8_seq(s + i, len - i, &cp);
			if (!n) {
				fputs(REPLACEMENT, out);
				break;
			}
			if (xml_forbidden(cp))
				fputs(REPLACEMENT, out);
			else
				fwrite(s + i, 1, n, out);
			i += n;
			continue;
		}
		i++;
	}
}

static void xml_put(FILE *out, const char *s, int attr)
{
	if (s)
		xml_put_len(out, s, strlen(s), attr);
}

/* A JSON value as XML text; strings keep embedded NULs (-> U+FFFD). */
static void xml_put_value(FILE *out, struct json_object *v, int attr)
{
	size_t len;
	const char *s = fsp_report_value_text(v, &len);

	xml_put_len(out, s, len, attr);
}

static void attr(FILE *out, const char *key, const char *val)
{
	fprintf(out, " %s=\"", key);
	xml_put(out, val, 1);
	fputc('"', out);
}

struct counts {
	long tests, failures, errors, skipped;
	long long ms;
	int timed;	/* some time was known */
};

/* What a testcase reports: a probe's outcome, or FSP_NR_OUTCOMES. */
static void count_result(struct counts *c, enum fsp_outcome r)
{
	c->tests++;
	c->failures += r == FSP_FAIL;
	c->errors += r == FSP_ERROR || r >= FSP_NR_OUTCOMES;
	c->skipped += r == FSP_SKIP;
}

/* *sum += v, saturating: a hostile document may hold huge times. */
static void add_ms(long long *sum, long long v)
{
	*sum = v > LLONG_MAX - *sum ? LLONG_MAX : *sum + v;
}

static int nr_probes(const struct fsp_res_profile *p)
{
	return p->has_probes ? p->nr_probes : 0;
}

/*
 * Does the profile get the extra "profile" testcase, and as what?
 * FSP_ERROR for verdict error, FSP_SKIP for skip without probes, else
 * FSP_PASS (no extra testcase).
 */
static enum fsp_outcome profile_case(const struct fsp_res_profile *p)
{
	if (p->verdict == FSP_V_ERROR)
		return FSP_ERROR;
	if (p->verdict == FSP_V_SKIP && !nr_probes(p))
		return FSP_SKIP;
	return FSP_PASS;
}

static void count_profile(const struct fsp_res_profile *p,
			  struct counts *c)
{
	const char *key;
	long long ms, probe_ms = 0;
	int i, probe_timed = 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < nr_probes(p); i++) {
		count_result(c, p->probes[i].result);
		if (p->probes[i].ms >= 0) {
			add_ms(&probe_ms, p->probes[i].ms);
			probe_timed = 1;
		}
	}
	if (profile_case(p) != FSP_PASS)
		count_result(c, profile_case(p));
	/* The profile's wall time: "total" if there is one, else the sum
	 * of its parts (mkfs + mount + probes). */
	if (p->timing.total >= 0) {
		c->ms = p->timing.total;
		c->timed = 1;
	} else {
		for (i = 0; fsp_res_timing_at(&p->timing, i, &key, &ms); i++)
			if (ms >= 0) {
				add_ms(&c->ms, ms);
				c->timed = 1;
			}
	}
	if (!c->timed) {
		c->ms = probe_ms;
		c->timed = probe_timed;
	}
}

static void counts_attrs(FILE *out, const struct counts *c)
{
	fprintf(out, " tests=\"%ld\" failures=\"%ld\" errors=\"%ld\" "
		"skipped=\"%ld\"", c->tests, c->failures, c->errors,
		c->skipped);
	if (c->timed)
		fprintf(out, " time=\"%lld.%03lld\"", c->ms / 1000,
			c->ms % 1000);
}

/* <property name= value=/>; nothing if val and dflt are both NULL. */
static void property(FILE *out, const char *name, const char *val,
		     const char *dflt)
{
	if (!val && !dflt)
		return;
	fputs("      <property", out);
	attr(out, "name", name);
	attr(out, "value", val ? val : dflt);
	fputs("/>\n", out);
}

static void property_int(FILE *out, const char *name, long long v,
			 int present, const char *dflt)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	property(out, name, present ? buf : NULL, dflt);
}

/* A property whose value fn writes (mkfs, route); dflt if !present. */
static void property_mem(FILE *out, const char *name, int present,
			 const char *dflt,
			 void (*fn)(FILE *m, const struct fsp_res_profile *p),
			 const struct fsp_res_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!present) {
		property(out, name, NULL, dflt);
		return;
	}
	m = open_memstream(&buf, &len);
	if (!m)
		return;
	fn(m, p);
	if (!fclose(m))
		property(out, name, buf, dflt);
	free(buf);
}

static void mkfs_words(FILE *m, const struct fsp_res_profile *p)
{
	int i;

	for (i = 0; i < p->nr_mkfs; i++) {
		if (i)
			fputc(' ', m);
		fsp_report_put_line(m, p->mkfs[i], 0);
	}
}

static void route_words(FILE *m, const struct fsp_res_profile *p)
{
	fsp_report_put_routes(m, p->has_probes ? p->routes : 0, ",", "");
}

static void doc_properties(FILE *out, const struct fsp_res_doc *doc)
{
	int ro = doc->thp.read_only_thp_for_fs;

	property(out, "fsprobe", doc->fsprobe, NULL);
	property(out, "kernel", doc->kernel, NULL);
	property(out, "arch", doc->arch, NULL);
	property_int(out, "page_size", doc->page_size,
		     doc->page_size != FSP_RES_ABSENT, NULL);
	property_int(out, "pmd_order", doc->pmd_order, doc->pmd_order >= 0,
		     NULL);
	if (!doc->has_thp)
		return;
	property(out, "thp.enabled", doc->thp.enabled, NULL);
	property(out, "thp.shmem_enabled", doc->thp.shmem_enabled, NULL);
	property(out, "thp.read_only_thp_for_fs", ro < 0 ? NULL :
		 ro ? "true" : "false", NULL);
}

static void properties(FILE *out, const struct fsp_res_doc *doc,
		       const struct fsp_res_profile *p)
{
	int has = p->has_probes;
	const char *key;
	char name[160];
	long long v;
	int i;

	fputs("    <properties>\n", out);
	doc_properties(out, doc);
	property(out, "fs", p->fs, NULL);
	property_mem(out, "mkfs", p->nr_mkfs > 0, NULL, mkfs_words, p);
	property(out, "mount_options", p->mount_options, NULL);
	property(out, "description", p->description, NULL);
	property(out, "verdict", fsp_res_verdict_name(p), NULL);
	property_mem(out, "route", has && p->routes, "none", route_words,
		     p);
	property_int(out, "max_order.read", p->max_order_read,
		     has && p->max_order_read >= 0, "unmeasured");
	property_int(out, "max_order.fault", p->max_order_fault,
		     has && p->max_order_fault >= 0, "unmeasured");
	property(out, "reason", p->reason, NULL);
	for (i = 0; fsp_res_timing_at(&p->timing, i, &key, &v); i++) {
		snprintf(name, sizeof(name), "timing_ms.%s", key);
		property_int(out, name, v, v != FSP_RES_ABSENT, NULL);
	}
	fputs("    </properties>\n", out);
}

/* "fsprobe.PROFILE"; dots in the name would make Jenkins packages. */
static void classname(FILE *out, const char *profile)
{
	size_t n;

	fputs(" classname=\"fsprobe.", out);
	for (;;) {
		n = strcspn(profile, ".");
		xml_put_len(out, profile, n, 1);
		if (!profile[n])
			break;
		fputc('_', out);
		profile += n + 1;
	}
	fputc('"', out);
}

/* <failure>/<error>/<skipped> with the reason as message (and body). */
static void outcome(FILE *out, enum fsp_outcome r, const char *why,
		    const char *unknown)
{
	static const char *const tag[] = {
		[FSP_FAIL] = "failure", [FSP_ERROR] = "error",
		[FSP_NR_OUTCOMES] = "error", [FSP_SKIP] = "skipped",
	};
	static const char *const type[] = {
		[FSP_FAIL] = "fail", [FSP_ERROR] = "error",
		[FSP_NR_OUTCOMES] = "unknown-result",
	};
	char msg[160];

	if (r == FSP_PASS)
		return;
	if (r > FSP_NR_OUTCOMES)
		r = FSP_NR_OUTCOMES;
	if (r == FSP_NR_OUTCOMES && !why) {
		snprintf(msg, sizeof(msg), "unknown result '%s'", unknown);
		why = msg;
	}
	fprintf(out, "      <%s", tag[r]);
	if (why)
		attr(out, "message", why);
	if (type[r])
		attr(out, "type", type[r]);
	if (r == FSP_SKIP || !why) {
		fputs("/>\n", out);
		return;
	}
	fputc('>', out);
	xml_put(out, why, 0);
	fprintf(out, "</%s>\n", tag[r]);
}

static void testcase(FILE *out, const char *profile,
		     const struct fsp_res_probe *pr)
{
	const char *res = fsp_res_result_name(pr);
	struct json_object *ev = pr->evidence;

	res = res ? res : "(none)";
	fputs("    <testcase", out);
	classname(out, profile);
	attr(out, "name", pr->name ? pr->name : "(unnamed)");
	if (pr->ms >= 0)
		fprintf(out, " time=\"%lld.%03lld\"", pr->ms / 1000,
			pr->ms % 1000);
	fputs(">\n", out);
	outcome(out, pr->result, pr->reason, res);
	fputs("      <system-out>", out);
	fputs("result: ", out);
	xml_put(out, res, 0);
	fputc('\n', out);
	if (pr->reason) {
		fputs("reason: ", out);
		xml_put(out, pr->reason, 0);
		fputc('\n', out);
	}
	if (ev && json_object_is_type(ev, json_type_object)) {
		json_object_object_foreach(ev, key, val) {
			xml_put(out, key, 0);
			fputs(": ", out);
			xml_put_value(out, val, 0);
			fputc('\n', out);
		}
	}
	fputs("</system-out>\n    </testcase>\n", out);
}

static void put_order(FILE *out, int order)
{
	if (order >= 0)
		fprintf(out, "%d", order);
	else
		fputc('-', out);
}

static void suite_out(FILE *out, const struct fsp_res_profile *p)
{
	const char *v = fsp_res_verdict_name(p);
	int has = p->has_probes;

	fputs("    <system-out>verdict: ", out);
	xml_put(out, v ? v : "?", 0);
	fputs(" route: ", out);
	fsp_report_put_routes(out, has ? p->routes : 0, ",", "none");
	fputs(" max_order: read=", out);
	put_order(out, has ? p->max_order_read : -1);
	fputs(" fault=", out);
	put_order(out, has ? p->max_order_fault : -1);
	fputs(" (a lower bound of the mapping's max folio order)\n", out);
	if (p->reason) {
		fputs("reason: ", out);
		xml_put(out, p->reason, 0);
		fputc('\n', out);
	}
	fputs("</system-out>\n", out);
}

static void testsuite(FILE *out, const struct fsp_res_doc *doc,
		      const struct fsp_res_profile *p)
{
	const char *name = p->name ? p->name : "(unnamed)";
	enum fsp_outcome pc = profile_case(p);
	struct counts c;
	int i;

	count_profile(p, &c);
	fputs("  <testsuite", out);
	attr(out, "name", name);
	counts_attrs(out, &c);
	fputs(">\n", out);
	properties(out, doc, p);
	if (pc != FSP_PASS) {
		fputs("    <testcase", out);
		classname(out, name);
		fputs(" name=\"profile\">\n", out);
		outcome(out, pc, p->reason, "");
		fputs("    </testcase>\n", out);
	}
	for (i = 0; i < nr_probes(p); i++)
		testcase(out, name, &p->probes[i]);
	suite_out(out, p);
	fputs("  </testsuite>\n", out);
}

int fsp_report_junit(FILE *out, const struct fsp_res_doc *doc)
{
	struct counts all = { 0 }, c;
	int i;

	if (!doc)
		return -EINVAL;
	for (i = 0; i < doc->nr_profiles; i++) {
		count_profile(&doc->profiles[i], &c);
		all.tests += c.tests;
		all.failures += c.failures;
		all.errors += c.errors;
		all.skipped += c.skipped;
		add_ms(&all.ms, c.ms);
		all.timed |= c.timed;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fputs("<testsuites name=\"fsprobe\"", out);
	counts_attrs(out, &all);
	fputs(">\n", out);
	for (i = 0; i < doc->nr_profiles; i++)
		testsuite(out, doc, &doc->profiles[i]);
	fputs("</testsuites>\n", out);
	return ferror(out) ? -EIO : 0;
}
