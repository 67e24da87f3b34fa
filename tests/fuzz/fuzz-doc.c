// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-doc.c - libFuzzer target for the result document decoder
 * (src/report/result_decode.c), which reads what `compare` loads and
 * what comes back from a vm guest: any bytes are parsed by json-c and
 * decoded. Where the decoder accepts the document, the encoder's JSON of
 * the model must parse and decode again to the same model, field by
 * field (evidence compared as plain JSON text): decode(encode(decode(x)))
 * == decode(x). Every renderer (the table plain and verbose in colour,
 * KTAP, JUnit, HTML, LAVA, KCIDB, compare with itself) also runs on the
 * model, so they meet hostile documents too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz-doc: %s: %s\n", what, detail ? detail : "");
	abort();
}

static void same_str(const char *what, const char *a, const char *b)
{
	if (!a != !b || (a && strcmp(a, b)))
		fail(what, a ? a : b);
}

static void same_int(const char *what, long long a, long long b)
{
	char buf[64];

	if (a != b) {
		snprintf(buf, sizeof(buf), "%lld != %lld", a, b);
		fail(what, buf);
	}
}

static void same_json(const char *what, struct json_object *a,
		      struct json_object *b)
{
	same_str(what, a ? json_object_to_json_string_ext(a,
			JSON_C_TO_STRING_PLAIN) : NULL,
		 b ? json_object_to_json_string_ext(b,
			JSON_C_TO_STRING_PLAIN) : NULL);
}

/* A member same_fields compares: its name, kind and place. */
struct field {
	const char *what;
	enum { STR, INT, LLONG, JSON } kind;
	size_t off;
};

/* The fields of struct T: by name, an int or enum or long long by size. */
#define FIELD(kind, m) { #m, kind, offsetof(struct T, m) }
#define STR(m) FIELD(STR, m)
#define JSON(m) FIELD(JSON, m)
#define NUM(m) FIELD(sizeof(((struct T *)0)->m) == sizeof(int) ? INT : \
		      LLONG, m)
#define NR(array) (sizeof(array) / sizeof((array)[0]))

#define T fsp_res_probe
static const struct field probe_fields[] = {
	STR(name), NUM(result), STR(result_other), STR(reason),
	JSON(evidence), NUM(ms),
};
#undef T

/*
 * nr_mkfs and nr_probes are compared before the arrays they count; the
 * members of one JSON object (loop, thp) share a line.
 */
#define T fsp_res_profile
static const struct field profile_fields[] = {
	STR(name), STR(fs), NUM(nr_mkfs), STR(mount_options),
	STR(description), NUM(verdict), STR(verdict_other), NUM(routes),
	NUM(max_order_read), NUM(max_order_fault), STR(reason),
	NUM(has_probes), NUM(nr_probes), STR(kernel_log),
	STR(loop.device), NUM(loop.slot_device), STR(loop.slot_device_refused),
	NUM(worker_cpu),
};
#undef T

/* resources and vm: what the encoder writes, compared as JSON. */
#define T fsp_res_doc
static const struct field doc_fields[] = {
	STR(fsprobe), STR(kernel), STR(arch),
	NUM(page_size), NUM(pmd_order), NUM(has_thp),
	STR(thp.enabled), STR(thp.shmem_enabled), STR(thp.defrag),
	NUM(thp.read_only_thp_for_fs), STR(thp.config_source),
	NUM(nr_profiles), NUM(has_resources),
};
#undef T

/* Each of the n fields of *a and *b the same (what: prefix and name). */
static void same_fields(const char *prefix, const struct field *f,
			size_t n, const void *a, const void *b)
{
	char what[128];

	for (; n--; f++) {
		const char *x = (const char *)a + f->off;
		const char *y = (const char *)b + f->off;

		snprintf(what, sizeof(what), "%s%s", prefix, f->what);
		switch (f->kind) {
		case STR:
			same_str(what, *(char *const *)x, *(char *const *)y);
			break;
		case INT:
			same_int(what, *(const int *)x, *(const int *)y);
			break;
		case LLONG:
			same_int(what, *(const long long *)x,
				 *(const long long *)y);
			break;
		case JSON:
			same_json(what, *(struct json_object *const *)x,
				  *(struct json_object *const *)y);
			break;
		}
	}
}

