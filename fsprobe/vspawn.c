// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vspawn.c - vfork + execve (vspawn.h). The child shares our memory until
 * it execs, so it makes only system calls, and hands an execve failure
 * back through a variable the parent reads once vfork returns, when
 * the child has either exec'd or exited.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vspawn.h"

extern char **environ;

/* The child: system calls only, then execve or _exit. */
static void __attribute__((noreturn, noinline))
child(const char *path, char *const argv[], char *const envp[], int out_fd,
      volatile int *exec_err)
{
	int null = open("/dev/null", O_RDONLY);

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (null > 0) {
		dup2(null, 0);
		close(null);
	}
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		dup2(out_fd, 2);
	}
	execve(path, argv, envp ? envp : environ);
	*exec_err = errno;
	_exit(127);
}

int fsp_spawn(const char *path, char *const argv[], char *const envp[],
	      int out_fd, pid_t *pid)
{
	volatile int exec_err = 0;
	pid_t c;
	int st;

	c = vfork();
	if (c == 0)
		child(path, argv, envp, out_fd, &exec_err);
	if (c < 0) {
		*pid = -1;
		return -errno;
	}
	if (!exec_err) {
		*pid = c;
		return 0;
	}
	while (waitpid(c, &st, 0) < 0 && errno == EINTR)
		;
	*pid = 0;
	return -exec_err;
}
