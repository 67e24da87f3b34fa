// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuse.c - the FUSE servers fsprobe starts (fuse.h). The server is
 * forked, not vforked: its child waits on a pipe until the parent has
 * journalled its pid and start time, and only then execs, so no server
 * ever runs unjournalled; if the parent dies first the pipe reads EOF
 * and the child exits without exec. It keeps PR_SET_PDEATHSIG across
 * execve, so a server in the foreground dies with the worker that
 * started it, and with the worker its mount namespace, where the mount
 * lives. Mountinfo tells when it has mounted, with which type and
 * connection (fusectl numbers a connection by the st_dev minor).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuse.h"
#include "journal.h"
#include "mnt.h"
#include "proc.h"
#include "task.h"
#include "util.h"

#define FUSECTL "/sys/fs/fuse/connections"
#define POLL_MS 10

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* One mount of a mountinfo file: what the callbacks below look at. */
struct fuse_mnt {
	char target[PATH_MAX];
	char type[64];
	unsigned int major, minor;
};

/* fn(m, arg) for each FUSE mount in path until it returns non-zero. */
static int each_fuse_mount(const char *path,
			   int (*fn)(const struct fuse_mnt *m, void *arg),
			   void *arg)
{
	char *text, *line, *save;
	int ret;

	ret = fsp_slurp(path, &text, NULL);
	if (ret)
		return ret;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct fuse_mnt m;
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*d %*d %u:%u %*s %4095s", &m.major,
				    &m.minor, m.target) != 3 ||
		    sscanf(dash + 3, "%63s", m.type) != 1)
			continue;
		if (strcmp(m.type, "fuse") && strncmp(m.type, "fuse.", 5))
			continue;
		ret = fn(&m, arg);
		if (ret)
			break;
	}
	free(text);
	return ret;
}

struct find_arg {
	const char *target;
	struct fsp_fuse *f;
};

static int is_target(const struct fuse_mnt *m, void *arg)
{
	struct find_arg *a = arg;

	if (strcmp(m->target, a->target))
		return 0;
	if (a->f) {
		a->f->conn = m->minor;
		fsp_strcpy(a->f->type, sizeof(a->f->type), m->type);
	}
	return 1;
}

/* Is a FUSE filesystem mounted on mnt here? 1 (f filled if given), 0. */
static int fuse_mounted(const char *mnt, struct fsp_fuse *f)
{
	struct find_arg a = { mnt, f };

	return each_fuse_mount("/proc/self/mountinfo", is_target, &a) == 1;
}

/* Reap f's server within ms; 0 (f->status set), -ETIMEDOUT. */
static int reap_within(struct fsp_fuse *f, int ms)
{
	int st, waited = 0;
	pid_t r;

	for (;;) {
		r = waitpid(f->pid, &st, WNOHANG);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == f->pid || r < 0) {
			f->status = r < 0 ? -1 : WIFEXITED(st) ?
				    WEXITSTATUS(st) : 128 + WTERMSIG(st);
			f->pid = 0;
			return 0;
		}
		if (waited >= ms)
			return -ETIMEDOUT;
		sleep_ms(POLL_MS);
		waited += POLL_MS;
	}
}

/* The child: exec only once the parent journalled us (a byte), else die. */
static void __attribute__((noreturn))
server_child(const char *path, char *const argv[], const char *cwd,
	     int sync_fd, int log_fd, pid_t parent)
{
	sigset_t none;
	char c;
	int null;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);	/* it died before PDEATHSIG was set */
	if (read(sync_fd, &c, 1) != 1)
		_exit(127);	/* it died before journalling us */
	if (chdir(cwd))
		_exit(127);
	null = open("/dev/null", O_RDWR);
	dup2(null, 0);
	dup2(log_fd >= 0 ? log_fd : null, 1);
	dup2(log_fd >= 0 ? log_fd : null, 2);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	execv(path, argv);
	_exit(127);
}

/* Journal the forked child c by pid and start time, then let it exec. */
static int journal_child(struct fsp_fuse *f, pid_t c, int sync_fd,
			 const char *mnt, struct fsp_journal *j)
{
	struct fsp_task t;
	char id[64];
	int ret;

	ret = fsp_task_read(c, &t);
	if (ret)
		return ret;
	f->start = t.start;
	snprintf(id, sizeof(id), "%d/%llu", (int)c, t.start);
	ret = fsp_journal_add(j, "fuse-server", id, mnt);
	if (!ret && write(sync_fd, "g", 1) != 1)
		ret = -errno;
	return ret;
}

/* Until mnt is a FUSE mount (0), the server exits (-EIO) or time is up. */
static int wait_mounted(struct fsp_fuse *f, const char *mnt, int timeout_ms)
{
	int waited = 0;

	for (;;) {
		if (fuse_mounted(mnt, f))
			return 0;
		if (!reap_within(f, 0))
			return -EIO;
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		sleep_ms(POLL_MS);
		waited += POLL_MS;
	}
}

