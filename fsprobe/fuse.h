/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuse.h - a FUSE server fsprobe starts and owns (docs/safety.md): it is
 * journalled with its pid and start time before it execs, runs in the
 * foreground as our child and dies with us (PR_SET_PDEATHSIG), mounts
 * the filesystem itself, and is stopped by unmounting it, or killed. A
 * killed run's server is found by its journal line and killed only if
 * the same pid still has the same start time; a connection is aborted
 * (fusectl) only if that server has it mounted inside the run directory.
 */
#ifndef FSP_FUSE_H
#define FSP_FUSE_H

#include <stddef.h>
#include <sys/types.h>

struct fsp_journal;

struct fsp_fuse {
	pid_t pid;			/* the server, our child; 0: none */
	unsigned long long start;	/* its start time (clock ticks) */
	unsigned int conn;		/* fusectl connection: st_dev minor */
	char type[64];			/* its mount type: fuse.SUBTYPE */
	int status;			/* its exit code, 128+signal; -1 */
};

/*
 * Start argv (argv[0] found as fsp_proc_find does) with stdout and
 * stderr on log_fd, its cwd the directory that holds mnt (an absolute
 * path in a directory of the caller's own), after journalling
 * "fuse-server PID/START MNT", and
 * wait up to timeout_ms for it to mount mnt. A server that exits first
 * is an error (-EIO, f->status says how it ended). 0 or -errno.
 */
int fsp_fuse_start(struct fsp_fuse *f, char *const argv[], const char *mnt,
		   int log_fd, struct fsp_journal *j, int timeout_ms);
/*
 * Unmount mnt (if mounted) and reap the server, which ends its loop
 * when its connection goes; SIGKILL after timeout_ms. 0, -EBUSY when
 * mnt could not be unmounted (the server is killed all the same), or
 * -ETIMEDOUT when even a SIGKILL left it alive (stuck in the kernel).
 */
int fsp_fuse_stop(struct fsp_fuse *f, const char *mnt, int timeout_ms);
/* Parse a journal's "PID/START"; 0 or -EINVAL. */
int fsp_fuse_parse_id(const char *s, pid_t *pid, unsigned long long *start);
/*
 * A dead run's server: if pid lives with this start time, abort the
 * FUSE connections it has mounted inside rundir and SIGKILL it; wait
 * up to timeout_ms for it to go. 1: killed, 0: not there (or not ours
 * any more), -ETIMEDOUT: ours but still alive.
 */
int fsp_fuse_kill_stale(pid_t pid, unsigned long long start,
			const char *rundir, int timeout_ms);

#endif
