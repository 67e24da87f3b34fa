/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nullb.h - zoned null_blk devices that fsprobe creates itself through
 * configfs (Documentation/block/null_blk.rst): a directory
 * CONFIGFS/nullb/NAME, its attributes (zoned, zone_size, zone_nr_conv,
 * size, blocksize, memory_backed), then power=1. The configfs item's
 * name is the disk's name, so the device is /dev/NAME. Names are
 * "fsprobe-" plus the run's id and the profile: a name is journalled
 * before the directory is made, and only a name of that shape is ever
 * removed. configfs is mounted by the caller, inside its run directory,
 * so the system's own configfs mount (if any) is never touched.
 * Functions return 0 or -errno and never print.
 */
#ifndef FSP_NULLB_H
#define FSP_NULLB_H

#include <limits.h>
#include <stddef.h>

struct fsp_journal;

#define FSP_NULLB_PREFIX "fsprobe-"
#define FSP_NULLB_NAME_MAX 32	/* the kernel's DISK_NAME_LEN */

/* What the zoned device is made of (null_blk's configfs attributes). */
struct fsp_nullb_conf {
	unsigned long size_mb;		/* whole device */
	unsigned long zone_size_mb;
	unsigned int nr_conv;		/* conventional zones, from zone 0 */
	unsigned int blocksize;
};

struct fsp_nullb {
	char name[FSP_NULLB_NAME_MAX];	/* configfs item and disk name */
	char cfs[PATH_MAX];		/* where configfs is mounted */
	char dev[64];			/* /dev/NAME */
	int created;			/* the configfs directory is ours */
};

/*
 * The device name of profile idx in run run_id ("STAMP-PID-HEX"): the
 * prefix, the id after its time stamp, the profile ("fsprobe-PID-HEX-N"),
 * short enough for a disk name.
 */
int fsp_nullb_name(char *buf, size_t len, const char *run_id, int idx);
/* 1 if name has the shape of a device run_id made (prefix, id, no '/'). */
int fsp_nullb_name_ours(const char *name, const char *run_id);
/*
 * Journal "nullb NAME CONFIGFS", make CONFIGFS/nullb/NAME, configure it
 * as c says, power it on and wait for /dev/NAME. On failure whatever was
 * made is removed again.
 */
int fsp_nullb_create(struct fsp_nullb *nb, const char *cfs, const char *name,
		     const struct fsp_nullb_conf *c, struct fsp_journal *j);
/* Power off and remove it; -ENOENT if it is already gone. */
int fsp_nullb_remove(struct fsp_nullb *nb);
/*
 * Remove CONFIGFS/nullb/NAME if run_id's (fsp_nullb_name_ours), else
 * -EPERM; 0 if removed, -ENOENT if there was none.
 */
int fsp_nullb_remove_name(const char *cfs, const char *name,
			  const char *run_id);
/* 1 if CONFIGFS/nullb/NAME or /sys/block/NAME still exists. */
int fsp_nullb_exists(const char *cfs, const char *name);

#endif
