/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * beneath.h - open a file below a directory fd and nowhere else. A root
 * tool working in a directory another user can change must not follow a
 * symlink planted there, nor a ".." out of it: these open relative to an
 * fd the caller checked once, refuse any symlink on the way (-ELOOP) and
 * any step out of the directory (-EXDEV), as systemd's chase() does.
 */
#ifndef FSP_BENEATH_H
#define FSP_BENEATH_H

#include <sys/types.h>

/*
 * Open name below dirfd with flags (O_CLOEXEC added) and mode (used with
 * O_CREAT): openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS (Linux
 * 5.6, fddb5d430ad9), else fsp_openat_walk. The fd, or -errno: -ELOOP
 * for a symlink anywhere on the way, -EXDEV for an absolute name or a
 * ".." that leaves dirfd.
 */
int fsp_openat_beneath(int dirfd, const char *name, int flags, mode_t mode);
/*
 * The same without openat2, for kernels that lack it: one component at
 * a time with O_NOFOLLOW, no ".." at all (-EXDEV), no absolute name.
 */
int fsp_openat_walk(int dirfd, const char *name, int flags, mode_t mode);

#endif
