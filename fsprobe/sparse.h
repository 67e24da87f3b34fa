/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sparse.h - give back the disk space of zeroed-but-allocated ranges of
 * a file of our own. mkfs zeroes its log or journal with
 * fallocate(FALLOC_FL_ZERO_RANGE) on the loop device, which the loop
 * driver passes to the image as ZERO_RANGE: unwritten extents that read
 * as zeros and still hold real blocks (64 MiB for a default xfs log).
 * A hole reads as the same zeros, so punching them changes nothing the
 * filesystem inside the image can see.
 */
#ifndef FSP_SPARSE_H
#define FSP_SPARSE_H

/*
 * Punch every unwritten extent of fd, except the parts the page cache
 * holds data for (SEEK_DATA sees those, FIEMAP does not). The caller
 * makes sure nothing writes to the file meanwhile. *punched (may be
 * NULL) gets the bytes punched. 0, -EOPNOTSUPP when the file's
 * filesystem has no FIEMAP or no hole punching, or -errno.
 */
int fsp_punch_unwritten(int fd, long long *punched);

#endif
