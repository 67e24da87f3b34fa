// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proc.c - run other programs (proc.h). The child of vfork shares our
 * memory until it execs, so it makes only system calls, and hands an
 * execve failure back through a variable the parent reads once vfork
 * returns, when the child has either exec'd or exited. fsp_proc_run
 * then reads the child's pipes until they close or its time is up.
 * A file we wrote is executed through its fd (execveat), never by a
 * path someone else could swap between our check and the exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "util.h"

#define OUT_MAX (64u << 20)	/* captured stdout; more is a broken tool */

extern char **environ;

int fsp_proc_find(const char *name, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char dirs[4096], *dir, *save;

	if (strchr(name, '/')) {
		if (access(name, X_OK))
			return -errno;
		return fsp_strcpy(path, len, name);
	}
	snprintf(dirs, sizeof(dirs), "%s:/usr/sbin:/sbin:/usr/bin:/bin",
		 env ? env : "");
	for (dir = strtok_r(dirs, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if (!*dir)
			continue;
		if (fsp_fmt(path, len, "%s/%s", dir, name))
			continue;
		if (!access(path, X_OK))
			return 0;
	}
	return -ENOENT;
}

/* Root's, not writable by group or others: what root may run. */
static int root_only(const char *path, int dir)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	return st.st_uid == 0 && !(st.st_mode & 022) &&
	       (dir ? S_ISDIR(st.st_mode) :
		S_ISREG(st.st_mode) && (st.st_mode & 0111));
}

int fsp_proc_find_root(const char *name, char *path, size_t len)
{
	char dirs[] = FSP_PROC_ROOT_PATH, *dir, *save;

	if (!*name || strchr(name, '/'))
		return -EINVAL;
	for (dir = strtok_r(dirs, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if (!root_only(dir, 1) ||
		    fsp_fmt(path, len, "%s/%s", dir, name))
			continue;
		if (root_only(path, 0))
			return 0;
	}
	return -ENOENT;
}

/*
 * What a child executes: path, or fd itself (execveat) if fd >= 0; pass,
 * if >= 0, is handed to it as FSP_PROC_PASS_FD.
 */
struct exe {
	const char *path;
	int fd;
	int pass;
	int dir;	/* the child's cwd, an fd; -1: ours */
};

/* fd moved above the numbers the child dup2s onto (0-2, the passed). */
static int above_fixed(int fd)
{
	return fd >= 0 && fd <= FSP_PROC_PASS_FD ?
	       fcntl(fd, F_DUPFD_CLOEXEC, FSP_PROC_PASS_FD + 1) : fd;
}

/* The passed fd at FSP_PROC_PASS_FD, open across the exec. */
static void hand_over(int pass)
{
	if (pass == FSP_PROC_PASS_FD)
		fcntl(pass, F_SETFD, 0);
	else if (pass >= 0)
		dup2(pass, FSP_PROC_PASS_FD);	/* clears FD_CLOEXEC */
}

/* The child: system calls only, then execve or _exit. */
static void __attribute__((noreturn, noinline))
child(const struct exe *x, char *const argv[], char *const envp[],
      const int fd[3], pid_t parent, volatile int *exec_err)
{
	int null = open("/dev/null", O_RDWR), i, xfd, pass;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);	/* it died before PDEATHSIG was set */
	if (x->dir >= 0 && fchdir(x->dir)) {
		*exec_err = errno;
		_exit(127);
	}
	/* SIG_IGN survives execve; `fsprobe vm` ignores it to feed gzip. */
	signal(SIGPIPE, SIG_DFL);
	xfd = above_fixed(x->fd);
	pass = x->pass == FSP_PROC_PASS_FD ? x->pass : above_fixed(x->pass);
	for (i = 0; i < 3; i++)
		dup2(fd[i] >= 0 ? fd[i] : null, i);
	if (null > 2)
		close(null);
	hand_over(pass);
	/* An fd to run is never replaced by a path (the fcntl failed). */
	if (x->fd >= 0 && xfd >= 0)
		syscall(SYS_execveat, xfd, "", argv, envp ? envp : environ,
			AT_EMPTY_PATH);
	else if (x->fd < 0)
		execve(x->path, argv, envp ? envp : environ);
	*exec_err = errno;
	_exit(127);
}

