// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-spawn.c - fsprobe/proc.h on real programs: output on the given fd,
 * stdin from /dev/null, execve failures handed back as -errno with no
 * child left, a child that dies with the process that spawned it (this
 * test is the subreaper that sees it killed); fsp_proc_run's captured
 * stdout, stderr tail, exit codes, 128+signal and timeout; the lookup
 * of a profile's tools on root's path only.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "tap.h"

/* Spawn argv with output on a pipe; its exit status, output in out. */
static int run(char *const argv[], char *out, size_t len, int *ret)
{
	int pfd[2], st = -1;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	*ret = fsp_proc_spawn(argv[0], argv, NULL, -1, pfd[1], pfd[1], &pid);
	close(pfd[1]);
	while (len > 1 && (n = read(pfd[0], out + got, len - 1 - got)) > 0)
		got += n;
	out[got] = '\0';
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	return pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* fsp_proc_run: what it keeps of each stream, and how it ends. */
static void run_checks(void)
{
	char *const both[] = { "sh", "-c", "echo out; echo err >&2; exit 3",
			       NULL };
	char *const sig[] = { "sh", "-c", "kill -TERM $$", NULL };
	char *const big[] = { "sh", "-c", "yes 0123456789 | head -c 100000 "
			      ">&2; printf x", NULL };
	char *const slow[] = { "sleep", "30", NULL };
	char *const cat[] = { "cat", NULL };
	char *const missing[] = { "fsprobe-t-spawn-none", NULL };
	char *const noexec[] = { "/etc/passwd", NULL };
	struct fsp_proc p;
	char path[4096];
	int ret, fd;

	ret = fsp_proc_find("sh", path, sizeof(path));
	tap_ok(!ret && path[0] == '/' && !access(path, X_OK),
	       "fsp_proc_find(sh): %d, %s", ret, path);
	ret = fsp_proc_find("fsprobe-t-spawn-none", path, sizeof(path));
	tap_ok(ret == -ENOENT, "a missing tool: %d", ret);

	ret = fsp_proc_run(both, -1, FSP_PROC_TAIL, 10, &p);
	tap_ok(!ret && p.status == 3 && !strcmp(p.tail, "out\nerr\n") &&
	       !p.out, "TAIL: stdout and stderr in order, exit %d", p.status);
	ret = fsp_proc_run(both, -1, FSP_PROC_CAPTURE, 10, &p);
	tap_ok(!ret && p.status == 3 && p.out && !strcmp(p.out, "out\n") &&
	       p.out_len == 4 && !strcmp(p.tail, "err\n"),
	       "CAPTURE: stdout whole, stderr in the tail");
	free(p.out);
	ret = fsp_proc_run(both, -1, -1, 10, &p);
	tap_ok(!ret && !p.out && !strcmp(p.tail, "err\n"),
	       "-1: stdout to /dev/null");
	ret = fsp_proc_run(cat, -1, FSP_PROC_CAPTURE, 10, &p);
	tap_ok(!ret && !p.status && p.out && !p.out[0] && !p.out_len,
	       "CAPTURE of nothing: an empty string, not NULL");
	free(p.out);
	fd = open("/etc/hostname", O_RDONLY | O_CLOEXEC);
	ret = fsp_proc_run(cat, fd, FSP_PROC_CAPTURE, 10, &p);
	tap_ok(fd >= 0 && !ret && p.out_len > 0, "stdin from in: %zu bytes "
	       "back", p.out_len);
	free(p.out);
	if (fd >= 0)
		close(fd);
	ret = fsp_proc_run(sig, -1, FSP_PROC_TAIL, 10, &p);
	tap_ok(!ret && p.status == 128 + SIGTERM, "killed by SIGTERM: "
	       "status %d", p.status);
	ret = fsp_proc_run(big, -1, FSP_PROC_TAIL, 10, &p);
	tap_ok(!ret && strlen(p.tail) == sizeof(p.tail) - 1 &&
	       p.tail[sizeof(p.tail) - 2] == 'x', "100000 bytes: the last "
	       "%zu kept", strlen(p.tail));
	ret = fsp_proc_run(slow, -1, FSP_PROC_CAPTURE, 1, &p);
	tap_ok(ret == -ETIMEDOUT && p.status == 128 + SIGKILL && !p.out &&
	       p.ms >= 1000 && p.ms < 5000, "timeout: %d, status %d after "
	       "%lld ms", ret, p.status, p.ms);
	ret = fsp_proc_run(missing, -1, FSP_PROC_TAIL, 10, &p);
	tap_ok(ret == -ENOENT, "not found: %d, nothing run", ret);
	ret = fsp_proc_run(noexec, -1, FSP_PROC_TAIL, 10, &p);
	tap_ok(ret == -EACCES, "not executable: %d", ret);
	/* Executable but no format execve knows: exit 127, as sh says. */
	strcpy(path, "/tmp/t-spawn-XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0) {
		char *const junk[] = { path, NULL };

		ret = write(fd, "\1\2\3\4", 4) == 4 && !fchmod(fd, 0755);
		close(fd);
		ret = ret ? fsp_proc_run(junk, -1, FSP_PROC_TAIL, 10, &p) : -1;
		unlink(path);
	}
	tap_ok(fd >= 0 && !ret && p.status == 127 &&
	       strstr(p.tail, "Exec format error"), "execve failed: %d, "
	       "status %d, \"%s\"", ret, p.status, p.tail);
}

/*
 * A profile's tools (`requires`) are found on root's fixed path only:
 * never a path, never a directory PATH adds, where any user may have
 * put a program of that name for root to run.
 */
static void find_root_checks(void)
{
	char dir[] = "/tmp/fsprobe-t-spawn.XXXXXX", tool[512], path[4096];
	char env[4200];
	const char *old = getenv("PATH");
	int fd, ret;

	ret = fsp_proc_find_root("sh", path, sizeof(path));
	tap_ok(!ret && path[0] == '/', "find_root: sh found (%s)",
	       ret ? "none" : path);
	tap_ok(fsp_proc_find_root("/bin/sh", path, sizeof(path)) == -EINVAL &&
	       fsp_proc_find_root("./sh", path, sizeof(path)) == -EINVAL,
	       "find_root: a path is refused (-EINVAL)");
	if (!mkdtemp(dir))
		return;
	snprintf(tool, sizeof(tool), "%s/fsprobe-t-tool", dir);
	fd = open(tool, O_WRONLY | O_CREAT | O_EXCL, 0755);
	if (fd >= 0)
		close(fd);
	snprintf(env, sizeof(env), "%s:%s", dir, old ? old : "/bin");
	setenv("PATH", env, 1);
	tap_ok(!fsp_proc_find("fsprobe-t-tool", path, sizeof(path)) &&
	       fsp_proc_find_root("fsprobe-t-tool", path, sizeof(path)) ==
	       -ENOENT, "a tool only on PATH: find finds it, find_root not");
	if (old)
		setenv("PATH", old, 1);
	unlink(tool);
	rmdir(dir);
}

/* fsp_proc_run_at: the child's cwd is the directory given, ours stays. */
static void run_at_checks(void)
{
	char *const pwd[] = { "/bin/sh", "-c", "pwd -P", NULL };
	char *const none[] = { "/bin/true", NULL };
	char cwd[4096], before[4096];
	struct fsp_proc p;
	int dfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (!getcwd(before, sizeof(before)) || dfd < 0)
		return;
	ret = fsp_proc_run_at(dfd, pwd, -1, FSP_PROC_CAPTURE, 10, &p);
	tap_ok(!ret && p.status == 0 && p.out && !strcmp(p.out, "/\n"),
	       "run_at /: the child runs in /");
	free(p.out);
	tap_ok(getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, before),
	       "run_at: our own cwd unchanged");
	close(dfd);
	dfd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ret = fsp_proc_run_at(dfd, none, -1, -1, 10, &p);
	tap_ok(!ret && p.status == 127 && strstr(p.tail, "Not a directory"),
	       "run_at a file: not run, exit 127, why (%s)", p.tail);
	close(dfd);
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

	run_checks();
	find_root_checks();
	run_at_checks();

	/* A middle process spawns sleep, tells us its pid, and is killed. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe(pfd))
		return tap_done();
	mid = fork();
	if (mid == 0) {
		if (!fsp_proc_spawn(sleep30[0], sleep30, NULL, -1, -1, -1,
				    &pid) &&
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
