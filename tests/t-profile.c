// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-profile.c - the profile parser: good files parse into the right
 * fields; every kind of bad file is rejected with the right line number
 * and a message that names the problem. Also loads every shipped profile
 * and checks the kind (device, memory, image, overlay) the parser gave it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "tap.h"

struct bad {
	const char *text;
	int line;
	const char *msg;	/* substring of the message */
};

static const struct bad bad[] = {
	{ "fs = ext4\nfoo = bar\n", 2, "unknown key 'foo'" },
	{ "fs = ext4\nfs = xfs\n", 2, "duplicate key 'fs'" },
	{ "mkfs = mkfs.ext4\n", 0, "missing required key 'fs'" },
	{ "fs = ext4\nsize = 12x\n", 2, "not a number" },
	{ "fs = ext4\nsize = 4\n", 2, "out of range" },
	{ "fs = ext4\nsize = 99999999999999999999\n", 2, "not a number" },
	{ "fs = ext4\n\n# c\njust words\n", 4, "expected 'key = value'" },
	{ "fs = ext4\nmkfs = mkfs.ext4 \"-F\n", 2, "unterminated quote" },
	{ "fs = ext4\nmkfs = mkfs.ext4 /dev/sda\n", 2, "names a device" },
	{ "fs = ext4\nmount_options = loop\n", 2, "'loop' is not allowed" },
	{ "fs = ext4\nmount_options = a b\n", 2, "must not contain blanks" },
	{ "fs = ext 4\n", 1, "bad filesystem type" },
	{ "fs = overlay\n", 0, "needs a 'lower'" },
	{ "fs = ext4\nlower = xfs\n", 0, "only for fs = overlay" },
	{ "fs = overlay\nlower = squashfs\n", 0, "writable lower fs" },
	{ "fs = ext4\nmatrix = big\n", 2, "default or extended" },
	{ "fs = overlay\nlower = tmpfs\nmkfs = mkfs.ext4\n", 0, "has no mkfs" },
	{ "fs = ext4\nmount_options = journal_path=/dev/sdb\n", 2,
	  "names a device" },
	/* Found by fuzz-profile: other spellings of a /dev path. */
	{ "fs = ext4\nmount_options = hu,/dev/er\n", 2, "names a device" },
	{ "fs = ext4\nmount_options = journal_path=//dev/sdb\n", 2,
	  "names a device" },
	{ "fs = btrfs\nmkfs = mkfs.btrfs -f /./dev/sda\n", 2,
	  "names a device" },
	/* device = KIND: a known kind, only for a block fs made by mkfs. */
	{ "fs = zonefs\nmkfs = mkzonefs\ndevice = nvme\n", 3,
	  "device 'nvme': loop or null_blk-zoned" },
	{ "fs = zonefs\nmkfs = mkzonefs\ndevice = null_blk-zoned\n"
	  "device = loop\n", 4, "duplicate key 'device'" },
	{ "fs = tmpfs\ndevice = null_blk-zoned\n", 0,
	  "for a block filesystem made by mkfs" },
	{ "fs = zonefs\ndevice = null_blk-zoned\n", 0,
	  "for a block filesystem made by mkfs" },
	{ "fs = squashfs\nmkfs = mksquashfs {src} {image}\n"
	  "device = null_blk-zoned\n", 0, "for a block filesystem" },
	{ "fs = zonefs\nmkfs = mkzonefs\ndevice = \"null_blk-zoned\"\n", 3,
	  "device '\"null_blk-zoned\"'" },
	/* And a leak: words before a bad one were not freed (LSan). */
	{ "fs = ext4\nmkfs = mkfs.ext4 -F \"-q\n", 2, "unterminated quote" },
};

