// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-spawn.c - fsprobe/vspawn.h on real programs: output on the given fd,
 * stdin from /dev/null, execve failures handed back as -errno with no
 * child left, and a child that dies with the process that spawned it
 * (this test is the subreaper that sees it killed).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vspawn.h"
#include "tap.h"

/* Spawn argv with output on a pipe; its exit status, output in out. */
static int run(char *const argv[], char *out, size_t len, int *ret)
{
	int pfd[2], st = -1;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	*ret = fsp_spawn(argv[0], argv, NULL, pfd[1], &pid);
	close(pfd[1]);
	while (len > 1 && (n = read(pfd[0], out + got, len - 1 - got)) > 0)
		got += n;
	out[got] = '\0';
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	return pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
	char *const echo[] = { "/bin/echo", "spawned", NULL };
	char *const cat[] = { "/bin/cat", NULL };
	char *const none[] = { "/nonexistent/fsprobe-t-spawn", NULL };
	char *const noexec[] = { "/etc/passwd", NULL };
	char *const sleep30[] = { "/bin/sleep", "30", NULL };
	char out[256];
	int pfd[2], ret, st, rc;
	pid_t mid, pid = 0, got;

	rc = run(echo, out, sizeof(out), &ret);
	tap_ok(rc == 0 && ret == 0, "echo: spawned, exit %d", rc);
	tap_ok(!strcmp(out, "spawned\n"), "its stdout on our pipe (%zu "
	       "bytes)", strlen(out));
	rc = run(cat, out, sizeof(out), &ret);
	tap_ok(rc == 0 && !out[0], "cat: stdin is /dev/null, EOF at once, "
	       "exit %d, %zu bytes out", rc, strlen(out));
	rc = run(none, out, sizeof(out), &ret);
	tap_ok(rc == -1 && ret == -ENOENT, "a missing program: %d, no child",
	       ret);
	rc = run(noexec, out, sizeof(out), &ret);
	tap_ok(rc == -1 && ret == -EACCES, "a file without x: %d, no child",
	       ret);

	/* A middle process spawns sleep, tells us its pid, and is killed. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe(pfd))
		return tap_done();
	mid = fork();
	if (mid == 0) {
		if (!fsp_spawn(sleep30[0], sleep30, NULL, -1, &pid) &&
		    write(pfd[1], &pid, sizeof(pid)) == sizeof(pid))
			pause();
		_exit(1);
	}
	close(pfd[1]);
	rc = read(pfd[0], &pid, sizeof(pid)) == sizeof(pid) && pid > 0;
	tap_ok(rc, "sleep 30 spawned by a middle process (pid %d)", (int)pid);
	close(pfd[0]);
	kill(mid, SIGKILL);
	waitpid(mid, &st, 0);
	got = pid > 0 ? waitpid(pid, &st, 0) : -1;
	tap_ok(got == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	       "it died of SIGKILL with the process that spawned it");
	return tap_done();
}
