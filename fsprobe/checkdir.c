// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checkdir.c - check's work directory (checkdir.h): made, checked, used
 * and removed through fds in a directory someone else may write; which
 * filesystems serve their files from a party we do not trust; and the
 * unwind of its journal line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "checkdir.h"
#include "journal.h"
#include "util.h"

#define FUSE_MAGIC	0x65735546	/* fuse and fuseblk */

/* Filesystems whose files another machine serves, and their clients. */
static const struct {
	unsigned long magic;
	const char *name;
} network_fs[] = {
	{ 0x6969, "NFS" },
	{ 0xff534d42, "CIFS" },
	{ 0xfe534d42, "SMB" },
	{ 0x01021997, "9p" },
	{ 0x00c36400, "Ceph" },
	{ 0x5346414f, "AFS" },
	{ 0x73757245, "Coda" },
};

/* The mount id of fd (/proc/self/fdinfo), or -errno. */
static int mount_id(int fd)
{
	char path[64], buf[1024], *p;
	int id;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	if (fsp_read_text(path, buf, sizeof(buf)) < 0)
		return -errno;
	p = strstr(buf, "mnt_id:");
	if (!p || sscanf(p + 7, "%d", &id) != 1)
		return -ENOENT;
	return id;
}

/* user_id= of mount id's super options (who runs its FUSE server). */
static long fuse_owner(int id)
{
	char *text, *line, *save, *opts;
	long uid = -1;
	int n;

	if (fsp_slurp("/proc/self/mountinfo", &text, NULL))
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%d ", &n) != 1 || n != id)
			continue;
		opts = strstr(line, " - ");
		opts = opts ? strstr(opts, "user_id=") : NULL;
		if (opts)
			uid = strtol(opts + 8, NULL, 10);
		break;
	}
	free(text);
	return uid;
}

/*
 * Why the files under fd are served by a party other than root, or "":
 * a network filesystem's server (and every other client of it) decides
 * what we read; so does a FUSE server that a user mounted.
 */
static void served_by(int fd, char *why, size_t len)
{
	struct statfs sfs;
	size_t i;
	long uid;

	why[0] = '\0';
	if (fstatfs(fd, &sfs))
		return;
	for (i = 0; i < FSP_ARRAY_SIZE(network_fs); i++)
		if ((unsigned long)sfs.f_type == network_fs[i].magic) {
			snprintf(why, len, "on %s, the server decides what "
				 "a file holds", network_fs[i].name);
			return;
		}
	if ((unsigned long)sfs.f_type != FUSE_MAGIC)
		return;
	uid = fuse_owner(mount_id(fd));
	if (uid == 0)
		return;		/* a server root started */
	if (uid > 0)
		snprintf(why, len, "on FUSE, its server (uid %ld) decides "
			 "what a file holds", uid);
	else
		snprintf(why, len, "on FUSE, a server of unknown owner "
			 "decides what a file holds");
}

/* Is st the directory we made: ours alone, or at least a directory? */
static int is_ours(const struct stat *st, uid_t uid, int served)
{
	if (!S_ISDIR(st->st_mode))
		return 0;
	/* A served fs maps owners as its server likes (root_squash). */
	return served || (st->st_uid == uid && (st->st_mode & 0777) == 0700);
}

void fsp_checkdir_close(struct fsp_checkdir *c)
{
	if (c->fd >= 0)
		close(c->fd);
	if (c->parentfd >= 0)
		close(c->parentfd);
	c->fd = c->parentfd = -1;
}

/*
 * c->path: DIR/NAME with DIR absolute (the journal is read from another
 * working directory), as the kernel names the directory we opened.
 */
