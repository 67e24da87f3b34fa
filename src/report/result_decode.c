// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * result_decode.c - the one JSON decoder of the result model: a saved
 * -f json document (compare), a worker's profile (run), the guest's
 * document (vm). Required keys and the type of every key it knows are
 * checked; an error names the file, the profile and the key. Optional
 * keys may be missing or null, so older documents still load.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "util.h"

struct dec {
	const char *what;	/* the file */
	const char *where;	/* "profiles[0]: " and the like */
	char *err;
	size_t len;
};

static const char *type_word(json_type t)
{
	switch (t) {
	case json_type_string: return "a string";
	case json_type_array: return "an array";
	case json_type_object: return "an object";
	case json_type_int: return "an integer";
	case json_type_boolean: return "a boolean";
	default: return "a value";
	}
}

/*
 * obj[key] into *v if it has type t. Missing: an error if required,
 * else *v = NULL and 0. null: an error if required, else *v = NULL.
 */
static int member(struct dec *d, struct json_object *obj, const char *key,
		  json_type t, int required, struct json_object **v)
{
	*v = NULL;
	if (!json_object_object_get_ex(obj, key, v)) {
		if (!required)
			return 0;
		snprintf(d->err, d->len, "%s: %smissing key '%s'", d->what,
			 d->where, key);
		return -EINVAL;
	}
	if (!*v && !required)
		return 0;
	if (!json_object_is_type(*v, t)) {
		snprintf(d->err, d->len, "%s: %skey '%s' is not %s (%s)",
			 d->what, d->where, key, type_word(t), *v ?
			 json_type_to_name(json_object_get_type(*v)) : "null");
		*v = NULL;
		return -EINVAL;
	}
	return 0;
}

