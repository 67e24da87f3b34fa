// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nullb.c - zoned null_blk devices through configfs (nullb.h). Each
 * attribute is one write(2) of a decimal number; power=1 last makes the
 * disk. The name is journalled before the directory exists, so that a
 * SIGKILL between the two leaves a line for nothing (skipped) rather
 * than a device nobody knows about.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "nullb.h"
#include "util.h"

#define DEV_WAIT_MS 2000

/* The run id without its leading time stamp: "PID-HEX". */
static const char *id_tail(const char *run_id)
{
	const char *dash = strchr(run_id, '-');

	return dash ? dash + 1 : run_id;
}

int fsp_nullb_name(char *buf, size_t len, const char *run_id, int idx)
{
	if (len > FSP_NULLB_NAME_MAX)
		len = FSP_NULLB_NAME_MAX;
	return fsp_fmt(buf, len, FSP_NULLB_PREFIX "%s-%d", id_tail(run_id),
		       idx);
}

int fsp_nullb_name_ours(const char *name, const char *run_id)
{
	size_t pl = strlen(FSP_NULLB_PREFIX), tl;
	const char *tail = id_tail(run_id), *p;

	tl = strlen(tail);
	if (strncmp(name, FSP_NULLB_PREFIX, pl) || strchr(name, '/') ||
	    strlen(name) >= FSP_NULLB_NAME_MAX || !tl ||
	    strncmp(name + pl, tail, tl) || name[pl + tl] != '-')
		return 0;
	/* What follows is the profile's number, and nothing else. */
	p = name + pl + tl + 1;
	if (!*p)
		return 0;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

static int item_path(char *buf, size_t len, const char *cfs,
		     const char *name, const char *attr)
{
	return attr ? fsp_fmt(buf, len, "%s/nullb/%s/%s", cfs, name, attr) :
		      fsp_fmt(buf, len, "%s/nullb/%s", cfs, name);
}

static int set_attr(const struct fsp_nullb *nb, const char *attr,
		    unsigned long val)
{
	char path[PATH_MAX], num[32];
	int ret = item_path(path, sizeof(path), nb->cfs, nb->name, attr);

	if (ret)
		return ret;
	snprintf(num, sizeof(num), "%lu", val);
	return fsp_write_text(path, num);
}

/* The attributes, in an order null_blk accepts; power=1 is the last. */
static int configure(const struct fsp_nullb *nb, const struct fsp_nullb_conf *c)
{
	const struct { const char *attr; unsigned long val; } a[] = {
		{ "blocksize", c->blocksize },
		{ "size", c->size_mb },
		{ "memory_backed", 1 },
		{ "zoned", 1 },
		{ "zone_size", c->zone_size_mb },
		{ "zone_nr_conv", c->nr_conv },
		{ "power", 1 },
	};
	size_t i;
	int ret;

	for (i = 0; i < FSP_ARRAY_SIZE(a); i++) {
		ret = set_attr(nb, a[i].attr, a[i].val);
		if (ret)
			return ret;
	}
	return 0;
}

/* devtmpfs makes the node as the disk is added; wait for it briefly. */
static int wait_dev(const char *dev)
{
	struct timespec ts = { 0, 10 * 1000000L };
	struct stat st;
	int i;

	for (i = 0; i < DEV_WAIT_MS / 10; i++) {
		if (!stat(dev, &st))
			return S_ISBLK(st.st_mode) ? 0 : -ENOTBLK;
		nanosleep(&ts, NULL);
	}
	return -ENODEV;
}

int fsp_nullb_create(struct fsp_nullb *nb, const char *cfs, const char *name,
		     const struct fsp_nullb_conf *c, struct fsp_journal *j)
{
	char path[PATH_MAX];
	int ret;

	memset(nb, 0, sizeof(*nb));
	if (strncmp(name, FSP_NULLB_PREFIX, strlen(FSP_NULLB_PREFIX)) ||
	    strchr(name, '/') || !c->zone_size_mb ||
	    c->size_mb % c->zone_size_mb)
		return -EINVAL;
	ret = fsp_strcpy(nb->name, sizeof(nb->name), name);
	if (!ret)
		ret = fsp_strcpy(nb->cfs, sizeof(nb->cfs), cfs);
	if (!ret)
		ret = fsp_fmt(nb->dev, sizeof(nb->dev), "/dev/%s", name);
	if (!ret)
		ret = item_path(path, sizeof(path), cfs, name, NULL);
	if (ret)
		return ret;
	if (j) {
		ret = fsp_journal_add(j, "nullb", name, cfs);
		if (ret)
			return ret;
	}
	if (mkdir(path, 0755))
		return errno == ENOENT ? -ENODEV : -errno; /* no null_blk */
	nb->created = 1;
	ret = configure(nb, c);
	if (!ret)
		ret = wait_dev(nb->dev);
	if (ret)
		fsp_nullb_remove(nb);
	return ret;
}

int fsp_nullb_remove(struct fsp_nullb *nb)
{
	char path[PATH_MAX];
	int ret;

	if (!nb->created)
		return -ENOENT;
	ret = item_path(path, sizeof(path), nb->cfs, nb->name, NULL);
	if (ret)
		return ret;
	/* rmdir of a powered item deletes its disk first. */
	if (rmdir(path))
		return -errno;
	nb->created = 0;
	return 0;
}

int fsp_nullb_remove_name(const char *cfs, const char *name,
			  const char *run_id)
{
	struct fsp_nullb nb;

	if (!fsp_nullb_name_ours(name, run_id))
		return -EPERM;
	memset(&nb, 0, sizeof(nb));
	if (fsp_strcpy(nb.name, sizeof(nb.name), name) ||
	    fsp_strcpy(nb.cfs, sizeof(nb.cfs), cfs))
		return -ENAMETOOLONG;
	nb.created = 1;
	return fsp_nullb_remove(&nb);
}

int fsp_nullb_exists(const char *cfs, const char *name)
{
	char path[PATH_MAX];

	if (!item_path(path, sizeof(path), cfs, name, NULL) &&
	    !access(path, F_OK))
		return 1;
	return !fsp_fmt(path, sizeof(path), "/sys/block/%s", name) &&
	       !access(path, F_OK);
}
