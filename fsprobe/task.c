// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * task.c - /proc/PID/{stat,wchan,stack} and the /proc walk that finds
 * a process tree's task in D state (task.h). There is no
 * /proc/PID/task/TID/children on every kernel (CONFIG_PROC_CHILDREN),
 * so children are found by their ppid in /proc/N/stat.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "task.h"
#include "util.h"

#define TREE_DEPTH 4

static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* "pid (comm) S ppid ... starttime(22) ..."; comm may hold ") ". */
static int parse_stat(char *s, struct fsp_task *t)
{
	char *open = strchr(s, '('), *close = strrchr(s, ')'), *f;
	int field = 3;
	size_t n;

	if (!open || !close || close < open || close[1] != ' ')
		return -EINVAL;
	n = close - open - 1;
	if (n >= sizeof(t->comm))
		n = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, n);
	t->comm[n] = '\0';
	t->state = close[2];
	f = close + 3;
	while (f && *f) {
		if (field == 4)
			t->ppid = (pid_t)strtol(f, NULL, 10);
		if (field == 22) {
			t->start = strtoull(f, NULL, 10);
			return 0;
		}
		f = strchr(f, ' ');
		if (f)
			f++;
		field++;
	}
	return -EINVAL;
}

int fsp_task_read(pid_t pid, struct fsp_task *t)
{
	char path[64], buf[1024];
	ssize_t n;
	int ret;

	memset(t, 0, sizeof(*t));
	t->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	ret = parse_stat(buf, t);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)pid);
	if (read_small(path, t->wchan, sizeof(t->wchan)) < 0 ||
	    !strcmp(t->wchan, "0"))
		t->wchan[0] = '\0';
	return 0;
}

int fsp_task_stack(pid_t pid, char *buf, size_t len)
{
	char path[64], raw[8192], *line, *save = NULL;
	size_t used = 0;
	ssize_t n;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
	n = read_small(path, raw, sizeof(raw));
	if (n < 0)
		return (int)n;
	for (line = strtok_r(raw, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strstr(line, "] ");
		int w;

		if (line[0] == '[' && sp)
			line = sp + 2;
		w = snprintf(buf + used, len - used, "%s%s", used ? "\n" : "",
			     line);
		if (w < 0 || used + w >= len)
			break;
		used += w;
	}
	return 0;
}

int fsp_task_alive(pid_t pid, unsigned long long start)
{
	struct fsp_task t;

	return !fsp_task_read(pid, &t) && t.start == start && t.state != 'Z';
}

/* A thread of pid in D state, or 0. */
static pid_t stuck_thread(pid_t pid)
{
	char path[64];
	struct dirent *de;
	struct fsp_task t;
	pid_t found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		pid_t tid = (pid_t)atoi(de->d_name);

		if (tid > 0 && !fsp_task_read(tid, &t) && t.state == 'D')
			found = tid;
	}
	closedir(d);
	return found;
}

/* A task in D state among pid's descendants (depth levels), or 0. */
static pid_t stuck_child(pid_t pid, int depth)
{
	struct dirent *de;
	struct fsp_task t;
	pid_t found = 0;
	DIR *d;

	if (depth <= 0)
		return 0;
	d = opendir("/proc");
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		pid_t c;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		c = (pid_t)atoi(de->d_name);
		if (fsp_task_read(c, &t) || t.ppid != pid)
			continue;
		found = stuck_child(c, depth - 1);
		if (!found)
			found = stuck_thread(c);
	}
	closedir(d);
	return found;
}

pid_t fsp_task_stuck(pid_t pid)
{
	pid_t found = stuck_child(pid, TREE_DEPTH);

	if (!found)
		found = stuck_thread(pid);
	return found ? found : pid;
}
