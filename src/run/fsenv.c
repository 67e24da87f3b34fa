// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsenv.c - one profile's filesystem: a sparse image journalled before it
 * exists, our own loop device checked against it, mkfs by fork/exec with
 * libblkid confirming the result, libmount mounts (overlay: a lower
 * filesystem with lower/upper/work directories; fuse: a server we start
 * on an image file, which mounts it), and the umount/mount cycle that
 * evicts exactly our own files (fuse: the server stopped and started).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsenv.h"
#include "kmsg.h"
#include "proc.h"
#include "mnt.h"
#include "sparse.h"
#include "targetfds.h"
#include "util.h"
#include "watchdog.h"
#include "zonefs.h"

#define MKFS_TIMEOUT_S 300
#define SERVER_MOUNT_MS (60 * 1000)	/* the server's mount to appear */
#define SERVER_EXIT_MS (60 * 1000)	/* its exit after the umount */

/* The device the filesystem is on: our dm device over the loop, or it. */
/*
 * The zoned null_blk device of `device = null_blk-zoned`: 32 MiB zones
 * (a conventional zone file then holds read-order's 32 MiB read file),
 * the first 4 conventional (zone 0 holds a zonefs superblock, the other
 * three are cnv/0..2), the rest sequential; backed by memory the device
 * takes only for what is written.
 */
#define NULLB_ZONE_MB 32
#define NULLB_NR_CONV 4
#define NULLB_MIN_ZONES 16

const char *fsp_fsenv_device(const struct fsp_fsenv *e)
{
	if (e->dm.created)
		return e->dm.dev;
	if (e->loop.fd >= 0)
		return e->loop.dev;
	return e->nullb.created ? e->nullb.dev : NULL;
}

/*
 * Formatters fsprobe carries for tools a distribution lacks (zonefs-
 * tools is not in Debian bookworm): used only when the profile's tool
 * is not installed, with the options the tool's defaults mean.
 */
static const struct {
	const char *tool;
	const char *opts[2];	/* the options it accepts (and ignores) */
	int (*format)(const char *dev);
} builtins[] = {
	{ "mkzonefs", { "-f", NULL }, fsp_zonefs_format },
};

static int builtin_of(const char *tool)
{
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(builtins); i++)
		if (!strcmp(tool, builtins[i].tool))
			return i;
	return -1;
}

int fsp_fsenv_mkfs_builtin(const char *tool)
{
	return builtin_of(tool) >= 0;
}

/* Build the mkfs argv: {dev}, {image}, {src} are replaced; else append. */
static int mkfs_argv(const struct fsp_fsenv *e, char **argv, int max)
{
	const struct fsp_profile *p = e->prof;
	const char *target = fsp_fsenv_device(e) ?: e->image;
	int i, n = 0, placed = 0;

	for (i = 0; i < p->nr_mkfs && n < max - 2; i++) {
		const char *w = p->mkfs[i];

		if (!strcmp(w, "{dev}")) {
			argv[n++] = (char *)target;
			placed = 1;
		} else if (!strcmp(w, "{image}")) {
			argv[n++] = (char *)e->image;
			placed = 1;
		} else if (!strcmp(w, "{src}")) {
			argv[n++] = (char *)e->stage;
		} else {
			argv[n++] = (char *)w;
		}
	}
	if (!placed)
		argv[n++] = (char *)target;
	argv[n] = NULL;
	return n;
}

/* argv[0] missing, fsprobe's own formatter does what argv asks. */
static int run_builtin(struct fsp_fsenv *e, char **argv, int b)
{
	long long t0 = fsp_now_ms();
	int i, k, ret;

	for (i = 1; argv[i + 1]; i++) {
		for (k = 0; builtins[b].opts[k]; k++)
			if (!strcmp(argv[i], builtins[b].opts[k]))
				break;
		if (!builtins[b].opts[k]) {
			snprintf(e->err, sizeof(e->err), "%s is not installed "
				 "and fsprobe's own %s does not take '%s'",
				 argv[0], argv[0], argv[i]);
			return -EINVAL;
		}
	}
	fsp_wd_begin(e->wd, "mkfs");
	ret = builtins[b].format(argv[i]);
	fsp_wd_end(e->wd);
	e->t_mkfs += fsp_now_ms() - t0;
	e->mkfs_builtin = 1;
	if (ret)
		snprintf(e->err, sizeof(e->err), "%s (fsprobe's own) on %s: %s",
			 argv[0], argv[i], strerror(-ret));
	return ret;
}

