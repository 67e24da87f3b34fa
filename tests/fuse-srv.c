// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuse-srv.c - a FUSE filesystem the root tests serve themselves, to meet
 * a filesystem that fails: an in-memory directory tree good enough for
 * `fsprobe check` (files of tens of MiB, mmap and exec, truncate,
 * fallocate with punch-hole), spoken over /dev/fuse with <linux/fuse.h>
 * and no library, so it builds wherever fsprobe does. Modes:
 *   --eio-read / --eio-write   every READ / WRITE request fails with EIO
 *   --hang-after N             after N requests (or on SIGUSR1) stop
 *                              answering: requests are read and never
 *                              replied to, so their callers wait in D
 *                              state, unkillable, like a hung kernel
 *   --hang-read                hang at the first READ request (swallowed):
 *                              whoever reads file data first, after the
 *                              files were written, waits in D state
 *   --hang-unread              once hung, stop reading requests instead:
 *                              their callers wait killable
 *   --user-id N                mount with user_id=N, as fusermount does
 *                              for user N: a server a user runs
 *   -f                         accepted and ignored (it always runs in
 *                              the foreground): a profile's `server`
 *                              must say -f
 * It runs in the foreground, mounts MNT itself (root: mount(2) with fd=)
 * and on SIGTERM or SIGINT aborts its connection (which ends every
 * request still waiting), detaches the mount and exits 0. Killed with
 * SIGKILL, the kernel aborts the connection when /dev/fuse is closed;
 * the mount is left for `umount -l`.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/falloc.h>
#include <linux/fuse.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAX_WRITE (1U << 20)
#define BUF_SIZE (MAX_WRITE + 65536)
#define NAME_MAX_LEN 255

struct node {
	uint64_t parent;	/* 0: free or unlinked */
	char name[NAME_MAX_LEN + 1];
	uint32_t mode;
	uint64_t nlookup;
	int live;
	unsigned char *data;
	size_t size, cap;
	struct timespec mtime, ctime;
};

static struct node *nodes;	/* index = nodeid; never reused */
static size_t nr_nodes, cap_nodes;
static int fuse_fd = -1;
static const char *mnt;
static unsigned long conn_minor;
static int eio_read, eio_write, hang_unread, hang_read;
static long hang_after = -1, nr_requests, user_id;
static volatile sig_atomic_t stop, hang;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		hang = 1;
	else
		stop = 1;
}

