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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

/*
 * Length of the UTF-8 sequence at s, 0 if it is malformed (then one byte
 * is replaced); *bad is set if it is well-formed but not an XML 1.0 Char
 * (surrogates, U+FFFE, U+FFFF: the whole sequence is replaced).
 */
static size_t utf8_char(const unsigned char *s, size_t left, int *bad)
{
	unsigned int cp;
	size_t n, i;

	*bad = 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > left)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms and beyond U+10FFFF are not UTF-8 at all. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff)
		return 0;
	*bad = (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe ||
	       cp == 0xffff;
	return n;
}

static void xml_put_len(FILE *out, const char *str, size_t len, int attr)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;
	int bad;

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
			n = utf8_char(s + i, len - i, &bad);
			if (!n) {
				fputs(REPLACEMENT, out);
				break;
			}
			if (bad)
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
	if (!v)
		xml_put(out, "null", attr);
	else if (json_object_is_type(v, json_type_string))
		xml_put_len(out, json_object_get_string(v),
			    (size_t)json_object_get_string_len(v), attr);
	else if (json_object_is_type(v, json_type_object) ||
		 json_object_is_type(v, json_type_array))
		xml_put(out, json_object_to_json_string_ext(v,
			JSON_C_TO_STRING_PLAIN), attr);
	else
		xml_put(out, json_object_get_string(v), attr);
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

/* Does the profile get the extra "profile" testcase, and as what? */
static enum fsp_result profile_case(struct json_object *p)
{
	const char *v = fsp_json_get_str(p, "verdict", "");

	if (!strcmp(v, "error"))
		return FSP_RES_ERROR;
	if (!strcmp(v, "skip") && !fsp_json_array_len(fsp_json_get(p,
							       "probes")))
		return FSP_RES_SKIP;
	return FSP_RES_PASS;
}

static void count_result(struct counts *c, enum fsp_result r)
{
	c->tests++;
	c->failures += r == FSP_RES_FAIL;
	c->errors += r == FSP_RES_ERROR || r == FSP_RES_UNKNOWN;
	c->skipped += r == FSP_RES_SKIP;
}

static int get_ms(struct json_object *v, long long *ms)
{
	if (!v || !(json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double)))
		return 0;
	*ms = json_object_get_int64(v);
	return *ms >= 0;
}

