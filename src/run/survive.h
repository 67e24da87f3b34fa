/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * survive.h - the names the cases wrote, taken before the cold remount
 * and looked up after it: a filesystem that loses files across its own
 * umount and mount is an error said once, with the names, not an ENOENT
 * in every probe after it.
 */
#ifndef FSP_SURVIVE_H
#define FSP_SURVIVE_H

#include <limits.h>

#define FSP_NAMES_MAX 64

struct fsp_names {
	int nr;
	char name[FSP_NAMES_MAX][NAME_MAX + 1];
};

/* The entries of dir (not . and ..), up to FSP_NAMES_MAX. */
int fsp_names_take(struct fsp_names *n, const char *dir);
/* How many of n are not in dir any more; *first: the first of them. */
int fsp_names_missing(const struct fsp_names *n, const char *dir,
		      const char **first);

#endif
