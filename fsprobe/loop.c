// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loop.c - attach, verify and detach our own loop devices. A free device
 * can be stolen between LOOP_CTL_GET_FREE and LOOP_CONFIGURE (EBUSY), so
 * the pair is retried a bounded number of times; the device is then
 * checked with LOOP_GET_STATUS64 against the image's st_dev/st_ino and
 * with sysfs backing_file against its path before anything uses it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "knob.h"
#include "loop.h"
#include "util.h"

#define LOOP_ATTACH_TRIES	16

int fsp_loop_backing_file(int nr, char *buf, size_t len)
{
	char path[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/block/loop%d/loop/backing_file",
		 nr);
	n = fsp_read_text(path, buf, len);
	if (n < 0)
		return n;	/* -ENOENT: not attached */
	fsp_rstrip(buf);
	return 0;
}

/*
 * Does the device read the file dev:ino under the name we gave it at
 * LOOP_CONFIGURE (image, as far as lo_file_name holds it)? 0 or -EPERM.
 * Never by the path sysfs shows: that is relative to the root and mount
 * namespace of whoever reads it (a chroot sees the host's path, a dead
 * namespace's tmpfs shows a path from the tmpfs' root).
 */
static int reads(const struct loop_info64 *info, dev_t dev, ino_t ino,
		 const char *image)
{
	char name[LO_NAME_SIZE];

	snprintf(name, sizeof(name), "%s", image);
	return info->lo_device == dev && info->lo_inode == ino &&
	       !strncmp((const char *)info->lo_file_name, name, sizeof(name)) ?
	       0 : -EPERM;
}

/* Is st the file the device reads, under image's name? 0 or -EPERM. */
static int backs(int loopfd, const struct stat *st, const char *image)
{
	struct loop_info64 info;

	if (ioctl(loopfd, LOOP_GET_STATUS64, &info))
		return -errno;
	return reads(&info, st->st_dev, st->st_ino, image);
}

int fsp_loop_verify(const struct fsp_loop *lo)
{
	struct stat st;

	if (lo->fd < 0)
		return -EBADF;
	return stat(lo->image, &st) ? -errno : backs(lo->fd, &st, lo->image);
}

static void pause_ms(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	nanosleep(&ts, NULL);
}

int fsp_loop_image_create(const char *image, unsigned long long size,
			  struct fsp_journal *j)
{
	int fd, ret;

	ret = fsp_journal_add(j, "image", image, NULL);
	if (ret)
		return ret;
	fd = open(image, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	ret = ftruncate(fd, (off_t)size) ? -errno : 0;
	close(fd);
	return ret;
}

int fsp_loop_attach(struct fsp_loop *lo, const char *image, bool readonly,
		    struct fsp_journal *j)
{
	struct loop_config cfg;
	struct stat st;
	char id[64];
	int ctl, imgfd, tries, ret = -EBUSY;

	memset(lo, 0, sizeof(*lo));
	lo->fd = -1;
	if (!realpath(image, lo->image))
		return -errno;
	imgfd = open(lo->image, (readonly ? O_RDONLY : O_RDWR) | O_CLOEXEC |
		     O_NOFOLLOW);
	if (imgfd < 0)
		return -errno;
	if (fstat(imgfd, &st)) {
		ret = -errno;
		close(imgfd);
		return ret;
	}
	snprintf(id, sizeof(id), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		ret = -errno;
		close(imgfd);
		return ret;
	}

