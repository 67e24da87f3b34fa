// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kmsg.c - which kernel log splats count for a profile (fsprobe/
 * kmsg.c): the device a filesystem's message names in its prefix, on
 * lines in the formats of the kernels fsprobe runs on (xfs, ext4, btrfs,
 * f2fs, zonefs on a null_blk disk named by its configfs item), and that
 * a line naming another profile's device is not ours while one naming no
 * device is everyone's. The zonefs line is the one Debian's 6.1 guest
 * logged beside xfs-reflink0, which it made `error` before.
 */
#include <string.h>

#include "tap.h"
#include "kmsg.h"
#include "util.h"

static const struct {
	const char *msg, *dev;	/* dev NULL: names none */
} lines[] = {
	{ "XFS (loop3): Mounting V5 Filesystem", "loop3" },
	{ "EXT4-fs error (device dm-0): ext4_find_entry:1458: inode #2", "dm-0" },
	{ "EXT4-fs (loop0): mounted filesystem with ordered data mode", "loop0" },
	{ "BTRFS info (device loop12): first mount of filesystem", "loop12" },
	{ "F2FS-fs (loop2): Mounted with checkpoint version = 1", "loop2" },
	{ "zonefs (fsprobe-222-c312-38) WARNING: Corrupted write pointer 262144 for zone at 262144",
	  "fsprobe-222-c312-38" },
	{ "WARNING: CPU: 1 PID: 222 at mm/filemap.c:1547 folio_unlock+0x3c/0x40", NULL },
	{ "BUG: kernel NULL pointer dereference, address: 0000000000000008", NULL },
	{ "Oops: 0000 [#1] PREEMPT SMP NOPTI", NULL },
	{ "page dumped because: VM_BUG_ON_FOLIO(!folio_test_locked(folio))", NULL },
	{ "a b c d (loop3): four words before the device", NULL },
	{ "XFS (loop3 is mounted", NULL },
	{ "XFS (): empty", NULL },
};

int main(void)
{
	static const char *const xfs_ours[] = { "loop3", NULL };
	static const char *const zonefs_ours[] = { "fsprobe-222-c312-38",
						   "nullb0", NULL };
	char dev[64];
	size_t i;
	int got;

	for (i = 0; i < FSP_ARRAY_SIZE(lines); i++) {
		got = fsp_kmsg_device(lines[i].msg, dev, sizeof(dev));
		tap_ok(lines[i].dev ? got && !strcmp(dev, lines[i].dev) : !got,
		       "'%.40s': %s (got %s)", lines[i].msg,
		       lines[i].dev ?: "no device", got ? dev : "none");
	}
	tap_ok(!fsp_kmsg_about_ours(lines[5].msg, xfs_ours),
	       "zonefs's warning is not xfs-reflink0's (loop3)");
	tap_ok(fsp_kmsg_about_ours(lines[5].msg, zonefs_ours),
	       "zonefs's warning is the zonefs profile's");
	tap_ok(fsp_kmsg_about_ours(lines[0].msg, xfs_ours),
	       "XFS (loop3) is the profile on loop3's");
	tap_ok(fsp_kmsg_about_ours(lines[6].msg, xfs_ours) &&
	       fsp_kmsg_about_ours(lines[6].msg, zonefs_ours),
	       "a WARNING naming no device is every profile's");
	tap_ok(fsp_kmsg_about_ours(lines[3].msg, NULL),
	       "no list of ours: every line counts");
	tap_ok(!fsp_kmsg_device("BTRFS info (device loop1234567890123456789012345678901234567890123456789012345678901234567890): x",
				dev, 16), "a name longer than the buffer is none");
	return tap_done();
}
