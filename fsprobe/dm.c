// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dm.c - our own device-mapper devices, by ioctl on /dev/mapper/control.
 * Every command is a struct dm_ioctl header naming the device, followed
 * (DM_TABLE_LOAD) by target specs with their parameter strings; the
 * kernel answers in the same buffer. A table is loaded into the inactive
 * slot and made live by a resume (DM_DEV_SUSPEND without
 * DM_SUSPEND_FLAG), which suspends the device first. The device gets its
 * name as its uuid too: removal goes by uuid, which only our create set.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "dm.h"
#include "journal.h"
#include "util.h"

#define DM_CONTROL	"/dev/" DM_DIR "/" DM_CONTROL_NODE
#define DM_BUSY_TRIES	20
#define DM_NODE_WAIT_MS	2000

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int fsp_dm_header_buf(void *buf, size_t len, const char *name,
		      const char *uuid, uint32_t flags)
{
	struct dm_ioctl *io = buf;

	if (len < sizeof(*io) || len > UINT32_MAX)
		return -EINVAL;
	if ((name && strlen(name) >= sizeof(io->name)) ||
	    (uuid && strlen(uuid) >= sizeof(io->uuid)))
		return -ENAMETOOLONG;
	memset(buf, 0, len);
	io->version[0] = DM_VERSION_MAJOR;	/* 4.0.0: all we use */
	io->data_size = len;
	io->data_start = sizeof(*io);
	io->flags = flags;
	if (name)
		strcpy(io->name, name);
	if (uuid)
		strcpy(io->uuid, uuid);
	return (int)len;
}

int fsp_dm_table_buf(void *buf, size_t len, const char *name,
		     uint64_t sectors, const char *type, const char *params)
{
	struct dm_target_spec *spec;
	struct dm_ioctl *io = buf;
	size_t plen = strlen(params) + 1;
	size_t spec_len = align8(sizeof(*spec) + plen);
	size_t need = sizeof(*io) + spec_len;
	int ret;

	if (strlen(type) >= sizeof(spec->target_type))
		return -ENAMETOOLONG;
	if (need > len)
		return -ENOSPC;
	ret = fsp_dm_header_buf(buf, need, name, NULL, 0);
	if (ret < 0)
		return ret;
	io->target_count = 1;
	spec = (struct dm_target_spec *)((char *)buf + io->data_start);
	spec->sector_start = 0;
	spec->length = sectors;
	spec->next = spec_len;	/* from this spec to the (absent) next */
	strcpy(spec->target_type, type);
	memcpy(spec + 1, params, plen);
	return (int)need;
}

/* One command on a fresh control descriptor; 0 or -errno. */
static int dm_cmd(unsigned long cmd, void *buf)
{
	int fd = open(DM_CONTROL, O_RDWR | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, cmd, buf))
		ret = -errno;
	close(fd);
	return ret;
}