static int spawn(const struct exe *x, char *const argv[], char *const envp[],
		 const int fd[3], pid_t *pid)
{
	volatile int exec_err = 0;
	pid_t c, parent = getpid();

	c = vfork();
	if (c == 0)
		child(x, argv, envp, fd, parent, &exec_err);
	if (c < 0) {
		*pid = -1;
		return -errno;
	}
	if (!exec_err) {
		*pid = c;
		return 0;
	}
	fsp_proc_wait(c);
	*pid = 0;
	return -exec_err;
}

int fsp_proc_spawn(const char *path, char *const argv[], char *const envp[],
		   int in, int out, int err, pid_t *pid)
{
	const struct exe x = { .path = path, .fd = -1, .pass = -1, .dir = -1 };
	const int fd[3] = { in, out, err };

	return spawn(&x, argv, envp, fd, pid);
}

int fsp_proc_spawn_fd(int exec_fd, char *const argv[], char *const envp[],
		      int in, int out, int err, pid_t *pid)
{
	const struct exe x = {
		.path = NULL, .fd = exec_fd, .pass = -1, .dir = -1
	};
	const int fd[3] = { in, out, err };

	if (exec_fd < 0) {
		*pid = -1;
		return -EBADF;
	}
	return spawn(&x, argv, envp, fd, pid);
}

