// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-profile.c - the profile parser: good files parse into the right
 * fields; every kind of bad file is rejected with the right line number
 * and a message that names the problem. Also loads every shipped profile
 * and checks the kind (device, memory, image, overlay, fuse) the parser
 * gave it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsattr.h"
#include "profile.h"
#include "util.h"
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
	{ "fs = ext4\nlower = xfs\n", 0, "only for fs = overlay or nfs4" },
	{ "fs = nfs4\n", 0, "nfs4 profile needs a 'lower'" },
	{ "fs = nfs4\nlower = erofs\n", 0, "nfs4 needs a writable lower" },
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
	/* attributes: known words, each once, on a device fs. */
	{ "fs = ext4\nattributes = encrypted\n", 2,
	  "attribute 'encrypted': one of encrypt, compress, immutable, verity" },
	{ "fs = ext4\nattributes = verity immutable verity\n", 2,
	  "attribute 'verity' given twice" },
	{ "fs = ext4\nattributes =\n", 2, "attributes: no value" },
	{ "fs = ext4\nattributes = \"encrypt\n", 2, "unterminated quote" },
	{ "fs = ext4\nattributes = a b c d e f\n", 2, "too many words" },
	{ "fs = tmpfs\nattributes = immutable\n", 0,
	  "attributes need a filesystem made by mkfs on a device (this one "
	  "is memory)" },
	{ "fs = squashfs\nmkfs = mksquashfs {src} {image}\n"
	  "attributes = verity\n", 0, "(this one is image)" },
	{ "fs = overlay\nlower = ext4\nattributes = encrypt\n", 0,
	  "(this one is overlay)" },
	{ "fs = ext4\nattributes = encrypt\nattributes = verity\n", 3,
	  "duplicate key 'attributes'" },
	/* fuse: a server we start, in the foreground, on our image. */
	{ "fs = fuse.x\nmkfs = m {image}\n", 0, "needs a 'server'" },
	{ "fs = ext4\nserver = s -f {mnt}\n", 0, "only for fs = fuse." },
	{ "fs = fuse.x\nmkfs = m {image}\nserver = s {image} {mnt}\n", 0,
	  "foreground (-f)" },
	{ "fs = fuse.x\nmkfs = m {image}\nserver = s -f {image}\n", 0,
	  "as the word {mnt}" },
	{ "fs = fuse.x\nmkfs = m {image}\nserver = s -f {src} {mnt}\n", 0,
	  "{image} and {mnt} only" },
	{ "fs = fuse.x\nmkfs = m {dev}\nserver = s -f {mnt}\n", 0,
	  "must make {image}" },
	{ "fs = fuse.x\nserver = s -f {mnt}\n", 0, "must make {image}" },
	{ "fs = fuse.x\nmkfs = m {image}\nserver = s -f {mnt}\n"
	  "mount_options = ro\n", 0, "belong in 'server'" },
	{ "fs = fuse.x\nmkfs = m {image}\nserver = s -f {mnt} /dev/fuse\n",
	  3, "names a device" },
	{ "fs = fuse.x\nserver = s -f {mnt}\nserver = t -f {mnt}\n", 3,
	  "duplicate key 'server'" },
	{ "fs = fuse-x\n", 1, "bad filesystem type" },
	{ "fs = overlay\nlower = fuse.x\n", 0, "writable lower fs" },
	/* device_fault: one of three words, device filesystems only. */
	{ "fs = ext4\ndevice_fault = reads\n", 2, "read, write or all" },
	{ "fs = ext4\ndevice_fault =\n", 2, "read, write or all" },
	{ "fs = ext4\ndevice_fault = all\ndevice_fault = all\n", 3,
	  "duplicate key 'device_fault'" },
	{ "fs = tmpfs\ndevice_fault = all\n", 0, "not memory" },
	{ "fs = squashfs\nmkfs = mksquashfs {src} {image}\n"
	  "device_fault = read\n", 0, "not image" },
	{ "fs = overlay\nlower = xfs\ndevice_fault = write\n", 0,
	  "not overlay" },
	{ "fs = zonefs\nmkfs = mkzonefs\ndevice = null_blk-zoned\n"
	  "device_fault = all\n", 0, "not with device = null_blk-zoned" },
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
	/* requires names tools, never paths a profile chose (issue 30). */
	{ "fs = ext4\nrequires = /tmp/x/prog:word\n", 2,
	  "requires '/tmp/x/prog:word': name a tool (TOOL or TOOL:WORD), "
	  "not a path" },
	{ "fs = ext4\nrequires = ./prog\n", 2, "not a path" },
	{ "fs = ext4\nrequires = bin/prog:x\n", 2, "not a path" },
	{ "fs = ext4\nrequires = prog:../x\n", 2, "not a path" },
	{ "fs = ext4\nrequires = prog:\n", 2, "not a path" },
	/* Commands act in the run directory only: no paths, no `..`. */
	{ "fs = ext4\nmkfs = truncate -s 0 dev/fakedisk\n", 2,
	  "'dev/fakedisk' is a relative path: profile commands act only in "
	  "the run directory" },
	{ "fs = ext4\nmkfs = mkfs.ext4 -F ../img\n", 2, "is a relative path" },
	{ "fs = ext4\nmkfs = mkfs.ext4 -d ..\n", 2, "'..' is a relative path" },
	{ "fs = ext4\nmkfs = mkfs.ext4 -d /x/../y\n", 2, "is a relative path" },
	{ "fs = ext4\nmkfs = ./mkfs.ext4\n", 2, "'./mkfs.ext4' is a relative" },
	{ "fs = ext4\nmkfs = bin/mkfs.ext4\n", 2, "is a relative path" },
	{ "fs = ext4\nmkfs = mkfs.ext4 -E root_owner=0:0,x=a/b\n", 2,
	  "is a relative path" },
	{ "fs = fuse.x\nmkfs = m {image}\nserver = s -f {mnt} -o ../l\n", 3,
	  "is a relative path" },
	/* Mount options with which libmount makes a loop device itself. */
	{ "fs = ext4\nmount_options = offset=0\n", 2,
	  "mount option 'offset' is not allowed: it makes libmount set up a "
	  "loop device" },
	{ "fs = ext4\nmount_options = noatime,loop=/x\n", 2,
	  "'loop' is not allowed" },
	{ "fs = ext4\nmount_options = ro,sizelimit=4096\n", 2,
	  "'sizelimit' is not allowed" },
	{ "fs = ext4\nmount_options = encryption=aes\n", 2,
	  "'encryption' is not allowed" },
	{ "fs = ext4\nmount_options = noatime,loop\n", 2,
	  "'loop' is not allowed" },
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

	/* A program by absolute path, tool:word names, options near loop. */
	text = "fs = fuse.x\nmkfs = m -O ^a,b=c,d=/abs /srv/f {image}\n"
	       "server = /usr/lib/x/srv -f {mnt}\n"
	       "requires = mkfs.erofs:lzma fuse2fs CONFIG_FUSE_FS\n";
	ret = fsp_profile_parse_text("t", text, strlen(text), &p, &err);
	TAP_EQ_LONG(ret, 0, "absolute server, TOOL:WORD requires: parses");
	fsp_profile_free(&p);
	text = "fs = ext4\nmount_options = noloopx,x-offset=1,nosizelimit\n";
	ret = fsp_profile_parse_text("t", text, strlen(text), &p, &err);
	TAP_EQ_LONG(ret, 0, "options merely spelt like loop ones: parse");
	fsp_profile_free(&p);
}

