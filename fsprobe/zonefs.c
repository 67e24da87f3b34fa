// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zonefs.c - the zonefs superblock and a formatter for a zoned device
 * whose zone 0 is conventional (zonefs.h). The layout and the checksum
 * follow the kernel's reader (fs/zonefs/super.c: crc32(~0, super) over
 * the 4 KiB with s_crc zero) and zonefs-tools' mkzonefs, which writes
 * the same defaults: no label, no features, a random uuid.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <unistd.h>
#include <linux/blkzoned.h>

#include "util.h"
#include "zonefs.h"

/* Field offsets of struct zonefs_super (fs/zonefs/zonefs.h). */
#define OFF_MAGIC	0
#define OFF_CRC		4
#define OFF_UUID	72	/* after the 64-byte label */

uint32_t fsp_zonefs_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	int i;

	while (len--) {
		crc ^= *p++;
		for (i = 0; i < 8; i++)
			crc = (crc >> 1) ^ ((crc & 1) ? 0xedb88320U : 0);
	}
	return crc;
}

void fsp_zonefs_super(unsigned char buf[FSP_ZONEFS_SUPER_SIZE],
		      const unsigned char uuid[16])
{
	uint32_t v;

	memset(buf, 0, FSP_ZONEFS_SUPER_SIZE);
	v = htole32(FSP_ZONEFS_MAGIC);
	memcpy(buf + OFF_MAGIC, &v, 4);
	memcpy(buf + OFF_UUID, uuid, 16);
	v = htole32(fsp_zonefs_crc32(~0U, buf, FSP_ZONEFS_SUPER_SIZE));
	memcpy(buf + OFF_CRC, &v, 4);
}

/* Zone 0 of the zoned device fd is conventional: 0, else -errno. */
static int zone0_conventional(int fd)
{
	struct {
		struct blk_zone_report rep;
		struct blk_zone zone;
	} r;
	unsigned int zsect = 0;

	if (ioctl(fd, BLKGETZONESZ, &zsect) || !zsect)
		return -ENOTBLK;	/* not a zoned block device */
	memset(&r, 0, sizeof(r));
	r.rep.sector = 0;
	r.rep.nr_zones = 1;
	if (ioctl(fd, BLKREPORTZONE, &r))
		return -errno;
	if (r.rep.nr_zones != 1)
		return -EIO;
	return r.zone.type == BLK_ZONE_TYPE_CONVENTIONAL ? 0 : -EOPNOTSUPP;
}

int fsp_zonefs_format(const char *dev)
{
	unsigned char uuid[16], *sb;
	int fd, ret;

	fd = open(dev, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = zone0_conventional(fd);
	if (!ret && getrandom(uuid, sizeof(uuid), 0) != sizeof(uuid))
		ret = -EIO;
	if (!ret && posix_memalign((void **)&sb, 4096, FSP_ZONEFS_SUPER_SIZE))
		ret = -ENOMEM;
	if (!ret) {
		uuid[6] = (uuid[6] & 0x0f) | 0x40;	/* version 4 */
		uuid[8] = (uuid[8] & 0x3f) | 0x80;
		fsp_zonefs_super(sb, uuid);
		ret = fsp_pwrite_all(fd, sb, FSP_ZONEFS_SUPER_SIZE, 0);
		free(sb);
	}
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}
