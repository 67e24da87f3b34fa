// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kmsg.c - /dev/kmsg reader. Each read(2) returns one record
 * "prio,seq,usec,flags;message\n" followed by continuation lines; EPIPE
 * means records were overwritten (skip on), EAGAIN means no more.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kmsg.h"
#include "util.h"

static const char *const splats[] = {
	"WARNING:", "BUG:", "Oops", "general protection", "Kernel panic",
	"UBSAN:", "KASAN:", "list_add corruption", "list_del corruption",
	"page dumped because",
};

int fsp_kmsg_is_splat(const char *msg)
{
	size_t i;

	for (i = 0; i < sizeof(splats) / sizeof(splats[0]); i++)
		if (strstr(msg, splats[i]))
			return 1;
	return 0;
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

/*
 * Filesystems name their device in a prefix: "XFS (loop3): ...",
 * "EXT4-fs error (device dm-0): ...", "BTRFS info (device loop3): ...",
 * "zonefs (NAME) WARNING: ...": one to three words, then "(NAME)" or
 * "(device NAME)".
 */
int fsp_kmsg_device(const char *msg, char *name, size_t len)
{
	const char *p = msg, *n;
	int words = 0;

	while (words < 3 && is_name_char(*p)) {
		while (is_name_char(*p))
			p++;
		words++;
		if (*p != ' ')
			return 0;
		p++;
		if (*p == '(')
			break;
	}
	if (*p++ != '(')
		return 0;
	if (!strncmp(p, "device ", 7))
		p += 7;
	for (n = p; is_name_char(*n); n++)
		;
	if (*n != ')' || n == p || (size_t)(n - p) >= len)
		return 0;
	memcpy(name, p, n - p);
	name[n - p] = '\0';
	return 1;
}

int fsp_kmsg_about_ours(const char *msg, const char *const *ours)
{
	char dev[64];
	size_t i;

	if (!ours || !fsp_kmsg_device(msg, dev, sizeof(dev)))
		return 1;
	for (i = 0; ours[i]; i++)
		if (!strcmp(ours[i], dev))
			return 1;
	return 0;
}

int fsp_kmsg_open(struct fsp_kmsg *k)
{
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		int ret = -errno;

		close(k->fd);
		k->fd = -1;
		return ret;
	}
	return 0;
}

int fsp_kmsg_scan(struct fsp_kmsg *k, const char *const *ours, char *buf,
		  size_t len)
{
	char rec[8192];
	size_t used = 0;
	int hits = 0;

	if (len)
		buf[0] = '\0';
	if (k->fd < 0)
		return -EBADF;
	for (;;) {
		ssize_t n = read(k->fd, rec, sizeof(rec) - 1);
		char *msg, *nl;

		if (n < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;
			if (errno == EAGAIN)
				break;
			return -errno;
		}
		if (n == 0)
			break;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		if (!fsp_kmsg_is_splat(msg) || !fsp_kmsg_about_ours(msg, ours))
			continue;
		hits++;
		if (used + 1 < len) {
			int w = snprintf(buf + used, len - used, "%s%s",
					 used ? "\n" : "", msg);

			used = w < 0 ? used : used + w >= len ? len - 1 :
			       used + w;
		}
	}
	return hits;
}

/* Append record rec ("prio,seq,usec,flags;msg") if not older. */
static int since_one(char *rec, long long since_us, char *buf, size_t len,
		     size_t *used)
{
	char *msg = strchr(rec, ';'), *nl;
	long long us;
	int w;

	if (!msg || sscanf(rec, "%*u,%*u,%lld", &us) != 1 || us < since_us)
		return 0;
	msg++;
	nl = strchr(msg, '\n');
	if (nl)
		*nl = '\0';
	if (*used + 1 >= len)
		return 1;
	w = snprintf(buf + *used, len - *used, "%s[%lld.%06lld] %s",
		     *used ? "\n" : "", us / 1000000, us % 1000000, msg);
	*used = w < 0 ? *used : *used + w >= len ? len - 1 : *used + w;
	return 1;
}

int fsp_kmsg_since(long long since_us, char *buf, size_t len)
{
	char rec[8192];
	size_t used = 0;
	int fd, nr = 0;

	if (len)
		buf[0] = '\0';
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		nr += since_one(rec, since_us, buf, len, &used);
	}
	close(fd);
	return nr;
}

/* The kernel's name of the block device at path ("loop3", "dm-0"). */
static int kernel_name(const char *path, char *name, size_t len)
{
	char link[64], target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (stat(path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	return fsp_strcpy(name, len, strrchr(target, '/') ?
			  strrchr(target, '/') + 1 : target);
}

/*
 * The last message since since_us that names the device name (name set)
 * or starts with one of prefixes (name NULL), into buf: 1, 0, -errno.
 */
static int last_matching(const char *name, const char *const *prefixes,
			 long long since_us, char *buf, size_t len)
{
	char log[16384], said[64], *line, *save;
	int ret, found = 0;
	size_t i;

	ret = fsp_kmsg_since(since_us, log, sizeof(log));
	if (ret < 0)
		return ret;
	for (line = strtok_r(log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *msg = strstr(line, "] ");
		int hit = 0;

		msg = msg ? msg + 2 : line;
		if (name)
			hit = fsp_kmsg_device(msg, said, sizeof(said)) &&
			      !strcmp(said, name);
		for (i = 0; !name && prefixes[i]; i++)
			hit |= !strncmp(msg, prefixes[i], strlen(prefixes[i]));
		if (hit) {
			fsp_strcpy(buf, len, msg);
			found = 1;
		}
	}
	return found;
}

int fsp_kmsg_last_about(const char *dev, long long since_us, char *buf,
			size_t len)
{
	char name[64];
	int ret = kernel_name(dev, name, sizeof(name));

	return ret ? ret : last_matching(name, NULL, since_us, buf, len);
}

int fsp_kmsg_last_prefixed(const char *const *prefixes, long long since_us,
			   char *buf, size_t len)
{
	return last_matching(NULL, prefixes, since_us, buf, len);
}

void fsp_kmsg_close(struct fsp_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}
