/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - small file and string helpers shared by the mechanism library.
 * Everything returns 0 (or a byte count) on success and -errno on failure.
 */
#ifndef FSP_UTIL_H
#define FSP_UTIL_H

#include <stddef.h>
#include <stdbool.h>
#include <sys/types.h>

#define FSP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Read at most len-1 bytes of path into buf, NUL-terminated; bytes read. */
ssize_t fsp_read_text(const char *path, char *buf, size_t len);
/* Read a whole (proc/sys) file into a malloc'd NUL-terminated buffer. */
int fsp_slurp(const char *path, char **out, size_t *outlen);
int fsp_slurp_fd(int fd, char **out, size_t *outlen);
/*
 * Input files a user names (profiles, fstests configs, result
 * documents): a FIFO, a device or a directory is refused before any
 * open that could block or act (-FSP_ENOTREG), and nothing past max
 * bytes is read (-EFBIG). A regular file opened after the check (it may
 * be swapped in between) is checked again on the fd.
 */
#define FSP_ENOTREG	EBADFD
int fsp_open_regular(const char *path, int *fd);
int fsp_slurp_fd_max(int fd, size_t max, char **out, size_t *outlen);
int fsp_slurp_regular(const char *path, size_t max, char **out,
		      size_t *outlen);
/* Write buf to an existing file (sysfs/proc knob style, no O_CREAT). */
int fsp_write_text(const char *path, const char *buf);
/*
 * Make path anew holding buf: written whole to tmp (created with mode,
 * no symlink followed), then renamed over path; tmp is removed on error.
 */
int fsp_replace_file(const char *path, const char *tmp, const char *buf,
		     mode_t mode);
/* Write all of buf to fd, retrying short writes and EINTR. */
int fsp_write_all(int fd, const void *buf, size_t len);
/* The same at an offset (pwrite), leaving the file offset alone. */
int fsp_pwrite_all(int fd, const void *buf, size_t len, off_t off);
/* Read a decimal unsigned long from a file. */
int fsp_read_ulong(const char *path, unsigned long *val);
/* Remove trailing white space in place. */
char *fsp_rstrip(char *s);
/* Skip leading white space. */
char *fsp_lstrip(char *s);
/* strlcpy-alike that reports truncation as -ENAMETOOLONG. */
int fsp_strcpy(char *dst, size_t len, const char *src);
/* snprintf that reports truncation as -ENAMETOOLONG. */
int fsp_fmt(char *dst, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Monotonic clock in milliseconds. */
long long fsp_now_ms(void);
/*
 * Bytes an unprivileged writer could still put on path's filesystem
 * (statvfs f_bavail), or on its nearest existing ancestor's when path
 * is not made yet.
 */
int fsp_free_bytes(const char *path, unsigned long long *bytes);
/* Remove a directory tree we created (no symlink following). */
int fsp_rmtree(const char *path);
/*
 * Empty the directory dirfd through fds only (openat, unlinkat; no
 * symlink followed, no other filesystem entered, no path walked).
 */
int fsp_rmtree_fd(int dirfd);
/*
 * Remove the directory name in parentfd, through fds, if it is the one
 * with device dev and inode ino (-ESTALE if another); 0 if it is gone.
 */
int fsp_rmtree_at(int parentfd, const char *name, dev_t dev, ino_t ino);
/* Levenshtein distance, for "did you mean" lists. */
int fsp_edit_distance(const char *a, const char *b);
/* errno name ("EINVAL"), or "E?" for unknown values. */
const char *fsp_errno_name(int err);

#endif