	for (tries = 0; tries < LOOP_ATTACH_TRIES; tries++) {
		int nr = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (nr < 0) {
			ret = -errno;
			break;
		}
		lo->nr = nr;
		snprintf(lo->dev, sizeof(lo->dev), "/dev/loop%d", nr);
		/*
		 * The image's identity first: after a SIGKILL the device may
		 * show its backing file by another path, or deleted (see
		 * fsp_loop_detach_if_ours).
		 */
		if (j) {
			ret = fsp_journal_add(j, "loop-id", lo->dev, id);
			if (!ret)
				ret = fsp_journal_add(j, "loop", lo->dev,
						      lo->image);
			if (ret)
				break;
		}
		lo->fd = open(lo->dev, (readonly ? O_RDONLY : O_RDWR) |
			      O_CLOEXEC);
		if (lo->fd < 0) {
			ret = -errno;
			if (ret == -ENOENT || ret == -ENXIO) {
				pause_ms(10);	/* node not there yet */
				continue;
			}
			break;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = imgfd;
		cfg.info.lo_flags = readonly ? LO_FLAGS_AUTOCLEAR |
					       LO_FLAGS_READ_ONLY : 0;
		snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s",
			 lo->image);
		if (!ioctl(lo->fd, LOOP_CONFIGURE, &cfg)) {
			ret = 0;
			break;
		}
		ret = -errno;
		close(lo->fd);
		lo->fd = -1;
		if (ret == -EAGAIN)
			pause_ms(20);
		else if (ret != -EBUSY)
			break;
	}
	close(ctl);
	close(imgfd);
	if (ret)
		return ret;
	ret = fsp_loop_verify(lo);
	if (ret) {
		/* Not what we configured: never touch it again. */
		close(lo->fd);
		lo->fd = -1;
	}
	return ret;
}

int fsp_loop_detach(struct fsp_loop *lo)
{
	int ret = 0, tries;

	if (lo->fd < 0)
		return 0;
	/*
	 * With other openers (udev, blkid) the kernel only sets AUTOCLEAR
	 * and the device goes when the last of them closes it.
	 */
	if (fsp_loop_verify(lo) == 0) {
		for (tries = 0; tries < 50; tries++) {
			if (!ioctl(lo->fd, LOOP_CLR_FD, 0)) {
				ret = 0;
				break;
			}
			ret = -errno;
			if (ret != -EBUSY)
				break;
			pause_ms(20);
		}
	}
	close(lo->fd);
	lo->fd = -1;
	return ret;
}

/* Is back (sysfs backing_file) our image, maybe deleted meanwhile? */
static int is_image(const char *back, const char *image)
{
	size_t l = strlen(image);

	return !strcmp(back, image) ||
	       (!strncmp(back, image, l) && !strcmp(back + l, " (deleted)"));
}

int fsp_loop_parse_id(const char *text, struct fsp_loop_id *id)
{
	char end;

	if (sscanf(text, "%llu:%llu%c", &id->dev, &id->ino, &end) != 2)
		return -EINVAL;
	return 0;
}

/*
 * Is the device bound to image? By what the kernel holds, not by path:
 * the backing file's st_dev/st_ino (journalled, or the image's while it
 * exists) and the name we gave it at LOOP_CONFIGURE. The sysfs path is
 * relative to a mount namespace: once a killed run's namespace is gone,
 * a file on a tmpfs shows as "/rel/path" from the tmpfs' root, and as
 * "(deleted)" after cleanup removed it. 1 ours, 0 free, -EPERM not ours.
 */
int fsp_loop_bound_to(const char *dev, const char *image,
		      const struct fsp_loop_id *id)
{
	struct fsp_loop_id now = { 0, 0 };
	struct loop_info64 info;
	char back[PATH_MAX];
	struct stat st;
	int nr, fd, ret;

	if (sscanf(dev, "/dev/loop%d", &nr) != 1)
		return -EINVAL;
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENXIO ? 0 : -errno;
	ret = ioctl(fd, LOOP_GET_STATUS64, &info) ? -errno : 0;
	close(fd);
	if (ret)
		return ret == -ENXIO ? 0 : ret;
	if (id && id->ino) {
		now = *id;
	} else if (!stat(image, &st)) {
		now.dev = st.st_dev;
		now.ino = st.st_ino;
	} else {
		/* No identity: the old way, by the path sysfs shows. */
		if (fsp_loop_backing_file(nr, back, sizeof(back)))
			return 0;
		return is_image(back, image) ? 1 : -EPERM;
	}
	return reads(&info, now.dev, now.ino, image) ? -EPERM : 1;
}

int fsp_loop_detach_if_ours(const char *dev, const char *image,
			    const struct fsp_loop_id *id)
{
	int fd, ret, tries;

	ret = fsp_loop_bound_to(dev, image, id);
	if (ret <= 0)
		return ret;	/* 0: not attached any more */
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	ret = fd < 0 ? -errno : ioctl(fd, LOOP_CLR_FD, 0) ? -errno : 1;
	if (fd >= 0)
		close(fd);
	/*
	 * Whatever CLR_FD said, the device may still be going: a killed
	 * worker's mount is released asynchronously (CLR_FD then only sets
	 * AUTOCLEAR), or the autoclear rundown is already under way (ENXIO).
	 * Wait, boundedly, until it no longer shows our image.
	 */
	for (tries = 0; tries < 500; tries++) {
		if (fsp_loop_bound_to(dev, image, id) != 1)
			return 1;
		pause_ms(10);
	}
	return ret == 1 ? -EBUSY : ret;
}

/* BLKFLSBUF: write back, then drop, the device's own page cache. */
static int drop_cache(int fd)
{
	return ioctl(fd, BLKFLSBUF, 0) ? -errno : 0;
}

int fsp_loop_reset(const struct fsp_loop *lo, unsigned long long size)
{
	unsigned long long now = 0;
	struct stat st;
	int fd, img, ret;

	ret = fsp_loop_verify(lo);
	if (ret)
		return ret;
	/* A claim of our own for the whole reset: EBUSY while mounted. */
	fd = open(lo->dev, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	img = open(lo->image, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	/* The file opened, not just the path verified: it could be swapped. */
	ret = img < 0 || fstat(img, &st) ? -errno :
	      backs(lo->fd, &st, lo->image);
	if (!ret)
		ret = drop_cache(fd);
	if (!ret && (ftruncate(img, 0) || ftruncate(img, (off_t)size)))
		ret = -errno;
	if (!ret && ioctl(lo->fd, LOOP_SET_CAPACITY, 0))
		ret = -errno;
	/* Whatever was read meanwhile (udev's probe) saw the old bytes. */
	if (!ret)
		ret = drop_cache(fd);
	if (!ret && ioctl(fd, BLKGETSIZE64, &now))
		ret = -errno;
	if (!ret && now != size)
		ret = -EIO;
	if (img >= 0)
		close(img);
	close(fd);
	return ret;
}

int fsp_loop_write_through(const struct fsp_loop *lo, struct fsp_knobs *ks,
			   struct fsp_journal *j)
{
	char path[128], now[32];
	ssize_t n;
	int ret;

	ret = fsp_loop_queue_path(lo, "write_cache", path, sizeof(path));
	if (ret)
		return ret;
	n = fsp_read_text(path, now, sizeof(now));
	if (n < 0)
		return n;
	if (strcmp(fsp_rstrip(now), "write back"))
		return 0;
	return fsp_knob_set(ks, j, path, "write through");
}

int fsp_loop_queue_path(const struct fsp_loop *lo, const char *attr,
			char *buf, size_t len)
{
	return fsp_fmt(buf, len, "/sys/block/loop%d/queue/%s", lo->nr, attr);
}
