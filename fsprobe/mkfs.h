/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkfs.h - run external tools (mkfs.*, mksquashfs, mkfs.erofs, fsverity)
 * by vfork/exec (vspawn.h) with an argv, never through a shell, with
 * their output captured so a failure can be shown to the user.
 */
#ifndef FSP_MKFS_H
#define FSP_MKFS_H

#include <stddef.h>

struct fsp_exec_result {
	int status;		/* exit code, or 128+signal */
	char output[2048];	/* tail of stdout+stderr, NUL-terminated */
	long long ms;
};

/* Find a tool in PATH, /usr/sbin and /sbin; 0 or -ENOENT. */
int fsp_tool_find(const char *name, char *path, size_t len);
/*
 * Run argv[0] (resolved with fsp_tool_find) with stdin from /dev/null.
 * Returns 0 when it ran (see res->status), -errno when it could not run
 * or took longer than timeout_s (then it is killed, -ETIMEDOUT).
 */
int fsp_exec(char *const argv[], int timeout_s, struct fsp_exec_result *res);

#endif
