// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * attrs.c - a profile's `attributes` applied to the filesystem the run
 * made (attrs.h). An fscrypt key is random per run, added to our own
 * superblock after every mount (a umount destroys that superblock's
 * keyring, so the cold cycle drops it too, and so does the end of a
 * killed worker's mount namespace) and removed before the last umount,
 * after which the names it hid are checked to be hidden. The immutable
 * flag is cleared again before the umount. Every step records what the
 * kernel read back, not what was asked for.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "attrs.h"
#include "targetfds.h"
#include "util.h"

#define PROBE_SUBDIR	"files"
#define PLAIN_SUBDIR	"plain"
#define CONTROL_CASE	"fault-pmd"
#define VERITY_BLOCK	4096

void fsp_attrs_init(struct fsp_attrs *a, unsigned int set)
{
	memset(a, 0, sizeof(*a));
	a->set = set;
}

static void ev_str(struct fsp_attrs *a, const char *k, const char *v)
{
	json_object_object_add(a->ev, k, json_object_new_string(v));
}

static void ev_int(struct fsp_attrs *a, const char *k, long long v)
{
	json_object_object_add(a->ev, k, json_object_new_int64(v));
}

static void ev_bool(struct fsp_attrs *a, const char *k, int v)
{
	json_object_object_add(a->ev, k, json_object_new_boolean(v));
}

static int unsupported(int ret)
{
	return ret == -EOPNOTSUPP || ret == -ENOTTY;
}

/* The policy fd reads back: version, modes, and whether it is our key. */
static int policy_evidence(struct fsp_attrs *a, int fd)
{
	struct fsp_fscrypt_policy pol;
	char hex[2 * FSP_FSCRYPT_ID_SIZE + 1], b[32];
	int ret = fsp_fscrypt_get_policy(fd, &pol);

	if (ret)
		return ret;
	ev_int(a, "policy_version", pol.version);
	ev_str(a, "contents_mode",
	       fsp_fscrypt_mode_name(pol.contents_mode, b, sizeof(b)));
	ev_str(a, "filenames_mode",
	       fsp_fscrypt_mode_name(pol.filenames_mode, b, sizeof(b)));
	fsp_fscrypt_id_hex(a->key.id, hex);
	ev_str(a, "key_identifier", hex);
	ev_bool(a, "policy_is_our_key", pol.version == 2 &&
		!memcmp(pol.id, a->key.id, sizeof(pol.id)));
	return 0;
}

/* A fresh key into the superblock, then a v2 policy on the empty dir. */
static int encrypt_dir(struct fsp_attrs *a, int mntfd, int dirfd,
		       char *err, size_t len)
{
	int ret = fsp_fscrypt_key_new(&a->key);

	if (ret) {
		snprintf(err, len, "getrandom for the fscrypt key: %s",
			 fsp_errno_name(-ret));
		return ret;
	}
	ret = fsp_fscrypt_key_add(mntfd, &a->key);
	if (ret) {
		snprintf(err, len, "FS_IOC_ADD_ENCRYPTION_KEY: %s%s",
			 fsp_errno_name(-ret), unsupported(ret) ?
			 " (no fscrypt in this kernel or filesystem)" : "");
		return ret;
	}
	a->key_in = 1;
	ev_int(a, "key_adds", a->nr_adds = 1);
	ret = fsp_fscrypt_set_policy(dirfd, &a->key);
	if (!ret)
		ret = policy_evidence(a, dirfd);
	if (ret)
		snprintf(err, len, "FS_IOC_SET_ENCRYPTION_POLICY on %s: %s%s",
			 a->dir, fsp_errno_name(-ret), unsupported(ret) ?
			 " (mkfs without the encrypt feature?)" : "");
	return ret;
}

static int compress_dir(struct fsp_attrs *a, int dirfd, char *err,
			size_t len)
{
	unsigned int now;
	int ret = fsp_attr_flags_change(dirfd, FS_COMPR_FL, 0, &now);

	if (ret) {
		snprintf(err, len, "FS_IOC_SETFLAGS FS_COMPR_FL on %s: %s%s",
			 a->dir, fsp_errno_name(-ret), unsupported(ret) ?
			 " (the filesystem has no per-file compression)" : "");
		return ret;
	}
	ev_bool(a, "dir_compr_fl", !!(now & FS_COMPR_FL));
	if (!(now & FS_COMPR_FL)) {
		snprintf(err, len, "FS_COMPR_FL on %s did not stay set",
			 a->dir);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int make_dirs(struct fsp_attrs *a, const char *mnt)
{
	if (fsp_fmt(a->dir, sizeof(a->dir), "%s/" PROBE_SUBDIR, mnt) ||
	    fsp_fmt(a->plain, sizeof(a->plain), "%s/" PLAIN_SUBDIR, mnt))
		return -ENAMETOOLONG;
	if (mkdir(a->dir, 0755) || mkdir(a->plain, 0755))
		return -errno;
	return 0;
}

int fsp_attrs_dir(struct fsp_attrs *a, const char *mnt,
		  struct fsp_target *t, char *err, size_t len)
{
	int mntfd = -1, dirfd = -1, ret;

	if (!a->set)
		return 0;
	a->ev = json_object_new_object();
	ret = make_dirs(a, mnt);
	if (ret) {
		snprintf(err, len, "making %s: %s", a->dir, strerror(-ret));
		return ret;
	}
	ev_str(a, "probe_dir", PROBE_SUBDIR);
	mntfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dirfd = open(a->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mntfd < 0 || dirfd < 0) {
		ret = -errno;
		snprintf(err, len, "opening %s: %s", a->dir, strerror(-ret));
		goto out;
	}
	if (a->set & FSP_ATTR_ENCRYPT)
		ret = encrypt_dir(a, mntfd, dirfd, err, len);
	if (!ret && (a->set & FSP_ATTR_COMPRESS))
		ret = compress_dir(a, dirfd, err, len);
	t->dir = t->prep_dir = a->dir;
out:
	a->unsupported = unsupported(ret);
	if (dirfd >= 0)
		close(dirfd);
	if (mntfd >= 0)
		close(mntfd);
	return ret;
}

/* One file of the probe directory: read back, then sealed if asked. */
static int seal_file(struct fsp_attrs *a, int fd, int *digest_done,
		     char *err, size_t len, const char *name)
{
	struct fsp_fscrypt_policy pol;
	char hex[2 * 64 + 1];
	unsigned int f = 0;
	int ret = 0;

	if ((a->set & FSP_ATTR_ENCRYPT) && !fsp_fscrypt_get_policy(fd, &pol) &&
	    !memcmp(pol.id, a->key.id, sizeof(pol.id)))
		ev_int(a, "files_encrypted", ++a->nr_encrypted);
	if ((a->set & FSP_ATTR_COMPRESS) && !fsp_attr_flags_get(fd, &f) &&
	    (f & FS_COMPR_FL))
		ev_int(a, "files_compr_fl", ++a->nr_compressed);
	if (a->set & FSP_ATTR_IMMUTABLE) {
		ret = fsp_attr_flags_change(fd, FS_IMMUTABLE_FL, 0, &f);
		if (!ret && !(f & FS_IMMUTABLE_FL))
			ret = -EOPNOTSUPP;
		if (ret)
			snprintf(err, len, "FS_IOC_SETFLAGS FS_IMMUTABLE_FL on "
				 "%s: %s", name, fsp_errno_name(-ret));
	}
	if (!ret && (a->set & FSP_ATTR_VERITY)) {
		ret = fsp_verity_enable(fd, VERITY_BLOCK);
		if (ret)
			snprintf(err, len, "FS_IOC_ENABLE_VERITY on %s: %s%s",
				 name, fsp_errno_name(-ret), unsupported(ret) ?
				 " (no fs-verity in this kernel or "
				 "filesystem)" : "");
		else if (!*digest_done && !fsp_verity_digest(fd, hex,
							       sizeof(hex))) {
			ev_str(a, "verity_digest_example", hex);
			*digest_done = 1;
		}
	}
	if (!ret && (a->set & FSP_ATTR_ON_FILES))
		ev_int(a, "files_sealed", ++a->nr_sealed);
	return ret;
}

/* Whether the control file on the same filesystem is encrypted. */
static void plain_evidence(struct fsp_attrs *a)
{
	struct fsp_fscrypt_policy pol;
	int fd = open(a->plain, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || !(a->set & FSP_ATTR_ENCRYPT)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	ev_str(a, "plain_dir_policy",
	       fsp_fscrypt_get_policy(fd, &pol) ? "none" : "set");
	close(fd);
}

int fsp_attrs_seal(struct fsp_attrs *a, struct fsp_target *t, char *err,
		   size_t len)
{
	struct dirent *de;
	int fd, ret = 0, digest_done = 0;
	DIR *d;

	if (!a->set)
		return 0;
	d = opendir(a->dir);
	if (!d) {
		ret = -errno;
		snprintf(err, len, "opening %s: %s", a->dir, strerror(-ret));
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		struct stat st;

		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW |
			    O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			snprintf(err, len, "opening %s: %s", de->d_name,
				 strerror(-ret));
			break;
		}
		ev_int(a, "files", ++a->nr_files);
		if (a->nr_names < (int)FSP_ARRAY_SIZE(a->names) &&
		    !fsp_strcpy(a->names[a->nr_names], sizeof(a->names[0]),
				de->d_name))
			a->nr_names++;
		ret = seal_file(a, fd, &digest_done, err, len, de->d_name);
		close(fd);
	}
	closedir(d);
	a->unsupported = unsupported(ret);
	plain_evidence(a);
	if (!ret && (a->set & FSP_ATTR_ON_FILES))
		t->sealed = a->sealed = a->set & FSP_ATTR_VERITY ?
			"the probe file is fs-verity sealed (profile "
			"attribute)" : "the probe file is immutable (profile "
			"attribute)";
	return ret;
}

int fsp_attrs_mounted(struct fsp_attrs *a, const char *mnt)
{
	int fd, ret;

	if (!(a->set & FSP_ATTR_ENCRYPT) || !a->key.has_id)
		return 0;
	fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fsp_fscrypt_key_add(fd, &a->key);
	close(fd);
	if (!ret) {
		a->key_in = 1;
		ev_int(a, "key_adds", ++a->nr_adds);
	}
	return ret;
}

/* Immutable files cleared, so that nothing about them outlives us. */
static void unseal_files(struct fsp_attrs *a)
{
	struct dirent *de;
	int fd, n = 0;
	unsigned int f;
	DIR *d = opendir(a->dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW |
			    O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fsp_attr_flags_change(fd, 0, FS_IMMUTABLE_FL, &f) &&
		    !(f & FS_IMMUTABLE_FL))
			n++;
		close(fd);
	}
	closedir(d);
	ev_int(a, "flags_cleared", n);
}

static int known_name(const struct fsp_attrs *a, const char *name)
{
	int i;

	for (i = 0; i < a->nr_names; i++)
		if (!strcmp(a->names[i], name))
			return 1;
	return 0;
}

/*
 * With the key gone the directory lists no-key names: count the names
 * the files were written under that still show (0 expected), and what
 * opening an entry gives (ENOKEY: its contents need the key).
 */
static void names_after_removal(struct fsp_attrs *a)
{
	struct dirent *de;
	int n = 0, plain = 0, fd;
	DIR *d = opendir(a->dir);

	if (!d) {
		ev_str(a, "dir_after_removal", fsp_errno_name(errno));
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		plain += known_name(a, de->d_name);
		if (n++)
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC);
		ev_str(a, "open_after_removal",
		       fd < 0 ? fsp_errno_name(errno) : "ok");
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
	ev_int(a, "entries_after_removal", n);
	ev_int(a, "plain_names_after_removal", plain);
}

static void remove_key(struct fsp_attrs *a, const char *mnt)
{
	unsigned int flags = 0, status = 0;
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0)
		return;
	ret = fsp_fscrypt_key_remove(fd, &a->key, &flags);
	ev_str(a, "key_removal", ret ? fsp_errno_name(-ret) : "ok");
	if (!ret) {
		a->key_in = 0;
		ev_int(a, "key_removal_status_flags", flags);
	}
	ret = fsp_fscrypt_key_status(fd, &a->key, &status);
	ev_str(a, "key_status_after_removal", ret ? fsp_errno_name(-ret) :
	       fsp_fscrypt_status_name(status));
	close(fd);
	names_after_removal(a);
}

void fsp_attrs_release(struct fsp_attrs *a, const char *mnt)
{
	if (!a->set || !a->ev)
		return;
	if (a->set & FSP_ATTR_IMMUTABLE)
		unseal_files(a);
	if ((a->set & FSP_ATTR_ENCRYPT) && a->key_in)
		remove_key(a, mnt);
	fsp_fscrypt_key_wipe(&a->key);
}

/* t on MNT/plain: its own directory fds, closed with plain_done. */
static int plain_target(struct fsp_attrs *a, const struct fsp_target *t,
			struct fsp_target *tp)
{
	*tp = *t;
	tp->dir = tp->prep_dir = a->plain;
	tp->dirfd = tp->prep_dirfd = -1;
	return fsp_target_fds_open(tp);
}

int fsp_attrs_control_prepare(struct fsp_attrs *a,
			      const struct fsp_target *t)
{
	const struct fsp_case *c = fsp_case_find(CONTROL_CASE);
	struct fsp_target tp;
	int ret;

	if (!a->set || !c || !c->prepare)
		return 0;
	ret = plain_target(a, t, &tp);
	if (!ret)
		ret = c->prepare(&tp);
	fsp_target_fds_close(&tp);
	return ret;
}

void fsp_attrs_control(struct fsp_attrs *a, const struct fsp_target *t)
{
	const struct fsp_case *c = fsp_case_find(CONTROL_CASE);
	struct fsp_target tp;
	struct json_object *o;
	struct fsp_probe p;
	int ret;

	if (!a->set || !a->ev || !c)
		return;
	ret = plain_target(a, t, &tp);
	tp.sealed = NULL;
	fsp_probe_init(&p, c);
	if (ret)
		fsp_probe_set(&p, FSP_ERROR, "opening %s: %s", a->plain,
			      strerror(-ret));
	else
		c->run(&tp, &p);
	fsp_target_fds_close(&tp);
	o = json_object_new_object();
	json_object_object_add(o, "probe", json_object_new_string(c->name));
	json_object_object_add(o, "dir", json_object_new_string(PLAIN_SUBDIR));
	json_object_object_add(o, "result",
			       json_object_new_string(fsp_outcome_name(p.result)));
	if (p.reason[0])
		json_object_object_add(o, "reason",
				       json_object_new_string(p.reason));
	json_object_object_add(o, "order_fault",
			       json_object_new_int(p.order_fault));
	json_object_object_add(o, "evidence", json_object_get(p.evidence));
	json_object_object_add(a->ev, "control", o);
	json_object_put(p.evidence);
}

struct json_object *fsp_attrs_take_evidence(struct fsp_attrs *a)
{
	struct json_object *o = a->ev;

	a->ev = NULL;
	return o;
}

void fsp_attrs_free(struct fsp_attrs *a)
{
	fsp_fscrypt_key_wipe(&a->key);
	json_object_put(a->ev);
	a->ev = NULL;
}
