// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fixedfiles.c - bind case files to the files a fixed-file filesystem
 * already has (fixedfiles.h). Files are taken in name order ("cnv/0"
 * before "cnv/1", version sort), so a run places the same case on the
 * same file every time.
 */
/* O_DIRECT, strverscmp: _GNU_SOURCE comes from config.h */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filedata.h"
#include "fixedfiles.h"
#include "util.h"

static int add_file(struct fsp_fixed *x, const char *rel, off_t size)
{
	struct fsp_fixed_file *f;

	if (x->nr == FSP_FIXED_MAX)
		return 0;	/* more than any case set needs */
	f = &x->f[x->nr];
	if (fsp_strcpy(f->rel, sizeof(f->rel), rel))
		return 0;	/* not a name we could bind */
	f->size = size;
	f->bound[0] = '\0';
	x->nr++;
	return 0;
}

/* Regular files of mnt/sub ("" for mnt itself); subdirectories listed. */
static int scan_dir(struct fsp_fixed *x, const char *sub, int depth)
{
	char path[4096], rel[128];
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (fsp_fmt(path, sizeof(path), "%s/%s", x->mnt, sub))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    fsp_fmt(rel, sizeof(rel), "%s%s%s", sub, *sub ? "/" : "",
			    de->d_name))
			continue;
		if (S_ISREG(st.st_mode))
			add_file(x, rel, st.st_size);
		else if (S_ISDIR(st.st_mode) && depth < 1)
			scan_dir(x, rel, depth + 1);
	}
	closedir(d);
	return 0;
}

static int cmp_rel(const void *a, const void *b)
{
	return strverscmp(((const struct fsp_fixed_file *)a)->rel,
			  ((const struct fsp_fixed_file *)b)->rel);
}

static const char *lookup(const struct fsp_files *ops, const char *name)
{
	const struct fsp_fixed *x = (const struct fsp_fixed *)ops;
	int i;

	for (i = 0; i < x->nr; i++)
		if (!strcmp(x->f[i].bound, name))
			return x->f[i].rel;
	return NULL;
}

/*
 * A free file of exactly size bytes, else (unless in_place) a free
 * empty one, which takes only appends; -1: none.
 */
static int pick(const struct fsp_fixed *x, size_t size, int in_place)
{
	int i;

	for (i = 0; i < x->nr; i++)
		if (!x->f[i].bound[0] && x->f[i].size == (off_t)size)
			return i;
	for (i = 0; !in_place && i < x->nr; i++)
		if (!x->f[i].bound[0] && !x->f[i].size)
			return i;
	return -1;
}

/* Write the content: in place, or appended with O_DIRECT to empty f. */
static int fill(const struct fsp_fixed *x, const struct fsp_fixed_file *f,
		size_t size, size_t data_off, uint32_t seed)
{
	int flags = O_WRONLY | O_NOFOLLOW | O_CLOEXEC, fd, ret;
	char path[4096];

	if (fsp_fmt(path, sizeof(path), "%s/%s", x->mnt, f->rel))
		return -ENAMETOOLONG;
	if (!f->size)
		flags |= O_DIRECT;
	fd = open(path, flags);
	if (fd < 0)
		return -errno;
	ret = fsp_file_fill(fd, size, data_off, seed);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int create(struct fsp_files *ops, const char *name, size_t size,
		  size_t data_off, uint32_t seed, int in_place)
{
	struct fsp_fixed *x = (struct fsp_fixed *)ops;
	int i, ret;

	if (lookup(ops, name))
		return -EEXIST;
	i = pick(x, size, in_place);
	if (i < 0 && in_place) {
		snprintf(ops->why, sizeof(ops->why), "no file of this "
			 "filesystem can be %s (%zu bytes, changed in place "
			 "later): its files are fixed, those that take writes "
			 "in place are of another size or taken, the others "
			 "take only direct appends", name, size);
		return -ENOSPC;
	}
	if (i < 0 || (!x->f[i].size && (size | data_off) % 4096)) {
		snprintf(ops->why, sizeof(ops->why), "no file of this "
			 "filesystem can hold %s (%zu bytes): its files are "
			 "fixed in number and size, and none free is of that "
			 "size or empty", name, size);
		return -ENOSPC;
	}
	ret = fsp_strcpy(x->f[i].bound, sizeof(x->f[i].bound), name);
	if (!ret)
		ret = fill(x, &x->f[i], size, data_off, seed);
	return ret;
}

int fsp_fixed_scan(struct fsp_fixed *x, const char *mnt)
{
	int ret;

	memset(x, 0, sizeof(*x));
	x->ops.create = create;
	x->ops.lookup = lookup;
	ret = fsp_strcpy(x->mnt, sizeof(x->mnt), mnt);
	if (!ret)
		ret = scan_dir(x, "", 0);
	if (!ret && x->nr > 1)
		qsort(x->f, x->nr, sizeof(x->f[0]), cmp_rel);
	return ret;
}