static void test_attributes(void)
{
	static const char text[] = "fs = f2fs\nmkfs = mkfs.f2fs\n"
		"attributes =  verity \"compress\"   encrypt immutable\n";
	struct fsp_profile_error err;
	struct fsp_profile p;
	int ret, i;

	ret = fsp_profile_parse_text("t", text, strlen(text), &p, &err);
	TAP_EQ_LONG(ret, 0, "all four attributes parse");
	TAP_EQ_LONG(p.attrs, FSP_ATTR_ENCRYPT | FSP_ATTR_COMPRESS |
		    FSP_ATTR_IMMUTABLE | FSP_ATTR_VERITY, "attribute bits");
	fsp_profile_free(&p);
	ret = fsp_profile_parse_text("t", "fs = ext4\n", 10, &p, &err);
	TAP_EQ_LONG(ret || p.attrs, 0, "no attributes key: none");
	fsp_profile_free(&p);
	for (i = 0; i < FSP_NR_ATTRS; i++)
		tap_ok(fsp_attr_from_name(fsp_attr_name(i)) == 1 << i &&
		       strstr(fsp_attr_names(), fsp_attr_name(i)),
		       "attribute %s: name and bit agree, listed in the "
		       "error text", fsp_attr_name(i));
	TAP_EQ_LONG(fsp_attr_from_name("Encrypt"), -EINVAL,
		    "attribute names are case-sensitive");
	TAP_EQ_LONG(FSP_ATTR_ON_DIR & FSP_ATTR_ON_FILES, 0,
		    "an attribute is on the directory or on the files");
	TAP_EQ_LONG(FSP_ATTR_ON_DIR | FSP_ATTR_ON_FILES,
		    (1 << FSP_NR_ATTRS) - 1, "every attribute has a stage");
}