static int get_str(struct dec *d, struct json_object *obj, const char *key,
		   int required, char **out)
{
	struct json_object *v;
	int ret = member(d, obj, key, json_type_string, required, &v);

	*out = NULL;
	if (ret || !v)
		return ret;
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

/* Missing: absent; null: FSP_RES_NULL. */
static int get_int(struct dec *d, struct json_object *obj, const char *key,
		   long long absent, long long *out)
{
	struct json_object *v;
	int ret;

	*out = absent;
	if (!json_object_object_get_ex(obj, key, &v))
		return 0;
	ret = member(d, obj, key, json_type_int, 0, &v);
	if (!ret)
		*out = v ? json_object_get_int64(v) : FSP_RES_NULL;
	return ret;
}

static int get_int32(struct dec *d, struct json_object *obj, const char *key,
		     long long absent, int *out)
{
	long long v;
	int ret = get_int(d, obj, key, absent, &v);

	*out = (int)v;
	return ret;
}

/* An order or a CPU: the encoder writes any negative value as null. */
static int get_order(struct dec *d, struct json_object *obj, const char *key,
		     long long absent, int *out)
{
	int ret = get_int32(d, obj, key, absent, out);

	if (*out < 0 && *out != absent)
		*out = FSP_RES_NULL;
	return ret;
}

/* A boolean: 1/0, -1 if missing or null. */
static int get_bool(struct dec *d, struct json_object *obj, const char *key,
		    int *out)
{
	struct json_object *v;
	int ret = member(d, obj, key, json_type_boolean, 0, &v);

	*out = v ? json_object_get_boolean(v) : -1;
	return ret;
}

/* An optional object, kept whole (the caller owns the reference). */
static int get_object(struct dec *d, struct json_object *obj,
		      const char *key, struct json_object **out)
{
	int ret = member(d, obj, key, json_type_object, 0, out);

	if (ret)
		*out = NULL;
	json_object_get(*out);
	return ret;
}

static int get_strings(struct dec *d, struct json_object *obj,
		       const char *key, char ***out, int *nr)
{
	struct json_object *a;
	size_t i, n;
	int ret = member(d, obj, key, json_type_array, 0, &a);

	*out = NULL;
	*nr = 0;
	if (ret || !a)
		return ret;
	n = json_object_array_length(a);
	*out = calloc(n + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(a, i);

		if (!json_object_is_type(s, json_type_string)) {
			snprintf(d->err, d->len, "%s: %skey '%s' has an "
				 "element that is not a string", d->what,
				 d->where, key);
			return -EINVAL;
		}
		(*out)[(*nr)++] = strdup(json_object_get_string(s));
	}
	return 0;
}

static int get_routes(struct dec *d, struct json_object *obj, int *routes)
{
	char **names;
	int nr, i, k, ret = get_strings(d, obj, "route", &names, &nr);

	*routes = 0;
	for (i = 0; !ret && i < nr; i++) {
		for (k = 0; k < FSP_NR_ROUTES; k++)
			if (!strcmp(names[i], fsp_route_names[k]))
				break;
		if (k == FSP_NR_ROUTES) {
			snprintf(d->err, d->len, "%s: %skey 'route': unknown "
				 "route '%.64s'", d->what, d->where, names[i]);
			ret = -EINVAL;
		}
		*routes |= 1 << k;
	}
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return ret;
}

static int decode_probe(struct dec *d, struct json_object *o,
			struct fsp_res_probe *pr)
{
	char *result = NULL;
	int ret;

	if (!json_object_is_type(o, json_type_object)) {
		snprintf(d->err, d->len, "%s: %snot an object", d->what,
			 d->where);
		return -EINVAL;
	}
	ret = get_str(d, o, "name", 1, &pr->name);
	if (!ret)
		ret = get_str(d, o, "result", 1, &result);
	if (!ret)
		ret = get_str(d, o, "reason", 0, &pr->reason);
	if (!ret)
		ret = get_int(d, o, "ms", FSP_RES_NULL, &pr->ms);
	if (ret) {
		free(result);
		return ret;
	}
	pr->result = fsp_outcome_lookup(result);
	if (pr->result >= FSP_NR_OUTCOMES)
		pr->result_other = result;
	else
		free(result);
	json_object_object_get_ex(o, "evidence", &pr->evidence);
	json_object_get(pr->evidence);
	return 0;
}

static int decode_probes(struct dec *d, struct json_object *arr,
			 struct fsp_res_profile *p)
{
	const char *outer = d->where;
	size_t k, n = json_object_array_length(arr);
	char where[512];
	int ret = 0;

	p->probes = calloc(n + 1, sizeof(*p->probes));
	if (!p->probes)
		return -ENOMEM;
	for (k = 0; !ret && k < n; k++) {
		snprintf(where, sizeof(where), "%sprobes[%zu]: ", outer, k);
		d->where = where;
		ret = decode_probe(d, json_object_array_get_idx(arr, k),
				   &p->probes[k]);
		p->nr_probes++;
	}
	d->where = outer;
	return ret;
}

static int decode_timing(struct dec *d, struct json_object *o,
			 struct fsp_res_timing *t)
{
	struct json_object *tm;
	int ret = member(d, o, "timing_ms", json_type_object, 0, &tm);

	if (ret || !tm)
		return ret;
#define T(k) if (!ret) ret = get_int(d, tm, #k, FSP_RES_ABSENT, &t->k)
	T(attach); T(mkfs); T(mount); T(probes); T(image_disk_kb);
	T(files_kb); T(mkfs_disk_kb); T(mkfs_punched_kb); T(prepare);
	T(umount); T(detach); T(total);
#undef T
	return ret;
}

static int decode_loop(struct dec *d, struct json_object *o,
		       struct fsp_res_profile *p)
{
	struct json_object *lo;
	int ret = member(d, o, "loop", json_type_object, 0, &lo);

	if (ret || !lo)
		return ret;
	ret = get_str(d, lo, "device", 1, &p->loop.device);
	if (!ret)
		ret = get_bool(d, lo, "slot_device", &p->loop.slot_device);
	if (!ret)
		ret = get_str(d, lo, "slot_device_refused", 0,
			      &p->loop.slot_device_refused);
	p->loop.slot_device = p->loop.slot_device > 0;
	return ret;
}

static int decode_server(struct dec *d, struct json_object *o,
			 struct fsp_res_profile *p)
{
	struct json_object *so;
	int ret = member(d, o, "server", json_type_object, 0, &so);

	if (ret || !so)
		return ret;
	ret = get_strings(d, so, "argv", &p->server.argv, &p->server.nr_argv);
	if (!ret)
		ret = get_int32(d, so, "starts", 0, &p->server.starts);
	if (!ret)
		ret = get_int32(d, so, "exit_status", FSP_RES_NULL,
				&p->server.exit_status);
	return ret;
}

static int decode_orders(struct dec *d, struct json_object *o,
			 struct fsp_res_profile *p)
{
	struct json_object *mo;
	int ret = member(d, o, "max_order", json_type_object, 0, &mo);

	if (ret || !mo)
		return ret;
	ret = get_order(d, mo, "read", FSP_RES_NULL, &p->max_order_read);
	if (!ret)
		ret = get_order(d, mo, "fault", FSP_RES_NULL,
				&p->max_order_fault);
	if (!ret)
		ret = get_order(d, mo, "min", FSP_RES_ABSENT, &p->min_order);
	return ret;
}

/* Everything after name and verdict. */
static int decode_rest(struct dec *d, struct json_object *o,
		       struct fsp_res_profile *p)
{
	struct json_object *probes;
	int ret;

	ret = get_str(d, o, "fs", 0, &p->fs);
	if (!ret)
		ret = get_strings(d, o, "mkfs", &p->mkfs, &p->nr_mkfs);
	if (!ret)
		ret = get_str(d, o, "mount_options", 0, &p->mount_options);
	if (!ret)
		ret = get_strings(d, o, "attributes", &p->attributes,
				  &p->nr_attributes);
	if (!ret)
		ret = get_str(d, o, "description", 0, &p->description);
	if (!ret)
		ret = get_object(d, o, "attribute_evidence",
				 &p->attribute_evidence);
	if (!ret)
		ret = get_str(d, o, "reason", 0, &p->reason);
	if (!ret)
		ret = get_routes(d, o, &p->routes);
	if (!ret)
		ret = decode_orders(d, o, p);
	if (!ret)
		ret = decode_timing(d, o, &p->timing);
	if (!ret)
		ret = get_str(d, o, "kernel_log", 0, &p->kernel_log);
	if (!ret)
		ret = get_object(d, o, "watchdog", &p->watchdog);
	if (!ret)
		ret = get_object(d, o, "null_blk", &p->null_blk);
	if (!ret)
		ret = get_object(d, o, "fixed_files", &p->fixed_files);
	if (!ret)
		ret = get_bool(d, o, "mkfs_builtin", &p->mkfs_builtin);
	p->mkfs_builtin = p->mkfs_builtin > 0;
	if (!ret)
		ret = decode_loop(d, o, p);
	if (!ret)
		ret = decode_server(d, o, p);
	if (!ret)
		ret = get_order(d, o, "worker_cpu", FSP_RES_ABSENT,
				&p->worker_cpu);
	if (ret)
		return ret;
	/* A profile that never ran may carry no probes at all. */
	p->has_probes = json_object_object_get_ex(o, "probes", NULL);
	if (!p->has_probes &&
	    (p->verdict == FSP_V_SKIP || p->verdict == FSP_V_ERROR)) {
		/* Without probes there is nothing they measured. */
		p->routes = 0;
		p->max_order_read = p->max_order_fault = FSP_RES_NULL;
		return 0;
	}
	ret = member(d, o, "probes", json_type_array, 1, &probes);
	return ret ? ret : decode_probes(d, probes, p);
}

static int decode_profile(struct dec *d, struct json_object *o,
			  size_t idx, struct fsp_res_profile *p)
{
	char where[256], *verdict = NULL;
	int ret;

	snprintf(where, sizeof(where), "%sprofiles[%zu]: ", d->where, idx);
	d->where = where;
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(d->err, d->len, "%s: %snot an object", d->what,
			 where);
		return -EINVAL;
	}
	ret = get_str(d, o, "name", 1, &p->name);
	if (ret)
		return ret;
	snprintf(where, sizeof(where), "profile '%.120s' (profiles[%zu]): ",
		 p->name, idx);
	ret = get_str(d, o, "verdict", 1, &verdict);
	if (ret)
		return ret;
	p->verdict = fsp_verdict_lookup(verdict);
	if (p->verdict == FSP_V_OTHER)
		p->verdict_other = verdict;
	else
		free(verdict);
	return decode_rest(d, o, p);
}