static void warnf(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuse-srv: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static struct node *node_get(uint64_t id)
{
	return id && id < nr_nodes && nodes[id].live ? &nodes[id] : NULL;
}

static uint64_t node_new(uint64_t parent, const char *name, uint32_t mode)
{
	struct node *n;

	if (nr_nodes == cap_nodes) {
		size_t cap = cap_nodes ? cap_nodes * 2 : 64;
		struct node *p = realloc(nodes, cap * sizeof(*p));

		if (!p)
			return 0;
		nodes = p;
		cap_nodes = cap;
	}
	n = &nodes[nr_nodes];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->mode = mode;
	n->live = 1;
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	n->ctime = n->mtime;
	return nr_nodes++;
}

static uint64_t child(uint64_t dir, const char *name)
{
	size_t i;

	for (i = 1; i < nr_nodes; i++)
		if (nodes[i].live && nodes[i].parent == dir &&
		    !strcmp(nodes[i].name, name))
			return i;
	return 0;
}

static int has_children(uint64_t dir)
{
	size_t i;

	for (i = 1; i < nr_nodes; i++)
		if (nodes[i].live && nodes[i].parent == dir)
			return 1;
	return 0;
}

/* An unlinked node goes when the kernel forgot it too. */
static void node_put(uint64_t id, uint64_t n)
{
	struct node *nd = node_get(id);

	if (!nd)
		return;
	nd->nlookup = nd->nlookup > n ? nd->nlookup - n : 0;
	if (!nd->nlookup && !nd->parent && id != FUSE_ROOT_ID) {
		free(nd->data);
		memset(nd, 0, sizeof(*nd));
	}
}

static int node_resize(struct node *n, size_t size)
{
	if (size > n->cap) {
		size_t cap = size + (size >> 2) + 65536;
		unsigned char *p = realloc(n->data, cap);

		if (!p)
			return -ENOSPC;
		n->data = p;
		n->cap = cap;
	}
	if (size > n->size)
		memset(n->data + n->size, 0, size - n->size);
	n->size = size;
	return 0;
}

static void fill_attr(uint64_t id, struct fuse_attr *a)
{
	const struct node *n = &nodes[id];

	memset(a, 0, sizeof(*a));
	a->ino = id;
	a->mode = n->mode;
	a->nlink = S_ISDIR(n->mode) ? 2 : n->parent ? 1 : 0;
	a->size = S_ISDIR(n->mode) ? 4096 : n->size;
	a->blocks = (a->size + 511) / 512;
	a->blksize = 4096;
	a->atime = a->mtime = n->mtime.tv_sec;
	a->atimensec = a->mtimensec = n->mtime.tv_nsec;
	a->ctime = n->ctime.tv_sec;
	a->ctimensec = n->ctime.tv_nsec;
}

/* Send one reply: err < 0, or 0 and len bytes of out. */
static void reply(uint64_t unique, int err, const void *out, size_t len)
{
	struct fuse_out_header h = {
		.len = sizeof(h) + (err ? 0 : len),
		.error = err, .unique = unique,
	};
	struct iovec iov[2] = {
		{ &h, sizeof(h) }, { (void *)out, err ? 0 : len },
	};

	/* ENOENT: the request was interrupted meanwhile; nothing to do. */
	if (writev(fuse_fd, iov, 2) < 0 && errno != ENOENT)
		warnf("reply to %llu: %s", (unsigned long long)unique,
		      strerror(errno));
}

static void reply_entry(uint64_t unique, uint64_t id)
{
	struct fuse_entry_out e;

	memset(&e, 0, sizeof(e));
	e.nodeid = id;
	e.entry_valid = 1;
	e.attr_valid = 1;
	fill_attr(id, &e.attr);
	nodes[id].nlookup++;
	reply(unique, 0, &e, sizeof(e));
}

static void reply_attr(uint64_t unique, uint64_t id)
{
	struct fuse_attr_out a;

	memset(&a, 0, sizeof(a));
	a.attr_valid = 1;
	fill_attr(id, &a.attr);
	reply(unique, 0, &a, sizeof(a));
}

static int make_node(uint64_t dir, const char *name, uint32_t mode,
		     uint64_t *id)
{
	if (!node_get(dir) || !S_ISDIR(nodes[dir].mode))
		return -ENOTDIR;
	if (strlen(name) > NAME_MAX_LEN)
		return -ENAMETOOLONG;
	if (child(dir, name))
		return -EEXIST;
	*id = node_new(dir, name, mode);
	return *id ? 0 : -ENOMEM;
}

static int do_setattr(uint64_t id, const struct fuse_setattr_in *in)
{
	struct node *n = &nodes[id];
	int ret;

	if ((in->valid & FATTR_SIZE) && S_ISREG(n->mode)) {
		ret = node_resize(n, in->size);
		if (ret)
			return ret;
		if (in->size < n->cap / 2) {	/* give memory back */
			unsigned char *p = realloc(n->data, in->size + 1);

			if (p) {
				n->data = p;
				n->cap = in->size + 1;
			}
		}
	}
	if (in->valid & FATTR_MODE)
		n->mode = (n->mode & S_IFMT) | (in->mode & 07777);
	if (in->valid & FATTR_MTIME) {
		n->mtime.tv_sec = in->mtime;
		n->mtime.tv_nsec = in->mtimensec;
	}
	clock_gettime(CLOCK_REALTIME, &n->ctime);
	return 0;
}

static int do_fallocate(struct node *n, const struct fuse_fallocate_in *in)
{
	uint64_t end = in->offset + in->length;

	if (in->mode == 0 || in->mode == FALLOC_FL_KEEP_SIZE)
		return in->mode || end <= n->size ? 0 : node_resize(n, end);
	if (in->mode != (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE))
		return -EOPNOTSUPP;
	if (in->offset < n->size)
		memset(n->data + in->offset, 0,
		       (end < n->size ? end : n->size) - in->offset);
	return 0;
}

static void do_read(uint64_t unique, struct node *n,
		    const struct fuse_read_in *in)
{
	size_t len = 0;

	if (eio_read)
		return reply(unique, -EIO, NULL, 0);
	if (in->offset < n->size)
		len = n->size - in->offset < in->size ?
		      n->size - in->offset : in->size;
	reply(unique, 0, n->data + (len ? in->offset : 0), len);
}

static void do_write(uint64_t unique, struct node *n,
		     const struct fuse_write_in *in)
{
	struct fuse_write_out out = { .size = in->size };
	uint64_t end = in->offset + in->size;
	int ret = 0;

	if (eio_write)
		return reply(unique, -EIO, NULL, 0);
	if (end > n->size)
		ret = node_resize(n, end);
	if (ret)
		return reply(unique, ret, NULL, 0);
	memcpy(n->data + in->offset, in + 1, in->size);
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	reply(unique, 0, &out, sizeof(out));
}

static size_t add_dirent(char *buf, size_t room, uint64_t ino,
			 uint64_t off, const char *name, uint32_t mode)
{
	struct fuse_dirent *d = (struct fuse_dirent *)buf;
	size_t nl = strlen(name), sz = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + nl);

	if (sz > room)
		return 0;
	memset(buf, 0, sz);
	d->ino = ino;
	d->off = off;
	d->namelen = nl;
	d->type = (mode & S_IFMT) >> 12;
	memcpy(d->name, name, nl);
	return sz;
}

