// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkfs.c - external tools run (fsp_spawn: vfork/execve) with captured
 * output and a timeout. The child dies with its parent
 * (PR_SET_PDEATHSIG), so a killed fsprobe never leaves a mkfs writing
 * to a device behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mkfs.h"
#include "vspawn.h"
#include "util.h"

int fsp_tool_find(const char *name, char *path, size_t len)
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

/* Keep the last part of the output: that is where tools say why. */
static void keep_tail(struct fsp_exec_result *res, size_t *used,
		      const char *buf, size_t n)
{
	size_t cap = sizeof(res->output) - 1;

	if (n >= cap) {
		memcpy(res->output, buf + n - cap, cap);
		*used = cap;
	} else {
		if (*used + n > cap) {
			size_t drop = *used + n - cap;

			memmove(res->output, res->output + drop, *used - drop);
			*used -= drop;
		}
		memcpy(res->output + *used, buf, n);
		*used += n;
	}
	res->output[*used] = '\0';
}

int fsp_exec(char *const argv[], int timeout_s, struct fsp_exec_result *res)
{
	char tool[4096], buf[4096];
	long long start = fsp_now_ms(), deadline;
	int pfd[2], status, ret = 0;
	size_t used = 0;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	ret = fsp_tool_find(argv[0], tool, sizeof(tool));
	if (ret)
		return ret;
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	ret = fsp_spawn(tool, argv, NULL, pfd[1], &pid);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return ret;
	}
	if (!pid) {
		/* As a shell says it: exit 127 and why. */
		close(pfd[0]);
		res->status = 127;
		snprintf(res->output, sizeof(res->output), "exec %s: %s",
			 tool, strerror(-ret));
		res->ms = fsp_now_ms() - start;
		return 0;
	}
	deadline = start + (long long)timeout_s * 1000;
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		long long left = deadline - fsp_now_ms();
		ssize_t n;

		if (left <= 0) {
			kill(pid, SIGKILL);
			ret = -ETIMEDOUT;
			break;
		}
		n = poll(&p, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			continue;
		n = read(pfd[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		keep_tail(res, &used, buf, n);
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = 0;
			break;
		}
	}
	res->status = WIFEXITED(status) ? WEXITSTATUS(status) :
		      128 + WTERMSIG(status);
	res->ms = fsp_now_ms() - start;
	return ret;
}
