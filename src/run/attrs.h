/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attrs.h - a profile's `attributes` on the filesystem under test. The
 * probe files then live in a directory of their own, DIR/files, made
 * with the directory attributes (an fscrypt policy, compression) before
 * prepare() writes into it; the file attributes (immutable, verity) go
 * on every file after prepare(). DIR/plain holds the same fault-pmd file
 * with no attribute: a control on the same filesystem. What was applied
 * and read back is recorded for profiles[].attribute_evidence.
 */
#ifndef FSP_ATTRS_H
#define FSP_ATTRS_H

#include <json-c/json.h>

#include "case.h"
#include "fsattr.h"

struct fsp_attrs {
	unsigned int set;		/* the profile's FSP_ATTR_* */
	char dir[4200];			/* MNT/files: the probe files */
	char plain[4200];		/* MNT/plain: the control, no attribute */
	struct fsp_fscrypt_key key;
	int key_in;			/* in the mounted superblock now */
	int nr_adds;			/* mounts that added the key */
	int nr_files, nr_sealed;	/* regular files; sealed of them */
	int nr_encrypted, nr_compressed;	/* read back from the files */
	char names[32][64];		/* the files' names, for after the key */
	int nr_names;
	int unsupported;		/* the kernel or fs lacks one: skip */
	const char *sealed;		/* why the files are not writable */
	struct json_object *ev;		/* what was applied and read back */
};

void fsp_attrs_init(struct fsp_attrs *a, unsigned int set);
/*
 * The mounted filesystem at mnt gets MNT/files with the directory
 * attributes and MNT/plain; t's dir and prep_dir point at MNT/files.
 * 0 or -errno with err saying why (a->unsupported: the kernel or the
 * filesystem has no such attribute, a skip).
 */
int fsp_attrs_dir(struct fsp_attrs *a, const char *mnt,
		  struct fsp_target *t, char *err, size_t len);
/* After prepare(): the file attributes on every file of MNT/files. */
int fsp_attrs_seal(struct fsp_attrs *a, struct fsp_target *t, char *err,
		   size_t len);
/* After every mount: the key again, as the umount took it with the sb. */
int fsp_attrs_mounted(struct fsp_attrs *a, const char *mnt);
/*
 * Before the last umount: the files' flags cleared, the key removed,
 * its status and the names it hid read back into the evidence.
 */
void fsp_attrs_release(struct fsp_attrs *a, const char *mnt);
/* The control (fault-pmd on MNT/plain) after the cases ran. */
void fsp_attrs_control(struct fsp_attrs *a, const struct fsp_target *t);
int fsp_attrs_control_prepare(struct fsp_attrs *a,
			      const struct fsp_target *t);
/* The evidence to keep (a reference); a's own is dropped. */
struct json_object *fsp_attrs_take_evidence(struct fsp_attrs *a);
void fsp_attrs_free(struct fsp_attrs *a);

#endif
