// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsattr.c - the ioctls behind profile attributes: fscrypt v2 keys and
 * policies (Linux 5.4, "fscrypt: add FS_IOC_ADD_ENCRYPTION_KEY ioctl",
 * 22d94f493bfb), inode flags (FS_IOC_GETFLAGS/SETFLAGS) and fs-verity
 * (Linux 5.4, fs/verity/). The raw key never leaves this process' memory
 * except into the kernel; the kernel keeps it in the superblock's
 * keyring, which umount destroys, so nothing outlives our filesystem.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <linux/fs.h>
#include <linux/fscrypt.h>
#include <linux/fsverity.h>

#include "fsattr.h"

static const char *const attr_names[FSP_NR_ATTRS] = {
	"encrypt", "compress", "immutable", "verity",
};

int fsp_attr_from_name(const char *name)
{
	int i;

	for (i = 0; i < FSP_NR_ATTRS; i++)
		if (!strcmp(name, attr_names[i]))
			return 1 << i;
	return -EINVAL;
}

const char *fsp_attr_name(int i)
{
	return i >= 0 && i < FSP_NR_ATTRS ? attr_names[i] : "?";
}

const char *fsp_attr_names(void)
{
	return "encrypt, compress, immutable, verity";
}

int fsp_fscrypt_key_new(struct fsp_fscrypt_key *k)
{
	size_t got = 0;
	ssize_t n;

	memset(k, 0, sizeof(*k));
	while (got < sizeof(k->raw)) {
		n = getrandom(k->raw + got, sizeof(k->raw) - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got += n;
	}
	return 0;
}

void fsp_fscrypt_key_wipe(struct fsp_fscrypt_key *k)
{
	explicit_bzero(k->raw, sizeof(k->raw));
}

static void key_spec(struct fscrypt_key_specifier *s,
		     const struct fsp_fscrypt_key *k)
{
	memset(s, 0, sizeof(*s));
	s->type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	memcpy(s->u.identifier, k->id, sizeof(k->id));
}

int fsp_fscrypt_key_add(int fd, struct fsp_fscrypt_key *k)
{
	union {
		struct fscrypt_add_key_arg arg;
		uint8_t buf[sizeof(struct fscrypt_add_key_arg) +
			    FSP_FSCRYPT_KEY_SIZE];
	} u;
	int ret = 0;

	memset(&u, 0, sizeof(u));
	u.arg.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	u.arg.raw_size = sizeof(k->raw);
	memcpy(u.arg.raw, k->raw, sizeof(k->raw));
	if (ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, &u.arg))
		ret = -errno;
	else if (k->has_id && memcmp(k->id, u.arg.key_spec.u.identifier,
				     sizeof(k->id)))
		ret = -EKEYREJECTED;	/* the same key, another id? */
	if (!ret) {
		memcpy(k->id, u.arg.key_spec.u.identifier, sizeof(k->id));
		k->has_id = 1;
	}
	explicit_bzero(&u, sizeof(u));
	return ret;
}

/*
 * FS_IOC_REMOVE_ENCRYPTION_KEY (remove) or FS_IOC_GET_ENCRYPTION_KEY_STATUS
 * for k: *out is the removal status flags or the key status.
 */
static int key_query(int fd, const struct fsp_fscrypt_key *k, int remove,
		     unsigned int *out)
{
	union {
		struct fscrypt_remove_key_arg rm;
		struct fscrypt_get_key_status_arg st;
	} u;

	memset(&u, 0, sizeof(u));
	key_spec(remove ? &u.rm.key_spec : &u.st.key_spec, k);
	if (ioctl(fd, remove ? FS_IOC_REMOVE_ENCRYPTION_KEY :
		  FS_IOC_GET_ENCRYPTION_KEY_STATUS, &u))
		return -errno;
	*out = remove ? u.rm.removal_status_flags : u.st.status;
	return 0;
}

int fsp_fscrypt_key_remove(int fd, const struct fsp_fscrypt_key *k,
			   unsigned int *flags)
{
	return key_query(fd, k, 1, flags);
}

int fsp_fscrypt_key_status(int fd, const struct fsp_fscrypt_key *k,
			   unsigned int *status)
{
	return key_query(fd, k, 0, status);
}

const char *fsp_fscrypt_status_name(unsigned int status)
{
	static const char *const names[] = {
		[FSCRYPT_KEY_STATUS_ABSENT] = "absent",
		[FSCRYPT_KEY_STATUS_PRESENT] = "present",
		[FSCRYPT_KEY_STATUS_INCOMPLETELY_REMOVED] =
			"incompletely removed",
	};

	if (status >= sizeof(names) / sizeof(names[0]) || !names[status])
		return "?";
	return names[status];
}