/* Cookies: 1 ".", 2 "..", 2 + id a child; ids only grow. */
static void do_readdir(uint64_t unique, uint64_t dir,
		       const struct fuse_read_in *in)
{
	static char buf[65536];
	size_t room = in->size < sizeof(buf) ? in->size : sizeof(buf);
	size_t len = 0, n, i;

	for (i = 1; i < nr_nodes + 2; i++) {
		const char *name = i == 1 ? "." : "..";
		uint64_t ino = i == 1 ? dir : FUSE_ROOT_ID;
		uint32_t mode = S_IFDIR;

		if (i <= in->offset)
			continue;
		if (i > 2) {
			ino = i - 2;
			if (!nodes[ino].live || nodes[ino].parent != dir)
				continue;
			name = nodes[ino].name;
			mode = nodes[ino].mode;
		}
		n = add_dirent(buf + len, room - len, ino, i, name, mode);
		if (!n)
			break;
		len += n;
	}
	reply(unique, 0, buf, len);
}

static void do_init(uint64_t unique, const struct fuse_init_in *in)
{
	struct fuse_init_out out;

	memset(&out, 0, sizeof(out));
	out.major = FUSE_KERNEL_VERSION;
	out.minor = in->minor < FUSE_KERNEL_MINOR_VERSION ?
		    in->minor : FUSE_KERNEL_MINOR_VERSION;
	out.max_readahead = in->max_readahead;
	out.flags = in->flags & (FUSE_ASYNC_READ | FUSE_BIG_WRITES |
				 FUSE_MAX_PAGES);
	out.max_background = 16;
	out.congestion_threshold = 12;
	out.max_write = MAX_WRITE;
	out.max_pages = MAX_WRITE / 4096;
	out.time_gran = 1;
	reply(unique, 0, &out, sizeof(out));
}

