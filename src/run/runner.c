// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runner.c - the profile lifecycle. Everything created is journalled
 * first; the filesystem is made once and serves every case: all case
 * files are written, synced, and made cold together by one umount/mount
 * cycle, which evicts exactly our own files (no global drop_caches).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "dm.h"
#include "filedata.h"
#include "fixedfiles.h"
#include "fsenv.h"
#include "kmsg.h"
#include "loop.h"
#include "proc.h"
#include "mnt.h"
#include "runner.h"
#include "slots.h"
#include "survive.h"
#include "targetfds.h"
#include "util.h"
#include "verdict.h"
#include "watchdog.h"

static const char *requires_unmet(const struct fsp_profile *prof,
				  int run_tools, char *buf, size_t len);

/*
 * fuse: the kernel's fuse, /dev/fuse, the server and mkfs. The server's
 * package is named as the binary is (fuse2fs, squashfuse, erofsfuse);
 * a release that has no such package says so through apt-get.
 */
static const char *fuse_unrunnable(const struct fsp_profile *prof,
				   int run_tools, char *buf, size_t len)
{
	char path[4096];
	struct stat st;

	if (!fsp_mnt_fs_supported("fuse")) {
		snprintf(buf, len, "fuse is not in this kernel "
			 "(/proc/filesystems; modprobe fuse)");
		return buf;
	}
	if (stat("/dev/fuse", &st) || !S_ISCHR(st.st_mode)) {
		snprintf(buf, len, "/dev/fuse missing: the FUSE server "
			 "cannot serve");
		return buf;
	}
	if (fsp_proc_find(prof->server[0], path, sizeof(path))) {
		snprintf(buf, len, "%s not installed: apt-get install %s",
			 prof->server[0], prof->server[0]);
		return buf;
	}
	if (fsp_proc_find(prof->mkfs[0], path, sizeof(path))) {
		snprintf(buf, len, "%s not found: install its package "
			 "(./bootstrap-deps)", prof->mkfs[0]);
		return buf;
	}
	return requires_unmet(prof, run_tools, buf, len);
}

/*
 * device_fault needs device-mapper (dm-mod, /dev/mapper/control); read
 * and write need its flakey target too, which the kernel loads when the
 * table names it, and which the profiles require by CONFIG_DM_FLAKEY. A
 * vm guest loads both (src/vm/vm_modules.c).
 */
static int device_fault_unrunnable(const struct fsp_profile *prof,
				   char *buf, size_t len)
{
	if (!prof->device_fault)
		return 0;
	if (fsp_dm_available()) {
		snprintf(buf, len, "device-mapper not in this kernel "
			 "(CONFIG_BLK_DEV_DM)");
		return 1;
	}
	return 0;
}

/* run_tools 0: `list`, which runs no program a profile names. */
static const char *unrunnable(const struct fsp_profile *prof, int run_tools,
			      char *buf, size_t len)
{
	char path[4096];

	if (prof->kind == FSP_PROFILE_FUSE)
		return fuse_unrunnable(prof, run_tools, buf, len);
	if (!fsp_mnt_fs_supported(prof->fs)) {
		snprintf(buf, len, "filesystem '%s' is not in this kernel "
			 "(/proc/filesystems)", prof->fs);
		return buf;
	}
	if (prof->kind == FSP_PROFILE_NFS && !fsp_mnt_fs_supported("nfsd")) {
		snprintf(buf, len, "the kernel's NFS server (nfsd) is not in "
			 "this kernel");
		return buf;
	}
	if (prof->lower[0] && !fsp_mnt_fs_supported(prof->lower)) {
		snprintf(buf, len, "lower filesystem '%s' is not in this "
			 "kernel", prof->lower);
		return buf;
	}
	if (prof->nr_mkfs && fsp_proc_find(prof->mkfs[0], path, sizeof(path)) &&
	    !fsp_fsenv_mkfs_builtin(prof->mkfs[0])) {
		snprintf(buf, len, "%s not found: install its package "
			 "(./bootstrap-deps)", prof->mkfs[0]);
		return buf;
	}
	if (!prof->nr_mkfs && prof->kind != FSP_PROFILE_MEMORY &&
	    !prof->lower[0]) {
		snprintf(buf, len, "profile has no mkfs command");
		return buf;
	}
	if (device_fault_unrunnable(prof, buf, len))
		return buf;
	return requires_unmet(prof, run_tools, buf, len);
}

const char *fsp_profile_unrunnable(const struct fsp_profile *prof,
				   char *buf, size_t len)
{
	return unrunnable(prof, 1, buf, len);
}

const char *fsp_profile_unrunnable_noexec(const struct fsp_profile *prof,
					  char *buf, size_t len)
{
	return unrunnable(prof, 0, buf, len);
}