int fsp_res_profile_decode(struct json_object *obj, const char *what,
			   const char *where, struct fsp_res_profile *p,
			   char *err, size_t errlen)
{
	struct dec d = { what, "", err, errlen };
	int ret;

	fsp_res_profile_init(p);
	if (!json_object_is_type(obj, json_type_object)) {
		snprintf(err, errlen, "%s: %snot an object", what, where);
		return -EINVAL;
	}
	d.where = where;
	ret = get_str(&d, obj, "name", 1, &p->name);
	if (!ret) {
		char *verdict = NULL;

		/* A worker's profile may still have a null verdict. */
		ret = get_str(&d, obj, "verdict", 0, &verdict);
		p->verdict = verdict ? fsp_verdict_lookup(verdict) : FSP_V_NONE;
		if (p->verdict == FSP_V_OTHER)
			p->verdict_other = verdict;
		else
			free(verdict);
	}
	if (!ret)
		ret = decode_rest(&d, obj, p);
	if (ret)
		fsp_res_profile_clear(p);
	return ret;
}

/* Older documents have no read_only_thp_for_fs_state: has_ro_state 0. */
static int decode_ro_state(struct dec *d, struct json_object *thp,
			   struct fsp_res_doc *doc)
{
	static const char *const words[] = { "set", "not set", "absent" };
	char *s;
	size_t i;
	int ret;

