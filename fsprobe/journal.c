// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal.c - run directory, liveness lock and the journal's lines. It
 * only records: undoing what it lists is unwind.c's, which is why loop
 * and knob may journal without the journal knowing about them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "util.h"

int fsp_journal_ensure_base(const char *base)
{
	struct stat st;

	if (mkdir(base, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(base, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 0022))
		return -EPERM;	/* a symlink or a directory not ours */
	return 0;
}

int fsp_journal_create(struct fsp_journal *j, const char *base)
{
	char path[PATH_MAX], fresh[PATH_MAX], line[64];
	const char *made = fresh;	/* what a failure removes */
	struct timespec ts;
	int ret;

	memset(j, 0, sizeof(*j));
	j->fd = j->lockfd = -1;
	ret = fsp_strcpy(j->base, sizeof(j->base), base);
	if (ret)
		return ret;
	ret = fsp_journal_ensure_base(base);
	if (ret)
		return ret;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(j->id, sizeof(j->id), "%lld-%d-%04lx", (long long)ts.tv_sec,
		 (int)getpid(), (unsigned long)(ts.tv_nsec & 0xffff));
	ret = fsp_fmt(j->dir, sizeof(j->dir), "%s/%s", base, j->id);
	if (!ret)
		ret = fsp_fmt(fresh, sizeof(fresh), "%s/.new-%s", base, j->id);
	if (ret)
		return ret;
	/*
	 * The run directory appears under its name with its lock already
	 * held: made as a dot-name (which stale cleanup never reads),
	 * locked, then renamed. Made in place, another run's cleanup could
	 * find it between the mkdir and the flock, take it for a dead run's
	 * and remove it under us.
	 */
	if (mkdir(fresh, 0700))
		return -errno;
	ret = fsp_fmt(path, sizeof(path), "%s/%s", fresh, FSP_JOURNAL_LOCK);
	if (ret)
		goto fail;
	j->lockfd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			 O_CLOEXEC, 0600);
	if (j->lockfd < 0 || flock(j->lockfd, LOCK_EX | LOCK_NB) ||
	    rename(fresh, j->dir)) {
		ret = -errno;
		goto fail;
	}
	made = j->dir;
	snprintf(line, sizeof(line), "%d\n", (int)getpid());
	fsp_write_all(j->lockfd, line, strlen(line));

	ret = fsp_journal_path(j, path, sizeof(path), FSP_JOURNAL_NAME);
	if (ret)
		goto fail;
	j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND |
		     O_NOFOLLOW | O_CLOEXEC, 0600);
	if (j->fd < 0) {
		ret = -errno;
		goto fail;
	}
	return 0;
fail:
	if (j->lockfd >= 0)
		close(j->lockfd);
	fsp_rmtree(made);
	j->lockfd = -1;
	return ret;
}

void fsp_journal_leave(struct fsp_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	if (j->lockfd >= 0)
		close(j->lockfd);
	j->fd = j->lockfd = -1;
}

int fsp_journal_path(const struct fsp_journal *j, char *buf, size_t len,
		     const char *name)
{
	return fsp_fmt(buf, len, "%s/%s", j->dir, name);
}

int fsp_journal_add(struct fsp_journal *j, const char *kind, const char *a,
		    const char *b)
{
	char line[2 * PATH_MAX + 64];
	int ret;

	if (strpbrk(a, "\t\n") || (b && strpbrk(b, "\t\n")))
		return -EINVAL;
	ret = fsp_fmt(line, sizeof(line), "%s\t%s\t%s\n", kind, a, b ? b : "");
	if (ret)
		return ret;
	/*
	 * One write(2) on O_APPEND: children may append concurrently. Not
	 * fdatasync'd: the page cache keeps the line across our crash or
	 * SIGKILL, where cleanup reads it. Only a host crash could lose it,
	 * and that takes every loop device, mount, knob and tracefs instance
	 * with it; what may survive it (files in a persistent state dir) is
	 * removed with the run directory by cleanup. A sync here cost the
	 * host disk a cache flush per line, ~7 per profile.
	 */
	return fsp_write_all(j->fd, line, strlen(line));
}