static int do_unlink(uint64_t dir, const char *name, int rmdir_)
{
	uint64_t id = child(dir, name);

	if (!id)
		return -ENOENT;
	if (rmdir_ && !S_ISDIR(nodes[id].mode))
		return -ENOTDIR;
	if (!rmdir_ && S_ISDIR(nodes[id].mode))
		return -EISDIR;
	if (rmdir_ && has_children(id))
		return -ENOTEMPTY;
	nodes[id].parent = 0;
	clock_gettime(CLOCK_REALTIME, &nodes[id].ctime);
	node_put(id, 0);
	return 0;
}

static int do_rename(uint64_t dir, const char *from, uint64_t newdir,
		     const char *to)
{
	uint64_t id = child(dir, from), old;

	if (!id)
		return -ENOENT;
	if (!node_get(newdir) || strlen(to) > NAME_MAX_LEN)
		return -EINVAL;
	old = child(newdir, to);
	if (old && old != id) {
		if (S_ISDIR(nodes[old].mode) && has_children(old))
			return -ENOTEMPTY;
		nodes[old].parent = 0;
		node_put(old, 0);
	}
	nodes[id].parent = newdir;
	snprintf(nodes[id].name, sizeof(nodes[id].name), "%s", to);
	return 0;
}

static void do_statfs(uint64_t unique)
{
	struct fuse_statfs_out out;

	memset(&out, 0, sizeof(out));
	out.st.blocks = out.st.bfree = out.st.bavail = 1 << 20;
	out.st.files = out.st.ffree = 1 << 20;
	out.st.bsize = out.st.frsize = 4096;
	out.st.namelen = NAME_MAX_LEN;
	reply(unique, 0, &out, sizeof(out));
}

static void do_open(uint64_t unique)
{
	struct fuse_open_out out;

	memset(&out, 0, sizeof(out));
	reply(unique, 0, &out, sizeof(out));
}

static void do_create(uint64_t unique, uint64_t dir,
		      const struct fuse_create_in *in)
{
	struct {
		struct fuse_entry_out e;
		struct fuse_open_out o;
	} out;
	uint64_t id;
	int ret = make_node(dir, (const char *)(in + 1),
			    S_IFREG | (in->mode & 07777), &id);

	if (ret)
		return reply(unique, ret, NULL, 0);
	memset(&out, 0, sizeof(out));
	out.e.nodeid = id;
	out.e.entry_valid = out.e.attr_valid = 1;
	fill_attr(id, &out.e.attr);
	nodes[id].nlookup++;
	reply(unique, 0, &out, sizeof(out));
}

/* Requests on a node; 1 if answered here, 0 if not one of these. */
static int node_request(const struct fuse_in_header *h, const void *arg)
{
	struct node *n = node_get(h->nodeid);
	uint64_t id;
	int ret;

	if (!n)
		return reply(h->unique, -ENOENT, NULL, 0), 1;
	switch (h->opcode) {
	case FUSE_LOOKUP:
		id = child(h->nodeid, arg);
		if (!id)
			reply(h->unique, -ENOENT, NULL, 0);
		else
			reply_entry(h->unique, id);
		return 1;
	case FUSE_GETATTR:
		return reply_attr(h->unique, h->nodeid), 1;
	case FUSE_SETATTR:
		ret = do_setattr(h->nodeid, arg);
		if (ret)
			reply(h->unique, ret, NULL, 0);
		else
			reply_attr(h->unique, h->nodeid);
		return 1;
	case FUSE_MKDIR:
		ret = make_node(h->nodeid, (const char *)arg +
				sizeof(struct fuse_mkdir_in), S_IFDIR |
				(((const struct fuse_mkdir_in *)arg)->mode &
				 07777), &id);
		break;
	case FUSE_MKNOD:
		if (!S_ISREG(((const struct fuse_mknod_in *)arg)->mode))
			return reply(h->unique, -EPERM, NULL, 0), 1;
		ret = make_node(h->nodeid, (const char *)arg +
				sizeof(struct fuse_mknod_in),
				((const struct fuse_mknod_in *)arg)->mode, &id);
		break;
	case FUSE_CREATE:
		return do_create(h->unique, h->nodeid, arg), 1;
	case FUSE_READ:
		return do_read(h->unique, n, arg), 1;
	case FUSE_WRITE:
		return do_write(h->unique, n, arg), 1;
	case FUSE_READDIR:
		return do_readdir(h->unique, h->nodeid, arg), 1;
	case FUSE_FALLOCATE:
		return reply(h->unique, do_fallocate(n, arg), NULL, 0), 1;
	default:
		return 0;
	}
	if (ret)
		reply(h->unique, ret, NULL, 0);
	else
		reply_entry(h->unique, id);
	return 1;
}

