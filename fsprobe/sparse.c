// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sparse.c - unwritten extents of our own image back into holes (see
 * sparse.h). FIEMAP without FIEMAP_FLAG_SYNC: a sync would write the
 * whole image back to the host disk, which a throwaway image does not
 * need. Instead each unwritten extent is walked with SEEK_DATA and
 * SEEK_HOLE, which on ext4, xfs and btrfs report page cache folios over
 * unwritten extents as data, and only what is still a hole there is
 * punched.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sparse.h"

#define EXTENTS 32

/* Punch the holes SEEK_DATA finds inside [pos, end). */
static int punch_range(int fd, off_t pos, off_t end, long long *punched)
{
	while (pos < end) {
		off_t data = lseek(fd, pos, SEEK_DATA);

		if (data < 0 && errno != ENXIO)
			return -errno;
		if (data < 0 || data > end)
			data = end;
		if (data > pos) {
			if (fallocate(fd, FALLOC_FL_PUNCH_HOLE |
				      FALLOC_FL_KEEP_SIZE, pos, data - pos))
				return -errno;
			*punched += data - pos;
		}
		if (data >= end)
			break;
		pos = lseek(fd, data, SEEK_HOLE);
		if (pos < 0)
			return -errno;
	}
	return 0;
}

int fsp_punch_unwritten(int fd, long long *punched)
{
	struct fiemap *fm;
	long long sum = 0;
	__u64 start = 0;
	int ret = 0, last = 0;
	unsigned int i;

	fm = calloc(1, sizeof(*fm) + EXTENTS * sizeof(fm->fm_extents[0]));
	if (!fm)
		return -ENOMEM;
	while (!last && !ret) {
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = 0;
		fm->fm_extent_count = EXTENTS;
		if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
			ret = errno == ENOTTY ? -EOPNOTSUPP : -errno;
			break;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents && !ret; i++) {
			struct fiemap_extent *x = &fm->fm_extents[i];

			start = x->fe_logical + x->fe_length;
			last = !!(x->fe_flags & FIEMAP_EXTENT_LAST);
			if ((x->fe_flags & FIEMAP_EXTENT_UNWRITTEN) &&
			    !(x->fe_flags & FIEMAP_EXTENT_DELALLOC))
				ret = punch_range(fd, (off_t)x->fe_logical,
						  (off_t)start, &sum);
		}
	}
	free(fm);
	if (punched)
		*punched = sum;
	return ret;
}