static int run_mkfs(struct fsp_fsenv *e)
{
	struct fsp_proc res;
	char *argv[FSP_PROFILE_MAX_ARGS + 4], path[4096];
	int ret, b, dfd;

	mkfs_argv(e, argv, FSP_ARRAY_SIZE(argv));
	b = builtin_of(argv[0]);
	if (b >= 0 && fsp_proc_find(argv[0], path, sizeof(path)))
		return run_builtin(e, argv, b);
	/* In the profile's directory: a bare name in argv is its file. */
	dfd = open(e->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		ret = -errno;
		snprintf(e->err, sizeof(e->err), "%s: %s", e->dir,
			 strerror(-ret));
		return ret;
	}
	fsp_wd_begin(e->wd, "mkfs");
	ret = fsp_proc_run_at(dfd, argv, -1, FSP_PROC_TAIL, MKFS_TIMEOUT_S,
			      &res);
	fsp_wd_end(e->wd);
	close(dfd);
	e->t_mkfs += res.ms;
	if (ret) {
		snprintf(e->err, sizeof(e->err), "%s: %s", argv[0],
			 strerror(-ret));
		return ret;
	}
	if (res.status) {
		snprintf(e->err, sizeof(e->err), "%s failed (exit %d): %s",
			 argv[0], res.status, fsp_rstrip(res.tail));
		return -EIO;
	}
	return 0;
}

/*
 * Why a mount failed: libmount's guess, or better what the kernel logged
 * about our device since t0 ("EXT4-fs (loop0): bad block size 16384"),
 * beside the errno.
 */
static void mount_error(struct fsp_fsenv *e, const char *src,
			const char *fstype, const char *opts, int ret,
			const char *msg, long long t0)
{
	char said[256];

	if (fsp_kmsg_last_about(src, (t0 - 1) * 1000, said,
				sizeof(said)) > 0)
		snprintf(e->err, sizeof(e->err), "mount -t %s -o '%s': %s "
			 "(kernel: %s)", fstype, opts, strerror(-ret), said);
	else
		snprintf(e->err, sizeof(e->err), "mount -t %s -o '%s': %s",
			 fstype, opts, msg[0] ? msg : strerror(-ret));
}

static int mount_one(struct fsp_fsenv *e, const char *src,
		     const char *target, const char *fstype, const char *opts)
{
	char msg[512];
	long long t0 = fsp_now_ms();
	int ret;

	ret = fsp_journal_add(e->j, "mount", target,
			      e->loop.fd >= 0 && src == fsp_fsenv_device(e) ?
			      src : NULL);
	if (ret)
		return ret;
	fsp_wd_begin(e->wd, "mount");
	ret = fsp_mnt_mount(src, target, fstype, opts, e->readonly, msg,
			    sizeof(msg));
	fsp_wd_end(e->wd);
	e->t_mount += fsp_now_ms() - t0;
	if (ret)
		mount_error(e, src, fstype, opts, ret, msg, t0);
	return ret;
}

/* The overlay's three directories live on the lower filesystem. */
static int overlay_options(const struct fsp_fsenv *e, char *buf, size_t len)
{
	const char *extra = e->prof->mount_options;

	return fsp_fmt(buf, len, "lowerdir=%s/lower,upperdir=%s/upper,"
		       "workdir=%s/work%s%s", e->lower, e->lower, e->lower,
		       *extra ? "," : "", extra);
}

/* The server's argv: {image} and {mnt} replaced by whole words. */
static void server_argv(const struct fsp_fsenv *e, char **argv, int max)
{
	const struct fsp_profile *p = e->prof;
	int i, n = 0;

	for (i = 0; i < p->nr_server && n < max - 1; i++) {
		const char *w = p->server[i];

		argv[n++] = (char *)(!strcmp(w, "{image}") ? e->image :
				     !strcmp(w, "{mnt}") ? e->mnt : w);
	}
	argv[n] = NULL;
}