	doc->thp.has_ro_state = json_object_object_get_ex(thp,
					"read_only_thp_for_fs_state", NULL);
	ret = get_str(d, thp, "read_only_thp_for_fs_state", 0, &s);
	if (ret || !s)
		return ret;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(s, words[i])) {
			doc->thp.read_only_thp_for_fs_state = s;
			return 0;
		}
	snprintf(d->err, d->len, "%s: key 'read_only_thp_for_fs_state' is "
		 "'%s', not one of set, not set, absent", d->what, s);
	free(s);
	return -EINVAL;
}

static int decode_thp(struct dec *d, struct json_object *o,
		      struct fsp_res_doc *doc)
{
	struct json_object *thp;
	int ret = member(d, o, "thp", json_type_object, 0, &thp);

	doc->thp.read_only_thp_for_fs = -1;
	if (ret || !thp)
		return ret;
	doc->has_thp = 1;
	ret = get_str(d, thp, "enabled", 0, &doc->thp.enabled);
	if (!ret)
		ret = get_str(d, thp, "shmem_enabled", 0,
			      &doc->thp.shmem_enabled);
	if (!ret)
		ret = get_str(d, thp, "defrag", 0, &doc->thp.defrag);
	if (!ret)
		ret = get_bool(d, thp, "read_only_thp_for_fs",
			       &doc->thp.read_only_thp_for_fs);
	if (!ret)
		ret = decode_ro_state(d, thp, doc);
	if (!ret)
		ret = get_str(d, thp, "config_source", 0,
			      &doc->thp.config_source);
	return ret;
}

/* resources.knobs: optional (documents before it have none). */
static int decode_knobs(struct dec *d, struct json_object *r,
			struct fsp_res_doc *doc)
{
	struct json_object *a, *k;
	size_t i, n;
	int ret = member(d, r, "knobs", json_type_array, 0, &a);

	if (ret || !a)
		return ret;
	n = json_object_array_length(a);
	doc->resources.knobs = calloc(n + 1, sizeof(*doc->resources.knobs));
	if (!doc->resources.knobs)
		return -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		struct fsp_res_knob *kn = &doc->resources.knobs[i];

		k = json_object_array_get_idx(a, i);
		if (!json_object_is_type(k, json_type_object)) {
			snprintf(d->err, d->len, "%s: %sresources.knobs[%zu] "
				 "is not an object", d->what, d->where, i);
			return -EINVAL;
		}
		doc->resources.nr_knobs++;
		ret = get_str(d, k, "path", 1, &kn->path);
		if (!ret)
			ret = get_str(d, k, "was", 0, &kn->was);
		if (!ret)
			ret = get_str(d, k, "during", 0, &kn->during);
		if (!ret)
			ret = get_bool(d, k, "restored", &kn->restored);
	}
	return ret;
}

static int decode_resources(struct dec *d, struct json_object *o,
			    struct fsp_res_doc *doc)
{
	struct json_object *r, *a, *wq;
	size_t i, n;
	int ret = member(d, o, "resources", json_type_object, 0, &r);

