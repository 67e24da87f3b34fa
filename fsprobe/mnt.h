/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mnt.h - mounting our own filesystems through libmount, and libblkid's
 * check that the device really holds the filesystem mkfs was asked for.
 */
#ifndef FSP_MNT_H
#define FSP_MNT_H

#include <stddef.h>

/* Mount src on target; msg gets libmount's explanation on failure. */
int fsp_mnt_mount(const char *src, const char *target, const char *fstype,
		  const char *options, int readonly, char *msg, size_t len);
/* Unmount target (retried while busy for a short bounded time). */
int fsp_mnt_umount(const char *target);
/*
 * fn(target, source) for each line of /proc/self/mountinfo (source "" if
 * unreadable) until it returns non-zero, which is returned (0: it ran
 * through, -errno: mountinfo could not be read).
 */
int fsp_mountinfo_each(int (*fn)(const char *target, const char *source,
				 void *arg), void *arg);
/* Make the whole mount tree private (in a private mount namespace). */
int fsp_mnt_make_private(void);
/* Superblock type libblkid finds on dev ("xfs", "ext4", ...). */
int fsp_blkid_type(const char *dev, char *type, size_t len);
/* Is fstype listed in /proc/filesystems? 1 yes, 0 no. */
int fsp_mnt_fs_supported(const char *fstype);

#endif
