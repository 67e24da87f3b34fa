/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsattr.h - attributes a profile puts on the probe files beyond mkfs and
 * mount options: an fscrypt v2 policy (with a key the run generates,
 * adds and removes), per-directory compression (FS_COMPR_FL), the
 * immutable flag and fs-verity. Two kinds: a directory attribute is set
 * on the empty probe directory before any file is written and inherited
 * by the files made in it; a file attribute is set on each file after it
 * is written and forbids writing it. The ioctls only: 0 or -errno,
 * nothing printed.
 */
#ifndef FSP_FSATTR_H
#define FSP_FSATTR_H

#include <stddef.h>
#include <stdint.h>

enum {
	FSP_ATTR_ENCRYPT = 1 << 0,	/* fscrypt v2 policy on the dir */
	FSP_ATTR_COMPRESS = 1 << 1,	/* FS_COMPR_FL on the dir */
	FSP_ATTR_IMMUTABLE = 1 << 2,	/* FS_IMMUTABLE_FL on each file */
	FSP_ATTR_VERITY = 1 << 3,	/* FS_IOC_ENABLE_VERITY on each file */
	FSP_NR_ATTRS = 4,
};

#define FSP_ATTR_ON_DIR		(FSP_ATTR_ENCRYPT | FSP_ATTR_COMPRESS)
#define FSP_ATTR_ON_FILES	(FSP_ATTR_IMMUTABLE | FSP_ATTR_VERITY)

/* The bit of a name ("encrypt", ...), or -EINVAL. */
int fsp_attr_from_name(const char *name);
/* The name of bit i (0 <= i < FSP_NR_ATTRS), in table order. */
const char *fsp_attr_name(int i);
/* "encrypt, compress, immutable, verity": for error messages. */
const char *fsp_attr_names(void);

#define FSP_FSCRYPT_KEY_SIZE	64	/* AES-256-XTS takes 64 bytes */
#define FSP_FSCRYPT_ID_SIZE	16

/* A raw key of our own and the identifier the kernel derived from it. */
struct fsp_fscrypt_key {
	uint8_t raw[FSP_FSCRYPT_KEY_SIZE];
	uint8_t id[FSP_FSCRYPT_ID_SIZE];
	int has_id;		/* id is valid: the key was added once */
};

/* A fresh random key (getrandom); no identifier yet. */
int fsp_fscrypt_key_new(struct fsp_fscrypt_key *k);
/* Forget the raw key (the identifier stays for checks). */
void fsp_fscrypt_key_wipe(struct fsp_fscrypt_key *k);
/*
 * FS_IOC_ADD_ENCRYPTION_KEY (Linux 5.4) on the filesystem of fd; sets
 * the identifier. The key lives in that superblock's keyring and dies
 * with it at umount. Adding it again after a remount gives the same id.
 */
int fsp_fscrypt_key_add(int fd, struct fsp_fscrypt_key *k);
/* FS_IOC_REMOVE_ENCRYPTION_KEY; *flags: FSCRYPT_KEY_REMOVAL_STATUS_* */
int fsp_fscrypt_key_remove(int fd, const struct fsp_fscrypt_key *k,
			   unsigned int *flags);
/* FS_IOC_GET_ENCRYPTION_KEY_STATUS: FSCRYPT_KEY_STATUS_* in *status. */
int fsp_fscrypt_key_status(int fd, const struct fsp_fscrypt_key *k,
			   unsigned int *status);
/* "absent", "present", "incompletely removed" or "?". */
const char *fsp_fscrypt_status_name(unsigned int status);
/* A v2 policy (AES-256-XTS contents, AES-256-CTS names) on empty dirfd. */
int fsp_fscrypt_set_policy(int dirfd, const struct fsp_fscrypt_key *k);

/* What FS_IOC_GET_ENCRYPTION_POLICY_EX (Linux 5.4) reads back. */
struct fsp_fscrypt_policy {
	int version;		/* 1 or 2 */
	int contents_mode, filenames_mode, flags;
	uint8_t id[FSP_FSCRYPT_ID_SIZE];	/* v2 only */
};

/* -ENODATA: fd is not encrypted. */
int fsp_fscrypt_get_policy(int fd, struct fsp_fscrypt_policy *pol);
/* "AES-256-XTS", ... or "mode N" in buf. */
const char *fsp_fscrypt_mode_name(int mode, char *buf, size_t len);
/* 32 hex digits and a NUL. */
void fsp_fscrypt_id_hex(const uint8_t *id, char *out);

/* FS_IOC_GETFLAGS / FS_IOC_SETFLAGS: set and clear bits; *now after. */
int fsp_attr_flags_change(int fd, unsigned int set, unsigned int clear,
			  unsigned int *now);
int fsp_attr_flags_get(int fd, unsigned int *flags);

/*
 * FS_IOC_ENABLE_VERITY (Linux 5.4), SHA-256 over block_size blocks, on a
 * file opened read-only with no writer left; the digest in hex (at most
 * 2 * 32 + 1 bytes) when hex is not NULL.
 */
int fsp_verity_enable(int fd, unsigned int block_size);
int fsp_verity_digest(int fd, char *hex, size_t len);

#endif