	if (ret || !r)
		return ret;
	doc->has_resources = 1;
	ret = get_int(d, r, "wall_ms", 0, &doc->resources.wall_ms);
	if (!ret)
		ret = get_int32(d, r, "jobs", 0, &doc->resources.jobs);
	if (!ret)
		ret = get_int(d, r, "parent_maxrss_kb", 0,
			      &doc->resources.parent_maxrss_kb);
	if (!ret)
		ret = get_int(d, r, "worker_maxrss_kb", 0,
			      &doc->resources.worker_maxrss_kb);
	if (!ret)
		ret = member(d, r, "worker_cpus", json_type_array, 0, &a);
	if (ret)
		return ret;
	n = a ? json_object_array_length(a) : 0;
	doc->resources.worker_cpus = calloc(n + 1, sizeof(int));
	if (!doc->resources.worker_cpus)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		doc->resources.worker_cpus[doc->resources.nr_worker_cpus++] =
			json_object_get_int(json_object_array_get_idx(a, i));
	ret = member(d, r, "workqueue_scope", json_type_object, 0, &wq);
	if (!ret && wq)
		ret = get_str(d, wq, "was", 0, &doc->resources.wq_was);
	if (!ret && wq)
		ret = get_str(d, wq, "during", 0, &doc->resources.wq_during);
	/* The encoder writes the scope only with a "was" (null if none). */
	if (!doc->resources.wq_was) {
		free(doc->resources.wq_during);
		doc->resources.wq_during = NULL;
	}
	return ret ? ret : decode_knobs(d, r, doc);
}

static int decode_vm(struct dec *d, struct json_object *o,
		     struct fsp_res_doc *doc)
{
	struct json_object *v;
	struct fsp_res_vm *vm;
	int ret = member(d, o, "vm", json_type_object, 0, &v);

	if (ret || !v)
		return ret;
	vm = doc->vm = calloc(1, sizeof(*vm));
	if (!vm)
		return -ENOMEM;
	ret = get_str(d, v, "kernel_image", 0, &vm->kernel_image);
	if (!ret)
		ret = get_str(d, v, "deb", 0, &vm->deb);
	if (!ret)
		ret = get_str(d, v, "initramfs", 0, &vm->initramfs);
	if (!ret)
		ret = get_str(d, v, "accel", 0, &vm->accel);
	if (!ret)
		ret = get_str(d, v, "memory", 0, &vm->memory);
	if (!ret)
		ret = get_int(d, v, "qemu_ms", 0, &vm->qemu_ms);
	if (!ret)
		ret = get_int32(d, v, "guest_exit", 0, &vm->guest_exit);
	return ret;
}

static int decode_doc(struct dec *d, struct json_object *o,
		      struct fsp_res_doc *doc)
{
	struct json_object *profs;
	size_t i, n;
	int ret;

	ret = get_str(d, o, "fsprobe", 1, &doc->fsprobe);
	if (!ret)
		ret = get_str(d, o, "kernel", 1, &doc->kernel);
	if (!ret)
		ret = member(d, o, "profiles", json_type_array, 1, &profs);
	if (!ret)
		ret = get_str(d, o, "arch", 0, &doc->arch);
	if (!ret)
		ret = get_int(d, o, "page_size", FSP_RES_ABSENT,
			      &doc->page_size);
	if (!ret)
		ret = get_order(d, o, "pmd_order", FSP_RES_ABSENT,
				&doc->pmd_order);
	if (!ret)
		ret = decode_thp(d, o, doc);
	if (!ret)
		ret = decode_resources(d, o, doc);
	if (!ret)
		ret = decode_vm(d, o, doc);
	n = ret ? 0 : json_object_array_length(profs);
	/*
	 * Sized once: grown one by one (fsp_res_add_profile), a document of
	 * 1M profiles spent a minute in realloc's mremap.
	 */
	if (n && !(doc->profiles = calloc(n + 1, sizeof(*doc->profiles))))
		return -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		struct fsp_res_profile *p = &doc->profiles[i];

		fsp_res_profile_init(p);
		doc->nr_profiles++;
		d->where = "";
		ret = decode_profile(d, json_object_array_get_idx(profs, i),
				     i, p);
	}
	return ret;
}

int fsp_res_doc_decode(struct json_object *obj, const char *what,
		       struct fsp_res_doc **doc, char *err, size_t errlen)
{
	struct dec d = { what, "", err, errlen };
	int ret;