static void test_good(void)
{
	const char *text = "# comment\n"
		"description = A test profile\n"
		"fs = ext4\n"
		"  mkfs = mkfs.ext4 -F  -q \"-E lazy_itable_init=1\"\n"
		"mount_options = data=ordered,noatime\n"
		"size = 300\n"
		"requires = mkfs.ext4 CONFIG_EXT4_FS\n"
		"matrix = extended\n";
	struct fsp_profile_error err;
	struct fsp_profile p;
	int ret;

	ret = fsp_profile_parse_text("t", text, strlen(text), &p, &err);
	TAP_EQ_LONG(ret, 0, "good profile parses");
	TAP_EQ_STR(p.fs, "ext4", "fs");
	TAP_EQ_LONG(p.extended, 1, "matrix = extended");
	TAP_EQ_LONG(p.nr_mkfs, 4, "mkfs word count");
	TAP_EQ_STR(p.mkfs[3], "-E lazy_itable_init=1", "quoted word kept whole");
	TAP_EQ_STR(p.mount_options, "data=ordered,noatime", "mount_options");
	TAP_EQ_LONG(p.size_mb, 300, "size");
	TAP_EQ_LONG(p.nr_requires, 2, "requires count");
	TAP_EQ_STR(p.description, "A test profile", "description");
	fsp_profile_free(&p);
}

static void test_bad(void)
{
	struct fsp_profile_error err;
	struct fsp_profile p;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = fsp_profile_parse_text("t", bad[i].text,
						 strlen(bad[i].text), &p, &err);

		tap_ok(ret == -EINVAL && err.line == bad[i].line &&
		       strstr(err.msg, bad[i].msg),
		       "bad profile %zu rejected at line %d with '%s' "
		       "(got %d, line %d, '%s')", i, bad[i].line, bad[i].msg,
		       ret, err.line, err.msg);
	}
}

static void test_binary_and_long(void)
{
	struct fsp_profile_error err;
	struct fsp_profile p;
	static char big[4096];
	const char bin[] = "fs = ext4\n\0\x01\x02";
	int ret;

	ret = fsp_profile_parse_text("t", bin, sizeof(bin), &p, &err);
	tap_ok(ret == -EINVAL && strstr(err.msg, "NUL"),
	       "binary garbage rejected (%s)", err.msg);
	memset(big, 'a', sizeof(big) - 1);
	memcpy(big, "fs = ", 5);
	ret = fsp_profile_parse_text("t", big, strlen(big), &p, &err);
	tap_ok(ret == -EINVAL && err.line == 1 && strstr(err.msg, "longer"),
	       "huge line rejected at line 1 (%s)", err.msg);
}

#define DEV FSP_PROFILE_DEVICE
/* Every shipped profile and its kind: a new one must be added here. */
static const struct {
	const char *name;
	enum fsp_profile_kind kind;
} shipped[] = {
	{ "btrfs-default", DEV }, { "btrfs-nodatacow", DEV },
	{ "btrfs-zstd", DEV }, { "erofs", FSP_PROFILE_IMAGE },
	{ "ext2", DEV }, { "ext3", DEV }, { "ext4-1k", DEV },
	{ "ext4-bigalloc", DEV }, { "ext4-data-journal", DEV },
	{ "ext4-default", DEV }, { "ext4-noextent", DEV },
	{ "ext4-nojournal", DEV }, { "overlay-xfs", FSP_PROFILE_OVERLAY },
	{ "squashfs", FSP_PROFILE_IMAGE },
	{ "tmpfs-huge-advise", FSP_PROFILE_MEMORY },
	{ "tmpfs-huge-always", FSP_PROFILE_MEMORY },
	{ "tmpfs-huge-never", FSP_PROFILE_MEMORY },
	{ "tmpfs-huge-within_size", FSP_PROFILE_MEMORY },
	{ "xfs-1k", DEV }, { "xfs-default", DEV }, { "xfs-nocrc", DEV },
	{ "xfs-reflink0", DEV },
	/* Issue 21: the filesystems a distribution kernel ships. */
	{ "erofs-lz4", FSP_PROFILE_IMAGE }, { "erofs-lz4hc", FSP_PROFILE_IMAGE },
	{ "exfat", DEV }, { "ext4-casefold", DEV }, { "ext4-inline-data", DEV },
	{ "f2fs-compress", DEV }, { "f2fs-default", DEV }, { "gfs2", DEV },
	{ "hfs", DEV }, { "hfsplus", DEV }, { "jfs", DEV }, { "minix", DEV },
	{ "nilfs2", DEV }, { "ntfs3", DEV }, { "ocfs2", DEV },
	{ "overlay-ext4", FSP_PROFILE_OVERLAY },
	{ "overlay-tmpfs", FSP_PROFILE_OVERLAY }, { "ramfs", FSP_PROFILE_MEMORY },
	{ "squashfs-zstd", FSP_PROFILE_IMAGE }, { "udf", DEV }, { "vfat", DEV },
	{ "xfs-16k", DEV }, { "xfs-64k", DEV }, { "ntfs", DEV },
	{ "iso9660", FSP_PROFILE_IMAGE }, { "romfs", FSP_PROFILE_IMAGE },
	{ "zonefs", DEV },
};

