// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * result.c - the result model (result.h): building a document, and its
 * one JSON encoder. The encoder writes docs/json.md's keys in the order
 * fsprobe has always written them, null members included, so a run's
 * JSON does not depend on which code path filled the model.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "sysinfo.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

struct fsp_res_doc *fsp_res_doc_new(const struct fsp_sysinfo *si)
{
	struct fsp_res_doc *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->fsprobe = strdup(PACKAGE_VERSION);
	d->kernel = strdup(si->kernel);
	d->arch = strdup(si->arch);
	d->page_size = si->page_size;
	d->pmd_order = si->pmd_order >= 0 ? si->pmd_order : FSP_RES_NULL;
	d->has_thp = 1;
	d->thp.enabled = strdup(si->thp_enabled);
	d->thp.shmem_enabled = strdup(si->thp_shmem_enabled);
	d->thp.defrag = strdup(si->thp_defrag);
	d->thp.read_only_thp_for_fs = si->ro_thp < 0 ? -1 : !!si->ro_thp;
	d->thp.config_source = strdup(si->config_source);
	d->thp.has_ro_state = 1;
	if (fsp_kopt_name(si->ro_thp_state))
		d->thp.read_only_thp_for_fs_state =
			strdup(fsp_kopt_name(si->ro_thp_state));
	return d;
}

void fsp_res_profile_init(struct fsp_res_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->max_order_read = p->max_order_fault = FSP_RES_NULL;
	p->min_order = FSP_RES_ABSENT;
	p->worker_cpu = FSP_RES_ABSENT;
	p->has_probes = 1;
	p->timing = (struct fsp_res_timing){
		FSP_RES_ABSENT, FSP_RES_ABSENT, FSP_RES_ABSENT,
		FSP_RES_ABSENT, FSP_RES_ABSENT, FSP_RES_ABSENT,
		FSP_RES_ABSENT, FSP_RES_ABSENT, FSP_RES_ABSENT,
		FSP_RES_ABSENT, FSP_RES_ABSENT, FSP_RES_ABSENT,
	};
}

