// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mnt.c - libmount contexts for our mounts (no /sbin/mount.* helpers, no
 * utab: the mounts live in a private namespace and die with it), plus the
 * libblkid superblock check done after mkfs.
 */
#include <blkid.h>
#include <errno.h>
#include <limits.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include "mnt.h"
#include "util.h"

int fsp_mnt_mount(const char *src, const char *target, const char *fstype,
		  const char *options, int readonly, char *msg, size_t len)
{
	struct libmnt_context *cxt;
	int rc, ret = 0;

	if (msg && len)
		msg[0] = '\0';
	cxt = mnt_new_context();
	if (!cxt)
		return -ENOMEM;
	mnt_context_disable_helpers(cxt, 1);
	mnt_context_disable_mtab(cxt, 1);
	mnt_context_disable_swapmatch(cxt, 1);
	if (mnt_context_set_source(cxt, src) ||
	    mnt_context_set_target(cxt, target) ||
	    mnt_context_set_fstype(cxt, fstype) ||
	    (options && *options && mnt_context_set_options(cxt, options)) ||
	    (readonly && mnt_context_append_options(cxt, "ro"))) {
		ret = -EINVAL;
		goto out;
	}
	rc = mnt_context_mount(cxt);
	if (rc || mnt_context_get_status(cxt) != 1) {
		int err = mnt_context_get_syscall_errno(cxt);

		if (msg && len)
			mnt_context_get_excode(cxt, rc, msg, len);
		ret = err ? -err : -EIO;
	}
out:
	mnt_free_context(cxt);
	return ret;
}

int fsp_mnt_umount(const char *target)
{
	struct timespec ts = { 0, 20 * 1000000L };
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (!umount2(target, UMOUNT_NOFOLLOW))
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&ts, NULL);
	}
	return -EBUSY;
}

int fsp_mountinfo_each(int (*fn)(const char *target, const char *source,
				 void *arg), void *arg)
{
	char *text, *line, *save;
	int ret;

	ret = fsp_slurp("/proc/self/mountinfo", &text, NULL);
	if (ret)
		return ret;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char mnt[PATH_MAX], source[PATH_MAX] = "", *dash;

		if (sscanf(line, "%*d %*d %*s %*s %4095s", mnt) != 1)
			continue;
		dash = strstr(line, " - ");
		if (dash)
			sscanf(dash + 3, "%*s %4095s", source);
		ret = fn(mnt, source, arg);
		if (ret)
			break;
	}
	free(text);
	return ret;
}

static int make_one_private(const char *target, const char *source,
			    void *done)
{
	if (!mount(NULL, target, NULL, MS_PRIVATE, NULL))
		++*(int *)done;
	return 0;
}

/*
 * In a chroot whose root is not a mount point (debootstrap, a schroot
 * without a bind mount) "/" cannot be made private (EINVAL), but every
 * mount the process can see is in its mountinfo: each of them is made
 * private instead.
 */
int fsp_mnt_make_private(void)
{
	int done = 0, ret;

	if (!mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 0;
	if (errno != EINVAL)
		return -errno;
	ret = fsp_mountinfo_each(make_one_private, &done);
	return ret < 0 ? ret : done ? 0 : -EINVAL;
}

int fsp_blkid_type(const char *dev, char *type, size_t len)
{
	const char *val = NULL;
	blkid_probe pr;
	int ret;

	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return -errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	ret = blkid_do_safeprobe(pr);
	if (ret == 0 && !blkid_probe_lookup_value(pr, "TYPE", &val, NULL))
		ret = fsp_strcpy(type, len, val);
	else
		ret = ret == 1 ? -ENODATA : -EIO;	/* 1: nothing found */
	blkid_free_probe(pr);
	return ret;
}

int fsp_mnt_fs_supported(const char *fstype)
{
	char *text, *line, *save;
	int found = 0;

	if (fsp_slurp("/proc/filesystems", &text, NULL))
		return 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name = strrchr(line, '\t');

		name = name ? name + 1 : fsp_lstrip(line);
		if (!strcmp(name, fstype)) {
			found = 1;
			break;
		}
	}
	free(text);
	return found;
}
