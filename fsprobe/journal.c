// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal.c - run directory, liveness lock and the journal's lines. It
 * only records: undoing what it lists is unwind.c's, which is why loop
 * and knob may journal without the journal knowing about them. The run
 * directory is made and opened through the state dir's fd (statedir.h),
 * and the journal holds both fds for the run's life.
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
#include "statedir.h"
#include "util.h"

/* The run's id and the paths other modules build from: base/ID. */
static int name_run(struct fsp_journal *j, const struct fsp_statedir *sd)
{
	struct timespec ts;
	int ret;

	ret = fsp_strcpy(j->base, sizeof(j->base), sd->path);
	if (ret)
		return ret;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(j->id, sizeof(j->id), "%lld-%d-%04lx", (long long)ts.tv_sec,
		 (int)getpid(), (unsigned long)(ts.tv_nsec & 0xffff));
	return fsp_fmt(j->dir, sizeof(j->dir), "%s/%s", j->base, j->id);
}

/*
 * The run directory fresh, made and locked, renamed to j->id: its fd in
 * j->dirfd and its lock in j->lockfd; -errno, fresh left for the
 * caller to remove.
 */
static int make_locked(struct fsp_journal *j, const char *fresh)
{
	if (mkdirat(j->basefd, fresh, 0700))
		return -errno;
	j->dirfd = openat(j->basefd, fresh, O_RDONLY | O_DIRECTORY |
			  O_NOFOLLOW | O_CLOEXEC);
	if (j->dirfd < 0)
		return -errno;
	j->lockfd = openat(j->dirfd, FSP_JOURNAL_LOCK, O_RDWR | O_CREAT |
			   O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (j->lockfd < 0 || flock(j->lockfd, LOCK_EX | LOCK_NB) ||
	    renameat(j->basefd, fresh, j->basefd, j->id))
		return -errno;
	return 0;
}

/* Close what j holds (the run directory stays where it is). */
static void close_all(struct fsp_journal *j)
{
	int *fds[] = { &j->fd, &j->lockfd, &j->dirfd, &j->basefd };
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(fds); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

int fsp_journal_create_at(struct fsp_journal *j,
			  const struct fsp_statedir *sd)
{
	char fresh[64], line[64];
	const char *made = fresh;	/* what a failure removes */
	int ret;

	memset(j, 0, sizeof(*j));
	j->fd = j->lockfd = j->dirfd = -1;
	j->basefd = fcntl(sd->fd, F_DUPFD_CLOEXEC, 0);
	if (j->basefd < 0)
		return -errno;
	ret = name_run(j, sd);
	if (!ret)
		ret = fsp_fmt(fresh, sizeof(fresh), ".new-%s", j->id);
	if (ret) {
		close_all(j);
		return ret;
	}
	/*
	 * The run directory appears under its name with its lock already
	 * held: made as a dot-name (which stale cleanup never reads),
	 * locked, then renamed. Made in place, another run's cleanup could
	 * find it between the mkdir and the flock, take it for a dead run's
	 * and remove it under us.
	 */
	ret = make_locked(j, fresh);
	if (ret)
		goto fail;
	made = j->id;
	snprintf(line, sizeof(line), "%d\n", (int)getpid());
	fsp_write_all(j->lockfd, line, strlen(line));

	j->fd = openat(j->dirfd, FSP_JOURNAL_NAME, O_WRONLY | O_CREAT |
		       O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (j->fd < 0) {
		ret = -errno;
		goto fail;
	}
	return 0;
fail:
	fsp_statedir_rmtree(j->basefd, made);
	close_all(j);
	return ret;
}

void fsp_journal_leave(struct fsp_journal *j)
{
	close_all(j);
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
