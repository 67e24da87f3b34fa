// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uring.c - batched pattern writes with liburing. Buffers are filled
 * QD at a time, submitted together; short writes are finished with
 * pwrite(2) (a short buffered write is legal, just rare). QD buffers of
 * 128 KiB stay in the CPU cache between the fill and the kernel's copy.
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filedata.h"
#include "uring.h"
#include "util.h"

#define QD	8
#define CHUNK	(128UL << 10)

/* The program's choice (fsp_uring_want); the library reads no env. */
static int wanted;

void fsp_uring_want(int on)
{
	wanted = !!on;
}

int fsp_uring_wanted(void)
{
	return wanted;
}

/* A short buffered write is legal, just rare: finish it by hand. */
static int finish_short(int fd, const char *buf, size_t len, off_t off,
			size_t done)
{
	return fsp_pwrite_all(fd, buf + done, len - done, off + done);
}

/* Submit one batch of n writes and reap all of them. */
static int write_batch(struct io_uring *r, int fd, char *b, size_t *lens,
		       off_t base, int n)
{
	struct io_uring_cqe *cqe;
	int i, ret, err = 0;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(r);

		io_uring_prep_write(sqe, fd, b + i * CHUNK, lens[i],
				    base + (off_t)i * CHUNK);
		io_uring_sqe_set_data64(sqe, i);
	}
	ret = io_uring_submit_and_wait(r, n);
	if (ret < 0)
		return ret;
	for (i = 0; i < n; i++) {
		unsigned int k;

		ret = io_uring_wait_cqe(r, &cqe);
		if (ret < 0)
			return ret;
		k = (unsigned int)io_uring_cqe_get_data64(cqe);
		ret = cqe->res;
		io_uring_cqe_seen(r, cqe);
		if (k >= (unsigned int)n)
			ret = -EIO;
		else if (ret >= 0 && (size_t)ret < lens[k])
			ret = finish_short(fd, b + k * CHUNK, lens[k],
					   base + (off_t)k * CHUNK, ret);
		else if (ret > 0)
			ret = 0;
		if (ret < 0 && !err)
			err = ret;
	}
	return err;
}

/*
 * One ring and one set of buffers per process, made on first use: a
 * ring per file costs a setup and an asynchronous teardown (kworker
 * "iou_exit") each time. A forked child makes its own; the kernel frees
 * them at exit.
 */
static struct io_uring ring;
static char *bufs;
static pid_t owner;
static int ring_err;

static int get_ring(void)
{
	int ret;

	if (owner == getpid())
		return ring_err;
	owner = getpid();
	bufs = malloc(QD * CHUNK);
	if (!bufs)
		return ring_err = -ENOMEM;
	ret = io_uring_queue_init(QD, &ring, 0);
	if (ret < 0)
		ret = ret == -ENOSYS || ret == -EPERM ? ret : -EOPNOTSUPP;
	return ring_err = ret < 0 ? ret : 0;
}

int fsp_uring_write_pattern(int fd, size_t from, size_t to, uint32_t seed)
{
	size_t lens[QD], off = from;
	int ret, i;

	ret = get_ring();
	while (off < to && !ret) {
		for (i = 0; i < QD && off + i * CHUNK < to; i++) {
			size_t at = off + i * CHUNK;

			lens[i] = to - at < CHUNK ? to - at : CHUNK;
			fsp_pattern_fill(bufs + i * CHUNK, at, lens[i], seed);
		}
		ret = write_batch(&ring, fd, bufs, lens, off, i);
		off += (size_t)i * CHUNK;
	}
	return ret < 0 ? ret : 0;
}