int fsp_fscrypt_set_policy(int dirfd, const struct fsp_fscrypt_key *k)
{
	struct fscrypt_policy_v2 pol;

	memset(&pol, 0, sizeof(pol));
	pol.version = FSCRYPT_POLICY_V2;
	pol.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS;
	pol.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS;
	pol.flags = FSCRYPT_POLICY_FLAGS_PAD_32;
	memcpy(pol.master_key_identifier, k->id, sizeof(k->id));
	/* The v1 name of the ioctl takes either version (fscrypt.h). */
	return ioctl(dirfd, FS_IOC_SET_ENCRYPTION_POLICY, &pol) ? -errno : 0;
}

int fsp_fscrypt_get_policy(int fd, struct fsp_fscrypt_policy *pol)
{
	struct fscrypt_get_policy_ex_arg arg;

	memset(&arg, 0, sizeof(arg));
	memset(pol, 0, sizeof(*pol));
	arg.policy_size = sizeof(arg.policy);
	if (ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY_EX, &arg))
		return -errno;
	pol->version = arg.policy.version;
	if (arg.policy.version == FSCRYPT_POLICY_V2) {
		pol->contents_mode = arg.policy.v2.contents_encryption_mode;
		pol->filenames_mode = arg.policy.v2.filenames_encryption_mode;
		pol->flags = arg.policy.v2.flags;
		memcpy(pol->id, arg.policy.v2.master_key_identifier,
		       sizeof(pol->id));
	} else {
		pol->contents_mode = arg.policy.v1.contents_encryption_mode;
		pol->filenames_mode = arg.policy.v1.filenames_encryption_mode;
		pol->flags = arg.policy.v1.flags;
	}
	return 0;
}

const char *fsp_fscrypt_mode_name(int mode, char *buf, size_t len)
{
	switch (mode) {
	case FSCRYPT_MODE_AES_256_XTS:
		return "AES-256-XTS";
	case FSCRYPT_MODE_AES_256_CTS:
		return "AES-256-CTS";
	case FSCRYPT_MODE_AES_128_CBC:
		return "AES-128-CBC";
	case FSCRYPT_MODE_AES_128_CTS:
		return "AES-128-CTS";
	case FSCRYPT_MODE_ADIANTUM:
		return "Adiantum";
	default:
		snprintf(buf, len, "mode %d", mode);
		return buf;
	}
}

void fsp_fscrypt_id_hex(const uint8_t *id, char *out)
{
	int i;

	for (i = 0; i < FSP_FSCRYPT_ID_SIZE; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * FSP_FSCRYPT_ID_SIZE] = '\0';
}

/* The kernel reads and writes an int, whatever the ioctl number says. */
int fsp_attr_flags_get(int fd, unsigned int *flags)
{
	int f;

	if (ioctl(fd, FS_IOC_GETFLAGS, &f))
		return -errno;
	*flags = f;
	return 0;
}

int fsp_attr_flags_change(int fd, unsigned int set, unsigned int clear,
			  unsigned int *now)
{
	unsigned int f = 0;
	int v, ret = fsp_attr_flags_get(fd, &f);

	if (ret)
		return ret;
	v = (int)((f | set) & ~clear);
	if ((unsigned int)v != f && ioctl(fd, FS_IOC_SETFLAGS, &v))
		return -errno;
	return now ? fsp_attr_flags_get(fd, now) : 0;
}

int fsp_verity_enable(int fd, unsigned int block_size)
{
	struct fsverity_enable_arg arg;

	memset(&arg, 0, sizeof(arg));
	arg.version = 1;
	arg.hash_algorithm = FS_VERITY_HASH_ALG_SHA256;
	arg.block_size = block_size;
	return ioctl(fd, FS_IOC_ENABLE_VERITY, &arg) ? -errno : 0;
}

int fsp_verity_digest(int fd, char *hex, size_t len)
{
	union {
		struct fsverity_digest d;
		uint8_t buf[sizeof(struct fsverity_digest) + 64];
	} u;
	int i;

	memset(&u, 0, sizeof(u));
	u.d.digest_size = 64;
	if (ioctl(fd, FS_IOC_MEASURE_VERITY, &u.d))
		return -errno;
	if (len < 2u * u.d.digest_size + 1)
		return -ENOSPC;
	for (i = 0; i < u.d.digest_size; i++)
		sprintf(hex + 2 * i, "%02x", u.d.digest[i]);
	hex[2 * u.d.digest_size] = '\0';
	return 0;
}
