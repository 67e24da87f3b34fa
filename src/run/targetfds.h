/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * targetfds.h - a target's directories as the fds the cases use
 * (fsp_target.dirfd, prep_dirfd; case.h). The fd numbers stay the same
 * for the target's whole life: a remount parks them (each becomes a
 * placeholder that is no directory, so an openat on it fails ENOTDIR
 * instead of reaching anything) and reopens the directories onto them,
 * so a case holding the target across t->recycle sees the new mount. A
 * directory fd held over a umount would make it fail EBUSY.
 */
#ifndef FSP_TARGETFDS_H
#define FSP_TARGETFDS_H

#include "case.h"

/*
 * Open t->dir and t->prep_dir (O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) as
 * t->dirfd and t->prep_dirfd: onto their numbers if they are >= 0, as
 * new fds if they are -1. 0 or -errno; on failure an fd stays parked.
 */
int fsp_target_fds_open(struct fsp_target *t);
/* The same for a target whose fds are set: after a mount. */
int fsp_target_fds_reopen(const struct fsp_target *t);
/* Let go of both directories, keeping the numbers: before a umount. */
int fsp_target_fds_park(const struct fsp_target *t);
/* Close both and set them to -1. */
void fsp_target_fds_close(struct fsp_target *t);

#endif
