/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uring.h - probe files written through io_uring: a batch of 128 KiB
 * writes per submission instead of a write(2) per chunk. Opt-in: for
 * buffered writes of one file at a time the cost is the copy into the
 * page cache either way, and on Linux 6.18 io_uring gained nothing
 * over write(2) (0.95-1.07 times its time in bench/run; its writes are
 * punted to io-wq workers). Where io_uring is unavailable (ENOSYS, or
 * EPERM under kernel.io_uring_disabled) the caller falls back to
 * write(2).
 */
#ifndef FSP_URING_H
#define FSP_URING_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write the data pattern (seed) to bytes [from, to) of fd. -ENOSYS /
 * -EPERM / -EOPNOTSUPP: io_uring cannot be used here (nothing was
 * written); any other error is a real I/O error.
 */
int fsp_uring_write_pattern(int fd, size_t from, size_t to, uint32_t seed);
/*
 * Whether fsp_file_create writes through io_uring: off until the program
 * asks (fsprobe: FSPROBE_URING=1, for tests and bench/run); else write(2).
 * Set it before workers start: they read it, nobody locks it.
 */
void fsp_uring_want(int on);
int fsp_uring_wanted(void);

#endif
