// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-sparse.c - fsp_punch_unwritten() on a real file in the build
 * directory: an fallocate'd (unwritten) range gives its blocks back,
 * a page written over it but not yet written back is kept (FIEMAP
 * still calls it unwritten there: only SEEK_DATA sees it), the size is
 * unchanged, and the data is still there after fsync and a dropped
 * cache. A file with no unwritten extent is left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sparse.h"
#include "tap.h"

#define SIZE (8L << 20)
#define DIRTY_OFF (1L << 20)
#define PAGE 4096

static long blocks_kb(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_blocks / 2;
}

/* Whole file: DIRTY_OFF..+PAGE is 0xa5, every other byte zero. */
static int content_ok(int fd, long *bad)
{
	static unsigned char buf[1 << 20];
	long pos, i;

	for (pos = 0; pos < SIZE; pos += sizeof(buf)) {
		if (pread(fd, buf, sizeof(buf), pos) != (ssize_t)sizeof(buf))
			return *bad = pos, 0;
		for (i = 0; i < (long)sizeof(buf); i++) {
			long at = pos + i;
			int want = at >= DIRTY_OFF && at < DIRTY_OFF + PAGE ?
				   0xa5 : 0;

			if (buf[i] != want)
				return *bad = at, 0;
		}
	}
	return 1;
}

int main(void)
{
	char path[] = "./t-sparse.XXXXXX";
	unsigned char page[PAGE];
	long long punched = -1;
	long before, after, bad = -1;
	struct stat st;
	int fd, ret, ok;

	fd = mkstemp(path);
	if (fd < 0)
		tap_skip_all("no temporary file in the build directory");
	unlink(path);
	if (fallocate(fd, 0, 0, SIZE))
		tap_skip_all("the build directory's filesystem has no "
			     "fallocate (unwritten extents)");
	memset(page, 0xa5, sizeof(page));
	if (pwrite(fd, page, PAGE, DIRTY_OFF) != PAGE)
		tap_skip_all("cannot write the test file");
	before = blocks_kb(fd);
	ret = fsp_punch_unwritten(fd, &punched);
	if (ret == -EOPNOTSUPP)
		tap_skip_all("the build directory's filesystem has no FIEMAP "
			     "or no hole punching");
	TAP_EQ_LONG(ret, 0, "fsp_punch_unwritten() on an fallocate'd file");
	after = blocks_kb(fd);
	tap_ok(before >= SIZE / 1024 && after <= 256,
	       "its blocks are given back (%ld kB before, %ld kB after)",
	       before, after);
	tap_ok(punched >= SIZE - 256 * 1024 && punched <= SIZE - PAGE,
	       "punched everything but the written page (%lld bytes)",
	       punched);
	if (fstat(fd, &st))
		st.st_size = -1;
	tap_ok(st.st_size == SIZE,
	       "the size is unchanged (%lld)", (long long)st.st_size);
	fsync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	ok = content_ok(fd, &bad);
	tap_ok(ok, "written page kept, the rest reads as zeros (first bad %ld)",
	       bad);
	punched = -1;
	ret = fsp_punch_unwritten(fd, &punched);
	tap_ok(ret == 0 && punched == 0,
	       "a file with no unwritten extent is left alone (ret %d, "
	       "%lld bytes)", ret, punched);
	tap_ok(blocks_kb(fd) == after, "and keeps its blocks (%ld kB)",
	       blocks_kb(fd));
	close(fd);
	return tap_done();
}
