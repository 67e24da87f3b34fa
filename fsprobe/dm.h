/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dm.h - device-mapper devices that fsprobe creates itself, through the
 * DM ioctl interface on /dev/mapper/control (include/uapi/linux/
 * dm-ioctl.h), no libdevmapper: one target over a whole loop device,
 * linear while the filesystem is made and its files written, swapped
 * for `error` or `flakey` to make the device fail. A device's name is
 * also its uuid, "fsprobe-RUNID-TAG", journalled before it exists;
 * removal goes by that uuid, so a device fsprobe did not name is never
 * touched. 0 or -errno everywhere; nothing prints.
 */
#ifndef FSP_DM_H
#define FSP_DM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct fsp_journal;

#define FSP_DM_PREFIX	"fsprobe-"
#define FSP_DM_NAME_MAX	128	/* DM_NAME_LEN, the nul included */

struct fsp_dm {
	char name[FSP_DM_NAME_MAX];	/* also its uuid */
	char dev[32];			/* /dev/dm-N */
	dev_t devno;
	dev_t base;			/* the device under it */
	uint64_t sectors;		/* of the base, 512-byte */
	int created;
};

/* 0 if /dev/mapper/control opens (dm-mod loaded), else -errno. */
int fsp_dm_available(void);
/* "fsprobe-RUNID-TAG" into buf; -ENAMETOOLONG past DM_NAME_LEN. */
int fsp_dm_name(char *buf, size_t len, const char *run_id, const char *tag);
/*
 * Create dm device name as a linear map of the whole block device base
 * (a path); j (may be NULL) gets "dm NAME BASE" first. On return
 * d->dev is its node, checked to be that device.
 */
int fsp_dm_create(struct fsp_dm *d, const char *name, const char *base,
		  struct fsp_journal *j);
/*
 * Replace the table by one target over the same sectors: type "error"
 * (params ignored), "flakey", "linear". Loaded, then resumed: the
 * kernel suspends the device in between (freezing a filesystem on it),
 * so I/O in flight completes under the old table.
 */
int fsp_dm_swap(struct fsp_dm *d, const char *type, const char *params);
/* The params of a target over d's base: "MAJ:MIN 0" + extra. */
int fsp_dm_params(const struct fsp_dm *d, const char *extra, char *buf,
		  size_t len);
/* Remove it (bounded retries on EBUSY); no-op if never created. */
int fsp_dm_remove(struct fsp_dm *d);
/*
 * For cleanup: remove the device whose uuid is name, if name is one a
 * run run_id makes (FSP_DM_PREFIX RUN_ID "-"). 1 removed, 0 not there,
 * -EPERM not a name of that run, other -errno failures.
 */
int fsp_dm_remove_if_ours(const char *name, const char *run_id);

/*
 * The ioctl buffers, exposed for tests on recorded bytes: a struct
 * dm_ioctl header (version 4.0.0, data_start after it) for name and/or
 * uuid (either may be NULL), of len bytes; fsp_dm_table_buf adds one
 * dm_target_spec and its params string. Both return the size used or
 * -errno.
 */
int fsp_dm_header_buf(void *buf, size_t len, const char *name,
		      const char *uuid, uint32_t flags);
int fsp_dm_table_buf(void *buf, size_t len, const char *name,
		     uint64_t sectors, const char *type, const char *params);

#endif