/* Is word in text as a whole word (lz4 is not in "lz4hc")? */
static int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return 1;
	return 0;
}

/*
 * `requires = TOOL:WORD`: the tool, in a version whose --help names
 * WORD (mkfs.erofs:lzma: an erofs-utils built with that compressor).
 * It is run by the path found on the root-only FSP_PROC_ROOT_PATH.
 */
static const char *tool_feature_unmet(const char *r, char *buf, size_t len)
{
	char tool[64], path[4096], *argv[3];
	const char *word = strchr(r, ':') + 1;
	struct fsp_proc p;
	int found;

	snprintf(tool, sizeof(tool), "%.*s", (int)(word - 1 - r), r);
	if (fsp_proc_find_root(tool, path, sizeof(path))) {
		snprintf(buf, len, "required tool %s not found in %s", tool,
			 FSP_PROC_ROOT_PATH);
		return buf;
	}
	argv[0] = path;
	argv[1] = "--help";
	argv[2] = NULL;
	if (fsp_proc_run(argv, -1, FSP_PROC_CAPTURE, 10, &p)) {
		snprintf(buf, len, "%s --help did not run", tool);
		return buf;
	}
	found = has_word(p.out ? p.out : "", word) || has_word(p.tail, word);
	free(p.out);
	if (found)
		return NULL;
	snprintf(buf, len, "%s here has no %s (its --help does not name it)",
		 tool, word);
	return buf;
}

/* The profile's `requires`: CONFIG_* options and tools. */
static const char *requires_unmet(const struct fsp_profile *prof,
				  int run_tools, char *buf, size_t len)
{
	char path[4096];
	int i;

	for (i = 0; i < prof->nr_requires; i++) {
		const char *r = prof->requires[i];
		char v;

		if (!strncmp(r, "CONFIG_", 7)) {
			if (fsp_kconfig_get(r, &v, NULL, 0)) {
				snprintf(buf, len, "%s: kernel config not "
					 "readable", r);
				return buf;
			}
			if (v == 'n') {
				snprintf(buf, len, "%s is not set in this "
					 "kernel", r);
				return buf;
			}
		} else if (strchr(r, ':')) {
			if (run_tools && tool_feature_unmet(r, buf, len))
				return buf;
		} else if (fsp_proc_find_root(r, path, sizeof(path))) {
			snprintf(buf, len, "required tool %s not found in %s",
				 r, FSP_PROC_ROOT_PATH);
			return buf;
		}
	}
	return NULL;
}

void fsp_profile_result(const struct fsp_profile *prof,
			struct fsp_res_profile *out)
{
	int i;

	fsp_res_profile_init(out);
	out->name = strdup(prof->name);
	out->fs = strdup(prof->fs);
	out->mkfs = calloc(prof->nr_mkfs + 1, sizeof(*out->mkfs));
	for (i = 0; out->mkfs && i < prof->nr_mkfs; i++)
		out->mkfs[out->nr_mkfs++] = strdup(prof->mkfs[i]);
	out->mount_options = strdup(prof->mount_options);
	if (prof->description[0])
		out->description = strdup(prof->description);
	for (i = 0; i < FSP_NR_ATTRS; i++)
		if (prof->attrs & (1u << i))
			fsp_res_add_attribute(out, fsp_attr_name(i));
}

/* Allocated size of the regular files in dir, in kB. */
static long long dir_kb(const char *dir)
{
	struct dirent *de;
	long long kb = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct stat st;

		if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			kb += (long long)st.st_blocks / 2;
	}
	closedir(d);
	return kb;
}

/*
 * Why a case is not run: its files could not be placed on a fixed-file
 * filesystem (case.h, struct fsp_files). "" for a case that runs.
 */
struct case_skips {
	char why[64][256];
};

/* A case whose files t->files cannot place: a skip, not an error. */
static int placed_or_skip(const struct fsp_target *t, int ret,
			  struct case_skips *sk, int i)
{
	if (!ret || !t->files || !t->files->why[0] || !sk)
		return ret;
	snprintf(sk->why[i], sizeof(sk->why[i]), "%s", t->files->why);
	t->files->why[0] = '\0';
	return 0;
}

static int prepare_cases(const struct fsp_run_opts *o,
			 const struct fsp_target *t, char *err, size_t len,
			 struct case_skips *sk)
{
	int i, ret;

