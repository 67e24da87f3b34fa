// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r-loop.c - root test of fsp_loop_reset() on a real loop device, the
 * reset every profile of a worker slot starts with: the device's cache
 * is dropped and the image emptied and resized (old bytes read as
 * zeroes, the image has no blocks, the device has the new size); while
 * someone holds the device exclusively, as a mount does, it refuses
 * with EBUSY and changes nothing; and it never truncates a file that
 * does not back the device. Skips unless root with /dev/loop-control.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filedata.h"
#include "loop.h"
#include "tap.h"
#include "util.h"

#define MIB (1UL << 20)

/* The first len bytes of the device, through its page cache. */
static int read_dev(const struct fsp_loop *lo, char *buf, size_t len)
{
	return pread(lo->fd, buf, len, 0) == (ssize_t)len ? 0 : -EIO;
}

/* A new sparse file of size bytes. */
static int make_file(const char *path, off_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int ret = fd < 0 || ftruncate(fd, size) ? -errno : 0;

	if (fd >= 0)
		close(fd);
	return ret;
}

static long long size_of_dev(const struct fsp_loop *lo)
{
	unsigned long long sz = 0;

	return ioctl(lo->fd, BLKGETSIZE64, &sz) ? -1 : (long long)sz;
}

static void test_busy(struct fsp_loop *lo, char *buf)
{
	uint64_t bad = 0;
	int ex, ret;

	fsp_pattern_fill(buf, 0, MIB, 3);
	ret = pwrite(lo->fd, buf, MIB, 0) == (ssize_t)MIB &&
	      !fsync(lo->fd) ? 0 : -EIO;
	TAP_EQ_LONG(ret, 0, "pattern written to the device");
	ex = open(lo->dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	tap_ok(ex >= 0, "device held exclusively, as a mount holds it (%s)",
	       ex < 0 ? strerror(errno) : "ok");
	ret = fsp_loop_reset(lo, 16 * MIB);
	TAP_EQ_LONG(ret, -EBUSY, "reset of a claimed device: EBUSY");
	if (ex >= 0)
		close(ex);
	memset(buf, 0, MIB);
	ret = read_dev(lo, buf, MIB);
	tap_ok(!ret && !fsp_pattern_check(buf, 0, MIB, 3, &bad),
	       "and the device still has its bytes (first bad %llu)",
	       (unsigned long long)bad);
	TAP_EQ_LONG(size_of_dev(lo), (long long)(8 * MIB),
		    "and its size (8 MiB)");
}

int main(void)
{
	char dir[] = "/tmp/fsprobe-r-loop.XXXXXX", img[64], other[64];
	struct fsp_loop lo, fake;
	char *buf = malloc(MIB);
	struct stat st;
	size_t zb = 0;
	int ret;

	if (geteuid())
		tap_skip_all("needs root (loop devices)");
	if (access("/dev/loop-control", W_OK))
		tap_skip_all("no /dev/loop-control");
	if (!buf || !mkdtemp(dir)) {
		tap_ok(0, "temp dir: %m");
		return tap_done();
	}
	snprintf(img, sizeof(img), "%s/image", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
	ret = make_file(img, 8 * MIB);
	if (!ret)
		ret = fsp_loop_attach(&lo, img, false, NULL);
	TAP_EQ_LONG(ret, 0, "8 MiB image attached");
	if (ret) {
		rmdir(dir);
		return tap_done();
	}
	test_busy(&lo, buf);

	/* Unclaimed: the reset goes through. */
	ret = fsp_loop_reset(&lo, 16 * MIB);
	TAP_EQ_LONG(ret, 0, "reset of an unclaimed device");
	TAP_EQ_LONG(size_of_dev(&lo), (long long)(16 * MIB),
		    "device resized to 16 MiB");
	ret = read_dev(&lo, buf, MIB);
	tap_ok(!ret && !fsp_zero_check(buf, MIB, &zb), "its old bytes read "
	       "as zeroes now: cache dropped, image emptied (first non-zero "
	       "%zu)", zb);
	tap_ok(!stat(img, &st) && st.st_blocks == 0 &&
	       st.st_size == (off_t)(16 * MIB), "image is 16 MiB with no "
	       "blocks (%lld blocks)", (long long)st.st_blocks);

	/* A file that does not back the device is never touched. */
	ret = make_file(other, 4 * MIB);
	fake = lo;
	snprintf(fake.image, sizeof(fake.image), "%s", other);
	ret = ret ? ret : fsp_loop_reset(&fake, MIB);
	tap_ok(ret == -EPERM, "reset naming another file: refused (%d)", ret);
	tap_ok(!stat(other, &st) && st.st_size == (off_t)(4 * MIB),
	       "and that file keeps its size");

	TAP_EQ_LONG(fsp_loop_detach(&lo), 0, "detached");
	unlink(other);
	unlink(img);
	rmdir(dir);
	free(buf);
	return tap_done();
}