	*doc = NULL;
	if (!json_object_is_type(obj, json_type_object)) {
		snprintf(err, errlen, "%s: not an fsprobe document (the top "
			 "level is not an object)", what);
		return -EINVAL;
	}
	*doc = calloc(1, sizeof(**doc));
	if (!*doc)
		return -ENOMEM;
	(*doc)->page_size = FSP_RES_ABSENT;
	(*doc)->pmd_order = FSP_RES_ABSENT;
	ret = decode_doc(&d, obj, *doc);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", what);
		fsp_res_doc_free(*doc);
		*doc = NULL;
	}
	return ret;
}

/* Where the parser stopped, as a line number, for the error message. */
static int line_of(const char *buf, size_t off)
{
	int line = 1;
	size_t i;

	for (i = 0; i < off; i++)
		line += buf[i] == '\n';
	return line;
}

static struct json_object *parse(const char *path, const char *buf,
				 size_t len, char *err, size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	struct json_object *obj;
	size_t end;

	if (!tok) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	/* With the NUL: a top-level literal needs to see where it ends. */
	obj = json_tokener_parse_ex(tok, buf, (int)len + 1);
	jerr = json_tokener_get_error(tok);
#if JSON_C_VERSION_NUM >= ((0 << 16) | (15 << 8))
	end = json_tokener_get_parse_end(tok);
#else
	end = (size_t)tok->char_offset;
#endif
	json_tokener_free(tok);
	if (end > len)
		end = len;
	if (strspn(buf, " \t\r\n") == len) {
		snprintf(err, errlen, "%s: empty file, not a JSON document",
			 path);
		json_object_put(obj);
		return NULL;
	}
	if (jerr == json_tokener_continue ||
	    jerr == json_tokener_error_parse_eof) {
		snprintf(err, errlen, "%s: not a JSON document: it ends "
			 "early (truncated?)", path);
		return NULL;
	}
	if (jerr == json_tokener_success && !obj) {
		snprintf(err, errlen, "%s: not an fsprobe document (the top "
			 "level is null)", path);
		return NULL;
	}
	if (jerr != json_tokener_success) {
		snprintf(err, errlen, "%s:%d: not a JSON document: %s", path,
			 line_of(buf, end), json_tokener_error_desc(jerr));
		return NULL;
	}
	end += strspn(buf + end, " \t\r\n");
	if (end < len) {
		json_object_put(obj);
		snprintf(err, errlen, "%s:%d: not a JSON document: text after "
			 "the end", path, line_of(buf, end));
		return NULL;
	}
	return obj;
}

/* Check that obj[key] exists and has type t; else say where. */

/* Read path whole and parse it as one JSON value; NULL with err set. */
struct json_object *fsp_res_json_load(const char *path, char *err,
				      size_t errlen, int *ret)
{
	struct json_object *obj;
	size_t len = 0;
	char *buf = NULL;

	if (errlen)
		err[0] = '\0';
	*ret = fsp_slurp_regular(path, FSP_RES_DOC_MAX, &buf, &len);
	if (*ret) {
		snprintf(err, errlen, "%s: %s", path,
			 *ret == -EFBIG ? "larger than 64 MiB, too large for "
			 "a result document" : *ret == -FSP_ENOTREG ?
			 "not a regular file: name one (a FIFO, device or "
			 "directory is never read)" : strerror(-*ret));
		return NULL;
	}
	obj = parse(path, buf, len, err, errlen);
	free(buf);
	*ret = obj ? 0 : -EINVAL;
	return obj;
}

int fsp_res_doc_load(const char *path, struct fsp_res_doc **doc, char *err,
		     size_t errlen)
{
	int ret;
	struct json_object *obj = fsp_res_json_load(path, err, errlen, &ret);

	*doc = NULL;
	if (!obj)
		return ret;
	ret = fsp_res_doc_decode(obj, path, doc, err, errlen);
	json_object_put(obj);
	return ret;
}

int fsp_res_profile_save(const struct fsp_res_profile *p, const char *path)
{
	struct json_object *o = fsp_res_profile_json(p);
	int ret = json_object_to_file_ext(path, o, JSON_C_TO_STRING_PLAIN);

	json_object_put(o);
	return ret ? -EIO : 0;
}

int fsp_res_profile_load(const char *path, struct fsp_res_profile *p,
			 char *err, size_t errlen)
{
	int ret;
	struct json_object *obj = fsp_res_json_load(path, err, errlen, &ret);

	fsp_res_profile_init(p);
	if (!obj)
		return ret;
	ret = fsp_res_profile_decode(obj, path, "", p, err, errlen);
	json_object_put(obj);
	return ret;
}