	for (i = 0; i < o->nr_cases; i++) {
		if (!o->cases[i]->prepare || (sk && sk->why[i][0]))
			continue;
		fsp_wd_begin(o->wd, "prepare %s", o->cases[i]->name);
		ret = placed_or_skip(t, o->cases[i]->prepare(t), sk, i);
		fsp_wd_end(o->wd);
		if (ret) {
			snprintf(err, len, "%s: preparing files: %s (%s)",
				 o->cases[i]->name, strerror(-ret),
				 fsp_errno_name(ret));
			return ret;
		}
	}
	/* No sync(2): the cold cycle that follows writes our files back. */
	return 0;
}

static void probe_result(struct fsp_res_profile *out,
			 const struct fsp_probe *p)
{
	struct fsp_res_probe *pr = fsp_res_add_probe(out, p->c->name,
						     p->result);

	if (!pr)
		return;
	pr->reason = p->reason[0] ? strdup(p->reason) : NULL;
	pr->evidence = json_object_get(p->evidence);
	pr->ms = p->ms;
}

/* "fsprobe: [i/N] profile: step" on stderr, for people watching. */
static void progress(const struct fsp_run_opts *o, int idx,
		     const char *name, const char *step)
{
	fsp_progress(o->progress, "[%d/%d] %s: %s", idx + 1, o->nr_profiles,
		     name, step);
}

/* A directory stream of its own on the directory fd (its own offset). */
static DIR *opendir_fd(int fd)
{
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;

	if (!d && dfd >= 0)
		close(dfd);
	return d;
}

/*
 * Evict every regular file of the directory dfd with fsync +
 * POSIX_FADV_DONTNEED; *left gets the pages that stayed cached, *how the
 * counting method of the last file ("cachestat", or "mincore" where
 * cachestat is blind). Through the fd only: check's directory is in
 * one the user may write (checkdir.h).
 */