static void count_profile(struct json_object *p, struct counts *c)
{
	struct json_object *probes = fsp_json_get(p, "probes");
	struct json_object *t = fsp_json_get(p, "timing_ms");
	size_t i, nr = fsp_json_array_len(probes);
	long long ms, probe_ms = 0;
	int probe_timed = 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < nr; i++) {
		struct json_object *pr = json_object_array_get_idx(probes, i);

		count_result(c, fsp_report_result(pr));
		if (get_ms(fsp_json_get(pr, "ms"), &ms)) {
			probe_ms += ms;
			probe_timed = 1;
		}
	}
	if (profile_case(p) != FSP_RES_PASS)
		count_result(c, profile_case(p));
	/* The profile's wall time: "total" if there is one, else the sum
	 * of its parts (mkfs + mount + probes). */
	if (get_ms(fsp_json_get(t, "total"), &ms)) {
		c->ms = ms;
		c->timed = 1;
	} else if (t && json_object_is_type(t, json_type_object)) {
		json_object_object_foreach(t, key, val) {
			(void)key;
			if (get_ms(val, &ms)) {
				c->ms += ms;
				c->timed = 1;
			}
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

static void property(FILE *out, const char *name, struct json_object *v,
		     const char *dflt)
{
	if (!v && !dflt)
		return;
	fputs("      <property", out);
	attr(out, "name", name);
	fputs(" value=\"", out);
	if (v)
		xml_put_value(out, v, 1);
	else
		xml_put(out, dflt, 1);
	fputs("\"/>\n", out);
}

/* Join an array with sep into a json string, for one property value. */
static struct json_object *joined(struct json_object *arr, const char *sep)
{
	char *buf = NULL;
	size_t len = 0;
	struct json_object *s;
	FILE *m;

	if (!fsp_json_array_len(arr))
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	fsp_report_put_list(m, arr, sep, "");
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	s = json_object_new_string_len(buf, (int)len);
	free(buf);
	return s;
}

static void properties(FILE *out, struct json_object *doc,
		       struct json_object *p)
{
	static const char *const top[] = {
		"fsprobe", "kernel", "arch", "page_size", "pmd_order",
	};
	static const char *const thp_keys[] = {
		"enabled", "shmem_enabled", "read_only_thp_for_fs",
	};
	struct json_object *thp = fsp_json_get(doc, "thp");
	struct json_object *mo = fsp_json_get(p, "max_order");
	struct json_object *t = fsp_json_get(p, "timing_ms"), *j;
	char key[160];
	size_t i;

	fputs("    <properties>\n", out);
	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		property(out, top[i], fsp_json_get(doc, top[i]), NULL);
	for (i = 0; i < sizeof(thp_keys) / sizeof(thp_keys[0]); i++) {
		snprintf(key, sizeof(key), "thp.%s", thp_keys[i]);
		property(out, key, fsp_json_get(thp, thp_keys[i]), NULL);
	}
	property(out, "fs", fsp_json_get(p, "fs"), NULL);
	j = joined(fsp_json_get(p, "mkfs"), " ");
	property(out, "mkfs", j, NULL);
	json_object_put(j);
	property(out, "mount_options", fsp_json_get(p, "mount_options"), NULL);
	property(out, "description", fsp_json_get(p, "description"), NULL);
	property(out, "verdict", fsp_json_get(p, "verdict"), NULL);
	j = joined(fsp_json_get(p, "route"), ",");
	property(out, "route", j, "none");
	json_object_put(j);
	property(out, "max_order.read", fsp_json_get(mo, "read"), "unmeasured");
	property(out, "max_order.fault", fsp_json_get(mo, "fault"),
		 "unmeasured");
	property(out, "reason", fsp_json_get(p, "reason"), NULL);
	if (t && json_object_is_type(t, json_type_object)) {
		json_object_object_foreach(t, tkey, tval) {
			snprintf(key, sizeof(key), "timing_ms.%s", tkey);
			property(out, key, tval, NULL);
		}
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
static void outcome(FILE *out, enum fsp_result r, const char *why,
		    const char *unknown)
{
	static const char *const tag[] = {
		[FSP_RES_FAIL] = "failure", [FSP_RES_ERROR] = "error",
		[FSP_RES_UNKNOWN] = "error", [FSP_RES_SKIP] = "skipped",
	};
	static const char *const type[] = {
		[FSP_RES_FAIL] = "fail", [FSP_RES_ERROR] = "error",
		[FSP_RES_UNKNOWN] = "unknown-result",
	};
	char msg[160];

	if (r == FSP_RES_PASS)
		return;
	if (r == FSP_RES_UNKNOWN && !why) {
		snprintf(msg, sizeof(msg), "unknown result '%s'", unknown);
		why = msg;
	}
	fprintf(out, "      <%s", tag[r]);
	if (why)
		attr(out, "message", why);
	if (type[r])
		attr(out, "type", type[r]);
	if (r == FSP_RES_SKIP || !why) {
		fputs("/>\n", out);
		return;
	}
	fputc('>', out);
	xml_put(out, why, 0);
	fprintf(out, "</%s>\n", tag[r]);
}

static void testcase(FILE *out, const char *profile, struct json_object *pr)
{
	struct json_object *ev = fsp_json_get(pr, "evidence");
	const char *why = fsp_json_get_str(pr, "reason", NULL);
	enum fsp_result r = fsp_report_result(pr);
	long long ms;

	fputs("    <testcase", out);
	classname(out, profile);
	attr(out, "name", fsp_json_get_str(pr, "name", "(unnamed)"));
	if (get_ms(fsp_json_get(pr, "ms"), &ms))
		fprintf(out, " time=\"%lld.%03lld\"", ms / 1000, ms % 1000);
	fputs(">\n", out);
	outcome(out, r, why, fsp_json_get_str(pr, "result", "(none)"));
	fputs("      <system-out>", out);
	fputs("result: ", out);
	xml_put(out, fsp_json_get_str(pr, "result", "(none)"), 0);
	fputc('\n', out);
	if (why) {
		fputs("reason: ", out);
		xml_put(out, why, 0);
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

static void suite_out(FILE *out, struct json_object *p)
{
	struct json_object *mo = fsp_json_get(p, "max_order");
	struct json_object *route = fsp_json_get(p, "route");
	size_t i;

	fputs("    <system-out>verdict: ", out);
	xml_put(out, fsp_json_get_str(p, "verdict", "?"), 0);
	fputs(" route: ", out);
	for (i = 0; i < fsp_json_array_len(route); i++) {
		if (i)
			fputc(',', out);
		xml_put_value(out, json_object_array_get_idx(route, i), 0);
	}
	if (!fsp_json_array_len(route))
		fputs("none", out);
	fputs(" max_order: read=", out);
	xml_put(out, fsp_json_get_str(mo, "read", "-"), 0);
	fputs(" fault=", out);
	xml_put(out, fsp_json_get_str(mo, "fault", "-"), 0);
	fputs(" (a lower bound of the mapping's max folio order)\n", out);
	if (fsp_json_get(p, "reason")) {
		fputs("reason: ", out);
		xml_put_value(out, fsp_json_get(p, "reason"), 0);
		fputc('\n', out);
	}
	fputs("</system-out>\n", out);
}

static void testsuite(FILE *out, struct json_object *doc,
		      struct json_object *p)
{
	struct json_object *probes = fsp_json_get(p, "probes");
	const char *name = fsp_json_get_str(p, "name", "(unnamed)");
	size_t i, nr = fsp_json_array_len(probes);
	enum fsp_result pc = profile_case(p);
	struct counts c;

	count_profile(p, &c);
	fputs("  <testsuite", out);
	attr(out, "name", name);
	counts_attrs(out, &c);
	fputs(">\n", out);
	properties(out, doc, p);
	if (pc != FSP_RES_PASS) {
		fputs("    <testcase", out);
		classname(out, name);
		fputs(" name=\"profile\">\n", out);
		outcome(out, pc, fsp_json_get_str(p, "reason", NULL), "");
		fputs("    </testcase>\n", out);
	}
	for (i = 0; i < nr; i++)
		testcase(out, name, json_object_array_get_idx(probes, i));
	suite_out(out, p);
	fputs("  </testsuite>\n", out);
}

static int render_json(FILE *out, struct json_object *doc)
{
	struct json_object *profs = fsp_json_get(doc, "profiles");
	size_t i, nr = fsp_json_array_len(profs);
	struct counts all = { 0 }, c;

	if (!doc || !json_object_is_type(doc, json_type_object))
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		count_profile(json_object_array_get_idx(profs, i), &c);
		all.tests += c.tests;
		all.failures += c.failures;
		all.errors += c.errors;
		all.skipped += c.skipped;
		all.ms += c.ms;
		all.timed |= c.timed;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fputs("<testsuites name=\"fsprobe\"", out);
	counts_attrs(out, &all);
	fputs(">\n", out);
	for (i = 0; i < nr; i++)
		testsuite(out, doc, json_object_array_get_idx(profs, i));
	fputs("</testsuites>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* The JSON walk above reads the encoder's output of the model. */
int fsp_report_junit(FILE *out, const struct fsp_res_doc *doc)
{
	struct json_object *o;
	int ret;

	if (!doc)
		return -EINVAL;
	o = fsp_res_doc_json(doc);
	ret = render_json(out, o);
	json_object_put(o);
	return ret;
}