int fsp_dm_available(void)
{
	int fd = open(DM_CONTROL, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int fsp_dm_name(char *buf, size_t len, const char *run_id, const char *tag)
{
	if (len > FSP_DM_NAME_MAX)
		len = FSP_DM_NAME_MAX;
	return fsp_fmt(buf, len, FSP_DM_PREFIX "%s-%s", run_id, tag);
}

int fsp_dm_params(const struct fsp_dm *d, const char *extra, char *buf,
		  size_t len)
{
	return fsp_fmt(buf, len, "%u:%u 0%s%s", major(d->base),
		       minor(d->base), extra && *extra ? " " : "",
		       extra ? extra : "");
}

/* Load a one-target table into the inactive slot, then resume. */
static int load_resume(const struct fsp_dm *d, const char *type,
		       const char *params)
{
	size_t len = sizeof(struct dm_ioctl) + 64 + strlen(params) + 8;
	void *buf = calloc(1, len);
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = fsp_dm_table_buf(buf, len, d->name, d->sectors, type, params);
	if (ret >= 0)
		ret = dm_cmd(DM_TABLE_LOAD, buf);
	if (!ret)
		ret = fsp_dm_header_buf(buf, len, d->name, NULL, 0);
	if (ret >= 0)
		ret = dm_cmd(DM_DEV_SUSPEND, buf);	/* no flag: resume */
	free(buf);
	return ret > 0 ? 0 : ret;
}

/* The base: a block device, and its size in sectors. */
static int base_device(struct fsp_dm *d, const char *base)
{
	uint64_t bytes;
	struct stat st;
	int fd, ret = 0;

	fd = open(base, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISBLK(st.st_mode))
		ret = -ENOTBLK;
	else if (ioctl(fd, BLKGETSIZE64, &bytes))
		ret = -errno;
	close(fd);
	if (ret)
		return ret;
	d->base = st.st_rdev;
	d->sectors = bytes >> 9;
	return d->sectors ? 0 : -EINVAL;
}

/*
 * devtmpfs names the disk dm-MINOR once the first table is live; no
 * udev is needed (a vm guest has none), only the node's device number
 * is trusted.
 */
static int find_node(struct fsp_dm *d)
{
	struct stat st;
	int waited;

	if (fsp_fmt(d->dev, sizeof(d->dev), "/dev/dm-%u", minor(d->devno)))
		return -ENAMETOOLONG;
	for (waited = 0; waited <= DM_NODE_WAIT_MS; waited += 20) {
		if (!stat(d->dev, &st))
			return S_ISBLK(st.st_mode) && st.st_rdev == d->devno ?
			       0 : -EPERM;
		if (errno != ENOENT)
			return -errno;
		pause_ms(20);
	}
	return -ENOENT;
}

static int dev_create(struct fsp_dm *d)
{
	struct dm_ioctl io;
	int ret;

	ret = fsp_dm_header_buf(&io, sizeof(io), d->name, d->name, 0);
	if (ret < 0)
		return ret;
	ret = dm_cmd(DM_DEV_CREATE, &io);
	if (ret)
		return ret;
	d->created = 1;
	d->devno = (dev_t)io.dev;
	return 0;
}

int fsp_dm_create(struct fsp_dm *d, const char *name, const char *base,
		  struct fsp_journal *j)
{
	char params[64];
	int ret;

	memset(d, 0, sizeof(*d));
	if (strchr(name, '/') || strncmp(name, FSP_DM_PREFIX,
					 strlen(FSP_DM_PREFIX)))
		return -EINVAL;
	ret = fsp_strcpy(d->name, sizeof(d->name), name);
	if (!ret)
		ret = base_device(d, base);
	if (!ret && j)
		ret = fsp_journal_add(j, "dm", d->name, base);
	if (!ret)
		ret = dev_create(d);
	if (!ret)
		ret = fsp_dm_params(d, NULL, params, sizeof(params));
	if (!ret)
		ret = load_resume(d, "linear", params);
	if (!ret)
		ret = find_node(d);
	if (ret && d->created)
		fsp_dm_remove(d);
	return ret;
}

int fsp_dm_swap(struct fsp_dm *d, const char *type, const char *params)
{
	if (!d->created)
		return -ENODEV;
	return load_resume(d, type, params ? params : "");
}

/* DM_DEV_REMOVE by uuid; a device still open is retried a while. */
static int remove_uuid(const char *uuid)
{
	struct dm_ioctl io;
	int ret, tries;

	for (tries = 0; tries < DM_BUSY_TRIES; tries++) {
		ret = fsp_dm_header_buf(&io, sizeof(io), NULL, uuid, 0);
		if (ret < 0)
			return ret;
		ret = dm_cmd(DM_DEV_REMOVE, &io);
		if (ret != -EBUSY)
			break;
		pause_ms(50);
	}
	return ret;
}

int fsp_dm_remove(struct fsp_dm *d)
{
	int ret;

	if (!d->created)
		return 0;
	ret = remove_uuid(d->name);
	if (ret == -ENXIO)
		ret = 0;	/* gone already */
	if (!ret)
		d->created = 0;
	return ret;
}

int fsp_dm_remove_if_ours(const char *name, const char *run_id)
{
	char prefix[FSP_DM_NAME_MAX];
	int ret;

	if (fsp_fmt(prefix, sizeof(prefix), FSP_DM_PREFIX "%s-", run_id) ||
	    strncmp(name, prefix, strlen(prefix)) || strchr(name, '/') ||
	    strlen(name) >= FSP_DM_NAME_MAX)
		return -EPERM;
	if (fsp_dm_available())
		return 0;	/* no device-mapper now: none of ours left */
	ret = remove_uuid(name);
	if (ret == -ENXIO)
		return 0;
	return ret ? ret : 1;
}