static int evict_all(int dfd, unsigned long *left, const char **how)
{
	struct fsp_residency r;
	struct dirent *de;
	DIR *d = opendir_fd(dfd);
	int ret = 0;

	*left = 0;
	*how = "cachestat";
	if (!d) {
		ret = -errno;
		if (dfd >= 0)
			close(dfd);
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		struct stat st;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		fd = openat(dfd, de->d_name, O_RDONLY | O_NOFOLLOW |
			    O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		if (fstat(fd, &st))
			ret = -errno;
		else if (S_ISREG(st.st_mode))
			ret = fsp_evict(fd, st.st_size, &r);
		if (!ret && S_ISREG(st.st_mode)) {
			*left += r.nr_cache;
			*how = fsp_residency_method(&r);
		}
		close(fd);
	}
	closedir(d);
	return ret;
}

/* check's recycle: t->priv is the watchdog's slot (or NULL). */
static int evict_dir(const struct fsp_target *t)
{
	unsigned long left;
	const char *how;
	int ret;

	fsp_wd_begin(t->priv, "evict");
	ret = evict_all(t->dirfd, &left, &how);
	fsp_wd_end(t->priv);
	return ret ? ret : left ? -EBUSY : 0;
}

/* One cold cycle for every case's on-disk checks. */
static void run_cold_checks(const struct fsp_run_opts *o,
			    const struct fsp_target *t,
			    struct fsp_probe *probes,
			    const struct case_skips *sk)
{
	long long s = fsp_now_ms();
	int i, ret = t->recycle(t);

	for (i = 0; i < o->nr_cases; i++) {
		if (!o->cases[i]->run_cold || (sk && sk->why[i][0]))
			continue;
		if (ret) {
			fsp_probe_set(&probes[i], FSP_ERROR, "making the cache "
				      "cold for the on-disk checks: %s",
				      strerror(-ret));
			continue;
		}
		fsp_wd_begin(o->wd, "probe %s", o->cases[i]->name);
		o->cases[i]->run_cold(t, &probes[i]);
		fsp_wd_end(o->wd);
	}
	/* The cycle's cost is shared: charge it to the first such case. */
	for (i = 0; i < o->nr_cases; i++)
		if (o->cases[i]->run_cold) {
			probes[i].ms += fsp_now_ms() - s;
			break;
		}
}

/*
 * Run the selected cases on t and add verdict + probes to out; l has the
 * instance the cases trace on (t->trace).
 */
/*
 * The minimum folio order a block size above the page size forces (XFS
 * with 16 KiB blocks: 2), when every folio measured was at least that
 * large: f_bsize alone is no proof (squashfs reports its 128 KiB
 * compression block, exfat its cluster), the folios are.
 */
static int forced_min_order(const struct fsp_target *t, int seen)
{
	struct statfs sfs;
	long page = t->si->page_size;
	int order = 0;

	if (seen <= 0 || page <= 0 || fstatfs(t->dirfd, &sfs) ||
	    sfs.f_bsize <= page)
		return FSP_RES_ABSENT;
	while (((long)page << order) < sfs.f_bsize)
		order++;
	return seen >= order ? order : FSP_RES_ABSENT;
}

static long long run_cases(const struct fsp_run_opts *o,
			   struct fsp_slot_lease *l,
			   const struct fsp_target *t,
			   struct fsp_res_profile *out, int idx,
			   const char *name, const struct case_skips *sk)
{
	struct fsp_probe probes[64];
	struct fsp_verdict v;
	long long t0 = fsp_now_ms();
	int i, need_cold = 0, last_traced = -1;

	for (i = 0; i < o->nr_cases; i++)
		if (o->cases[i]->traced)
			last_traced = i;
	for (i = 0; i < o->nr_cases; i++) {
		long long s = fsp_now_ms();

		fsp_probe_init(&probes[i], o->cases[i]);
		if (sk && sk->why[i][0]) {
			fsp_probe_set(&probes[i], FSP_SKIP, "%s", sk->why[i]);
			continue;
		}
		progress(o, idx, name, o->cases[i]->name);
		fsp_wd_begin(o->wd, "probe %s", o->cases[i]->name);
		o->cases[i]->run(t, &probes[i]);
		fsp_wd_end(o->wd);
		probes[i].ms = fsp_now_ms() - s;
		need_cold |= o->cases[i]->run_cold != NULL;
		/*
		 * The slot's last profile: its instance's removal (RCU grace
		 * periods, ~40 ms asleep) overlaps the cases left, not the
		 * end of the run.
		 */
		if (i == last_traced && fsp_slot_lease_last(l))
			fsp_slot_lease_release(l, 1);
	}
	if (need_cold && t->recycle && !t->shmem)
		run_cold_checks(o, t, probes, sk);
	fsp_slot_lease_release(l, fsp_slot_lease_last(l));
	fsp_verdict_derive(probes, o->nr_cases, t->shmem, t->si->pmd_order,
			   &v);
	fsp_verdict_attribute(probes, o->nr_cases, &v, t->si->pmd_order,
			      t->si->ro_thp_state == FSP_KOPT_ABSENT);
	for (i = 0; i < o->nr_cases; i++)
		probe_result(out, &probes[i]);
	fsp_res_set_verdict(out, v.verdict, v.reason[0] ? v.reason : NULL);
	out->routes = v.routes;
	out->max_order_read = v.max_order_read >= 0 ? v.max_order_read :
			      FSP_RES_NULL;
	out->max_order_fault = v.max_order_fault >= 0 ? v.max_order_fault :
			       FSP_RES_NULL;
	out->min_order = forced_min_order(t, v.min_order_seen);
	out->has_probes = 1;
	for (i = 0; i < o->nr_cases; i++)
		json_object_put(probes[i].evidence);
	return fsp_now_ms() - t0;
}

/* "/dev/loop3" -> "loop3"; "" stays "". */
static const char *dev_base(const char *dev)
{
	const char *b = strrchr(dev, '/');

	return b ? b + 1 : dev;
}

/*
 * A kernel splat while this profile ran makes it `error`, with the lines
 * as evidence, even if every probe passed. A filesystem's message that
 * names a device ("XFS (loop3): ...") counts only for the profile whose
 * device that is: with -j > 1 another profile's filesystem may complain
 * meanwhile (zonefs on 6.1, beside xfs). A splat that names no device
 * cannot be pinned to one profile: every profile running then has it.
 */
static void kernel_log_check(struct fsp_kmsg *km, const struct fsp_fsenv *e,
			     struct fsp_res_profile *out)
{
	const char *ours[5];
	char lines[2048], why[2100];
	int hits, first, n = 0;

	if (e->loop.dev[0])
		ours[n++] = dev_base(e->loop.dev);
	if (e->dm.dev[0])
		ours[n++] = dev_base(e->dm.dev);
	if (e->dm.name[0])
		ours[n++] = e->dm.name;
	if (e->nullb.name[0])	/* also its disk's name: /dev/NAME */
		ours[n++] = e->nullb.name;
	ours[n] = NULL;
	hits = fsp_kmsg_scan(km, ours, lines, sizeof(lines));
	fsp_kmsg_close(km);
	if (hits <= 0)
		return;
	free(out->kernel_log);
	out->kernel_log = strdup(lines);
	/* The first line only: a reason is one line of the table. */
	first = (int)strcspn(lines, "\n");
	snprintf(why, sizeof(why), "kernel log reported %d problem line(s) "
		 "during this profile: %.*s", hits, first < 200 ? first : 200,
		 lines);
	fsp_res_set_verdict(out, FSP_V_ERROR, why);
}

static int mkdir_journalled(struct fsp_journal *j, const char *path)
{
	int ret = fsp_journal_add(j, "dir", path, NULL);

	if (ret)
		return ret;
	return mkdir(path, 0700) ? -errno : 0;
}

int fsp_run_profile_dir(const struct fsp_journal *j, int idx, char *buf,
			size_t len)
{
	char name[16];

	snprintf(name, sizeof(name), "p%02d", idx);
	return fsp_journal_path(j, buf, len, name);
}

int fsp_remove_profile_dir(const struct fsp_journal *j, int idx)
{
	char dir[4096];
	int ret = fsp_run_profile_dir(j, idx, dir, sizeof(dir));

	return ret ? ret : fsp_rmtree(dir);
}

/* fuse: the server as the profile has it, its starts, its last exit. */
static void server_result(struct fsp_res_profile *out,
			  const struct fsp_fsenv *e)
{
	const struct fsp_profile *p = e->prof;
	int i;

	out->server.argv = calloc(p->nr_server + 1, sizeof(char *));
	for (i = 0; out->server.argv && i < p->nr_server; i++)
		out->server.argv[out->server.nr_argv++] = strdup(p->server[i]);
	out->server.starts = e->server_starts;
	out->server.exit_status = e->fuse.pid || e->fuse.status < 0 ?
				  FSP_RES_NULL : e->fuse.status;
}

/* The zoned null_blk device a profile made, and whether it is gone. */
static struct json_object *nullb_json(const struct fsp_fsenv *e)
{
	const struct fsp_nullb_conf *c = &e->nullb_conf;
	struct json_object *o;

	if (!e->nullb.name[0])
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(
			       e->nullb.dev[0] ? e->nullb.dev : e->nullb.name));
	json_object_object_add(o, "size_mb", json_object_new_int64(c->size_mb));
	json_object_object_add(o, "zone_size_mb",
			       json_object_new_int64(c->zone_size_mb));
	json_object_object_add(o, "conventional_zones",
			       json_object_new_int(c->nr_conv));
	json_object_object_add(o, "removed", json_object_new_boolean(
			       !e->nullb.created && !e->nullb_left));
	return o;
}

