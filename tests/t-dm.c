// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-dm.c - the device-mapper ioctl buffers fsprobe/dm.c sends, checked
 * byte by byte against the layout of include/uapi/linux/dm-ioctl.h
 * written out by hand below (struct dm_ioctl: 312 bytes; a
 * dm_target_spec: 40, its params string padded to 8), with no kernel:
 * the host this runs on has no device-mapper. Also the names: a run's
 * devices are "fsprobe-RUNID-TAG", and cleanup refuses any other.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dm.h"
#include "tap.h"

/* The spec and params of a linear table of 131072 sectors over 7:3. */
static const unsigned char linear_spec[48] = {
	0, 0, 0, 0, 0, 0, 0, 0,				/* sector_start */
	0x00, 0x00, 0x02, 0, 0, 0, 0, 0,		/* length 131072 */
	0, 0, 0, 0,					/* status */
	48, 0, 0, 0,					/* next: 40 + 8 */
	'l', 'i', 'n', 'e', 'a', 'r', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	'7', ':', '3', ' ', '0', 0, 0, 0,		/* params, padded */
};

static uint32_t u32(const unsigned char *b, size_t off)
{
	uint32_t v;

	memcpy(&v, b + off, sizeof(v));
	return v;
}

static void test_header(void)
{
	unsigned char b[400];
	int n;

	memset(b, 0xaa, sizeof(b));
	n = fsp_dm_header_buf(b, 320, "fsprobe-r-p01", "fsprobe-r-p01", 0);
	tap_ok(n == 320, "header: the size asked for (%d)", n);
	tap_ok(u32(b, 0) == 4 && u32(b, 4) == 0 && u32(b, 8) == 0,
	       "version 4.0.0");
	tap_ok(u32(b, 12) == 320 && u32(b, 16) == 312,
	       "data_size 320, data_start 312 (sizeof struct dm_ioctl)");
	tap_ok(!strcmp((char *)b + 48, "fsprobe-r-p01") &&
	       !strcmp((char *)b + 176, "fsprobe-r-p01"),
	       "name at 48, uuid at 176");
	tap_ok(b[319] == 0 && b[320] == 0xaa, "zeroed to data_size, no further");
	n = fsp_dm_header_buf(b, sizeof(b), NULL, "fsprobe-x", 0);
	tap_ok(n > 0 && b[48] == 0 && !strcmp((char *)b + 176, "fsprobe-x"),
	       "by uuid only: the name is empty (the kernel wants one of them)");
	tap_ok(fsp_dm_header_buf(b, 100, "x", NULL, 0) == -EINVAL,
	       "a buffer smaller than the header is refused");
	memset(b + 200, 'n', 128);
	b[328] = 0;
	tap_ok(fsp_dm_header_buf(b, sizeof(b), (char *)b + 200, NULL, 0) ==
	       -ENAMETOOLONG, "a 128-byte name is refused (DM_NAME_LEN)");
}

static void test_table(void)
{
	unsigned char b[512];
	int n;

	n = fsp_dm_table_buf(b, sizeof(b), "fsprobe-r-p01", 131072, "linear",
			     "7:3 0");
	tap_ok(n == 360, "linear table: 312 + 40 + 8 bytes (%d)", n);
	tap_ok(u32(b, 12) == 360 && u32(b, 16) == 312 && u32(b, 20) == 1,
	       "data_size 360, data_start 312, target_count 1");
	tap_ok(!memcmp(b + 312, linear_spec, sizeof(linear_spec)),
	       "the target spec and its params, byte by byte");
	n = fsp_dm_table_buf(b, sizeof(b), "fsprobe-r-p01", 8, "error", "");
	tap_ok(n == 360 && !strcmp((char *)b + 312 + 24, "error") &&
	       b[352] == 0, "error target: empty params, one nul, padded");
	n = fsp_dm_table_buf(b, sizeof(b), "n", 8, "flakey",
			     "7:3 0 0 1 1 error_writes");
	tap_ok(n == 312 + 40 + 32 && u32(b, 312 + 20) == 72 &&
	       !strcmp((char *)b + 352, "7:3 0 0 1 1 error_writes"),
	       "flakey: 25-byte params padded to 32, next 72");
	tap_ok(fsp_dm_table_buf(b, 300, "n", 8, "linear", "7:3 0") == -ENOSPC,
	       "a table that does not fit is refused");
	tap_ok(fsp_dm_table_buf(b, sizeof(b), "n", 8, "a-type-name-of-16",
				"") == -ENAMETOOLONG,
	       "a target type of 16 bytes is refused (DM_MAX_TYPE_NAME)");
}

static void test_names(void)
{
	char name[FSP_DM_NAME_MAX], big[200];

	tap_ok(!fsp_dm_name(name, sizeof(name), "1733400000-42-00ab", "p03") &&
	       !strcmp(name, "fsprobe-1733400000-42-00ab-p03"),
	       "name: fsprobe-RUNID-TAG (%s)", name);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	tap_ok(fsp_dm_name(name, sizeof(name), big, "p") == -ENAMETOOLONG,
	       "a name past DM_NAME_LEN is refused");
	tap_ok(fsp_dm_remove_if_ours("vg0-root", "1-2-3") == -EPERM,
	       "cleanup refuses a device that is not fsprobe's");
	tap_ok(fsp_dm_remove_if_ours("fsprobe-9-9-9-p01", "1-2-3") == -EPERM,
	       "cleanup refuses another run's device");
	tap_ok(fsp_dm_remove_if_ours("fsprobe-1-2-3-p/../x", "1-2-3") ==
	       -EPERM, "cleanup refuses a name with a slash");
	tap_ok(fsp_dm_remove_if_ours("fsprobe-1-2-30-p01", "1-2-3") ==
	       -EPERM, "cleanup refuses a run id that only starts the same");
}

int main(void)
{
	test_header();
	test_table();
	test_names();
	return tap_done();
}
