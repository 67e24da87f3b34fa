/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - mkfs/mount profiles: one `key = value` file per filesystem
 * configuration (docs/extending.md). Parsing is strict: unknown keys, duplicate
 * keys, bad sizes and anything that names a device are errors that carry
 * the file and line, so a typo never silently changes what is tested.
 */
#ifndef FSP_PROFILE_H
#define FSP_PROFILE_H

#include <limits.h>
#include <stddef.h>

#define FSP_PROFILE_MAX_ARGS	32
#define FSP_PROFILE_MAX_REQS	8
#define FSP_PROFILE_LINE_MAX	1024

/*
 * What a profile's fs is to the runner, decided once by the parser from
 * `fs`: nothing else tests fs names.
 */
enum fsp_profile_kind {
	FSP_PROFILE_DEVICE,	/* mkfs on a loop device, mounted from it */
	FSP_PROFILE_MEMORY,	/* tmpfs, ramfs: no device, no mkfs */
	FSP_PROFILE_IMAGE,	/* squashfs, erofs, iso9660, romfs: from a dir */
	FSP_PROFILE_OVERLAY,	/* overlay on a `lower` device fs */
	FSP_PROFILE_FUSE,	/* fuse.*: a `server` we start serves an image */
	FSP_PROFILE_NFS,	/* nfs4: a `lower` fs exported by our nfsd */
};

/*
 * device_fault: a device-mapper device between the filesystem and its
 * loop device, linear while mkfs runs, then made to fail (dm.h): the
 * probes meet a failing device, and must say `error` with the errno.
 */
enum fsp_device_fault {
	FSP_FAULT_NONE,
	FSP_FAULT_READ,		/* from the cold mount on, reads fail */
	FSP_FAULT_WRITE,	/* from the first mount on, writes fail */
	FSP_FAULT_ALL,		/* from the cold mount on, all I/O fails */
};

/*
 * The block device a DEVICE profile's filesystem is made on (`device`):
 * a loop device over a sparse image (the default), or a zoned null_blk
 * device made through configfs (fsprobe/nullb.h). Each kind is created,
 * journalled and removed by the run itself.
 */
enum fsp_device_kind {
	FSP_DEVICE_LOOP,
	FSP_DEVICE_NULLB_ZONED,
};

struct fsp_profile {
	char name[64];			/* file name without ".conf" */
	char path[PATH_MAX];
	char fs[32];			/* mount type: ext4, xfs, tmpfs, ... */
	char *mkfs[FSP_PROFILE_MAX_ARGS + 1];	/* NULL-terminated word list */
	int nr_mkfs;
	char mount_options[256];
	unsigned long size_mb;		/* 0: the run's default */
	char *requires[FSP_PROFILE_MAX_REQS + 1];
	int nr_requires;
	char description[256];
	char lower[32];			/* overlay: fs type of the lower layer;
					   nfs4: of the exported fs */
	enum fsp_profile_kind kind;
	enum fsp_profile_kind lower_kind; /* overlay: device or memory */
	int extended;			/* matrix = extended: only with -p */
	unsigned int attrs;		/* FSP_ATTR_* (fsattr.h) */
	/*
	 * fuse: the server's command, `{image}` and `{mnt}` replaced by
	 * whole words; it runs in the foreground (-f) as our child.
	 */
	char *server[FSP_PROFILE_MAX_ARGS + 1];
	int nr_server;
	/*
	 * The files are written into a staging directory that mkfs makes
	 * the image from (image builders; a fuse profile whose mkfs names
	 * {src}); the filesystem is then read-only.
	 */
	int staged;
	enum fsp_device_fault device_fault;
	enum fsp_device_kind device;	/* device = ...: loop by default */
	/*
	 * The filesystem has a fixed set of files that cases cannot create
	 * or resize (zonefs: one file per zone); decided from `fs`.
	 */
	int fixed_files;
};

struct fsp_profile_error {
	int line;			/* 0: not tied to a line */
	char msg[256];
};

/* Fill err (line, message) and return -EINVAL: parsers' one error path. */
int fsp_profile_err(struct fsp_profile_error *err, int line,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

int fsp_profile_parse_text(const char *name, const char *text, size_t len,
			   struct fsp_profile *p,
			   struct fsp_profile_error *err);
/*
 * A refused input file (fsp_slurp_regular: not regular, over max bytes)
 * as err's message and -EINVAL; any other ret is returned as it is.
 */
int fsp_profile_load_error(int ret, size_t max,
			   struct fsp_profile_error *err);
int fsp_profile_load(const char *path, struct fsp_profile *p,
		     struct fsp_profile_error *err);
void fsp_profile_free(struct fsp_profile *p);
/*
 * A profile of an fstests config section (local.config: [section],
 * KEY=value, export, quotes): FSTYP, MKFS_OPTIONS, MOUNT_OPTIONS. The
 * devices it names are never used. section NULL: the first one. Errors
 * carry the line; file names the source in the profile's description.
 */
int fsp_profile_parse_fstests(const char *file, const char *text,
			      size_t len, const char *section,
			      struct fsp_profile *p,
			      struct fsp_profile_error *err);
int fsp_profile_load_fstests(const char *path, const char *section,
			     struct fsp_profile *p,
			     struct fsp_profile_error *err);

/* Profiles of a directory, sorted by name; *nr set. */
int fsp_profile_load_dir(const char *dir, struct fsp_profile **out, int *nr,
			 char *errpath, size_t errlen,
			 struct fsp_profile_error *err);
void fsp_profile_free_all(struct fsp_profile *p, int nr);
/* "read", "write", "all" ("none"): the device_fault value. */
const char *fsp_device_fault_name(enum fsp_device_fault f);
/* "loop", "null_blk-zoned": the `device` value of a kind. */
const char *fsp_device_kind_name(enum fsp_device_kind kind);
/* "device", "memory", "image", "overlay", "fuse", "nfs" (messages). */
const char *fsp_profile_kind_name(enum fsp_profile_kind kind);

#endif
