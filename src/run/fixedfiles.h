/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixedfiles.h - the file allocator of a filesystem with a fixed set of
 * files (case.h, struct fsp_files; docs/fixed-files.md): after the
 * mount, the files under the mount's directories are listed once; a
 * case's file is bound to a free file of exactly its size, written in
 * place, else to a free empty file, grown by O_DIRECT appends to its
 * size (zonefs: conventional zone files have the zone's size and take
 * any write; sequential ones start empty and take only direct appends).
 */
#ifndef FSP_FIXEDFILES_H
#define FSP_FIXEDFILES_H

#include <sys/types.h>

#include "case.h"

#define FSP_FIXED_MAX 128

struct fsp_fixed_file {
	char rel[64];		/* "cnv/0", relative to the mount */
	off_t size;		/* 0: grows by appending */
	char bound[64];		/* the case's name for it, "" if free */
};

struct fsp_fixed {
	struct fsp_files ops;	/* first: what the cases get */
	char mnt[4096];
	int nr;
	struct fsp_fixed_file f[FSP_FIXED_MAX];
};

/* List the regular files one directory below mnt (and in it). */
int fsp_fixed_scan(struct fsp_fixed *x, const char *mnt);

#endif
