/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checkdir.h - `fsprobe check DIR`'s work directory, DIR/.fsprobe-PID.
 * DIR is the user's, and whoever may write it may rename, replace or
 * symlink anything under it at any moment: so the work directory is
 * made with mkdirat in DIR opened once, opened O_NOFOLLOW, checked
 * (ours: a directory, our owner, mode 0700) and from then on reached
 * only through its fd, and removed through fds (util.h). It is
 * journalled before it is made ("check-dir PATH", then "check-dir PATH
 * DEV:INO" once checked), so that `fsprobe cleanup` removes what a
 * killed check left, and only a directory with that identity.
 */
#ifndef FSP_CHECKDIR_H
#define FSP_CHECKDIR_H

#include <limits.h>
#include <sys/types.h>

struct fsp_journal;

struct fsp_checkdir {
	int parentfd;		/* DIR, opened once by the user's path */
	int fd;			/* our directory in it, checked */
	char name[32];		/* .fsprobe-PID */
	char path[PATH_MAX];	/* DIR/name: messages and the journal */
	dev_t dev;
	ino_t ino;
	/*
	 * Why DIR's files are served by someone else (a FUSE server not
	 * started by root, NFS and other network filesystems: they choose
	 * what a read returns), or "": nothing of it may be executed.
	 */
	char served[160];
};

/*
 * Make and check c's directory in dir, journalled in j (NULL: not
 * journalled, as without root). 0, or -errno: -ESTALE if what we opened
 * is not the directory we made (someone swapped it); c is then closed.
 */
int fsp_checkdir_make(struct fsp_checkdir *c, const char *dir,
		      struct fsp_journal *j);
/* Remove c's directory through its fds, and close them; 0 or -errno. */
int fsp_checkdir_remove(struct fsp_checkdir *c);
/* Close c's fds, leaving the directory (a stuck worker still uses it). */
void fsp_checkdir_close(struct fsp_checkdir *c);
/*
 * Undo a journal's "check-dir" line (path, id "DEV:INO" or ""): 1 if the
 * directory was removed, 0 if it is gone, -EPERM if what is there is not
 * ours (another inode, not root's 0700 directory, or no id to tell).
 */
int fsp_checkdir_unwind(const char *path, const char *id);

#endif
