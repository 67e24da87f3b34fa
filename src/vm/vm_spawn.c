// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_spawn.c - host-side process and directory helpers for `fsprobe vm`:
 * every tool (dpkg-deb, depmod, modprobe, xz, zstd, gzip, ld.so, qemu)
 * is run by fork/exec with an argv, never through a shell, and dies with
 * fsprobe (PR_SET_PDEATHSIG), so a killed fsprobe leaves no qemu behind.
 * Output that callers parse (modprobe, ld.so) is captured whole; stderr
 * only as a tail, which is where tools say why they failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mkfs.h"
#include "util.h"
#include "vm.h"

#define OUT_MAX (64u << 20)	/* captured stdout; more is a broken tool */

int fsp_vm_start(char *const argv[], int in_fd, int out_fd, int err_fd,
		 pid_t *pid)
{
	pid_t parent = getpid();
	char tool[PATH_MAX];
	int ret;

	ret = fsp_tool_find(argv[0], tool, sizeof(tool));
	if (ret)
		return ret;
	fflush(NULL);
	*pid = fork();
	if (*pid < 0)
		return -errno;
	if (*pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);	/* we died before PDEATHSIG was set */
		/* SIG_IGN survives exec; we ignore SIGPIPE to feed gzip. */
		signal(SIGPIPE, SIG_DFL);
		dup2(in_fd >= 0 ? in_fd : null, 0);
		dup2(out_fd >= 0 ? out_fd : null, 1);
		dup2(err_fd >= 0 ? err_fd : null, 2);
		execv(tool, argv);
		dprintf(2, "exec %s: %s\n", tool, strerror(errno));
		_exit(127);
	}
	return 0;
}

static void keep_tail(char *tail, size_t cap, const char *buf, size_t n)
{
	size_t used = strlen(tail);

	if (n >= cap - 1) {
		memcpy(tail, buf + n - (cap - 1), cap - 1);
		tail[cap - 1] = '\0';
		return;
	}
	if (used + n > cap - 1) {
		size_t drop = used + n - (cap - 1);

		memmove(tail, tail + drop, used - drop);
		used -= drop;
	}
	memcpy(tail + used, buf, n);
	tail[used + n] = '\0';
}

static int append(struct fsp_vm_proc *p, size_t *cap, const char *buf,
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

int fsp_vm_spawn(char *const argv[], int in_fd, int out_fd, int timeout_s,
		 struct fsp_vm_proc *p)
{
	int opipe[2] = { -1, -1 }, epipe[2] = { -1, -1 }, status = 0, ret;
	long long deadline = fsp_now_ms() + (long long)timeout_s * 1000;
	size_t cap = 0;
	char buf[65536];
	pid_t pid;

	memset(p, 0, sizeof(*p));
	if (pipe2(epipe, O_CLOEXEC) ||
	    (out_fd < 0 && pipe2(opipe, O_CLOEXEC))) {
		ret = -errno;
		goto out;
	}
	ret = fsp_vm_start(argv, in_fd, out_fd >= 0 ? out_fd : opipe[1],
			   epipe[1], &pid);
	if (ret)
		goto out;
	close(epipe[1]);
	epipe[1] = -1;
	if (opipe[1] >= 0) {
		close(opipe[1]);
		opipe[1] = -1;
	}
	while (opipe[0] >= 0 || epipe[0] >= 0) {
		struct pollfd pf[2] = { { .fd = opipe[0], .events = POLLIN },
					{ .fd = epipe[0], .events = POLLIN } };
		long long left = deadline - fsp_now_ms();
		int i;

		if (left <= 0) {
			kill(pid, SIGKILL);
			ret = -ETIMEDOUT;
			break;
		}
		if (poll(pf, 2, (int)left) < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			kill(pid, SIGKILL);
			break;
		}
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			n = read(pf[i].fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(pf[i].fd);
				if (i)
					epipe[0] = -1;
				else
					opipe[0] = -1;
				continue;
			}
			if (i)
				keep_tail(p->err, sizeof(p->err), buf, n);
			else if (!ret)
				ret = append(p, &cap, buf, n);
		}
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			break;
	p->status = WIFEXITED(status) ? WEXITSTATUS(status) :
		    128 + WTERMSIG(status);
	if (!ret && out_fd < 0 && !p->out)
		ret = append(p, &cap, "", 0);
out:
	if (opipe[0] >= 0)
		close(opipe[0]);
	if (opipe[1] >= 0)
		close(opipe[1]);
	if (epipe[0] >= 0)
		close(epipe[0]);
	if (epipe[1] >= 0)
		close(epipe[1]);
	if (ret) {
		free(p->out);
		p->out = NULL;
		p->out_len = 0;
	}
	return ret;
}

int fsp_vm_mkdtemp(const char *prefix, char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int ret;

	ret = fsp_fmt(buf, len, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
		      prefix);
	if (ret)
		return ret;
	return mkdtemp(buf) ? 0 : -errno;
}

int fsp_vm_mkdirs(const char *path, int private)
{
	char p[PATH_MAX], *s;
	int ret;

	ret = fsp_strcpy(p, sizeof(p), path);
	if (ret)
		return ret;
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, private ? 0700 : 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int fsp_vm_cache_dir(char *buf, size_t len)
{
	const char *env = getenv("FSPROBE_CACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	size_t n = strlen(FSP_SRCDIR);
	int ret, private = 1;

	if (env && *env) {
		ret = fsp_strcpy(buf, len, env);
	} else if (geteuid() == 0) {
		ret = fsp_strcpy(buf, len, "/var/cache/fsprobe");
		private = 0;
	} else if (xdg && *xdg == '/') {
		ret = fsp_fmt(buf, len, "%s/fsprobe", xdg);
	} else if (home && *home == '/') {
		ret = fsp_fmt(buf, len, "%s/.cache/fsprobe", home);
	} else {
		return -ENOENT;
	}
	if (ret)
		return ret;
	/* Build products never land in the source tree (make distcheck). */
	if (!strncmp(buf, FSP_SRCDIR, n) && (buf[n] == '/' || !buf[n]))
		return -EINVAL;
	return fsp_vm_mkdirs(buf, private);
}
