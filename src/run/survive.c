// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * survive.c - the case files' names before the cold remount, looked up
 * again after it (survive.h). Seen on hfs in Linux 6.12 and later: every
 * file written before the remount was gone after it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "survive.h"
#include "util.h"

int fsp_names_take(struct fsp_names *n, const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	n->nr = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n->nr < FSP_NAMES_MAX) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		fsp_strcpy(n->name[n->nr++], sizeof(n->name[0]), de->d_name);
	}
	closedir(d);
	return 0;
}

int fsp_names_missing(const struct fsp_names *n, const char *dir,
		      const char **first)
{
	struct stat st;
	int fd, i, missing = 0;

	*first = NULL;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (i = 0; i < n->nr; i++) {
		if (!fstatat(fd, n->name[i], &st, AT_SYMLINK_NOFOLLOW) ||
		    errno != ENOENT)
			continue;
		if (!missing++)
			*first = n->name[i];
	}
	close(fd);
	return missing;
}
