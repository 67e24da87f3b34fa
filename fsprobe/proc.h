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
 * Find a tool named by a profile (`requires`) on a fixed path, whatever
 * PATH says: a name without '/', in a root-owned directory not writable
 * by others, a root-owned file not writable by others. 0 or -errno:
 * -EINVAL for a name with a '/', -ENOENT when none qualifies.
 */
#define FSP_PROC_ROOT_PATH	"/usr/sbin:/usr/bin:/sbin:/bin"
int fsp_proc_find_root(const char *name, char *path, size_t len);

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
 * The same executing the open file exec_fd itself (execveat AT_EMPTY_PATH,
 * Linux 3.19, 51f39a1f0cea): for a file we wrote where others could swap
 * a path, opened O_RDONLY and checked with fsp_proc_exec_check. No fd of
 * the same file may be open for write anywhere (-ETXTBSY). An ELF
 * binary; a script cannot run from an O_CLOEXEC fd (-ENOENT).
 */
int fsp_proc_spawn_fd(int exec_fd, char *const argv[], char *const envp[],
		      int in, int out, int err, pid_t *pid);
/*
 * Whether fd is fit to be executed (or dlopen()ed) by us: a regular file
 * (else -EACCES), owned by root or by us and writable by no one else
 * (else -EPERM). 0 or -errno.
 */
int fsp_proc_exec_check(int fd);
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
/* The number a passed fd has in the child (fsp_proc_run_fd). */
#define FSP_PROC_PASS_FD 3
/*
 * fsp_proc_run executing exec_fd (fsp_proc_spawn_fd) if it is >= 0,
 * else argv[0] as fsp_proc_run does; pass_fd, if >= 0, is open in the
 * child as FSP_PROC_PASS_FD (a file for it to dlopen as
 * /proc/self/fd/3, not by a path).
 */
int fsp_proc_run_fd(int exec_fd, int pass_fd, char *const argv[], int in,
		    int out, int timeout_s, struct fsp_proc *p);
/*
 * fsp_proc_run with the child's working directory dirfd (-1: ours): a
 * profile's mkfs runs in its own run directory, so that a name it is
 * given reaches nothing outside it.
 */
int fsp_proc_run_at(int dirfd, char *const argv[], int in, int out,
		    int timeout_s, struct fsp_proc *p);

#endif