static void dispatch(const struct fuse_in_header *h, const void *arg)
{
	const struct fuse_rename_in *rn = arg;
	const char *s = arg;

	switch (h->opcode) {
	case FUSE_INIT:
		return do_init(h->unique, arg);
	case FUSE_FORGET:
		return node_put(h->nodeid,
				((const struct fuse_forget_in *)arg)->nlookup);
	case FUSE_BATCH_FORGET: {
		const struct fuse_batch_forget_in *b = arg;
		const struct fuse_forget_one *f = (const void *)(b + 1);
		uint32_t i;

		for (i = 0; i < b->count; i++)
			node_put(f[i].nodeid, f[i].nlookup);
		return;
	}
	case FUSE_INTERRUPT:
		return;		/* every answer is immediate */
	case FUSE_DESTROY:
		stop = 1;
		return reply(h->unique, 0, NULL, 0);
	case FUSE_STATFS:
		return do_statfs(h->unique);
	case FUSE_OPEN:
	case FUSE_OPENDIR:
		return do_open(h->unique);
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
	case FUSE_FLUSH:
	case FUSE_FSYNC:
	case FUSE_FSYNCDIR:
		return reply(h->unique, 0, NULL, 0);
	case FUSE_UNLINK:
	case FUSE_RMDIR:
		if (!node_get(h->nodeid))
			return reply(h->unique, -ENOENT, NULL, 0);
		return reply(h->unique, do_unlink(h->nodeid, s,
			     h->opcode == FUSE_RMDIR), NULL, 0);
	case FUSE_RENAME:
		s = (const char *)(rn + 1);
		return reply(h->unique, do_rename(h->nodeid, s, rn->newdir,
			     s + strlen(s) + 1), NULL, 0);
	}
	if (!node_request(h, arg))
		reply(h->unique, -ENOSYS, NULL, 0);
}

/*
 * The connection's number, the minor of MNT's device, from mountinfo:
 * a stat(MNT) would wait for an answer this thread has to give.
 */
static unsigned long find_minor(const char *real)
{
	unsigned long maj, min, found = 0;
	char line[4096], point[4096];
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*u %*u %lu:%lu %*s %4095s", &maj, &min,
			   point) == 3 && !strcmp(point, real) &&
		    strstr(line, " - fuse.fsprobe-test "))
			found = min;	/* the last one is ours */
	fclose(f);
	return found;
}

/* Mount MNT with our /dev/fuse; remember the connection's number. */
static int do_mount(void)
{
	char opts[160], real[PATH_MAX];

	if (!realpath(mnt, real))
		return -errno;
	fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fuse_fd < 0)
		return -errno;
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40755,user_id=%ld,"
		 "group_id=0,default_permissions,allow_other", fuse_fd,
		 user_id);
	if (mount("fsprobe-test", mnt, "fuse.fsprobe-test",
		  MS_NOSUID | MS_NODEV, opts))
		return -errno;
	conn_minor = find_minor(real);
	return 0;
}