/* timing_ms, loop and server: what the profile's environment cost. */
static void add_timing(struct fsp_res_profile *out, const struct fsp_fsenv *e,
		       long long t_probes, long long t_prepare,
		       long long t_start)
{
	struct fsp_res_timing *tm = &out->timing;
	struct stat st;

	if (e->loop.dev[0]) {
		out->loop.device = strdup(e->loop.dev);
		out->loop.slot_device = !!e->reused;
		if (e->lent_err)
			out->loop.slot_device_refused =
				strdup(strerror(-e->lent_err));
	}
	if (e->server_starts)
		server_result(out, e);
	out->mkfs_builtin = e->mkfs_builtin;
	out->null_blk = nullb_json(e);
	tm->attach = e->t_attach;
	tm->mkfs = e->t_mkfs;
	tm->mount = e->t_mount;
	tm->probes = t_probes;
	if (!stat(e->image, &st))
		tm->image_disk_kb = (long long)st.st_blocks / 2;
	tm->files_kb = e->files_kb;
	if (e->mkfs_disk_kb)
		tm->mkfs_disk_kb = e->mkfs_disk_kb;
	if (e->mkfs_punched_kb)
		tm->mkfs_punched_kb = e->mkfs_punched_kb;
	tm->prepare = t_prepare;
	tm->umount = e->t_umount;
	tm->detach = e->t_detach;
	tm->total = fsp_now_ms() - t_start;
}

/* The profile's directory, image, mount point, stage and lower paths. */
static int profile_dirs(struct fsp_fsenv *e, struct fsp_journal *j, int idx,
			struct fsp_res_profile *out)
{
	char why[512];
	int ret;

	if (fsp_run_profile_dir(j, idx, e->dir, sizeof(e->dir)) ||
	    fsp_fmt(e->image, sizeof(e->image), "%s/image", e->dir) ||
	    fsp_fmt(e->mnt, sizeof(e->mnt), "%s/mnt", e->dir) ||
	    fsp_fmt(e->stage, sizeof(e->stage), "%s/stage", e->dir) ||
	    fsp_fmt(e->lower, sizeof(e->lower), "%s/lowerfs", e->dir)) {
		fsp_res_set_verdict(out, FSP_V_ERROR,
				    "state directory path too long");
		return -ENAMETOOLONG;
	}
	ret = mkdir_journalled(j, e->dir);
	if (!ret)
		ret = mkdir_journalled(j, e->mnt);
	if (ret) {
		snprintf(why, sizeof(why), "creating %s: %s", e->dir,
			 strerror(-ret));
		fsp_res_set_verdict(out, FSP_V_ERROR, why);
	}
	return ret;
}

