/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proc.h - run other programs: mkfs.*, payloads, a binary on the FS under
 * test, and `fsprobe vm`'s host tools and qemu. Always an argv, never a
 * shell; always vfork + execve, because fork() would copy the worker's
 * page tables and write-protect every private page, which then faults
 * once more on the worker's next write, with TLB shootdowns to the other
 * CPU, for each of a profile's dozen children. Every child dies with the
 * thread that started it (PR_SET_PDEATHSIG): a killed fsprobe leaves no
 * mkfs writing to a device and no qemu behind.
 */
#ifndef FSP_PROC_H
#define FSP_PROC_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Find a tool in PATH, then /usr/sbin, /sbin, /usr/bin, /bin; a name
 * with a '/' is taken as it is if it is executable. 0 or -errno.
 */
int fsp_proc_find(const char *name, char *path, size_t len);

/*
 * Start path with argv and envp (NULL: ours), stdin, stdout and stderr
 * from in, out and err (-1: /dev/null), SIGPIPE at its default. 0 and
 * *pid = the child, which the caller waits for; or -errno and *pid = -1
 * when no child was made, *pid = 0 when execve failed (that child is
 * already reaped).
 */
int fsp_proc_spawn(const char *path, char *const argv[], char *const envp[],
		   int in, int out, int err, pid_t *pid);
/*
 * fsp_proc_spawn of argv[0] found with fsp_proc_find, our environment.
 * 0 and *pid; -errno (and *pid = -1) when there is no child to wait for.
 */
int fsp_proc_start(char *const argv[], int in, int out, int err, pid_t *pid);
/* Reap pid: its exit code, or 128+signal; -errno if waitpid fails. */
int fsp_proc_wait(pid_t pid);

/* fsp_proc_run's out, besides an fd or -1 (/dev/null): */
#define FSP_PROC_TAIL		(-2)	/* stdout joins stderr in tail */
#define FSP_PROC_CAPTURE	(-3)	/* stdout whole in out */

struct fsp_proc {
	int status;		/* exit code, or 128+signal */
	char *out;		/* FSP_PROC_CAPTURE: stdout, NUL-terminated */
	size_t out_len;
	char tail[2048];	/* last part of stderr, NUL-terminated */
	long long ms;		/* from start to reaped */
};

/*
 * Run argv (fsp_proc_start) with stdin from in (-1: /dev/null) and
 * stdout to out (see above), keeping the tail of stderr, which is where
 * tools say why. Returns 0 when it ran (see p->status; a failed execve
 * is status 127 and a tail saying why, as a shell has it), -errno when
 * it could not run, -ETIMEDOUT (killed) after timeout_s if that is > 0.
 * Free p->out with free(); it is NULL after an error.
 */
int fsp_proc_run(char *const argv[], int in, int out, int timeout_s,
		 struct fsp_proc *p);

#endif
