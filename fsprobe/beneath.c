// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * beneath.c - open a file below a directory fd and nowhere else
 * (beneath.h): the kernel's openat2 resolve flags where it has them, a
 * component-by-component walk with O_NOFOLLOW where it does not.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include "beneath.h"

#ifndef SYS_openat2
#define SYS_openat2 437		/* the same number on every architecture */
#endif

/* openat2 says EAGAIN when a rename raced the lookup: try again. */
#define OPENAT2_TRIES 16

int fsp_openat_beneath(int dirfd, const char *name, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (unsigned int)(flags | O_CLOEXEC),
		.mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ?
			mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	int i;
	long fd = -1;

	for (i = 0; i < OPENAT2_TRIES; i++) {
		fd = syscall(SYS_openat2, dirfd, name, &how, sizeof(how));
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	if (fd >= 0)
		return (int)fd;
	/* No openat2 (Linux < 5.6), or a seccomp filter that denies it. */
	if (errno == ENOSYS || errno == EPERM)
		return fsp_openat_walk(dirfd, name, flags, mode);
	return -errno;
}

/* The component of *p up to the next '/' into comp; *p moves past it. */
static int next_component(const char **p, char *comp)
{
	size_t n;

	while (**p == '/')
		(*p)++;
	n = strcspn(*p, "/");
	if (n > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(comp, *p, n);
	comp[n] = '\0';
	*p += n;
	while (**p == '/')
		(*p)++;
	return !strcmp(comp, "..") ? -EXDEV : 0;
}

/*
 * A directory on the way: O_PATH, which opens a symlink itself (and a
 * FIFO without blocking), so that fstat can tell what it is.
 */
static int open_dir_step(int fd, const char *comp)
{
	struct stat st;
	int d = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC), ret = 0;

	if (d < 0)
		return -errno;
	if (fstat(d, &st))
		ret = -errno;
	else if (S_ISLNK(st.st_mode))
		ret = -ELOOP;
	else if (!S_ISDIR(st.st_mode))
		ret = -ENOTDIR;
	if (ret) {
		close(d);
		return ret;
	}
	return d;
}

int fsp_openat_walk(int dirfd, const char *name, int flags, mode_t mode)
{
	char comp[NAME_MAX + 1];
	const char *p = name;
	int fd = dirfd, next, ret;

	if (*name == '/')
		return -EXDEV;
	for (;;) {
		ret = next_component(&p, comp);
		if (ret)
			break;
		if (!*p) {
			next = openat(fd, comp, flags | O_NOFOLLOW | O_CLOEXEC,
				      mode);
			ret = next < 0 ? -errno : next;
			break;
		}
		next = open_dir_step(fd, comp);
		if (next < 0) {
			ret = next;
			break;
		}
		if (fd != dirfd)
			close(fd);
		fd = next;
	}
	if (fd != dirfd)
		close(fd);
	return ret;
}
