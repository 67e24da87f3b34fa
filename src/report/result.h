/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result.h - the result model: one typed document (docs/json.md) that
 * the runner fills, the worker hands to the parent, `vm` reads back
 * from the guest, compare loads, and every renderer reads. One encoder
 * writes it as JSON with exactly the keys and order of docs/json.md;
 * one decoder reads JSON back, checking types and required keys and
 * naming the file and the key when one is wrong. Strings are owned
 * (NULL: absent or null); evidence stays a json-c object, free-form
 * raw numbers written by the cases.
 */
#ifndef FSP_RESULT_H
#define FSP_RESULT_H

#include <stddef.h>
#include <json-c/json.h>

#include "verdict.h"

/* The largest document read from a file or a vm guest (docs/json.md). */
#define FSP_RES_DOC_MAX (64L << 20)

#define FSP_RES_ABSENT (-2)	/* an optional integer that is not there */
#define FSP_RES_NULL (-1)	/* an integer member that is JSON null */

struct fsp_res_probe {
	char *name;
	enum fsp_outcome result;	/* FSP_NR_OUTCOMES: result_other */
	char *result_other;
	char *reason;
	struct json_object *evidence;	/* owned; NULL: null */
	long long ms;			/* FSP_RES_NULL: null */
};

/* timing_ms: every member is FSP_RES_ABSENT until set. */
struct fsp_res_timing {
	long long attach, mkfs, mount, probes, image_disk_kb, files_kb,
		  mkfs_disk_kb, mkfs_punched_kb, prepare, umount, detach,
		  total;
};

/* Member i of t in docs/json.md's order (name, value); 0 past the end. */
int fsp_res_timing_at(const struct fsp_res_timing *t, int i,
		      const char **key, long long *v);

/* Key order of a profile: as `run` writes it, or as `check` does. */
enum fsp_res_shape { FSP_SHAPE_RUN, FSP_SHAPE_CHECK };

struct fsp_res_profile {
	enum fsp_res_shape shape;
	char *name, *fs, **mkfs, *mount_options, *description;
	int nr_mkfs;
	enum fsp_verdict_id verdict;	/* FSP_V_OTHER: verdict_other */
	char *verdict_other;
	int routes;			/* FSP_ROUTE_* */
	int max_order_read, max_order_fault;	/* < 0: null */
	int min_order;		/* forced minimum order; FSP_RES_ABSENT */
	char *reason;
	int has_probes;			/* check: no route..probes on error */
	struct fsp_res_probe *probes;
	int nr_probes;
	struct fsp_res_timing timing;
	char *kernel_log;
	struct json_object *watchdog;	/* a step overran; NULL: absent */
	char **attributes;		/* the profile's; none: absent */
	int nr_attributes;
	struct json_object *attribute_evidence;	/* NULL: absent */
	/* device = null_blk-zoned: the device made and its removal */
	struct json_object *null_blk;	/* NULL: absent */
	/* fixed-file fs: case file name -> the file it was bound to */
	struct json_object *fixed_files;	/* NULL: absent */
	int mkfs_builtin;		/* fsprobe's own formatter ran */
	struct {
		char *device;		/* NULL: no "loop" member */
		int slot_device;
		char *slot_device_refused;
	} loop;
	struct {
		char **argv;		/* NULL: no "server" member */
		int nr_argv;
		int starts;		/* times started (mount, cold cycles) */
		int exit_status;	/* the last one's; FSP_RES_NULL: alive */
	} server;
	int worker_cpu;			/* FSP_RES_ABSENT / FSP_RES_NULL */
};

struct fsp_res_vm {
	char *kernel_image, *deb, *initramfs, *accel, *memory;
	long long qemu_ms;
	int guest_exit;
};

/* A system-wide knob the run changed (resources.knobs). */
struct fsp_res_knob {
	char *path, *was, *during;
	int restored;
};

struct fsp_res_doc {
	char *fsprobe, *kernel, *arch;
	long long page_size;		/* FSP_RES_ABSENT */
	int pmd_order;			/* < 0: null */
	int has_thp;
	struct {
		char *enabled, *shmem_enabled, *defrag, *config_source;
		int read_only_thp_for_fs;	/* -1: null (unknown) */
		/* "set", "not set", "absent"; NULL: null or missing */
		char *read_only_thp_for_fs_state;
		int has_ro_state;		/* the key is there */
	} thp;
	struct fsp_res_profile *profiles;
	int nr_profiles;
	int has_resources;
	struct {
		long long wall_ms, parent_maxrss_kb, worker_maxrss_kb;
		int jobs, nr_worker_cpus, *worker_cpus;
		char *wq_was, *wq_during;	/* NULL: null */
		struct fsp_res_knob *knobs;	/* NULL: no "knobs" */
		int nr_knobs;
	} resources;
	struct fsp_res_vm *vm;		/* NULL: no "vm" member */
};

