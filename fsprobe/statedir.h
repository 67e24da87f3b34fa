/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statedir.h - the state directory (FSPROBE_STATE_DIR, default
 * /run/fsprobe) reached as root safely among local users: opened from /
 * one component at a time, never through a symlink, and refused when it
 * or any directory above it can be changed by someone other than root
 * (OpenSSH's StrictModes). Then everything under it is reached through
 * the directory's fd: files opened with openat(O_NOFOLLOW), a path a
 * journal names walked component by component, trees removed with
 * unlinkat. Never prints: a refusal says which directory and why.
 */
#ifndef FSP_STATEDIR_H
#define FSP_STATEDIR_H

#include <limits.h>
#include <stddef.h>

struct fsp_statedir {
	int fd;			/* the base, O_DIRECTORY, checked; -1 */
	char path[PATH_MAX];	/* its path as walked: "/a/b" */
	/* Set when refused (-EPERM, -EINVAL): */
	char bad[PATH_MAX];	/* the directory at fault */
	char why[96];		/* what is wrong with it */
	const char *todo;	/* what to do about it */
	int parent;		/* bad is above the base, not the base */
};

/*
 * Open base (absolute, no "." or ".." component), made 0700 if missing
 * and create is set. Every directory from / down must be root-owned and
 * not a symlink; above the base, not writable by group or others unless
 * sticky (/tmp); the base itself not writable by group or others at all.
 * 0; -EPERM or -EINVAL with sd->bad, why and todo set; -ENOENT if a
 * component is missing (create: one above the base); other -errno.
 */
int fsp_statedir_open(struct fsp_statedir *sd, const char *base, int create);
void fsp_statedir_close(struct fsp_statedir *sd);
/*
 * The one line run and cleanup print when fsp_statedir_open failed
 * with err: "state directory BASE refused: ...; what to do".
 */
void fsp_statedir_explain(const struct fsp_statedir *sd, const char *base,
			  int err, char *buf, size_t len);

/* Is rel one or more '/'-separated names, none empty, "." or ".."? */
int fsp_statedir_rel_ok(const char *rel);
/*
 * The directory holding rel (fsp_statedir_rel_ok) under dirfd, reached
 * one component at a time with O_NOFOLLOW: an fd to close, *last
 * pointing into rel at the final name. -EPERM for a bad rel or a
 * symlink or non-directory on the way; -ENOENT for a missing one;
 * other -errno as openat says.
 */
int fsp_statedir_parent(int dirfd, const char *rel, const char **last);
/*
 * Remove name in dirfd, a whole tree if a directory, through fds only
 * (fstatat/openat O_NOFOLLOW/unlinkat): never follows a symlink, never
 * enters another filesystem (-EXDEV: a mount point is left).
 */
int fsp_statedir_rmtree(int dirfd, const char *name);
/*
 * Read the regular file name in dirfd (O_NOFOLLOW, O_NONBLOCK: a FIFO
 * never blocks) into a malloc'd NUL-terminated *text; -EFBIG if it is
 * larger than max bytes, -EINVAL if not a regular file.
 */
int fsp_statedir_read(int dirfd, const char *name, size_t max, char **text);

#endif