/* The last line the server wrote to its log (why it would not mount). */
static void server_said(const struct fsp_fsenv *e, char *buf, size_t len)
{
	char path[4200], *text = NULL, *nl;

	buf[0] = '\0';
	if (fsp_fmt(path, sizeof(path), "%s/server.log", e->dir) ||
	    fsp_slurp(path, &text, NULL))
		return;
	fsp_rstrip(text);
	nl = strrchr(text, '\n');
	snprintf(buf, len, "%s", nl ? nl + 1 : text);
	free(text);
}

static void server_error(struct fsp_fsenv *e, const char *tool, int ret)
{
	char said[512];

	server_said(e, said, sizeof(said));
	if (ret == -EIO)
		snprintf(e->err, sizeof(e->err), "%s exited (status %d) "
			 "before mounting: %s", tool, e->fuse.status, said);
	else if (ret == -ETIMEDOUT)
		snprintf(e->err, sizeof(e->err), "%s did not mount in %d s: "
			 "%s", tool, SERVER_MOUNT_MS / 1000, said);
	else
		snprintf(e->err, sizeof(e->err), "starting %s: %s", tool,
			 strerror(-ret));
}

/*
 * fuse: start the server, journalled (fuse.h), and wait for it to
 * mount e->mnt; the type it mounted must be the profile's fs.
 */
static int server_mount(struct fsp_fsenv *e)
{
	char *argv[FSP_PROFILE_MAX_ARGS + 1], path[4200];
	long long t0 = fsp_now_ms();
	int ret;

	if (e->server_log < 0) {
		ret = fsp_fmt(path, sizeof(path), "%s/server.log", e->dir);
		if (ret)
			return ret;
		e->server_log = open(path, O_WRONLY | O_CREAT | O_APPEND |
				     O_NOFOLLOW | O_CLOEXEC, 0600);
		if (e->server_log < 0)
			return -errno;
	}
	server_argv(e, argv, FSP_ARRAY_SIZE(argv));
	ret = fsp_journal_add(e->j, "mount", e->mnt, NULL);
	if (ret)
		return ret;
	fsp_wd_begin(e->wd, "mount");
	ret = fsp_fuse_start(&e->fuse, argv, e->mnt, e->server_log, e->j,
			     SERVER_MOUNT_MS);
	fsp_wd_end(e->wd);
	e->t_mount += fsp_now_ms() - t0;
	e->server_starts++;
	if (ret) {
		server_error(e, argv[0], ret);
		return ret;
	}
	e->mounted = 1;
	if (strcmp(e->fuse.type, e->prof->fs)) {
		snprintf(e->err, sizeof(e->err), "%s mounted '%s', profile "
			 "says '%s'", argv[0], e->fuse.type, e->prof->fs);
		return -EINVAL;
	}
	return 0;
}

/*
 * nfs4: the client mounts our server's root over loopback, in the
 * worker's network namespace; the profile's mount options come after
 * the address (vers=4.2 and the like). soft, with short timeouts: when
 * a killed run's mount namespace goes, nfsd's control fs may go before
 * the client, whose last call (DESTROY_SESSION, from the exiting
 * worker) would otherwise wait for the stopped server for ever, the
 * exported fs and its loop device held with it (seen on 7.2).
 */
static int nfs_client_mount(struct fsp_fsenv *e)
{
	const char *extra = e->prof->mount_options;
	char opts[512];
	int ret;

	ret = fsp_fmt(opts, sizeof(opts), "addr=127.0.0.1,clientaddr="
		      "127.0.0.1,soft,timeo=10,retrans=2%s%s",
		      *extra ? "," : "", extra);
	if (!ret)
		ret = mount_one(e, "127.0.0.1:/", e->mnt, e->prof->fs, opts);
	e->mounted = !ret;
	return ret;
}

/* overlay, nfs4: the lower fs mounted at e->lower, once. */
static int mount_lower(struct fsp_fsenv *e)
{
	const char *src = fsp_fsenv_device(e) ?: e->prof->lower;
	int ret;

	if (e->lower_mounted)
		return 0;
	ret = mount_one(e, src, e->lower, e->prof->lower, "");
	e->lower_mounted = !ret;
	return ret;
}