/* What the cases see of the profile: its mount, the run, the slot. */
static void target_setup(struct fsp_target *t, struct fsp_fsenv *e,
			 const struct fsp_run_opts *o,
			 struct fsp_slot_lease *lease,
			 const struct fsp_sysinfo *si, struct fsp_journal *j)
{
	memset(t, 0, sizeof(*t));
	t->dir = e->mnt;
	t->prep_dir = e->mnt;
	t->dirfd = t->prep_dirfd = -1;	/* fsp_target_fds_open */
	t->fs = e->prof->fs;
	/* An overlay on tmpfs: the data lives in the lower tmpfs' cache. */
	t->shmem = e->prof->kind == FSP_PROFILE_MEMORY ||
		   (e->prof->kind == FSP_PROFILE_OVERLAY &&
		    e->prof->lower_kind == FSP_PROFILE_MEMORY);
	t->si = si;
	t->payload_dir = o->payload_dir;
	t->run_id = j->id;
	t->trace = &lease->handle;
	t->priv = e;
	t->journal = j;
	t->read_ahead_path = e->read_ahead;
	t->recycle = fsp_fsenv_recycle;
	t->cold_method = t->shmem ? "none (tmpfs: data lives in the cache)" :
			 e->prof->kind == FSP_PROFILE_FUSE ?
			 "remount (FUSE server restarted)" :
			 e->prof->kind == FSP_PROFILE_NFS ?
			 "remount (the NFS client; the export stays)" :
			 "remount";
}

/* The target's directories (again) as its fds, after they changed. */
static int target_fds(struct fsp_target *t, struct fsp_fsenv *e)
{
	int ret = fsp_target_fds_open(t);

	if (ret && !e->err[0])
		snprintf(e->err, sizeof(e->err), "opening %s and %s: %s",
			 t->dir, t->prep_dir, strerror(-ret));
	return ret;
}

/*
 * Before mkfs: an image builder's files (and a fuse profile's whose
 * mkfs reads {src}) are written into its stage (mkfs makes the image
 * from them); an overlay's lower directory.
 */
static int stage_files(const struct fsp_run_opts *o, struct fsp_target *t,
		       struct fsp_fsenv *e)
{
	int ret;

	if (e->prof->staged) {
		t->readonly = 1;
		t->prep_dir = e->stage;
		ret = mkdir_journalled(e->j, e->stage);
		if (!ret)
			ret = target_fds(t, e);
		if (ret)
			return ret;
		ret = prepare_cases(o, t, e->err, sizeof(e->err), NULL);
		if (ret)
			return ret;
		e->files_kb = dir_kb(t->prep_dir);
	}
	return e->prof->lower[0] ? mkdir_journalled(e->j, e->lower) : 0;
}

static int mkfs_mount(const struct fsp_run_opts *o, struct fsp_target *t,
		      struct fsp_fsenv *e, int idx, unsigned long size_mb)
{
	int ret;

	progress(o, idx, e->prof->name, "mkfs and mount");
	ret = fsp_fsenv_setup(e, size_mb);
	if (ret)
		return ret;
	if (e->prof->kind == FSP_PROFILE_OVERLAY) {
		/* Files are written to the lower layer, read via overlay. */
		snprintf(e->stage, sizeof(e->stage), "%s/lower", e->lower);
		t->prep_dir = e->stage;
	}
	/* An overlay's dirfd is its mount point until the cold mount. */
	return target_fds(t, e);
}

/* What the cases wrote is still there after the cold remount. */
static int files_survived(const struct fsp_target *t, struct fsp_fsenv *e,
			  const struct fsp_names *written)
{
	struct fsp_names now;
	const char *first;
	int gone = fsp_names_missing(written, t->dir, &first);

	if (gone <= 0)
		return 0;
	/* What is there instead: nothing, or names the fs changed. */
	fsp_names_take(&now, t->dir);
	snprintf(e->err, sizeof(e->err), "%d of the %d files written before "
		 "the cold remount are gone after it (%s%s): the filesystem "
		 "lost them; the directory now lists %d entr%s%s%s", gone,
		 written->nr, first, gone > 1 ? ", ..." : "", now.nr,
		 now.nr == 1 ? "y" : "ies", now.nr ? ", first " : "",
		 now.nr ? now.name[0] : "");
	return -ENOENT;
}

/*
 * The case files written (into the attribute directory when the profile
 * has attributes, sealed after), then made cold by one remount; *ms:
 * writing.
 */
static int prepare_cold(const struct fsp_run_opts *o, struct fsp_target *t,
			struct fsp_fsenv *e, long long *ms,
			struct case_skips *sk)
{
	struct fsp_names written = { .nr = 0 };
	long long t0 = fsp_now_ms();
	int ret;

