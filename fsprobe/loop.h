/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop.h - loop devices that fsprobe creates itself: LOOP_CTL_GET_FREE +
 * LOOP_CONFIGURE, bounded retries when another process takes the same
 * free device, and a check of the backing file before the device is used
 * or detached (util-linux lib/loopdev.c is the model). Read-only devices
 * are AUTOCLEAR; writable ones are not (fsp_loop_attach says why).
 */
#ifndef FSP_LOOP_H
#define FSP_LOOP_H

#include <limits.h>
#include <stdbool.h>

struct fsp_journal;
struct fsp_knobs;

struct fsp_loop {
	int fd;			/* held until we are done */
	int nr;
	char dev[32];		/* /dev/loopN */
	char image[PATH_MAX];	/* canonical backing path */
};

/*
 * Create image, a sparse file of size bytes that did not exist (O_EXCL),
 * journalled ("image PATH") before it is made, so cleanup removes it.
 */
int fsp_loop_image_create(const char *image, unsigned long long size,
			  struct fsp_journal *j);
/*
 * Attach image; journal (may be NULL) gets "loop DEV IMAGE" first. A
 * writable device may get a write_cache knob, a setting that outlives
 * the binding: it is not AUTOCLEAR, so that after a SIGKILL it stays
 * bound to our image, recognisably ours, until cleanup restores the
 * knob and detaches it. With AUTOCLEAR it went free with "write
 * through" still set, and whoever took it next (another run, which
 * then saw nothing to save) kept it so.
 */
int fsp_loop_attach(struct fsp_loop *lo, const char *image, bool readonly,
		    struct fsp_journal *j);
/*
 * 0 if the device still reads lo->image (its st_dev/st_ino, under the
 * name given at attach), -EPERM otherwise; never by the sysfs path.
 */
int fsp_loop_verify(const struct fsp_loop *lo);
/* Detach (LOOP_CLR_FD) after verifying, and close. */
int fsp_loop_detach(struct fsp_loop *lo);
/* The device's backing file from sysfs. */
int fsp_loop_backing_file(int nr, char *buf, size_t len);
/*
 * The backing file's identity, journalled ("loop-id DEV ST_DEV:ST_INO")
 * just before "loop DEV IMAGE" so that cleanup recognises the device by
 * what it holds, whatever path sysfs shows for it by then.
 */
struct fsp_loop_id {
	unsigned long long dev, ino;
};
int fsp_loop_parse_id(const char *text, struct fsp_loop_id *id);
/*
 * Is dev bound to image (id, or the image's own if id is NULL or zero)?
 * 1 yes, 0 free, -EPERM bound to something else.
 */
int fsp_loop_bound_to(const char *dev, const char *image,
		      const struct fsp_loop_id *id);
/* For cleanup: detach dev only if it is bound to image; 1 = done. */
int fsp_loop_detach_if_ours(const char *dev, const char *image,
			    const struct fsp_loop_id *id);
/*
 * Make a device we hold (lo->fd) ready for the next filesystem: it must
 * still be backed by lo->image and be claimed by nobody (-EBUSY while a
 * filesystem is mounted from it); its page cache is dropped, the image
 * emptied and sized to size bytes, and the device resized to match.
 */
int fsp_loop_reset(const struct fsp_loop *lo, unsigned long long size);
/*
 * Set queue/write_cache to "write through" (saved in ks, journalled in
 * j): the device then completes flushes without passing them to the
 * image's filesystem. 0 also when it already was not "write back".
 */
int fsp_loop_write_through(const struct fsp_loop *lo, struct fsp_knobs *ks,
			   struct fsp_journal *j);
/* sysfs directory of the device's queue, for read_ahead_kb. */
int fsp_loop_queue_path(const struct fsp_loop *lo, const char *attr,
			char *buf, size_t len);

#endif