static void test_kinds(const struct fsp_profile *all, int nr)
{
	size_t j;
	int i, known = 0;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < sizeof(shipped) / sizeof(shipped[0]); j++)
			if (!strcmp(all[i].name, shipped[j].name))
				break;
		if (j == sizeof(shipped) / sizeof(shipped[0])) {
			tap_ok(0, "%s: not in t-profile's table of kinds",
			       all[i].name);
			continue;
		}
		known++;
		tap_ok(all[i].kind == shipped[j].kind, "%s (fs = %s) is "
		       "%s (want %s)", all[i].name, all[i].fs,
		       fsp_profile_kind_name(all[i].kind),
		       fsp_profile_kind_name(shipped[j].kind));
	}
	TAP_EQ_LONG(known, (long)(sizeof(shipped) / sizeof(shipped[0])),
		    "every profile of the table is shipped");
}

/* The device key: its default, its values, fixed files from fs. */
static void test_device(void)
{
	static const char zoned[] = "fs = zonefs\n"
		"mkfs = mkzonefs -f\n"
		"device =   null_blk-zoned  \n";
	static const char plain[] = "fs = xfs\nmkfs = mkfs.xfs\n";
	static const char loop[] = "fs = xfs\nmkfs = mkfs.xfs\ndevice = loop\n";
	struct fsp_profile_error err;
	struct fsp_profile p;
	int ret;

	ret = fsp_profile_parse_text("z", zoned, strlen(zoned), &p, &err);
	tap_ok(!ret && p.device == FSP_DEVICE_NULLB_ZONED &&
	       p.kind == FSP_PROFILE_DEVICE && p.fixed_files,
	       "device = null_blk-zoned: a zoned null_blk, fixed files "
	       "(ret %d: %s)", ret, err.msg);
	fsp_profile_free(&p);
	ret = fsp_profile_parse_text("x", plain, strlen(plain), &p, &err);
	tap_ok(!ret && p.device == FSP_DEVICE_LOOP && !p.fixed_files,
	       "no device key: a loop device, files made freely");
	fsp_profile_free(&p);
	ret = fsp_profile_parse_text("l", loop, strlen(loop), &p, &err);
	tap_ok(!ret && p.device == FSP_DEVICE_LOOP, "device = loop");
	fsp_profile_free(&p);
	tap_ok(!strcmp(fsp_device_kind_name(FSP_DEVICE_NULLB_ZONED),
		       "null_blk-zoned") &&
	       !strcmp(fsp_device_kind_name(FSP_DEVICE_LOOP), "loop"),
	       "device kind names are the key's values");
}

