/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsenv.h - the filesystem a profile is probed on: its image, our loop
 * device, mkfs, the mount (and for overlay the lower filesystem under
 * it; for fuse the server that mounts it), the umount/mount cycle that
 * makes our files cold, and teardown.
 */
#ifndef FSP_FSENV_H
#define FSP_FSENV_H

#include "attrs.h"
#include "case.h"
#include "fuse.h"
#include "nfsd.h"
#include "dm.h"
#include "journal.h"
#include "knob.h"
#include "loop.h"
#include "nullb.h"
#include "profile.h"

struct fsp_fsenv {
	const struct fsp_profile *prof;
	struct fsp_journal *j;
	char dir[4096];		/* this profile's state directory */
	char image[4096];
	char mnt[4096];
	char stage[4096];
	char lower[4096];	/* overlay, nfs: where the lower fs is mounted */
	char read_ahead[128];	/* our loop device's queue/read_ahead_kb */
	int idx;		/* the profile's number in the run */
	struct fsp_loop loop;
	struct fsp_nullb nullb;	/* device = null_blk-zoned */
	struct fsp_nullb_conf nullb_conf;
	char cfs[4096];		/* our configfs mount, for nullb */
	int cfs_mounted;
	int nullb_left;		/* after teardown: 1 if it still exists */
	int mkfs_builtin;	/* formatted by fsprobe, not the tool */
	const struct fsp_loop *lent;	/* the worker slot's device, or NULL */
	int reused;		/* loop is the slot's: not ours to detach */
	int lent_err;		/* why the slot's device could not be used */
	struct fsp_knobs knobs;	/* our loop device's write_cache */
	struct fsp_fuse fuse;	/* fuse: the server serving mnt */
	int server_log;		/* fuse: its stdout and stderr, or -1 */
	int server_starts;	/* fuse: how many times it was started */
	struct fsp_nfsd nfsd;	/* nfs4: our server, exporting lower */
	char nfsctl[4096];	/* nfs4: our mount of nfsd's control fs */
	int nfsctl_mounted;
	struct fsp_dm dm;	/* device_fault: dm device over the loop */
	int fault_armed;	/* its table made to fail */
	int mounted, lower_mounted;
	int readonly;
	long long t_attach, t_mkfs, t_mount, t_umount, t_detach;
	long long files_kb;	/* what prepare() wrote, for bench/run */
	long long mkfs_disk_kb;	/* the image's disk use right after mkfs */
	long long mkfs_punched_kb; /* zeroed ranges of it made holes */
	struct fsp_wd_slot *wd;	/* the watchdog's slot (watchdog.h) */
	struct fsp_attrs attrs;	/* the profile's attributes (attrs.h) */
	char err[2048];
};

/* Create the filesystem; on return it is mounted (or e->err says why). */
int fsp_fsenv_setup(struct fsp_fsenv *e, unsigned long size_mb);
/* The block device the filesystem is on, or NULL (memory, image). */
const char *fsp_fsenv_device(const struct fsp_fsenv *e);
/* The profile's mkfs tool is missing but fsprobe can do its work. */
int fsp_fsenv_mkfs_builtin(const char *tool);
/* Evict our files: umount/mount of our own filesystem (t->priv is e). */
int fsp_fsenv_recycle(const struct fsp_target *t);
/*
 * The moments a profile's device_fault may start: after the first mount
 * (write: the files cannot be written back) and after the cold cycle's
 * mount (read, all: the probes' cold reads fail). Swaps the dm table if
 * the fault starts at when; 0, or -errno with e->err set.
 */
enum fsp_fault_when { FSP_FAULT_AT_PREPARE, FSP_FAULT_AT_PROBES };
int fsp_fsenv_fault(struct fsp_fsenv *e, enum fsp_fault_when when);
/* Unmount and detach; safe to call in any state. */
void fsp_fsenv_teardown(struct fsp_fsenv *e);

#endif