int fsp_proc_exec_check(int fd)
{
	struct stat st;
	uid_t me = geteuid();

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	if ((st.st_uid != 0 && st.st_uid != me) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		return -EPERM;
	return 0;
}

int fsp_proc_start(char *const argv[], int in, int out, int err, pid_t *pid)
{
	char tool[4096];
	int ret;

	*pid = -1;
	ret = fsp_proc_find(argv[0], tool, sizeof(tool));
	if (ret)
		return ret;
	ret = fsp_proc_spawn(tool, argv, NULL, in, out, err, pid);
	if (ret)
		*pid = -1;
	return ret;
}

int fsp_proc_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Keep the last part of stderr: that is where tools say why. */
static void keep_tail(struct fsp_proc *p, const char *buf, size_t n)
{
	size_t cap = sizeof(p->tail) - 1, used = strlen(p->tail);

	if (n >= cap) {
		memcpy(p->tail, buf + n - cap, cap);
		p->tail[cap] = '\0';
		return;
	}
	if (used + n > cap) {
		size_t drop = used + n - cap;

		memmove(p->tail, p->tail + drop, used - drop);
		used -= drop;
	}
	memcpy(p->tail + used, buf, n);
	p->tail[used + n] = '\0';
}

static int keep_out(struct fsp_proc *p, size_t *cap, const char *buf,
		    size_t n)
{
	char *nb;

	if (p->out_len + n + 1 > *cap) {
		size_t want = (p->out_len + n + 1) * 2;

		if (want > OUT_MAX)
			return -E2BIG;
		nb = realloc(p->out, want);
		if (!nb)
			return -ENOMEM;
		p->out = nb;
		*cap = want;
	}
	memcpy(p->out + p->out_len, buf, n);
	p->out_len += n;
	p->out[p->out_len] = '\0';
	return 0;
}

/* One read from pipe i (0: stdout, 1: stderr); it is closed at EOF. */
static int drain(struct fsp_proc *p, int fd[2], int i, size_t *cap, int ret)
{
	char buf[8192];
	ssize_t n;

	n = read(fd[i], buf, sizeof(buf));
	if (n < 0 && errno == EINTR)
		return ret;
	if (n <= 0) {
		close(fd[i]);
		fd[i] = -1;
	} else if (i) {
		keep_tail(p, buf, n);
	} else if (!ret) {
		ret = keep_out(p, cap, buf, n);
	}
	return ret;
}

/* Read the child's pipes until both close; kill it when time is up. */
static int pump(struct fsp_proc *p, int fd[2], pid_t pid, int timeout_s)
{
	long long deadline = fsp_now_ms() + (long long)timeout_s * 1000;
	int ret = 0, capture = fd[0] >= 0, i;
	size_t cap = 0;

	while (fd[0] >= 0 || fd[1] >= 0) {
		struct pollfd pf[2] = { { .fd = fd[0], .events = POLLIN },
					{ .fd = fd[1], .events = POLLIN } };
		long long left = timeout_s > 0 ? deadline - fsp_now_ms() : -1;

		if (timeout_s > 0 && left <= 0) {
			kill(pid, SIGKILL);
			return -ETIMEDOUT;
		}
		if (poll(pf, 2, (int)left) < 0) {
			if (errno == EINTR)
				continue;
			kill(pid, SIGKILL);
			return -errno;
		}
		for (i = 0; i < 2; i++)
			if (pf[i].fd >= 0 && pf[i].revents)
				ret = drain(p, fd, i, &cap, ret);
	}
	if (!ret && capture && !p->out)
		ret = keep_out(p, &cap, "", 0);
	return ret;
}

static void close_pipe(int fd[2])
{
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	fd[0] = fd[1] = -1;
}

static int run_in(int exec_fd, int pass_fd, int dirfd, char *const argv[],
		  int in, int out, int timeout_s, struct fsp_proc *p);

int fsp_proc_run(char *const argv[], int in, int out, int timeout_s,
		 struct fsp_proc *p)
{
	return fsp_proc_run_fd(-1, -1, argv, in, out, timeout_s, p);
}

int fsp_proc_run_fd(int exec_fd, int pass_fd, char *const argv[], int in,
		    int out, int timeout_s, struct fsp_proc *p)
{
	return run_in(exec_fd, pass_fd, -1, argv, in, out, timeout_s, p);
}

int fsp_proc_run_at(int dirfd, char *const argv[], int in, int out,
		    int timeout_s, struct fsp_proc *p)
{
	return run_in(-1, -1, dirfd, argv, in, out, timeout_s, p);
}

/* fsp_proc_run_fd in dirfd (-1: our cwd). */
static int run_in(int exec_fd, int pass_fd, int dirfd, char *const argv[],
		  int in, int out, int timeout_s, struct fsp_proc *p)
{
	int opipe[2] = { -1, -1 }, epipe[2] = { -1, -1 }, rfd[2], ret, st;
	struct exe x = {
		.path = NULL, .fd = exec_fd, .pass = pass_fd, .dir = dirfd
	};
	long long start = fsp_now_ms();
	char tool[4096];
	pid_t pid = -1;

	memset(p, 0, sizeof(*p));
	/* With exec_fd, tool is only a name for the messages. */
	ret = exec_fd >= 0 ? fsp_strcpy(tool, sizeof(tool), argv[0]) :
	      fsp_proc_find(argv[0], tool, sizeof(tool));
	if (ret)
		return ret;
	x.path = exec_fd >= 0 ? NULL : tool;
	if (pipe2(epipe, O_CLOEXEC) || (out == FSP_PROC_CAPTURE &&
					pipe2(opipe, O_CLOEXEC))) {
		ret = -errno;
		goto out;
	}
	if (out == FSP_PROC_TAIL)
		out = epipe[1];
	else if (out == FSP_PROC_CAPTURE)
		out = opipe[1];
	ret = spawn(&x, argv, NULL, (const int[3]){ in, out, epipe[1] },
		    &pid);
	rfd[0] = opipe[0];
	rfd[1] = epipe[0];
	opipe[0] = epipe[0] = -1;
	close_pipe(opipe);
	close_pipe(epipe);
	if (!pid) {
		/* execve failed: as a shell says it, exit 127 and why. */
		p->status = 127;
		snprintf(p->tail, sizeof(p->tail), "exec %s: %s", tool,
			 strerror(-ret));
		ret = 0;
	} else if (!ret) {
		ret = pump(p, rfd, pid, timeout_s);
		st = fsp_proc_wait(pid);
		p->status = st < 0 ? 0 : st;
	}
	close_pipe(rfd);
out:
	close_pipe(opipe);
	close_pipe(epipe);
	p->ms = fsp_now_ms() - start;
	if (ret) {
		free(p->out);
		p->out = NULL;
		p->out_len = 0;
	}
	return ret;
}