/* Kinds the shipped profiles do not cover, from the parser itself. */
static void test_kind_texts(void)
{
	static const struct {
		const char *text;
		enum fsp_profile_kind kind;
	} t[] = {
		{ "fs = ramfs\n", FSP_PROFILE_MEMORY },
		{ "fs = tmpfs\n", FSP_PROFILE_MEMORY },
		{ "fs = erofs\n", FSP_PROFILE_IMAGE },
		{ "fs = overlay\nlower = ext4\n", FSP_PROFILE_OVERLAY },
		{ "fs = overlay\nlower = tmpfs\n", FSP_PROFILE_OVERLAY },
		{ "fs = f2fs\n", FSP_PROFILE_DEVICE },
		{ "fs = tmpfs2\n", FSP_PROFILE_DEVICE },
	};
	struct fsp_profile_error err;
	struct fsp_profile p;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ret = fsp_profile_parse_text("k", t[i].text, strlen(t[i].text),
					     &p, &err);
		tap_ok(!ret && p.kind == t[i].kind, "fs = %s: kind %s",
		       ret ? "?" : p.fs, ret ? err.msg :
		       fsp_profile_kind_name(p.kind));
		if (!ret)
			fsp_profile_free(&p);
	}
	ret = fsp_profile_parse_text("k", "fs = overlay\nlower = tmpfs\n", 27,
				     &p, &err);
	tap_ok(!ret && p.lower_kind == FSP_PROFILE_MEMORY,
	       "overlay on tmpfs: its lower layer is memory");
	if (!ret)
		fsp_profile_free(&p);
	tap_ok(!strcmp(fsp_profile_kind_name(FSP_PROFILE_OVERLAY), "overlay")
	       && !strcmp(fsp_profile_kind_name(99), "?"), "kind names");
}

static void test_shipped(const char *dir)
{
	struct fsp_profile_error err;
	struct fsp_profile *all;
	char errpath[4096] = "";
	int nr = 0, ret, i, found = 0;

	ret = fsp_profile_load_dir(dir, &all, &nr, errpath, sizeof(errpath),
				   &err);
	tap_ok(ret == 0, "every shipped profile in %s parses (%s:%d %s)", dir,
	       errpath, err.line, err.msg);
	if (ret)
		return;
	tap_ok(nr >= 17, "at least 17 shipped profiles (%d)", nr);
	for (i = 0; i < nr; i++)
		found += !strcmp(all[i].name, "xfs-default") &&
			 !strcmp(all[i].fs, "xfs");
	tap_ok(found == 1, "xfs-default is there with fs = xfs");
	for (i = 1; i < nr; i++)
		if (strcmp(all[i - 1].name, all[i].name) >= 0)
			break;
	tap_ok(i == nr, "profiles sorted by name");
	test_kinds(all, nr);
	fsp_profile_free_all(all, nr);
}

static void test_file_errors(const char *datadir)
{
	struct fsp_profile_error err;
	struct fsp_profile p;
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/profiles/bad-line3.conf", datadir);
	ret = fsp_profile_load(path, &p, &err);
	tap_ok(ret == -EINVAL && err.line == 3, "file error carries line 3 "
	       "(%d, %s)", err.line, err.msg);
	ret = fsp_profile_load("/nonexistent/x.conf", &p, &err);
	TAP_EQ_LONG(ret, -ENOENT, "missing file is -ENOENT");
}

