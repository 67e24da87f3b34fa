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

static void same_probe(const struct fsp_res_probe *a,
		       const struct fsp_res_probe *b)
{
	same_str("probe name", a->name, b->name);
	same_int("probe result", a->result, b->result);
	same_str("probe result_other", a->result_other, b->result_other);
	same_str("probe reason", a->reason, b->reason);
	same_json("probe evidence", a->evidence, b->evidence);
	same_int("probe ms", a->ms, b->ms);
}

static void same_profile(const struct fsp_res_profile *a,
			 const struct fsp_res_profile *b)
{
	const char *key;
	long long x, y;
	int i;

	same_str("name", a->name, b->name);
	same_str("fs", a->fs, b->fs);
	same_int("nr_mkfs", a->nr_mkfs, b->nr_mkfs);
	for (i = 0; i < a->nr_mkfs; i++)
		same_str("mkfs", a->mkfs[i], b->mkfs[i]);
	same_str("mount_options", a->mount_options, b->mount_options);
	same_str("description", a->description, b->description);
	same_int("verdict", a->verdict, b->verdict);
	same_str("verdict_other", a->verdict_other, b->verdict_other);
	same_int("routes", a->routes, b->routes);
	same_int("max_order_read", a->max_order_read, b->max_order_read);
	same_int("max_order_fault", a->max_order_fault, b->max_order_fault);
	same_str("reason", a->reason, b->reason);
	same_int("has_probes", a->has_probes, b->has_probes);
	same_int("nr_probes", a->nr_probes, b->nr_probes);
	for (i = 0; i < a->nr_probes; i++)
		same_probe(&a->probes[i], &b->probes[i]);
	for (i = 0; fsp_res_timing_at(&a->timing, i, &key, &x); i++) {
		fsp_res_timing_at(&b->timing, i, &key, &y);
		same_int(key, x, y);
	}
	same_str("kernel_log", a->kernel_log, b->kernel_log);
	same_str("loop.device", a->loop.device, b->loop.device);
	same_int("loop.slot_device", a->loop.slot_device,
		 b->loop.slot_device);
	same_str("loop.slot_device_refused", a->loop.slot_device_refused,
		 b->loop.slot_device_refused);
	same_int("worker_cpu", a->worker_cpu, b->worker_cpu);
}

static void same_doc(const struct fsp_res_doc *a, const struct fsp_res_doc *b)
{
	int i;

	same_str("fsprobe", a->fsprobe, b->fsprobe);
	same_str("kernel", a->kernel, b->kernel);
	same_str("arch", a->arch, b->arch);
	same_int("page_size", a->page_size, b->page_size);
	same_int("pmd_order", a->pmd_order, b->pmd_order);
	same_int("has_thp", a->has_thp, b->has_thp);
	same_str("thp.enabled", a->thp.enabled, b->thp.enabled);
	same_str("thp.shmem_enabled", a->thp.shmem_enabled,
		 b->thp.shmem_enabled);
	same_str("thp.defrag", a->thp.defrag, b->thp.defrag);
	same_int("thp.ro", a->thp.read_only_thp_for_fs,
		 b->thp.read_only_thp_for_fs);
	same_str("thp.config_source", a->thp.config_source,
		 b->thp.config_source);
	same_int("nr_profiles", a->nr_profiles, b->nr_profiles);
	for (i = 0; i < a->nr_profiles; i++)
		same_profile(&a->profiles[i], &b->profiles[i]);
	/* resources and vm: what the encoder writes, compared as JSON. */
	same_int("has_resources", a->has_resources, b->has_resources);
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