struct fsp_sysinfo;

/* A new document with the environment's facts and no profiles. */
struct fsp_res_doc *fsp_res_doc_new(const struct fsp_sysinfo *si);
void fsp_res_doc_free(struct fsp_res_doc *doc);
void fsp_res_vm_free(struct fsp_res_vm *vm);
/* Append a profile (zeroed, fields unset); NULL without memory. */
struct fsp_res_profile *fsp_res_add_profile(struct fsp_res_doc *doc);
/* Move p's contents into a new last profile of doc; p is left empty. */
int fsp_res_take_profile(struct fsp_res_doc *doc, struct fsp_res_profile *p);

/* A profile's fields all unset: null verdict, orders, worker_cpu. */
void fsp_res_profile_init(struct fsp_res_profile *p);
void fsp_res_profile_clear(struct fsp_res_profile *p);
/* Set the verdict and its reason (reason NULL: null). */
void fsp_res_set_verdict(struct fsp_res_profile *p, enum fsp_verdict_id v,
			 const char *reason);
/* Append a probe (name, result); NULL without memory. */
struct fsp_res_probe *fsp_res_add_probe(struct fsp_res_profile *p,
					const char *name,
					enum fsp_outcome result);

/* Append one of the profile's attributes (profiles[].attributes). */
int fsp_res_add_attribute(struct fsp_res_profile *p, const char *name);

/* Names as written: the table's, or the unknown text that was read. */
const char *fsp_res_verdict_name(const struct fsp_res_profile *p);
const char *fsp_res_result_name(const struct fsp_res_probe *pr);

/* 1 if a probe failed, the kernel log showed a splat or a verdict is
 * error (nothing was measured), else 0; skip alone is 0. */
int fsp_res_exit_status(const struct fsp_res_doc *doc);

/* Encoder: the JSON of docs/json.md, today's keys in today's order. */
struct json_object *fsp_res_doc_json(const struct fsp_res_doc *doc);
struct json_object *fsp_res_profile_json(const struct fsp_res_profile *p);

/*
 * Decoder. what names the source in err ("FILE: key ..."). 0, or -EINVAL
 * with err set; on failure the output is left cleared.
 */
int fsp_res_doc_decode(struct json_object *obj, const char *what,
		       struct fsp_res_doc **doc, char *err, size_t errlen);
int fsp_res_profile_decode(struct json_object *obj, const char *what,
			   const char *where, struct fsp_res_profile *p,
			   char *err, size_t errlen);
/* Read and decode a -f json document from path (compare, vm tests). */
int fsp_res_doc_load(const char *path, struct fsp_res_doc **doc, char *err,
		     size_t errlen);
/* Write / read one profile as a JSON file (worker -> parent). */
int fsp_res_profile_save(const struct fsp_res_profile *p, const char *path);
int fsp_res_profile_load(const char *path, struct fsp_res_profile *p,
			 char *err, size_t errlen);

/*
 * A matrix (`fsprobe matrix`, result_matrix.c): {"fsprobe": VERSION,
 * "kernels": [DOCUMENT, ...]}, each item an ordinary run document.
 */
struct fsp_res_matrix {
	char *fsprobe;
	struct fsp_res_doc **kernels;
	int nr;
};

/* A new empty matrix of this fsprobe's version; NULL without memory. */
struct fsp_res_matrix *fsp_res_matrix_new(void);
void fsp_res_matrix_free(struct fsp_res_matrix *m);
/* Append doc (m owns it from now on, also on failure). */
int fsp_res_matrix_add(struct fsp_res_matrix *m, struct fsp_res_doc *doc);
struct json_object *fsp_res_matrix_json(const struct fsp_res_matrix *m);
/* Is obj a matrix document (an object with a "kernels" member)? */
int fsp_res_is_matrix(struct json_object *obj);
int fsp_res_matrix_decode(struct json_object *obj, const char *what,
			  struct fsp_res_matrix **m, char *err,
			  size_t errlen);
/*
 * Read path: a run document into *doc or a matrix into *m (the other
 * NULL). 0, or -errno with err set, both NULL.
 */
int fsp_res_load_any(const char *path, struct fsp_res_doc **doc,
		     struct fsp_res_matrix **m, char *err, size_t errlen);
/* Read path whole (at most FSP_RES_DOC_MAX) and parse it as one JSON
 * value; NULL with err set and *ret the -errno. */
struct json_object *fsp_res_json_load(const char *path, char *err,
				      size_t errlen, int *ret);

#endif
