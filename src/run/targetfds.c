// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * targetfds.c - a target's directory fds, kept at the same numbers over
 * every remount (targetfds.h): dup3 swaps what a number refers to in one
 * step, so no other thread's open can take the number in between.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "targetfds.h"

/* Make fd refer to what src does (src stays ours to close). */
static int put_onto(int src, int fd)
{
	return dup3(src, fd, O_CLOEXEC) < 0 ? -errno : 0;
}

/* A placeholder: no directory, so openat() relative to it is ENOTDIR. */
static int placeholder(void)
{
	int fd = eventfd(0, EFD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int open_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* dir onto fd's number. */
static int reopen_one(const char *dir, int fd)
{
	int d = open_dir(dir), ret;

	if (d < 0)
		return d;
	ret = put_onto(d, fd);
	close(d);
	return ret;
}

int fsp_target_fds_reopen(const struct fsp_target *t)
{
	int ret;

	if (t->dirfd < 0 || t->prep_dirfd < 0)
		return -EBADF;
	ret = reopen_one(t->dir, t->dirfd);
	return ret ? ret : reopen_one(t->prep_dir, t->prep_dirfd);
}

int fsp_target_fds_park(const struct fsp_target *t)
{
	int p = placeholder(), ret = 0;

	if (p < 0)
		return p;
	if (t->dirfd >= 0)
		ret = put_onto(p, t->dirfd);
	if (!ret && t->prep_dirfd >= 0)
		ret = put_onto(p, t->prep_dirfd);
	close(p);
	return ret;
}

int fsp_target_fds_open(struct fsp_target *t)
{
	if (t->dirfd < 0)
		t->dirfd = placeholder();
	if (t->prep_dirfd < 0)
		t->prep_dirfd = placeholder();
	if (t->dirfd < 0 || t->prep_dirfd < 0) {
		int ret = t->dirfd < 0 ? t->dirfd : t->prep_dirfd;

		fsp_target_fds_close(t);
		return ret;
	}
	return fsp_target_fds_reopen(t);
}

void fsp_target_fds_close(struct fsp_target *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	if (t->prep_dirfd >= 0)
		close(t->prep_dirfd);
	t->dirfd = t->prep_dirfd = -1;
}