/* fstests local.config sections (tests/data/local.config). */
static void test_fstests(const char *datadir)
{
	static const char *const bad_texts[][3] = {
		{ "[a]\nFSTYP=xfs\njunk\n", "3", "not KEY=value" },
		{ "[a]\nFSTYP=\"xfs\n", "2", "unterminated" },
		{ "[a\nFSTYP=xfs\n", "1", "bad section header" },
		{ "[a]\nFSTYP=`echo xfs`\n", "2", "shell expansion" },
		{ "[a]\nFSTYP=xfs\nMKFS_OPTIONS=/dev/sda\n", "1",
		  "names a device" },
	};
	struct fsp_profile p;
	struct fsp_profile_error err;
	char path[4096];
	size_t i;
	int ret;

	snprintf(path, sizeof(path), "%s/local.config", datadir);
	ret = fsp_profile_load_fstests(path, "xfs_4k", &p, &err);
	TAP_EQ_LONG(ret, 0, "fstests [xfs_4k] loads");
	TAP_EQ_STR(p.name, "fstests-xfs_4k", "its name");
	TAP_EQ_STR(p.fs, "xfs", "FSTYP=xfs");
	tap_ok(p.nr_mkfs == 5 && !strcmp(p.mkfs[0], "mkfs.xfs") &&
	       !strcmp(p.mkfs[1], "-f") && !strcmp(p.mkfs[4], "size=4096"),
	       "mkfs.xfs -f -q -b size=4096 (%d words)", p.nr_mkfs);
	TAP_EQ_STR(p.mount_options, "", "MOUNT_OPTIONS=\"\"");
	tap_ok(strstr(p.description, "never touched") != NULL,
	       "the description says its devices are never touched");
	tap_ok(p.kind == FSP_PROFILE_DEVICE, "a device profile");
	fsp_profile_free(&p);

	ret = fsp_profile_load_fstests(path, "ext4_1k", &p, &err);
	TAP_EQ_LONG(ret, 0, "fstests [ext4_1k] loads (export, quotes, "
		    "comment)");
	tap_ok(!strcmp(p.fs, "ext4") && p.nr_mkfs == 5 &&
	       !strcmp(p.mkfs[1], "-F") && !strcmp(p.mkfs[4], "1024"),
	       "mkfs.ext4 -F -q -b 1024");
	TAP_EQ_STR(p.mount_options, "noatime,nodiratime",
		   "MOUNT_OPTIONS \"-o noatime -onodiratime\" as options");
	fsp_profile_free(&p);

	ret = fsp_profile_load_fstests(path, NULL, &p, &err);
	tap_ok(!ret && !strcmp(p.fs, "xfs"), "no section: the first one");
	fsp_profile_free(&p);

	ret = fsp_profile_load_fstests(path, "bad", &p, &err);
	tap_ok(ret == -EINVAL && err.line == 20 &&
	       strstr(err.msg, "shell expansion"),
	       "[bad]: $EXTRA refused at line 20 (%d: %s)", err.line,
	       err.msg);
	ret = fsp_profile_load_fstests(path, "nope", &p, &err);
	tap_ok(ret == -EINVAL && strstr(err.msg, "no section [nope]"),
	       "a missing section is named (%s)", err.msg);
	ret = fsp_profile_parse_fstests("t", "[a]\nMKFS_OPTIONS=-q\n", 20,
					"a", &p, &err);
	tap_ok(ret == -EINVAL && err.line == 1 && strstr(err.msg, "FSTYP"),
	       "a section without FSTYP (%d: %s)", err.line, err.msg);
	for (i = 0; i < sizeof(bad_texts) / sizeof(bad_texts[0]); i++) {
		ret = fsp_profile_parse_fstests("t", bad_texts[i][0],
						strlen(bad_texts[i][0]), "a",
						&p, &err);
		tap_ok(ret == -EINVAL && err.line == atoi(bad_texts[i][1]) &&
		       strstr(err.msg, bad_texts[i][2]),
		       "fstests bad %zu: line %d, '%s'", i, err.line, err.msg);
	}
	ret = fsp_profile_load_fstests("/nonexistent/local.config", NULL,
				       &p, &err);
	TAP_EQ_LONG(ret, -ENOENT, "missing local.config is -ENOENT");
}

int main(void)
{
	const char *src = getenv("srcdir") ? getenv("srcdir") : ".";
	char dir[4096], data[4096];

	snprintf(dir, sizeof(dir), "%s/mkfs-profiles", src);
	snprintf(data, sizeof(data), "%s/tests/data", src);
	test_good();
	test_bad();
	test_binary_and_long();
	test_kind_texts();
	test_device();
	test_shipped(dir);
	test_file_errors(data);
	test_fstests(data);
	return tap_done();
}
