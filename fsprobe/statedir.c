// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * statedir.c - the state directory and what lies under it, reached only
 * through directory fds (statedir.h). A directory above the state dir
 * that another user can write lets that user rename the state dir away
 * and put one of theirs in its place between any two path lookups of
 * ours; so the whole chain is checked once, from /, on the fds that are
 * then used, and nothing under the base is ever looked up by path again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "statedir.h"
#include "util.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

static const char TODO_OWNER[] =
	"set FSPROBE_STATE_DIR to a directory whose parents only root can "
	"write, such as /run/fsprobe";
static const char TODO_LINK[] =
	"give FSPROBE_STATE_DIR the path without symlinks";
static const char TODO_BASE[] =
	"make it a root-owned 0700 directory, or set FSPROBE_STATE_DIR to one";
static const char TODO_NOTDIR[] =
	"set FSPROBE_STATE_DIR to a path of directories";
static const char TODO_PATH[] =
	"give FSPROBE_STATE_DIR an absolute path without '.' or '..'";

/* Record why sd is refused; the return value for the caller. */
static int refuse(struct fsp_statedir *sd, const char *bad, int parent,
		  const char *todo, int err, const char *why)
{
	fsp_strcpy(sd->bad, sizeof(sd->bad), bad);
	fsp_strcpy(sd->why, sizeof(sd->why), why);
	sd->todo = todo;
	sd->parent = parent;
	return err;
}

/*
 * The rule for one directory on the chain, on its fd: root's, and not
 * writable by anyone else. A sticky directory above the base (/tmp) is
 * fine: others may add names there but not rename or remove root's.
 */
static int check_dir(struct fsp_statedir *sd, int fd, int parent)
{
	char why[sizeof(sd->why)];
	struct stat st;
	mode_t m;

	if (fstat(fd, &st))
		return -errno;
	m = st.st_mode & 07777;
	if (st.st_uid != 0) {
		snprintf(why, sizeof(why), "is owned by uid %u, not root",
			 (unsigned int)st.st_uid);
		return refuse(sd, sd->path, parent,
			      parent ? TODO_OWNER : TODO_BASE, -EPERM, why);
	}
	if ((m & 022) && (!parent || !(m & S_ISVTX))) {
		snprintf(why, sizeof(why), "is writable by group or others%s "
			 "(mode %04o)", parent ? " without the sticky bit" : "",
			 (unsigned int)m);
		return refuse(sd, sd->path, parent,
			      parent ? TODO_OWNER : TODO_BASE, -EPERM, why);
	}
	return 0;
}

/*
 * Why name in dirfd (sd->path, walked up to it) could not be opened as
 * a directory (ELOOP, ENOTDIR).
 */
static int refuse_entry(struct fsp_statedir *sd, int dirfd, const char *name,
			int parent)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (S_ISLNK(st.st_mode))
		return refuse(sd, sd->path, parent, TODO_LINK, -EPERM,
			      "is a symlink");
	return refuse(sd, sd->path, parent, TODO_NOTDIR, -EPERM,
		      "is not a directory");
}

/* Open name in dirfd as the next directory down, made if asked. */
static int open_next(struct fsp_statedir *sd, int dirfd, const char *name,
		     int is_base, int create)
{
	int fd = openat(dirfd, name, DIR_FLAGS);

	if (fd < 0 && errno == ENOENT && is_base && create) {
		if (mkdirat(dirfd, name, 0700) && errno != EEXIST)
			return -errno;
		fd = openat(dirfd, name, DIR_FLAGS);
	}
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			return refuse_entry(sd, dirfd, name, !is_base);
		return -errno;
	}
	return fd;
}

/* Append name to sd->path, the walk's record of where it is. */
static int path_add(struct fsp_statedir *sd, const char *name)
{
	size_t l = strlen(sd->path);

	return fsp_fmt(sd->path + l, sizeof(sd->path) - l, "%s%s",
		       l > 1 ? "/" : "", name);
}

/*
 * The next name in *p (skipping slashes) into name; its length, 0 at
 * the end, or NAME_MAX + 1 (name empty) for one too long.
 */
static size_t next_name(const char **p, char *name)
{
	size_t n;

	*p += strspn(*p, "/");
	n = strcspn(*p, "/");
	*p += n;
	if (n > NAME_MAX) {
		name[0] = '\0';
		return NAME_MAX + 1;
	}
	memcpy(name, *p - n, n);
	name[n] = '\0';
	return n;
}

/* base is absolute, has a name, and no "." or ".." among them. */
static int check_base_path(struct fsp_statedir *sd, const char *base)
{
	char name[NAME_MAX + 1];
	const char *p = base;
	int names = 0;
	size_t n;

	if (base[0] != '/')
		return refuse(sd, base, 0, TODO_PATH, -EINVAL,
			      "is not an absolute path");
	while ((n = next_name(&p, name))) {
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			return refuse(sd, base, 0, TODO_PATH, -EINVAL,
				      "has a '.' or '..' component");
		names++;
	}
	if (!names)
		return refuse(sd, base, 0, TODO_BASE, -EINVAL,
			      "is the root directory");
	return 0;
}