static void test_attr_shipped(const struct fsp_profile *all, int nr)
{
	static const struct { const char *name; unsigned int attrs; } want[] = {
		{ "ext4-encrypt", FSP_ATTR_ENCRYPT },
		{ "ext4-verity", FSP_ATTR_VERITY },
		{ "f2fs-immutable", FSP_ATTR_IMMUTABLE },
		{ "f2fs-compress-attr", FSP_ATTR_COMPRESS },
		{ "ext4-default", 0 },
	};
	size_t w;
	int i;

	for (w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		for (i = 0; i < nr; i++)
			if (!strcmp(all[i].name, want[w].name))
				break;
		tap_ok(i < nr && all[i].attrs == want[w].attrs &&
		       (!want[w].attrs || all[i].extended),
		       "shipped %s: attributes 0x%x%s", want[w].name,
		       want[w].attrs, want[w].attrs ? ", matrix = extended" :
		       "");
	}
}

/* fuse: the server's words, the kind, staged when mkfs reads {src}. */
static void test_fuse(void)
{
	const char *rw = "fs = fuse.ext4\n"
		"mkfs = mkfs.ext4 -F -q {image}\n"
		"server = fuse2fs {image} {mnt} -f -o fakeroot\n";
	const char *ro = "fs = fuse.gvfsd-fuse\n"
		"mkfs = mksquashfs {src} {image}\n"
		"server = squashfuse -f {image} {mnt}\n";
	struct fsp_profile_error err;
	struct fsp_profile p;
	int ret;

	ret = fsp_profile_parse_text("t", rw, strlen(rw), &p, &err);
	TAP_EQ_LONG(ret, 0, "fuse profile parses");
	TAP_EQ_LONG(p.kind, FSP_PROFILE_FUSE, "fs = fuse.ext4: kind fuse");
	TAP_EQ_LONG(p.nr_server, 6, "server word count");
	TAP_EQ_STR(p.server[0], "fuse2fs", "server[0]: the binary");
	TAP_EQ_STR(p.server[2], "{mnt}", "placeholders kept as words");
	TAP_EQ_LONG(p.staged, 0, "mkfs on {image}: not staged (writable)");
	fsp_profile_free(&p);
	TAP_EQ_LONG(p.nr_server, 0, "free clears the server words");
	ret = fsp_profile_parse_text("t", ro, strlen(ro), &p, &err);
	TAP_EQ_LONG(ret, 0, "fuse profile with a '-' in its subtype parses");
	TAP_EQ_LONG(p.staged, 1, "mkfs reads {src}: staged (read-only)");
	fsp_profile_free(&p);
	TAP_EQ_STR(fsp_profile_kind_name(FSP_PROFILE_FUSE), "fuse",
		   "kind name fuse");
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

/* device_fault's values, its absence, and the shipped faulty profiles. */
static void test_device_fault(const char *dir)
{
	static const struct {
		const char *text;
		enum fsp_device_fault f;
		const char *name;
	} t[] = {
		{ "fs = ext4\n", FSP_FAULT_NONE, "none" },
		{ "fs = ext4\ndevice_fault = read\n", FSP_FAULT_READ, "read" },
		{ "fs = xfs\ndevice_fault  =  write \n", FSP_FAULT_WRITE,
		  "write" },
		{ "fs = btrfs\ndevice_fault = all\n", FSP_FAULT_ALL, "all" },
	};
	static const struct {
		const char *file;
		enum fsp_device_fault f;
	} shipped_faults[] = {
		{ "ext4-dm-error.conf", FSP_FAULT_ALL },
		{ "ext4-dm-flakey-read.conf", FSP_FAULT_READ },
		{ "ext4-dm-flakey-write.conf", FSP_FAULT_WRITE },
		{ "ext4-default.conf", FSP_FAULT_NONE },
	};
	struct fsp_profile_error err;
	struct fsp_profile p;
	char path[4096];
	size_t i;
	int ret;

	for (i = 0; i < FSP_ARRAY_SIZE(t); i++) {
		ret = fsp_profile_parse_text("f", t[i].text, strlen(t[i].text),
					     &p, &err);
		tap_ok(!ret && p.device_fault == t[i].f &&
		       !strcmp(fsp_device_fault_name(p.device_fault),
			       t[i].name),
		       "device_fault %s parses (%s)", t[i].name, err.msg);
		if (!ret)
			fsp_profile_free(&p);
	}
	for (i = 0; i < FSP_ARRAY_SIZE(shipped_faults); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 shipped_faults[i].file);
		ret = fsp_profile_load(path, &p, &err);
		tap_ok(!ret && p.device_fault == shipped_faults[i].f &&
		       (p.device_fault == FSP_FAULT_NONE || p.extended),
		       "%s: device_fault %s%s", shipped_faults[i].file,
		       fsp_device_fault_name(shipped_faults[i].f),
		       shipped_faults[i].f ? ", only with -p (extended)" : "");
		if (!ret)
			fsp_profile_free(&p);
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
	{ "erofs-lzma", FSP_PROFILE_IMAGE }, { "erofs-zstd", FSP_PROFILE_IMAGE },
	{ "exfat", DEV }, { "ext4-casefold", DEV }, { "ext4-inline-data", DEV },
	{ "f2fs-compress", DEV }, { "f2fs-default", DEV }, { "gfs2", DEV },
	{ "hfs", DEV }, { "hfsplus", DEV }, { "jfs", DEV }, { "minix", DEV },
	{ "nilfs2", DEV }, { "ntfs3", DEV }, { "ocfs2", DEV },
	{ "overlay-ext4", FSP_PROFILE_OVERLAY },
	{ "overlay-tmpfs", FSP_PROFILE_OVERLAY }, { "ramfs", FSP_PROFILE_MEMORY },
	{ "squashfs-zstd", FSP_PROFILE_IMAGE }, { "udf", DEV }, { "vfat", DEV },
	{ "xfs-16k", DEV }, { "xfs-64k", DEV }, { "ntfs", DEV },
	{ "ext4-16k", DEV }, { "nfs", FSP_PROFILE_NFS }, { "bcachefs", DEV },
	{ "iso9660", FSP_PROFILE_IMAGE }, { "romfs", FSP_PROFILE_IMAGE },
	/* Issue 21 item 2: attributes set on the probe files. */
	{ "ext4-encrypt", DEV }, { "ext4-verity", DEV },
	{ "f2fs-immutable", DEV }, { "f2fs-compress-attr", DEV },
	{ "fuse2fs", FSP_PROFILE_FUSE }, { "squashfuse", FSP_PROFILE_FUSE },
	{ "erofsfuse", FSP_PROFILE_FUSE },
	/* Issue 18: devices that fail (device_fault). */
	{ "ext4-dm-error", DEV }, { "ext4-dm-flakey-read", DEV },
	{ "ext4-dm-flakey-write", DEV },
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
		{ "fs = nfs4\nlower = ext4\n", FSP_PROFILE_NFS },
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
	test_attr_shipped(all, nr);
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

/*
 * A config's file or section name is never profile text: a newline in
 * it could add keys (`requires`, `mkfs`) to the profile made of it.
 */
static void test_fstests_names(void)
{
	static const char *const files[] = {
		"x\nrequires = evil\n#", "x\rok", "x\x7f",
	};
	const char *text = "[a]\nFSTYP=ext4\n";
	struct fsp_profile_error err;
	struct fsp_profile p;
	size_t i;
	int ret;

	for (i = 0; i < FSP_ARRAY_SIZE(files); i++) {
		ret = fsp_profile_parse_fstests(files[i], text, strlen(text),
						"a", &p, &err);
		tap_ok(ret == -EINVAL && p.nr_requires == 0 &&
		       strstr(err.msg, "file name has a control character"),
		       "fstests file name %zu with a control character: "
		       "refused (%d: %s)", i, ret, err.msg);
		if (!ret)
			fsp_profile_free(&p);
	}
	ret = fsp_profile_parse_fstests("t", text, strlen(text),
					"a\nrequires = evil", &p, &err);
	tap_ok(ret == -EINVAL && strstr(err.msg, "section name has a control"),
	       "fstests section name with a newline: refused (%s)", err.msg);
	if (!ret)
		fsp_profile_free(&p);
	ret = fsp_profile_parse_fstests("dir/my config", text, strlen(text),
					"a", &p, &err);
	tap_ok(!ret && strstr(p.description, "fstests dir/my config [a]"),
	       "a printable name is kept in the description (%s)",
	       ret ? err.msg : p.description);
	if (!ret)
		fsp_profile_free(&p);
}

int main(void)
{
	const char *src = getenv("srcdir") ? getenv("srcdir") : ".";
	char dir[4096], data[4096];

	snprintf(dir, sizeof(dir), "%s/mkfs-profiles", src);
	snprintf(data, sizeof(data), "%s/tests/data", src);
	test_good();
	test_fuse();
	test_bad();
	test_attributes();
	test_binary_and_long();
	test_device_fault(dir);
	test_kind_texts();
	test_device();
	test_shipped(dir);
	test_file_errors(data);
	test_fstests(data);
	test_fstests_names();
	return tap_done();
}