static int do_mount(struct fsp_fsenv *e)
{
	const struct fsp_profile *p = e->prof;
	const char *src = fsp_fsenv_device(e) ?: p->fs;
	char opts[8192 + 256];
	int ret;

	if (p->kind == FSP_PROFILE_FUSE)
		return server_mount(e);
	if (p->kind == FSP_PROFILE_NFS)
		return nfs_client_mount(e);
	if (p->kind != FSP_PROFILE_OVERLAY) {
		ret = mount_one(e, src, e->mnt, p->fs, p->mount_options);
		e->mounted = !ret;
		/* A new superblock: the fscrypt key went with the old one. */
		if (!ret)
			ret = fsp_attrs_mounted(&e->attrs, e->mnt);
		if (ret && e->mounted && !e->err[0])
			snprintf(e->err, sizeof(e->err), "adding the fscrypt "
				 "key after the mount: %s",
				 fsp_errno_name(-ret));
		return ret;
	}
	ret = mount_lower(e);
	if (!ret)
		ret = overlay_options(e, opts, sizeof(opts));
	if (!ret)
		ret = mount_one(e, "overlay", e->mnt, "overlay", opts);
	e->mounted = !ret;
	return ret;
}

static int do_umount(struct fsp_fsenv *e)
{
	long long t0 = fsp_now_ms();
	int ret = 0;

	if (!e->mounted && !e->lower_mounted && !e->fuse.pid)
		return 0;
	fsp_wd_begin(e->wd, "umount");
	if (e->prof->kind == FSP_PROFILE_FUSE) {
		/* The server ends with its connection: reaped, or killed. */
		ret = fsp_fuse_stop(&e->fuse, e->mnt, SERVER_EXIT_MS);
		if (!ret)
			e->mounted = 0;
	} else if (e->mounted) {
		ret = fsp_mnt_umount(e->mnt);
		if (!ret)
			e->mounted = 0;
	}
	/* nfs4: the export stays, only the client's cache goes. */
	if (!ret && e->lower_mounted && e->prof->kind != FSP_PROFILE_NFS) {
		ret = fsp_mnt_umount(e->lower);
		if (!ret)
			e->lower_mounted = 0;
	}
	fsp_wd_end(e->wd);
	e->t_umount += fsp_now_ms() - t0;
	return ret;
}

/*
 * overlay: mount the lower fs alone and make the overlay's directories.
 * A tmpfs lower has no device: it is mounted by its type's name.
 */