static void same_profile(const struct fsp_res_profile *a,
			 const struct fsp_res_profile *b)
{
	const char *key;
	long long x, y;
	int i;

	same_fields("", profile_fields, NR(profile_fields), a, b);
	for (i = 0; i < a->nr_mkfs; i++)
		same_str("mkfs", a->mkfs[i], b->mkfs[i]);
	for (i = 0; i < a->nr_probes; i++)
		same_fields("probe ", probe_fields, NR(probe_fields),
			    &a->probes[i], &b->probes[i]);
	for (i = 0; fsp_res_timing_at(&a->timing, i, &key, &x); i++) {
		fsp_res_timing_at(&b->timing, i, &key, &y);
		same_int(key, x, y);
	}
}

static void same_doc(const struct fsp_res_doc *a, const struct fsp_res_doc *b)
{
	int i;

	same_fields("", doc_fields, NR(doc_fields), a, b);
	for (i = 0; i < a->nr_profiles; i++)
		same_profile(&a->profiles[i], &b->profiles[i]);
	same_int("vm", !a->vm, !b->vm);
	same_int("exit status", fsp_doc_exit_status(a),
		 fsp_doc_exit_status(b));
}

static struct json_object *parse(const char *buf, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj;

	if (!tok)
		return NULL;
	obj = json_tokener_parse_ex(tok, buf, (int)len + 1);
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(obj);
		obj = NULL;
	}
	json_tokener_free(tok);
	return obj;
}

static void render_all(const struct fsp_res_doc *d)
{
	static const struct fsp_render_opts all = { .verbose = 1, .colour = 1 };
	static const struct fsp_kcidb_opts kcidb = { .origin = "fuzz" };
	const struct fsp_res_doc *docs[] = { d, d };
	static FILE *null;
	int worse;

	if (!null)
		null = fopen("/dev/null", "we");
	if (!null)
		return;
	fsp_report_table(null, d, NULL);
	fsp_report_table(null, d, &all);
	fsp_report_html(null, d);
	fsp_report_lava(null, d);
	fsp_report_kcidb(null, docs, 2, &kcidb);
	fsp_report_ktap(null, d);
	fsp_report_junit(null, d);
	fsp_compare(null, d, d, &worse);
	if (worse)
		fail("compare", "a document is worse than itself");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fsp_res_doc *a = NULL, *b = NULL;
	struct json_object *obj, *enc, *again, *enc2;
	char err[512], *buf;
	const char *text;

	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	obj = parse(buf, size);
	free(buf);
	if (!obj)
		return 0;
	if (fsp_res_doc_decode(obj, "fuzz", &a, err, sizeof(err))) {
		if (a || !memchr(err, '\0', sizeof(err)) || !err[0])
			fail("decode failed without a message", err);
		json_object_put(obj);
		return 0;
	}
	enc = fsp_res_doc_json(a);
	text = json_object_to_json_string_ext(enc, JSON_C_TO_STRING_PLAIN);
	again = parse(text, strlen(text));
	if (!again)
		fail("the encoder's JSON does not parse", text);
	if (fsp_res_doc_decode(again, "fuzz: again", &b, err, sizeof(err)))
		fail("the encoder's JSON does not decode", err);
	same_doc(a, b);
	enc2 = fsp_res_doc_json(b);
	same_json("the encoder's JSON", enc, enc2);
	render_all(a);
	json_object_put(enc2);
	json_object_put(again);
	json_object_put(enc);
	json_object_put(obj);
	fsp_res_doc_free(a);
	fsp_res_doc_free(b);
	return 0;
}
