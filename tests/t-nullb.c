// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-nullb.c - what keeps a zoned null_blk device and a zonefs format
 * honest without a kernel that has either: the device names a run makes
 * and the only names its unwind removes (a run's own, nothing else),
 * and the zonefs superblock fsprobe writes where mkzonefs is missing:
 * its layout and CRC as the kernel's reader (fs/zonefs/super.c) checks
 * them.
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nullb.h"
#include "tap.h"
#include "zonefs.h"

#define RUN "1764936000-4242-0a1b"

static void test_names(void)
{
	static const struct {
		const char *name;
		int ours;
	} t[] = {
		{ "fsprobe-4242-0a1b-0", 1 },
		{ "fsprobe-4242-0a1b-17", 1 },
		{ "fsprobe-4242-0a1b-", 0 },		/* no profile */
		{ "fsprobe-4242-0a1b-1x", 0 },
		{ "fsprobe-4242-0a1c-0", 0 },		/* another run */
		{ "fsprobe-4242-0a1b0", 0 },
		{ "nullb0", 0 },			/* null_blk's own */
		{ "fsprobe-4242-0a1b-0/../x", 0 },
		{ "xfsprobe-4242-0a1b-0", 0 },
	};
	char name[FSP_NULLB_NAME_MAX];
	size_t i;
	int ret;

	ret = fsp_nullb_name(name, sizeof(name), RUN, 3);
	tap_ok(!ret && !strcmp(name, "fsprobe-4242-0a1b-3"),
	       "device name: prefix, run id without its time, profile (%s)",
	       name);
	tap_ok(fsp_nullb_name_ours(name, RUN), "a name made is ours");
	tap_ok(!fsp_nullb_name(name, sizeof(name),
			       "1764936000-4194303-ffff", 63) &&
	       strlen(name) < FSP_NULLB_NAME_MAX,
	       "the longest name fits a disk name (%s)", name);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		tap_ok(fsp_nullb_name_ours(t[i].name, RUN) == t[i].ours,
		       "'%s' is %s", t[i].name, t[i].ours ? "ours" :
		       "not ours: never removed");
	tap_ok(fsp_nullb_remove_name("/nonexistent", "nullb0", RUN) == -EPERM,
	       "removing a name not ours is refused before any syscall");
}

static uint32_t le32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static void test_super(void)
{
	static const unsigned char uuid[16] = {
		1, 2, 3, 4, 5, 6, 0x47, 8, 0x89, 10, 11, 12, 13, 14, 15, 16,
	};
	unsigned char sb[FSP_ZONEFS_SUPER_SIZE];
	uint32_t crc;
	size_t i;
	int zero = 1;

	/* crc32_le(~0, "123456789") is the inverse of the check value. */
	tap_ok(fsp_zonefs_crc32(~0U, "123456789", 9) == ~0xcbf43926U,
	       "CRC32 as the kernel's crc32(): reflected, no final xor");
	fsp_zonefs_super(sb, uuid);
	tap_ok(le32_at(sb) == FSP_ZONEFS_MAGIC && !memcmp(sb, "SFOZ", 4),
	       "magic 0x5a4f4653 little-endian at 0");
	tap_ok(!memcmp(sb + 72, uuid, 16), "uuid at 72, after the label");
	for (i = 8; i < 72; i++)
		zero &= !sb[i];
	for (i = 88; i < sizeof(sb); i++)
		zero &= !sb[i];
	tap_ok(zero, "label, features, uid, gid, perm, reserved: zero");
	crc = le32_at(sb + 4);
	memset(sb + 4, 0, 4);
	tap_ok(crc == fsp_zonefs_crc32(~0U, sb, sizeof(sb)),
	       "s_crc is the CRC of the block with s_crc zero (%08x)", crc);
}

int main(void)
{
	test_names();
	test_super();
	return tap_done();
}