	fsp_wd_begin(o->wd, "attributes on the directory");
	ret = fsp_attrs_dir(&e->attrs, e->mnt, t, e->err, sizeof(e->err));
	if (!ret && e->attrs.set)
		ret = target_fds(t, e);	/* now MNT/files */
	if (!ret) {
		ret = fsp_attrs_control_prepare(&e->attrs, t);
		if (ret)
			snprintf(e->err, sizeof(e->err), "writing the control "
				 "file in %s: %s", e->attrs.plain,
				 strerror(-ret));
	}
	fsp_wd_end(o->wd);
	if (!ret)
		ret = prepare_cases(o, t, e->err, sizeof(e->err), sk);
	if (!ret && e->attrs.set) {
		fsp_wd_begin(o->wd, "attributes on the files");
		ret = fsp_attrs_seal(&e->attrs, t, e->err, sizeof(e->err));
		fsp_wd_end(o->wd);
	}
	*ms = fsp_now_ms() - t0;
	if (ret)
		return ret;
	e->files_kb = dir_kb(t->prep_dir);
	/*
	 * Fixed files keep their own names (fixedfiles.h), and a device
	 * made to fail from the cold mount on is the probes' to read
	 * first: neither is checked.
	 */
	if (!t->files && !e->prof->device_fault)
		fsp_names_take(&written, t->prep_dir);
	ret = fsp_fsenv_recycle(t);
	if (ret && !e->err[0])
		snprintf(e->err, sizeof(e->err), "remount for a cold cache: %s",
			 strerror(-ret));
	return ret ? ret : files_survived(t, e, &written);
}

/* A filesystem with fixed files: its files listed, the cases' allocator. */
static int fixed_setup(struct fsp_target *t, struct fsp_fsenv *e,
		       struct fsp_fixed **out)
{
	struct fsp_fixed *x = malloc(sizeof(*x));
	int ret = x ? fsp_fixed_scan(x, e->mnt) : -ENOMEM;

	if (ret) {
		snprintf(e->err, sizeof(e->err), "listing the files of %s: %s",
			 e->mnt, strerror(-ret));
		free(x);
		return ret;
	}
	t->files = &x->ops;
	*out = x;
	return 0;
}

/* Where each case file went on a fixed-file filesystem: name -> file. */
static struct json_object *fixed_json(const struct fsp_fixed *x)
{
	struct json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < x->nr; i++)
		if (x->f[i].bound[0])
			json_object_object_add(o, x->f[i].bound,
					json_object_new_string(x->f[i].rel));
	return o;
}

/* Directories, target, staging, mkfs + mount, prepare + cold, cases. */
static void profile_body(struct fsp_fsenv *e, int idx,
			 const struct fsp_run_opts *o,
			 struct fsp_slot_lease *lease,
			 const struct fsp_sysinfo *si,
			 struct fsp_res_profile *out, long long *t_probes,
			 long long *t_prepare)
{
	const struct fsp_profile *prof = e->prof;
	unsigned long size_mb = o->size_mb ? o->size_mb : prof->size_mb ?
				prof->size_mb : FSP_DEFAULT_SIZE_MB;
	struct case_skips *sk = calloc(1, sizeof(*sk));
	struct fsp_fixed *fixed = NULL;
	struct fsp_target t;
	int ret;

	target_setup(&t, e, o, lease, si, e->j);
	ret = sk ? stage_files(o, &t, e) : -ENOMEM;
	if (!ret)
		ret = mkfs_mount(o, &t, e, idx, size_mb);
	if (!ret && prof->fixed_files)
		ret = fixed_setup(&t, e, &fixed);
	if (!ret)
		ret = fsp_fsenv_fault(e, FSP_FAULT_AT_PREPARE);
	if (!ret && !t.readonly)
		ret = prepare_cold(o, &t, e, t_prepare, sk);
	if (!ret)
		ret = fsp_fsenv_fault(e, FSP_FAULT_AT_PROBES);
	if (!ret) {
		*t_probes = run_cases(o, lease, &t, out, idx, prof->name, sk);
		if (fixed)
			out->fixed_files = fixed_json(fixed);
		if (e->attrs.set) {
			fsp_wd_begin(o->wd, "control fault-pmd");
			fsp_attrs_control(&e->attrs, &t);
			fsp_wd_end(o->wd);
		}
	} else {
		if (!e->err[0])
			snprintf(e->err, sizeof(e->err), "%s", strerror(-ret));
		/* The kernel or filesystem has no such attribute: a skip. */
		fsp_res_set_verdict(out, e->attrs.unsupported ? FSP_V_SKIP :
				    FSP_V_ERROR, e->err);
	}
	fsp_target_fds_close(&t);	/* before the umount: EBUSY */
	fsp_fsenv_teardown(e);
	out->attribute_evidence = fsp_attrs_take_evidence(&e->attrs);
	fsp_attrs_free(&e->attrs);
	free(fixed);
	free(sk);
}