/* End the connection (every waiter gets ENOTCONN) and detach MNT. */
static void teardown(void)
{
	char path[96];
	int fd;

	snprintf(path, sizeof(path), "/sys/fs/fuse/connections/%lu/abort",
		 conn_minor);
	fd = conn_minor ? open(path, O_WRONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		if (write(fd, "1", 1) < 0)
			warnf("%s: %s", path, strerror(errno));
		close(fd);
	}
	close(fuse_fd);
	if (umount2(mnt, MNT_DETACH) && errno != EINVAL)
		warnf("umount %s: %s", mnt, strerror(errno));
}

/* Hung: swallow requests (or leave them unread) until told to stop. */
static void hang_loop(char *buf, const sigset_t *wait_mask)
{
	struct pollfd pfd = { .fd = fuse_fd, .events = POLLIN };

	warnf("not answering any more (after %ld requests)", nr_requests);
	while (!stop) {
		if (hang_unread) {
			sigsuspend(wait_mask);
			continue;
		}
		if (ppoll(&pfd, 1, NULL, wait_mask) > 0 &&
		    read(fuse_fd, buf, BUF_SIZE) < 0 && errno == ENODEV)
			return;
	}
}

static int serve(const sigset_t *wait_mask)
{
	struct pollfd pfd = { .fd = fuse_fd, .events = POLLIN };
	char *buf = malloc(BUF_SIZE);
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	while (!stop) {
		if (hang || (hang_after >= 0 && nr_requests >= hang_after)) {
			hang_loop(buf, wait_mask);
			break;
		}
		if (ppoll(&pfd, 1, NULL, wait_mask) < 0)
			continue;	/* EINTR: look at the flags */
		n = read(fuse_fd, buf, BUF_SIZE);
		if (n < 0 && errno == ENODEV)
			break;		/* unmounted */
		if (n < (ssize_t)sizeof(struct fuse_in_header))
			continue;	/* EINTR, ENOENT: interrupted */
		if (hang_read &&
		    ((struct fuse_in_header *)buf)->opcode == FUSE_READ) {
			hang = 1;	/* this one is never answered */
			continue;
		}
		dispatch((struct fuse_in_header *)buf,
			 buf + sizeof(struct fuse_in_header));
		if (((struct fuse_in_header *)buf)->opcode != FUSE_INIT)
			nr_requests++;
	}
	free(buf);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: fuse-srv [-f] [--eio-read] [--eio-write] "
		"[--hang-after N] [--hang-read] [--hang-unread] [--user-id N] "
		"MNT\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, wait_mask;
	int i, ret;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "-f"))
			continue;
		if (!strcmp(argv[i], "--eio-read"))
			eio_read = 1;
		else if (!strcmp(argv[i], "--eio-write"))
			eio_write = 1;
		else if (!strcmp(argv[i], "--hang-read"))
			hang_read = 1;
		else if (!strcmp(argv[i], "--hang-unread"))
			hang_unread = 1;
		else if (!strcmp(argv[i], "--hang-after") && i + 2 < argc)
			hang_after = strtol(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--user-id") && i + 2 < argc)
			user_id = strtol(argv[++i], NULL, 10);
		else
			return usage();
	}
	if (argc < 2 || argv[argc - 1][0] == '-')
		return usage();
	mnt = argv[argc - 1];
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGTERM);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGUSR1);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	nodes = NULL;
	node_new(0, "", 0);			/* id 0: none */
	node_new(0, "", S_IFDIR | 0755);	/* FUSE_ROOT_ID */
	nodes[FUSE_ROOT_ID].nlookup = 1;
	ret = do_mount();
	if (ret) {
		warnf("mounting %s: %s", mnt, strerror(-ret));
		return 1;
	}
	ret = serve(&wait_mask);
	teardown();
	if (ret)
		warnf("%s", strerror(-ret));
	return ret ? 1 : 0;
}
