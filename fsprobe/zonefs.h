/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zonefs.h - format a zoned block device as zonefs, as `mkzonefs -f`
 * does with its defaults, for systems without zonefs-tools (Debian
 * bookworm has none; sid's needs a newer libc). The format is one 4 KiB
 * superblock at sector 0 (the kernel's fs/zonefs/zonefs.h, struct
 * zonefs_super): magic, CRC32, label, uuid, features, uid, gid, perm.
 * Only a device whose zone 0 is conventional is accepted: the
 * superblock is then an ordinary write, and no zone needs finishing.
 */
#ifndef FSP_ZONEFS_H
#define FSP_ZONEFS_H

#include <stddef.h>
#include <stdint.h>

#define FSP_ZONEFS_MAGIC	0x5a4f4653	/* "ZOFS", linux/magic.h */
#define FSP_ZONEFS_SUPER_SIZE	4096

/*
 * The superblock for uuid (16 bytes), defaults otherwise (no label, no
 * features: uid 0, gid 0, files 0640), its CRC set, into buf.
 */
void fsp_zonefs_super(unsigned char buf[FSP_ZONEFS_SUPER_SIZE],
		      const unsigned char uuid[16]);
/* CRC32 as the kernel's crc32() computes it (reflected, no final xor). */
uint32_t fsp_zonefs_crc32(uint32_t crc, const void *buf, size_t len);
/*
 * Write the superblock to dev, a zoned device whose zone 0 is
 * conventional; -ENOTBLK / -EOPNOTSUPP for any other device.
 */
int fsp_zonefs_format(const char *dev);

#endif