void fsp_run_profile(const struct fsp_profile *prof, int idx,
		     const struct fsp_run_opts *o,
		     struct fsp_slot_lease *lease,
		     const struct fsp_sysinfo *si, struct fsp_journal *j,
		     struct fsp_res_profile *out)
{
	struct fsp_fsenv e;
	struct fsp_kmsg km;
	char why[512];
	long long t_probes = 0, t_prepare = 0, t_start = fsp_now_ms();

	fsp_profile_result(prof, out);
	memset(&e, 0, sizeof(e));
	e.prof = prof;
	e.j = j;
	e.loop.fd = -1;
	e.server_log = -1;
	e.idx = idx;
	e.lent = lease->loop;
	e.wd = o->wd;
	fsp_attrs_init(&e.attrs, prof->attrs);
	fsp_kmsg_open(&km);
	if (fsp_profile_unrunnable(prof, why, sizeof(why))) {
		fsp_kmsg_close(&km);
		fsp_res_set_verdict(out, FSP_V_SKIP, why);
		return;
	}
	if (profile_dirs(&e, j, idx, out))
		return;
	profile_body(&e, idx, o, lease, si, out, &t_probes, &t_prepare);
	fsp_slot_lease_wait(lease);
	kernel_log_check(&km, &e, out);
	add_timing(out, &e, t_probes, t_prepare, t_start);
}

/* check's target: c's directory, through its fd from now on. */
static void check_target(struct fsp_target *t, const struct fsp_checkdir *c,
			 const struct fsp_run_opts *o,
			 const struct fsp_sysinfo *si, struct fsp_journal *j)
{
	struct statfs sfs;

	memset(t, 0, sizeof(*t));
	t->dir = t->prep_dir = c->path;	/* for messages */
	t->dirfd = t->prep_dirfd = c->fd;
	/* Served by someone else: the payloads are theirs to choose. */
	t->noexec = c->served[0] ? c->served : NULL;
	t->fs = "";
	t->shmem = !fstatfs(c->fd, &sfs) && sfs.f_type == TMPFS_MAGIC;
	t->si = si;
	t->payload_dir = o->payload_dir;
	t->journal = j;
	t->cold_method = t->shmem ? "none (tmpfs: data lives in the cache)" :
				    "fadvise";
	t->recycle = evict_dir;
	t->priv = o->wd;
}

/* The files written, made cold; 0, or -errno with why. */
static int make_cold(const struct fsp_run_opts *o, struct fsp_target *t,
		     char *cold, size_t clen, char *why, size_t wlen)
{
	unsigned long left;
	const char *how;
	int ret;

	fsp_wd_begin(o->wd, "evict");
	ret = evict_all(t->dirfd, &left, &how);
	fsp_wd_end(o->wd);
	if (ret)
		snprintf(why, wlen, "making the files cold: %s",
			 strerror(-ret));
	else if (left)
		snprintf(cold, clen, "fadvise (incomplete: %lu pages stayed "
			 "cached)", left);
	else
		snprintf(cold, clen, "fadvise (%s: 0 pages left)", how);
	if (!ret)
		t->cold_method = cold;
	return ret;
}

void fsp_run_dir(const char *dir, const struct fsp_checkdir *c,
		 const struct fsp_run_opts *o, const struct fsp_sysinfo *si,
		 struct fsp_journal *j, struct fsp_res_profile *out)
{
	char why[512], cold[96];
	struct fsp_slot_lease l;
	struct fsp_target t;
	int ret;

	fsp_res_profile_init(out);
	out->shape = FSP_SHAPE_CHECK;
	out->has_probes = 0;	/* until the cases ran */
	out->name = strdup(dir);
	out->fs = strdup("(mounted)");
	out->mount_options = strdup("");
	check_target(&t, c, o, si, j);
	fsp_slot_lease_init(&l, j, NULL);	/* an instance of its own */
	t.trace = &l.handle;
	ret = prepare_cases(o, &t, why, sizeof(why), NULL);
	if (!ret && !t.shmem)
		ret = make_cold(o, &t, cold, sizeof(cold), why, sizeof(why));
	if (ret)
		fsp_res_set_verdict(out, FSP_V_ERROR, why);
	else
		run_cases(o, &l, &t, out, 0, dir, NULL);
	fsp_slot_lease_wait(&l);
}