/* Frees the n strings of v, then v. */
static void free_strings(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void fsp_res_profile_clear(struct fsp_res_profile *p)
{
	int i;

	free(p->name);
	free(p->fs);
	free_strings(p->mkfs, p->nr_mkfs);
	free(p->mount_options);
	free(p->description);
	free(p->verdict_other);
	free(p->reason);
	for (i = 0; i < p->nr_probes; i++) {
		free(p->probes[i].name);
		free(p->probes[i].result_other);
		free(p->probes[i].reason);
		json_object_put(p->probes[i].evidence);
	}
	free(p->probes);
	free(p->kernel_log);
	json_object_put(p->watchdog);
	free_strings(p->attributes, p->nr_attributes);
	json_object_put(p->attribute_evidence);
	json_object_put(p->null_blk);
	json_object_put(p->fixed_files);
	free(p->loop.device);
	free(p->loop.slot_device_refused);
	free_strings(p->server.argv, p->server.nr_argv);
	fsp_res_profile_init(p);
}

void fsp_res_vm_free(struct fsp_res_vm *vm)
{
	if (!vm)
		return;
	free(vm->kernel_image);
	free(vm->deb);
	free(vm->initramfs);
	free(vm->accel);
	free(vm->memory);
	free(vm);
}

void fsp_res_doc_free(struct fsp_res_doc *d)
{
	int i;

	if (!d)
		return;
	free(d->fsprobe);
	free(d->kernel);
	free(d->arch);
	free(d->thp.enabled);
	free(d->thp.shmem_enabled);
	free(d->thp.defrag);
	free(d->thp.config_source);
	free(d->thp.read_only_thp_for_fs_state);
	for (i = 0; i < d->nr_profiles; i++)
		fsp_res_profile_clear(&d->profiles[i]);
	free(d->profiles);
	free(d->resources.worker_cpus);
	free(d->resources.wq_was);
	free(d->resources.wq_during);
	for (i = 0; i < d->resources.nr_knobs; i++) {
		free(d->resources.knobs[i].path);
		free(d->resources.knobs[i].was);
		free(d->resources.knobs[i].during);
	}
	free(d->resources.knobs);
	fsp_res_vm_free(d->vm);
	free(d);
}

/* Grows *arr of *nr elements of size by one, zeroed; NULL: no memory. */
static void *append(void **arr, int *nr, size_t size)
{
	char *na = realloc(*arr, (*nr + 1) * size);

	if (!na)
		return NULL;
	*arr = na;
	na += (size_t)(*nr)++ * size;
	memset(na, 0, size);
	return na;
}

struct fsp_res_profile *fsp_res_add_profile(struct fsp_res_doc *d)
{
	void *arr = d->profiles;
	struct fsp_res_profile *np = append(&arr, &d->nr_profiles,
					    sizeof(*np));

	d->profiles = arr;
	if (np)
		fsp_res_profile_init(np);
	return np;
}

int fsp_res_take_profile(struct fsp_res_doc *d, struct fsp_res_profile *p)
{
	struct fsp_res_profile *np = fsp_res_add_profile(d);

	if (!np)
		return -ENOMEM;
	*np = *p;
	fsp_res_profile_init(p);
	return 0;
}

void fsp_res_set_verdict(struct fsp_res_profile *p, enum fsp_verdict_id v,
			 const char *reason)
{
	p->verdict = v;
	free(p->verdict_other);
	p->verdict_other = NULL;
	free(p->reason);
	p->reason = dup_or_null(reason);
}

struct fsp_res_probe *fsp_res_add_probe(struct fsp_res_profile *p,
					const char *name,
					enum fsp_outcome result)
{
	void *arr = p->probes;
	struct fsp_res_probe *np = append(&arr, &p->nr_probes, sizeof(*np));

	p->probes = arr;
	if (!np)
		return NULL;
	np->name = strdup(name);
	np->result = result;
	return np;
}

int fsp_res_add_attribute(struct fsp_res_profile *p, const char *name)
{
	char **na = realloc(p->attributes,
			    (p->nr_attributes + 2) * sizeof(*na));

	if (!na)
		return -ENOMEM;
	p->attributes = na;
	na[p->nr_attributes] = strdup(name);
	if (!na[p->nr_attributes])
		return -ENOMEM;
	na[++p->nr_attributes] = NULL;
	return 0;
}

const char *fsp_res_verdict_name(const struct fsp_res_profile *p)
{
	return p->verdict == FSP_V_OTHER ? p->verdict_other :
	       fsp_verdict_name(p->verdict);
}

const char *fsp_res_result_name(const struct fsp_res_probe *pr)
{
	return pr->result >= FSP_NR_OUTCOMES ? pr->result_other :
	       fsp_outcome_name(pr->result);
}

int fsp_res_exit_status(const struct fsp_res_doc *d)
{
	int i, k;

	for (i = 0; d && i < d->nr_profiles; i++) {
		const struct fsp_res_profile *p = &d->profiles[i];

		/* A kernel splat fails the run even if every probe passed;
		 * so does a profile the harness could not measure. */
		if (p->kernel_log || p->verdict == FSP_V_ERROR)
			return 1;
		for (k = 0; k < p->nr_probes; k++)
			if (p->probes[k].result == FSP_FAIL)
				return 1;
	}
	return 0;
}

/* The encoder. */

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *jint(long long v)
{
	return v >= 0 ? json_object_new_int64(v) : NULL;
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *probe_json(const struct fsp_res_probe *pr)
{
	struct json_object *o = json_object_new_object();

	add(o, "name", jstr(pr->name));
	add(o, "result", jstr(fsp_res_result_name(pr)));
	add(o, "reason", jstr(pr->reason));
	add(o, "evidence", json_object_get(pr->evidence));
	add(o, "ms", pr->ms == FSP_RES_NULL ? NULL :
	    json_object_new_int64(pr->ms));
	return o;
}

int fsp_res_timing_at(const struct fsp_res_timing *t, int i,
		      const char **key, long long *v)
{
	static const struct { const char *key; size_t off; } keys[] = {
#define T(k) { #k, offsetof(struct fsp_res_timing, k) }
		T(attach), T(mkfs), T(mount), T(probes), T(image_disk_kb),
		T(files_kb), T(mkfs_disk_kb), T(mkfs_punched_kb), T(prepare),
		T(umount), T(detach), T(total),
#undef T
	};

	if (i < 0 || (size_t)i >= sizeof(keys) / sizeof(keys[0]))
		return 0;
	*key = keys[i].key;
	*v = *(const long long *)((const char *)t + keys[i].off);
	return 1;
}

static struct json_object *timing_json(const struct fsp_res_timing *t)
{
	struct json_object *o = json_object_new_object();
	const char *key;
	long long v;
	int i;

	for (i = 0; fsp_res_timing_at(t, i, &key, &v); i++)
		if (v != FSP_RES_ABSENT)
			add(o, key, json_object_new_int64(v));
	return o;
}

static struct json_object *routes_json(int routes)
{
	struct json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < FSP_NR_ROUTES; i++)
		if (routes & (1 << i))
			json_object_array_add(a, jstr(fsp_route_names[i]));
	return a;
}

/* verdict .. probes: the members the verdict rules fill. */
static void verdict_json(struct json_object *o,
			 const struct fsp_res_profile *p, int with_reason)
{
	struct json_object *mo, *arr;
	int i;

	add(o, "verdict", jstr(fsp_res_verdict_name(p)));
	if (with_reason)
		add(o, "reason", jstr(p->reason));
	if (!p->has_probes) {
		if (!with_reason)
			add(o, "reason", jstr(p->reason));
		return;
	}
	add(o, "route", routes_json(p->routes));
	mo = json_object_new_object();
	add(mo, "read", jint(p->max_order_read));
	add(mo, "fault", jint(p->max_order_fault));
	if (p->min_order >= 0)
		add(mo, "min", jint(p->min_order));
	add(o, "max_order", mo);
	if (!with_reason)
		add(o, "reason", jstr(p->reason));
	arr = json_object_new_array();
	for (i = 0; i < p->nr_probes; i++)
		json_object_array_add(arr, probe_json(&p->probes[i]));
	add(o, "probes", arr);
}

/* fuse: the server's command as run, how often, how the last ended. */
static struct json_object *server_json(const struct fsp_res_profile *p)
{
	struct json_object *o = json_object_new_object(), *a;
	int i;

	a = json_object_new_array();
	for (i = 0; i < p->server.nr_argv; i++)
		json_object_array_add(a, jstr(p->server.argv[i]));
	add(o, "argv", a);
	add(o, "starts", json_object_new_int(p->server.starts));
	add(o, "exit_status", p->server.exit_status >= 0 ?
	    json_object_new_int(p->server.exit_status) : NULL);
	return o;
}

struct json_object *fsp_res_profile_json(const struct fsp_res_profile *p)
{
	struct json_object *o = json_object_new_object(), *a;
	int i;

	add(o, "name", jstr(p->name));
	add(o, "fs", jstr(p->fs));
	a = json_object_new_array();
	for (i = 0; i < p->nr_mkfs; i++)
		json_object_array_add(a, jstr(p->mkfs[i]));
	add(o, "mkfs", a);
	add(o, "mount_options", jstr(p->mount_options));
	if (p->nr_attributes) {
		a = json_object_new_array();
		for (i = 0; i < p->nr_attributes; i++)
			json_object_array_add(a, jstr(p->attributes[i]));
		add(o, "attributes", a);
	}
	if (p->shape == FSP_SHAPE_CHECK) {
		/* `check` has always put timing_ms before the verdict. */
		add(o, "timing_ms", timing_json(&p->timing));
		verdict_json(o, p, 1);
		if (p->watchdog)
			add(o, "watchdog", json_object_get(p->watchdog));
		return o;
	}
	verdict_json(o, p, 0);
	add(o, "timing_ms", timing_json(&p->timing));
	if (p->description)
		add(o, "description", jstr(p->description));
	if (p->attribute_evidence)
		add(o, "attribute_evidence",
		    json_object_get(p->attribute_evidence));
	if (p->kernel_log)
		add(o, "kernel_log", jstr(p->kernel_log));
	if (p->watchdog)
		add(o, "watchdog", json_object_get(p->watchdog));
	if (p->mkfs_builtin)
		add(o, "mkfs_builtin", json_object_new_boolean(1));
	if (p->null_blk)
		add(o, "null_blk", json_object_get(p->null_blk));
	if (p->fixed_files)
		add(o, "fixed_files", json_object_get(p->fixed_files));
	if (p->loop.device) {
		a = json_object_new_object();
		add(a, "device", jstr(p->loop.device));
		add(a, "slot_device", json_object_new_boolean(p->loop.slot_device));
		if (p->loop.slot_device_refused)
			add(a, "slot_device_refused",
			    jstr(p->loop.slot_device_refused));
		add(o, "loop", a);
	}
	if (p->server.argv)
		add(o, "server", server_json(p));
	if (p->worker_cpu != FSP_RES_ABSENT)
		add(o, "worker_cpu", p->worker_cpu >= 0 ?
		    json_object_new_int(p->worker_cpu) : NULL);
	return o;
}

static struct json_object *knobs_json(const struct fsp_res_doc *d)
{
	struct json_object *a = json_object_new_array(), *k;
	int i;

	for (i = 0; i < d->resources.nr_knobs; i++) {
		const struct fsp_res_knob *kn = &d->resources.knobs[i];

		k = json_object_new_object();
		add(k, "path", jstr(kn->path));
		add(k, "was", jstr(kn->was));
		add(k, "during", jstr(kn->during));
		add(k, "restored", json_object_new_boolean(kn->restored));
		json_object_array_add(a, k);
	}
	return a;
}

static struct json_object *resources_json(const struct fsp_res_doc *d)
{
	struct json_object *r = json_object_new_object(), *a;
	int i;

	add(r, "wall_ms", json_object_new_int64(d->resources.wall_ms));
	add(r, "jobs", json_object_new_int(d->resources.jobs));
	add(r, "parent_maxrss_kb",
	    json_object_new_int64(d->resources.parent_maxrss_kb));
	add(r, "worker_maxrss_kb",
	    json_object_new_int64(d->resources.worker_maxrss_kb));
	a = json_object_new_array();
	for (i = 0; i < d->resources.nr_worker_cpus; i++)
		json_object_array_add(a, json_object_new_int(
					      d->resources.worker_cpus[i]));
	add(r, "worker_cpus", a);
	a = NULL;
	if (d->resources.wq_was) {
		a = json_object_new_object();
		add(a, "was", jstr(d->resources.wq_was));
		add(a, "during", jstr(d->resources.wq_during));
	}
	add(r, "workqueue_scope", a);
	if (d->resources.knobs)
		add(r, "knobs", knobs_json(d));
	return r;
}

static struct json_object *vm_json(const struct fsp_res_vm *vm)
{
	struct json_object *o = json_object_new_object();

	add(o, "kernel_image", jstr(vm->kernel_image));
	add(o, "deb", jstr(vm->deb));
	add(o, "initramfs", jstr(vm->initramfs));
	add(o, "accel", jstr(vm->accel));
	add(o, "memory", jstr(vm->memory));
	add(o, "qemu_ms", json_object_new_int64(vm->qemu_ms));
	add(o, "guest_exit", json_object_new_int(vm->guest_exit));
	return o;
}

struct json_object *fsp_res_doc_json(const struct fsp_res_doc *d)
{
	struct json_object *doc = json_object_new_object(), *thp, *arr;
	int i;

	add(doc, "fsprobe", jstr(d->fsprobe));
	add(doc, "kernel", jstr(d->kernel));
	if (d->arch)
		add(doc, "arch", jstr(d->arch));
	if (d->page_size != FSP_RES_ABSENT)
		add(doc, "page_size", json_object_new_int64(d->page_size));
	if (d->pmd_order != FSP_RES_ABSENT)
		add(doc, "pmd_order", jint(d->pmd_order));
	if (d->has_thp) {
		thp = json_object_new_object();
		add(thp, "enabled", jstr(d->thp.enabled));
		add(thp, "shmem_enabled", jstr(d->thp.shmem_enabled));
		add(thp, "defrag", jstr(d->thp.defrag));
		add(thp, "read_only_thp_for_fs",
		    d->thp.read_only_thp_for_fs < 0 ? NULL :
		    json_object_new_boolean(d->thp.read_only_thp_for_fs));
		if (d->thp.has_ro_state)
			add(thp, "read_only_thp_for_fs_state",
			    jstr(d->thp.read_only_thp_for_fs_state));
		add(thp, "config_source", jstr(d->thp.config_source));
		add(doc, "thp", thp);
	}
	arr = json_object_new_array();
	for (i = 0; i < d->nr_profiles; i++)
		json_object_array_add(arr, fsp_res_profile_json(&d->profiles[i]));
	add(doc, "profiles", arr);
	if (d->has_resources)
		add(doc, "resources", resources_json(d));
	if (d->vm)
		add(doc, "vm", vm_json(d->vm));
	return doc;
}
