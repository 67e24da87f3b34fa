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
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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

/* Read until len bytes or end of file; the count, or -errno. */
static ssize_t read_full(int fd, char *buf, size_t len)
{
	ssize_t n, total = 0;

	while ((size_t)total < len) {
		n = read_retry(fd, buf + total, len - total);
		if (n <= 0)
			return n < 0 ? n : total;
		total += n;
	}
	return total;
}

ssize_t fsp_read_text(const char *path, char *buf, size_t len)
{
	int fd = len ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	ssize_t n;

	if (fd < 0)
		return len ? -errno : -EINVAL;
	n = read_full(fd, buf, len - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* Regular, and the inode stat saw: a FIFO swapped in meanwhile is not. */
static int check_regular(int fd, const struct stat *seen)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_dev != seen->st_dev ||
	    st.st_ino != seen->st_ino)
		return -FSP_ENOTREG;
	return 0;
}

int fsp_open_regular(const char *path, int *fd)
{
	struct stat st;
	int f, ret;

	*fd = -1;
	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -FSP_ENOTREG;
	/* O_NONBLOCK: a FIFO put there since stat must not hang the open. */
	f = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (f < 0)
		return -errno;
	ret = check_regular(f, &st);
	if (!ret && fcntl(f, F_SETFL, 0))
		ret = -errno;
	if (ret) {
		close(f);
		return ret;
	}
	*fd = f;
	return 0;
}

int fsp_slurp_fd_max(int fd, size_t max, char **out, size_t *outlen)
{
	size_t cap = 8192, len = 0, want;
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
		/* One byte past max tells a file of max bytes from a larger. */
		want = cap - len - 1;
		if (want > max + 1 - len)
			want = max + 1 - len;
		n = read_full(fd, buf + len, want);
		if (n < 0) {
			free(buf);
			return n;
		}
		len += n;
		if (len > max) {
			free(buf);
			return -EFBIG;
		}
		if ((size_t)n < want)
			break;	/* end of file */
	}
	buf[len] = '\0';
	*out = buf;
	if (outlen)
		*outlen = len;
	return 0;
}

int fsp_slurp_regular(const char *path, size_t max, char **out,
		      size_t *outlen)
{
	int fd, ret = fsp_open_regular(path, &fd);

	if (ret)
		return ret;
	ret = fsp_slurp_fd_max(fd, max, out, outlen);
	close(fd);
	return ret;
}

int fsp_slurp_fd(int fd, char **out, size_t *outlen)
{
	return fsp_slurp_fd_max(fd, SSIZE_MAX, out, outlen);
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

int fsp_free_bytes(const char *path, unsigned long long *bytes)
{
	char buf[4096], *slash;
	struct statvfs sv;
	int err;

	if (fsp_strcpy(buf, sizeof(buf), path))
		return -ENAMETOOLONG;
	while (statvfs(buf, &sv)) {
		err = errno;
		if (err != ENOENT || !strcmp(buf, ".") || !strcmp(buf, "/"))
			return -err;
		slash = strrchr(buf, '/');
		if (!slash)
			strcpy(buf, ".");
		else if (slash == buf)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	*bytes = (unsigned long long)sv.f_bavail * sv.f_frsize;
	return 0;
}

/* write(2), or pwrite(2) at off if at, until all of len is written. */
static int write_loop(int fd, const char *p, size_t len, off_t off, bool at)
{
	ssize_t n;

	while (len) {
		n = at ? pwrite(fd, p, len, off) : write(fd, p, len);
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

int fsp_write_all(int fd, const void *buf, size_t len)
{
	return write_loop(fd, buf, len, 0, false);
}

int fsp_pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	return write_loop(fd, buf, len, off, true);
}

/* Write all of buf to fd and close it; 0 or the first -errno. */
static int write_close(int fd, const char *buf)
{
	int ret = fsp_write_all(fd, buf, strlen(buf));

	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int fsp_write_text(const char *path, const char *buf)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);

	return fd < 0 ? -errno : write_close(fd, buf);
}

int fsp_replace_file(const char *path, const char *tmp, const char *buf,
		     mode_t mode)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		      O_CLOEXEC, mode);
	int ret = fd < 0 ? -errno : write_close(fd, buf);

	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret && fd >= 0)
		unlink(tmp);
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

#define RMTREE_DEPTH 64

static int empty_dir_fd(int fd, dev_t dev, int depth);

/* Remove name in the directory fd (on device dev), a subtree too. */
static int rm_entry(int fd, const char *name, dev_t dev, int depth)
{
	struct stat st;
	int sub, ret;

	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(fd, name, 0) && errno != ENOENT ? -errno : 0;
	if (st.st_dev != dev)
		return -EXDEV;	/* a mount point: never descend */
	if (depth >= RMTREE_DEPTH)
		return -ELOOP;
	sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		     O_CLOEXEC);
	if (sub < 0)
		return -errno;
	ret = empty_dir_fd(sub, dev, depth + 1);
	close(sub);
	if (!ret && unlinkat(fd, name, AT_REMOVEDIR) && errno != ENOENT)
		ret = -errno;
	return ret;
}

/*
 * Remove what the directory fd holds, through fds only: each entry is
 * reached by openat/unlinkat relative to its directory, symlinks are
 * removed, not followed, and no other filesystem is entered, so a path
 * someone else renames or replaces meanwhile cannot lead us elsewhere.
 */
static int empty_dir_fd(int fd, dev_t dev, int depth)
{
	int rfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	int ret = 0, err, pass;
	DIR *d;

	if (rfd < 0)
		return -errno;
	d = fdopendir(rfd);
	if (!d) {
		close(rfd);
		return -ENOMEM;
	}
	/*
	 * Removing while reading may make some filesystems (NFS, FUSE)
	 * skip entries: read again until a pass finds nothing, boundedly.
	 */
	for (pass = 0; !ret && pass < 4; pass++) {
		int seen = 0;

		rewinddir(d);
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") ||
			    !strcmp(de->d_name, ".."))
				continue;
			seen++;
			err = rm_entry(fd, de->d_name, dev, depth);
			if (!ret)
				ret = err;
		}
		if (!seen)
			break;
	}
	closedir(d);
	return ret;
}

int fsp_rmtree_fd(int dirfd)
{
	struct stat st;

	if (fstat(dirfd, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return empty_dir_fd(dirfd, st.st_dev, 0);
}

int fsp_rmtree_at(int parentfd, const char *name, dev_t dev, ino_t ino)
{
	struct stat st;
	int fd, ret;

	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
	} else if (st.st_dev != dev || st.st_ino != ino) {
		ret = -ESTALE;	/* not the directory we mean */
	} else {
		ret = fsp_rmtree_fd(fd);
		/* Emptied through fd; the name goes only while it is it. */
		if (!ret && !fstatat(parentfd, name, &st,
				     AT_SYMLINK_NOFOLLOW) &&
		    st.st_dev == dev && st.st_ino == ino &&
		    unlinkat(parentfd, name, AT_REMOVEDIR) && errno != ENOENT)
			ret = -errno;
	}
	close(fd);
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