int fsp_fuse_start(struct fsp_fuse *f, char *const argv[], const char *mnt,
		   int log_fd, struct fsp_journal *j, int timeout_ms)
{
	char path[PATH_MAX], cwd[PATH_MAX], *slash;
	int sync[2], ret;
	pid_t c, parent = getpid();

	memset(f, 0, sizeof(*f));
	f->status = -1;
	ret = fsp_proc_find(argv[0], path, sizeof(path));
	if (!ret)
		ret = fsp_strcpy(cwd, sizeof(cwd), mnt);
	if (ret)
		return ret;
	/* The directory that holds mnt, the run's own: names land there. */
	slash = strrchr(cwd, '/');
	if (!slash || slash == cwd)
		return -EINVAL;
	*slash = '\0';
	if (pipe2(sync, O_CLOEXEC))
		return -errno;
	c = fork();
	if (c == 0) {
		close(sync[1]);
		server_child(path, argv, cwd, sync[0], log_fd, parent);
	}
	ret = c < 0 ? -errno : 0;
	close(sync[0]);
	if (!ret) {
		f->pid = c;
		ret = journal_child(f, c, sync[1], mnt, j);
	}
	close(sync[1]);
	if (ret) {
		if (f->pid > 0) {
			kill(f->pid, SIGKILL);
			reap_within(f, 5000);
		}
		return ret;
	}
	ret = wait_mounted(f, mnt, timeout_ms);
	if (ret == -ETIMEDOUT)
		fsp_fuse_stop(f, mnt, 1000);
	return ret;
}

int fsp_fuse_stop(struct fsp_fuse *f, const char *mnt, int timeout_ms)
{
	int ret = 0;

	if (fuse_mounted(mnt, NULL))
		ret = fsp_mnt_umount(mnt);
	if (!f->pid)
		return ret;
	/* Busy: the server goes, its connection with it; then detach. */
	if (ret || reap_within(f, timeout_ms)) {
		kill(f->pid, SIGKILL);
		if (reap_within(f, timeout_ms))
			return -ETIMEDOUT;
	}
	if (ret && fuse_mounted(mnt, NULL) && !umount2(mnt, MNT_DETACH))
		ret = 0;
	return ret;
}

int fsp_fuse_parse_id(const char *s, pid_t *pid, unsigned long long *start)
{
	char *end;
	long p;

	errno = 0;
	p = strtol(s, &end, 10);
	if (errno || p <= 0 || p > INT_MAX || *end != '/')
		return -EINVAL;
	*start = strtoull(end + 1, &end, 10);
	if (errno || *end || !*start)
		return -EINVAL;
	*pid = (pid_t)p;
	return 0;
}

/* Is p strictly inside dir, with no way back out through ".."? */
static int inside(const char *dir, const char *p)
{
	size_t l = strlen(dir);

	return !strncmp(p, dir, l) && p[l] == '/' && p[l + 1] &&
	       !strstr(p, "/../") && !strstr(p, "/./");
}

static int abort_one(const struct fuse_mnt *m, void *arg)
{
	char path[128];
	int fd;

	if (m->major != 0 || !inside(arg, m->target))
		return 0;
	snprintf(path, sizeof(path), FUSECTL "/%u/abort", m->minor);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT &&
	    !mount("fusectl", FUSECTL, "fusectl", 0, NULL))
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "1", 1) < 0) {
			/* the connection ended meanwhile: nothing to abort */
		}
		close(fd);
	}
	return 0;
}

/*
 * SIGKILL pid if it is still the task with this start time. Through a
 * pidfd, which pins the task, the check and the kill cannot straddle
 * a pid's reuse; kill(2) where the kernel has no pidfd_open (< 5.3).
 */
static void kill_if_same(pid_t pid, unsigned long long start)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0) {
		if (errno == ENOSYS && fsp_task_alive(pid, start))
			kill(pid, SIGKILL);
		return;
	}
	if (fsp_task_alive(pid, start))
		syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0);
	close(fd);
}

int fsp_fuse_kill_stale(pid_t pid, unsigned long long start,
			const char *rundir, int timeout_ms)
{
	char path[64];
	int waited = 0;

	if (!fsp_task_alive(pid, start))
		return 0;
	/*
	 * Its own mounts, as its mount namespace has them: a connection
	 * is aborted only when this server, still the journal's, serves it
	 * on a mount point of the run. A server stuck in a request to its
	 * own filesystem wakes up from that; then it is killed.
	 */
	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	each_fuse_mount(path, abort_one, (void *)rundir);
	kill_if_same(pid, start);
	while (fsp_task_alive(pid, start)) {
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		sleep_ms(POLL_MS);
		waited += POLL_MS;
	}
	return 1;
}