static int full_path(struct fsp_checkdir *c, const char *dir)
{
	char link[64], abs[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", c->parentfd);
	n = readlink(link, abs, sizeof(abs) - 1);
	if (n > 0 && abs[0] == '/') {
		abs[n] = '\0';
		dir = abs;
	}
	return fsp_fmt(c->path, sizeof(c->path), "%s%s%s", dir,
		       dir[strlen(dir) - 1] == '/' ? "" : "/", c->name);
}

/* mkdirat, open it without following, check it; 0 or -errno. */
static int make_checked(struct fsp_checkdir *c)
{
	struct stat st;

	if (mkdirat(c->parentfd, c->name, 0700))
		return -errno;
	c->fd = openat(c->parentfd, c->name, O_RDONLY | O_DIRECTORY |
		       O_NOFOLLOW | O_CLOEXEC);
	if (c->fd < 0)
		return errno == ELOOP || errno == ENOTDIR ? -ESTALE : -errno;
	if (fstat(c->fd, &st))
		return -errno;
	if (!is_ours(&st, geteuid(), c->served[0] != '\0'))
		return -ESTALE;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	return 0;
}

int fsp_checkdir_make(struct fsp_checkdir *c, const char *dir,
		      struct fsp_journal *j)
{
	char id[64];
	int ret;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->parentfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->parentfd < 0)
		return -errno;
	served_by(c->parentfd, c->served, sizeof(c->served));
	snprintf(c->name, sizeof(c->name), ".fsprobe-%d", (int)getpid());
	ret = full_path(c, dir);
	if (!ret && j)
		ret = fsp_journal_add(j, "check-dir", c->path, NULL);
	if (!ret)
		ret = make_checked(c);
	if (!ret && j) {
		snprintf(id, sizeof(id), "%llu:%llu",
			 (unsigned long long)c->dev,
			 (unsigned long long)c->ino);
		ret = fsp_journal_add(j, "check-dir", c->path, id);
	}
	if (ret && c->fd >= 0 && ret != -ESTALE)
		fsp_rmtree_at(c->parentfd, c->name, c->dev, c->ino);
	if (ret)
		fsp_checkdir_close(c);
	return ret;
}

int fsp_checkdir_remove(struct fsp_checkdir *c)
{
	int ret = 0;

	if (c->parentfd >= 0 && c->fd >= 0) {
		/* Emptied through our fd even if the name was moved away. */
		ret = fsp_rmtree_fd(c->fd);
		if (!ret)
			ret = fsp_rmtree_at(c->parentfd, c->name, c->dev,
					    c->ino);
	}
	fsp_checkdir_close(c);
	return ret;
}

/* Split "DIR/.fsprobe-N" into its directory and name; 0 or -EPERM. */
static int split_path(const char *path, char *dir, size_t len,
		      const char **name)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (path[0] != '/' || !slash ||
	    strncmp(slash + 1, ".fsprobe-", 9) || !slash[10] ||
	    strspn(slash + 10, "0123456789") != strlen(slash + 10))
		return -EPERM;
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= len)
		return -EPERM;
	memcpy(dir, path, n);
	dir[n] = '\0';
	*name = slash + 1;
	return 0;
}

/* Is name in pfd the directory of identity id, root's alone? */
static int unwind_ours(int pfd, const char *name, const char *id)
{
	unsigned long long dev, ino;
	char served[160];
	struct stat st;
	int fd, ours;

	if (sscanf(id, "%llu:%llu", &dev, &ino) != 2)
		return -EPERM;
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTCONN ? 0 : -EPERM;
	served_by(fd, served, sizeof(served));
	ours = !fstat(fd, &st) && st.st_dev == dev && st.st_ino == ino &&
	       is_ours(&st, 0, served[0] != '\0');
	close(fd);
	if (!ours)
		return -EPERM;
	return fsp_rmtree_at(pfd, name, dev, ino) ? -EPERM : 1;
}

int fsp_checkdir_unwind(const char *path, const char *id)
{
	char dir[PATH_MAX];
	const char *name;
	struct stat st;
	int pfd, ret;

	if (split_path(path, dir, sizeof(dir), &name))
		return -EPERM;
	/* The user's path, followed: what we find there is checked. */
	pfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return errno == ENOENT || errno == ENOTCONN ? 0 : -errno;
	if (*id)
		ret = unwind_ours(pfd, name, id);
	else	/* killed before it knew the identity: nothing to tell by */
		ret = fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
		      errno == ENOENT ? 0 : -EPERM;
	close(pfd);
	return ret;
}