static int overlay_dirs(struct fsp_fsenv *e)
{
	static const char *const sub[] = { "lower", "upper", "work" };
	char path[4200];
	size_t i;
	int ret;

	ret = mount_lower(e);
	if (ret)
		return ret;
	for (i = 0; i < FSP_ARRAY_SIZE(sub); i++) {
		ret = fsp_fmt(path, sizeof(path), "%s/%s", e->lower, sub[i]);
		if (!ret && mkdir(path, 0755))
			ret = -errno;
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A kernel's control fs (configfs for null_blk, nfsd's for nfs4),
 * mounted by us on DIR/FSTYPE inside the profile's directory,
 * journalled like any mount of ours, in the worker's private mount
 * namespace: the system's own mount of it, if any, is never touched.
 */
static int ctl_fs_mount(struct fsp_fsenv *e, const char *fstype,
			char *path, size_t len, int *mounted)
{
	int ret = fsp_fmt(path, len, "%s/%s", e->dir, fstype);

	if (!ret)
		ret = fsp_journal_add(e->j, "dir", path, NULL);
	if (!ret && mkdir(path, 0700))
		ret = -errno;
	if (ret) {
		snprintf(e->err, sizeof(e->err), "creating %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	ret = mount_one(e, fstype, path, fstype, "");
	*mounted = !ret;
	return ret;
}

/* Which step of serving failed, and the kernel's last word on it. */
static void nfs_error(struct fsp_fsenv *e, const char *step, int ret,
		      long long t0)
{
	static const char *const ours[] = {
		"NFSD", "nfsd", "svc:", "RPC:", "rpcbind", NULL,
	};
	char said[256];
	int n;

	n = snprintf(e->err, sizeof(e->err), "nfs: %s%s%s: %s", step,
		     e->nfsd.file ? ", writing " : "", e->nfsd.file ?: "",
		     strerror(-ret));
	/* Only nfsd's start logs why it failed ("no listeners ..."). */
	if (n > 0 && (size_t)n < sizeof(e->err) && e->nfsd.file &&
	    !strcmp(e->nfsd.file, "threads") &&
	    fsp_kmsg_last_prefixed(ours, (t0 - 1) * 1000, said,
				   sizeof(said)) > 0)
		snprintf(e->err + n, sizeof(e->err) - n, " (kernel: %s)",
			 said);
}

/*
 * nfs4: the lower fs mounted, a network namespace of the worker's own,
 * nfsd started there through a control fs of ours, the lower fs
 * exported (nfsd.h); then the client mounts it.
 */
static int nfs_serve(struct fsp_fsenv *e)
{
	const char *step = "the network namespace";
	long long t0 = fsp_now_ms();
	int ret;

	ret = mount_lower(e);
	if (ret)
		return ret;
	ret = fsp_nfsd_netns();
	if (ret) {
		nfs_error(e, step, ret, t0);
		return ret;
	}
	ret = ctl_fs_mount(e, "nfsd", e->nfsctl, sizeof(e->nfsctl),
			   &e->nfsctl_mounted);
	if (ret)
		return ret;
	step = "starting nfsd";
	ret = fsp_nfsd_start(&e->nfsd, e->nfsctl);
	if (!ret) {
		step = "exporting the lower fs";
		ret = fsp_nfsd_export(&e->nfsd, e->lower);
	}
	if (ret) {
		nfs_error(e, step, ret, t0);
		return ret;
	}
	return do_mount(e);
}

/* nfs4, after the client's umount: nfsd stopped, the export gone. */
static void nfs_unserve(struct fsp_fsenv *e)
{
	fsp_nfsd_stop(&e->nfsd);
	if (e->nfsctl_mounted && !fsp_mnt_umount(e->nfsctl))
		e->nfsctl_mounted = 0;
	if (!e->mounted && !e->nfsctl_mounted && e->lower_mounted &&
	    !fsp_mnt_umount(e->lower))
		e->lower_mounted = 0;
}

/*
 * Our files written back before the umount, which writes them too but
 * reports no error: syncfs(2) does (Linux 5.8, 735e4ae5ba28), so a
 * device that fails writes is an error of this step, not files that
 * silently come back empty after the mount.
 */
static int write_back(struct fsp_fsenv *e)
{
	int fd, ret = 0;

	if (!e->mounted || e->readonly)
		return 0;
	fd = open(e->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fsp_wd_begin(e->wd, "syncfs");
	if (syncfs(fd))
		ret = -errno;
	fsp_wd_end(e->wd);
	close(fd);
	if (ret)
		snprintf(e->err, sizeof(e->err), "writing our files back "
			 "before the cold remount (syncfs): %s (%s)",
			 strerror(-ret), fsp_errno_name(ret));
	return ret;
}

/*
 * Evict our files: a umount/mount cycle of our own filesystem. The
 * target's directory fds are let go first (a held one makes the umount
 * EBUSY) and point into the new mount after.
 */
int fsp_fsenv_recycle(const struct fsp_target *t)
{
	struct fsp_fsenv *e = t->priv;
	int ret;

	/*
	 * Memory has nothing to evict; an overlay on tmpfs only gets its
	 * overlay mounted, once the files are in the lower layer.
	 */
	if (t->shmem && e->mounted)
		return 0;
	ret = t->shmem ? 0 : write_back(e);
	if (!ret)
		ret = fsp_target_fds_park(t);
	if (!ret && !t->shmem)
		ret = do_umount(e);
	if (!ret && !t->shmem && e->loop.fd >= 0)
		ret = fsp_loop_verify(&e->loop);
	if (!ret)
		ret = do_mount(e);
	return ret ? ret : fsp_target_fds_reopen(t);
}

/*
 * The image is thrown away at the end, so the flushes the filesystem
 * sends (every fsync, every umount) need not reach the disk under it:
 * with write_cache "write through" the block layer completes them at
 * once, and the data stays in the host's page cache (where reads find
 * it) until the image is deleted. What the probes measure, the page
 * cache of the filesystem on top, does not change. The setting outlives
 * the device (a later LOOP_CONFIGURE keeps it), so it is journalled and
 * restored before the detach, and by cleanup after a crash. Not fatal:
 * without it the run is only slower. A read-only device has no write
 * cache to begin with; writing "write through" there would still set
 * the sticky flag, with nothing to restore it to: left alone.
 */
static void write_through(struct fsp_fsenv *e)
{
	if (!e->readonly)
		fsp_loop_write_through(&e->loop, &e->knobs, e->j);
}

/*
 * The worker slot's device (slots.h), emptied and sized for this
 * profile. Any failure (a killed predecessor's mount still going away:
 * EBUSY) leaves it to the slot, the profile attaches a device of its
 * own, and e->lent_err says why for the JSON.
 */
static int borrow_slot_device(struct fsp_fsenv *e, unsigned long size_mb)
{
	int ret;

	if (!e->lent || e->readonly || e->prof->device_fault)
		return -ENODEV;	/* a dm device on it: a device of our own */
	ret = fsp_loop_reset(e->lent, (unsigned long long)size_mb << 20);
	if (ret) {
		e->lent_err = ret;
		return ret;
	}
	e->loop = *e->lent;
	e->reused = 1;
	return fsp_strcpy(e->image, sizeof(e->image), e->lent->image);
}

/* A sparse image and a loop device of this profile's own. */
static int own_device(struct fsp_fsenv *e, unsigned long size_mb)
{
	int ret = 0;

	if (!e->readonly) {
		ret = fsp_loop_image_create(e->image,
				(unsigned long long)size_mb << 20, e->j);
		if (ret) {
			snprintf(e->err, sizeof(e->err), "creating image %s: "
				 "%s", e->image, strerror(-ret));
			return ret;
		}
	}
	ret = fsp_loop_attach(&e->loop, e->image, e->readonly, e->j);
	if (ret) {
		snprintf(e->err, sizeof(e->err), "attaching a loop device: %s",
			 strerror(-ret));
		return ret;
	}
	write_through(e);
	return 0;
}

/* device_fault: our dm device over the loop device, linear for now. */
static int stack_dm(struct fsp_fsenv *e)
{
	const char *tag = strrchr(e->dir, '/');
	char name[FSP_DM_NAME_MAX];
	int ret;

	if (!e->prof->device_fault)
		return 0;
	ret = fsp_dm_name(name, sizeof(name), e->j->id, tag ? tag + 1 : "p");
	if (!ret) {
		fsp_wd_begin(e->wd, "device-mapper");
		ret = fsp_dm_create(&e->dm, name, e->loop.dev, e->j);
		fsp_wd_end(e->wd);
	}
	if (ret)
		snprintf(e->err, sizeof(e->err), "device-mapper: creating %s "
			 "over %s: %s (%s)", name, e->loop.dev, strerror(-ret),
			 fsp_errno_name(ret));
	return ret;
}

/* The failing table of a fault: dm's error target or dm-flakey. */
static int fault_table(const struct fsp_fsenv *e, const char **type,
		       char *params, size_t len)
{
	static const char *const flakey[] = {
		/* up 0 s, down 1 s: always down */
		[FSP_FAULT_READ] = "0 1 1 error_reads",
		[FSP_FAULT_WRITE] = "0 1 1 error_writes",
	};

	if (e->prof->device_fault == FSP_FAULT_ALL) {
		*type = "error";
		params[0] = '\0';
		return 0;
	}
	*type = "flakey";
	return fsp_dm_params(&e->dm, flakey[e->prof->device_fault], params,
			     len);
}

int fsp_fsenv_fault(struct fsp_fsenv *e, enum fsp_fault_when when)
{
	enum fsp_device_fault f = e->prof->device_fault;
	const char *type;
	char params[128];
	int ret;

	if (!e->dm.created || e->fault_armed ||
	    (f == FSP_FAULT_WRITE) != (when == FSP_FAULT_AT_PREPARE))
		return 0;
	ret = fault_table(e, &type, params, sizeof(params));
	if (!ret) {
		fsp_wd_begin(e->wd, "device-mapper");
		ret = fsp_dm_swap(&e->dm, type, params);
		fsp_wd_end(e->wd);
	}
	if (ret) {
		snprintf(e->err, sizeof(e->err), "device-mapper: loading "
			 "the '%s %s' table into %s: %s (%s)%s", type, params,
			 e->dm.name, strerror(-ret), fsp_errno_name(ret),
			 ret == -EINVAL && f == FSP_FAULT_READ ?
			 " (dm-flakey has error_reads since 2023, aa7d7bc)" :
			 ret == -EINVAL && f == FSP_FAULT_WRITE ?
			 " (is dm-flakey, CONFIG_DM_FLAKEY, in this kernel?)" :
			 "");
		return ret;
	}
	e->fault_armed = 1;
	return 0;
}

/*
 * What mkfs leaves on disk, for bench/run, after the ranges it zeroed
 * with ZERO_RANGE (the xfs log, the ext4 journal) are holes again
 * (sparse.h). The fsync pushes what mkfs left in our device's page
 * cache into the image first; with write-through it flushes nothing to
 * the host disk. Nothing else writes to the image until we mount it.
 * Best effort: a backing filesystem without FIEMAP keeps the blocks.
 */
static void give_back_zeroes(struct fsp_fsenv *e)
{
	long long punched = 0;
	struct stat st;
	int fd;

	if (!e->readonly && !fsync(e->loop.fd)) {
		fd = open(e->image, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			if (!fsp_punch_unwritten(fd, &punched))
				e->mkfs_punched_kb = punched >> 10;
			close(fd);
		}
	}
	if (!stat(e->image, &st))
		e->mkfs_disk_kb = (long long)st.st_blocks / 2;
}

/*
 * libblkid's name for what mkfs made against the profile's mount type:
 * ext2/ext3 are served by ext4, ntfs3 mounts what mkfs.ntfs calls ntfs;
 * any other mismatch is a bug.
 */
static int same_fs(const char *blkid, const char *fs)
{
	if (!strcmp(blkid, fs))
		return 1;
	if (!strncmp(blkid, "ext", 3) && !strncmp(fs, "ext", 3))
		return 1;
	return !strcmp(blkid, "ntfs") && !strcmp(fs, "ntfs3");
}

/*
 * fuse: mkfs makes the image file itself, from the staged files or on
 * a sparse file of the run's size; then the server mounts it.
 */
static int fuse_setup(struct fsp_fsenv *e, unsigned long size_mb)
{
	int ret;

	if (e->prof->staged) {
		ret = fsp_journal_add(e->j, "image", e->image, NULL);
		e->readonly = 1;
	} else {
		ret = fsp_loop_image_create(e->image,
				(unsigned long long)size_mb << 20, e->j);
	}
	if (ret) {
		snprintf(e->err, sizeof(e->err), "creating image %s: %s",
			 e->image, strerror(-ret));
		return ret;
	}
	ret = run_mkfs(e);
	return ret ? ret : server_mount(e);
}

/* The slot's loop device, else one of our own. */
static int loop_device(struct fsp_fsenv *e, unsigned long size_mb)
{
	int ret = 0;

	if (borrow_slot_device(e, size_mb))
		ret = own_device(e, size_mb);
	/* From our own device: btrfs and overlay have anonymous st_dev. */
	if (!ret)
		fsp_loop_queue_path(&e->loop, "read_ahead_kb", e->read_ahead,
				    sizeof(e->read_ahead));
	return ret;
}

static int loop_after_mkfs(struct fsp_fsenv *e)
{
	int ret;

	give_back_zeroes(e);
	ret = fsp_loop_verify(&e->loop);
	if (ret)
		snprintf(e->err, sizeof(e->err), "%s is no longer backed by "
			 "our image: refusing to use it", e->loop.dev);
	return ret;
}


/* A zoned null_blk device of this run, named after it (nullb.h). */
static int nullb_device(struct fsp_fsenv *e, unsigned long size_mb)
{
	struct fsp_nullb_conf *c = &e->nullb_conf;
	char name[FSP_NULLB_NAME_MAX];
	int ret = ctl_fs_mount(e, "configfs", e->cfs, sizeof(e->cfs),
			       &e->cfs_mounted);

	if (ret)
		return ret;
	c->zone_size_mb = NULLB_ZONE_MB;
	c->nr_conv = NULLB_NR_CONV;
	c->blocksize = 4096;
	c->size_mb = size_mb / NULLB_ZONE_MB * NULLB_ZONE_MB;
	if (c->size_mb < NULLB_ZONE_MB * NULLB_MIN_ZONES)
		c->size_mb = NULLB_ZONE_MB * NULLB_MIN_ZONES;
	ret = fsp_nullb_name(name, sizeof(name), e->j->id, e->idx);
	if (!ret)
		ret = fsp_nullb_create(&e->nullb, e->cfs, name, c, e->j);
	if (ret) {
		snprintf(e->err, sizeof(e->err), "creating the zoned null_blk "
			 "device %s: %s", name, strerror(-ret));
		return ret;
	}
	return fsp_fmt(e->read_ahead, sizeof(e->read_ahead),
		       "/sys/block/%s/queue/read_ahead_kb", name);
}

/* Remove our null_blk device, check that it is gone, drop configfs. */
static void nullb_teardown(struct fsp_fsenv *e)
{
	long long t0 = fsp_now_ms();

	if (e->nullb.created) {
		fsp_nullb_remove(&e->nullb);
		e->nullb_left = fsp_nullb_exists(e->cfs, e->nullb.name);
	}
	if (e->cfs_mounted && !fsp_mnt_umount(e->cfs))
		e->cfs_mounted = 0;
	e->t_detach += fsp_now_ms() - t0;
}

/* Create the filesystem; on return it is mounted (or e->err says why). */
int fsp_fsenv_setup(struct fsp_fsenv *e, unsigned long size_mb)
{
	const struct fsp_profile *p = e->prof;
	const char *want;
	long long t0;
	char type[32];
	int ret;

	if (p->kind == FSP_PROFILE_MEMORY)
		return do_mount(e);
	if (p->kind == FSP_PROFILE_FUSE)
		return fuse_setup(e, size_mb);
	if (p->kind == FSP_PROFILE_OVERLAY &&
	    p->lower_kind == FSP_PROFILE_MEMORY)
		return overlay_dirs(e);
	if (p->kind == FSP_PROFILE_NFS && p->lower_kind == FSP_PROFILE_MEMORY)
		return nfs_serve(e);
	if (p->kind == FSP_PROFILE_IMAGE) {
		/* Cases are prepared into stage/ first, by the caller. */
		ret = fsp_journal_add(e->j, "image", e->image, NULL);
		if (!ret)
			ret = run_mkfs(e);
		if (ret)
			return ret;
		e->readonly = 1;
	}
	t0 = fsp_now_ms();
	ret = p->device == FSP_DEVICE_NULLB_ZONED ? nullb_device(e, size_mb) :
	      loop_device(e, size_mb);
	if (!ret && e->loop.fd >= 0)
		ret = stack_dm(e);
	if (ret)
		return ret;
	e->t_attach = fsp_now_ms() - t0;
	if (!e->readonly) {
		ret = run_mkfs(e);
		if (ret)
			return ret;
	}
	if (e->loop.fd >= 0) {
		ret = loop_after_mkfs(e);
		if (ret)
			return ret;
	}
	ret = fsp_blkid_type(fsp_fsenv_device(e), type, sizeof(type));
	if (ret) {
		snprintf(e->err, sizeof(e->err), "no filesystem found on %s "
			 "after mkfs (libblkid: %s)", fsp_fsenv_device(e),
			 strerror(-ret));
		return ret;
	}
	want = p->lower[0] ? p->lower : p->fs;
	if (!same_fs(type, want)) {
		snprintf(e->err, sizeof(e->err), "mkfs made '%s', profile "
			 "says '%s'", type, want);
		return -EINVAL;
	}
	if (p->kind == FSP_PROFILE_OVERLAY)
		return overlay_dirs(e);
	if (p->kind == FSP_PROFILE_NFS)
		return nfs_serve(e);
	return do_mount(e);
}

void fsp_fsenv_teardown(struct fsp_fsenv *e)
{
	long long t0;

	if (e->mounted)
		fsp_attrs_release(&e->attrs, e->mnt);
	do_umount(e);
	if (e->prof->kind == FSP_PROFILE_NFS)
		nfs_unserve(e);
	if (e->server_log >= 0)
		close(e->server_log);
	e->server_log = -1;
	if (e->nullb.name[0] || e->cfs_mounted) {
		nullb_teardown(e);
		return;
	}
	if (e->reused)
		return;	/* the slot's device: its holder detaches it */
	t0 = fsp_now_ms();
	if (!e->mounted && !e->lower_mounted)
		fsp_dm_remove(&e->dm);	/* still mounted: left to unwind */
	fsp_knob_restore_all(&e->knobs);
	fsp_loop_detach(&e->loop);
	e->t_detach += fsp_now_ms() - t0;
}
