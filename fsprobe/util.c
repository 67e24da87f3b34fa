// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - file and string helpers used by every part of the mechanism
 * library: reading proc/sys text, writing knobs, removing our own trees.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* read(2) again after EINTR; the count, or -errno. */
static ssize_t read_retry(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

ssize_t fsp_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1) {
		n = read_retry(fd, buf + total, len - 1 - total);
		if (n < 0) {
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		total += n;
	}
	buf[total] = '\0';
	close(fd);
	return total;
}

int fsp_slurp_fd(int fd, char **out, size_t *outlen)
{
	size_t cap = 8192, len = 0;
	char *buf = malloc(cap), *nbuf;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (cap - len < 4096) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
			cap *= 2;
		}
		n = read_retry(fd, buf + len, cap - len - 1);
		if (n < 0) {
			free(buf);
			return n;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	*out = buf;
	if (outlen)
		*outlen = len;
	return 0;
}

int fsp_slurp(const char *path, char **out, size_t *outlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = fsp_slurp_fd(fd, out, outlen);
	close(fd);
	return ret;
}

int fsp_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

int fsp_pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = pwrite(fd, p, len, off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

int fsp_write_text(const char *path, const char *buf)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	int ret;

	if (fd < 0)
		return -errno;
	ret = fsp_write_all(fd, buf, strlen(buf));
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int fsp_read_ulong(const char *path, unsigned long *val)
{
	char buf[64], *end;
	ssize_t n = fsp_read_text(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*val = strtoul(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

char *fsp_rstrip(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

char *fsp_lstrip(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

int fsp_strcpy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (!len)
		return -ENAMETOOLONG;
	if (n >= len) {
		memcpy(dst, src, len - 1);
		dst[len - 1] = '\0';
		return -ENAMETOOLONG;
	}
	memcpy(dst, src, n + 1);
	return 0;
}

int fsp_fmt(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(dst, len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= len ? -ENAMETOOLONG : 0;
}

long long fsp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	if (flag == FTW_DP)
		return rmdir(path) ? -errno : 0;
	return unlink(path) ? -errno : 0;
}

int fsp_rmtree(const char *path)
{
	int ret = nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);

	if (ret == -1)
		return errno == ENOENT ? 0 : -errno;
	return ret;
}

int fsp_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 64;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) :
					     (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(int) * (lb + 1));
	}
	return prev[lb];
}

const char *fsp_errno_name(int err)
{
	static const struct { int e; const char *n; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINTR, "EINTR" },
		{ EIO, "EIO" }, { ENXIO, "ENXIO" }, { E2BIG, "E2BIG" },
		{ EBADF, "EBADF" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" }, { ENODEV, "ENODEV" },
		{ ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
		{ EINVAL, "EINVAL" }, { ENFILE, "ENFILE" }, { EMFILE, "EMFILE" },
		{ ETXTBSY, "ETXTBSY" }, { EFBIG, "EFBIG" }, { ENOSPC, "ENOSPC" },
		{ ESPIPE, "ESPIPE" }, { EROFS, "EROFS" }, { ERANGE, "ERANGE" },
		{ ENOSYS, "ENOSYS" }, { ENOTTY, "ENOTTY" },
		{ ENAMETOOLONG, "ENAMETOOLONG" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ ENOTSUP, "ENOTSUP" }, { ETIMEDOUT, "ETIMEDOUT" },
		{ ENODATA, "ENODATA" }, { EOVERFLOW, "EOVERFLOW" },
		{ ECHILD, "ECHILD" }, { ESRCH, "ESRCH" }, { ELOOP, "ELOOP" },
		{ EUCLEAN, "EUCLEAN" }, { ENOMSG, "ENOMSG" },
		{ ENOKEY, "ENOKEY" }, { EKEYREJECTED, "EKEYREJECTED" },
	};
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < FSP_ARRAY_SIZE(names); i++)
		if (names[i].e == err)
			return names[i].n;
	return "E?";
}