/* Walk base's names down from fd (of /), checking each; the base's fd. */
static int walk_down(struct fsp_statedir *sd, int fd, const char *base,
		     int create)
{
	char name[NAME_MAX + 1];
	const char *p = base;
	int next, ret, is_base;

	while (next_name(&p, name)) {
		is_base = !p[strspn(p, "/")];
		ret = path_add(sd, name);
		next = ret ? ret : open_next(sd, fd, name, is_base, create);
		close(fd);
		if (next < 0)
			return next;
		fd = next;
		ret = check_dir(sd, fd, !is_base);
		if (ret) {
			close(fd);
			return ret;
		}
	}
	return fd;
}

int fsp_statedir_open(struct fsp_statedir *sd, const char *base, int create)
{
	int fd, ret;

	memset(sd, 0, sizeof(*sd));
	sd->fd = -1;
	ret = check_base_path(sd, base);
	if (ret)
		return ret;
	fd = open("/", DIR_FLAGS);
	if (fd < 0)
		return -errno;
	strcpy(sd->path, "/");
	ret = check_dir(sd, fd, 1);
	if (ret) {
		close(fd);
		return ret;
	}
	fd = walk_down(sd, fd, base, create);
	if (fd < 0)
		return fd;
	sd->fd = fd;
	return 0;
}

void fsp_statedir_close(struct fsp_statedir *sd)
{
	if (sd->fd >= 0)
		close(sd->fd);
	sd->fd = -1;
}

void fsp_statedir_explain(const struct fsp_statedir *sd, const char *base,
			  int err, char *buf, size_t len)
{
	if (!sd->bad[0])
		snprintf(buf, len, "state directory %s: %s", base,
			 strerror(-err));
	else if (sd->parent)
		snprintf(buf, len, "state directory %s refused: its parent "
			 "%s %s; %s", base, sd->bad, sd->why, sd->todo);
	else
		snprintf(buf, len, "state directory %s refused: it %s; %s",
			 base, sd->why, sd->todo);
}

int fsp_statedir_rel_ok(const char *rel)
{
	const char *p = rel, *end;
	size_t n;

	do {
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		if (!n || n > NAME_MAX || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p = end + 1;
	} while (end);
	return 1;
}

int fsp_statedir_parent(int dirfd, const char *rel, const char **last)
{
	char name[NAME_MAX + 1];
	const char *p = rel, *end;
	int fd, next;

	if (!fsp_statedir_rel_ok(rel))
		return -EPERM;
	fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	while ((end = strchr(p, '/'))) {
		memcpy(name, p, end - p);
		name[end - p] = '\0';
		next = openat(fd, name, DIR_FLAGS);
		if (next < 0) {
			/* A symlink or a file on the way: not ours to follow. */
			next = errno == ELOOP || errno == ENOTDIR ? -EPERM :
			       -errno;
			close(fd);
			return next;
		}
		close(fd);
		fd = next;
		p = end + 1;
	}
	*last = p;
	return fd;
}

int fsp_statedir_rmtree(int dirfd, const char *name)
{
	struct stat pst, st;

	if (fstat(dirfd, &pst))
		return -errno;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dirfd, name, 0) && errno != ENOENT ? -errno : 0;
	if (st.st_dev != pst.st_dev)
		return -EXDEV;	/* a mount point: never entered */
	/* Through fds, and only while name is still the one statted. */
	return fsp_rmtree_at(dirfd, name, st.st_dev, st.st_ino);
}

/*
 * Read fd to its end, or to max + 1 bytes: -EFBIG past max. The buffer
 * starts at the size fstat saw (hint) and grows, a journal being
 * appended to as it is read included.
 */
static int read_bounded(int fd, size_t hint, size_t max, char **text)
{
	size_t cap = (hint < max ? hint : max) + 2, len = 0;
	char *buf = malloc(cap), *nbuf;
	ssize_t n;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (!err && len <= max) {
		if (len + 1 >= cap) {
			cap = cap * 2 < max + 2 ? cap * 2 : max + 2;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				err = -ENOMEM;
				break;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		if (n <= 0)
			break;
		len += n;
	}
	if (!err && len > max)
		err = -EFBIG;
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

int fsp_statedir_read(int dirfd, const char *name, size_t max, char **text)
{
	struct stat st;
	int fd, ret;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -EINVAL;
	else if ((unsigned long long)st.st_size > max)
		ret = -EFBIG;	/* said before a byte is read */
	else
		ret = read_bounded(fd, st.st_size, max, text);
	close(fd);
	return ret;
}
