/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statebase.h - the state directory as `run` and `check` start with it:
 * checked from / and held (fsprobe/statedir.h), what killed runs left in
 * it unwound and said, so both refuse and report in the same words.
 */
#ifndef FSP_STATEBASE_H
#define FSP_STATEBASE_H

struct fsp_statedir;

/*
 * Open base (made if missing) into sd and unwind the dead runs in it,
 * saying what was removed or left. 0, or -errno after one line saying
 * why the state dir was refused (-ENOSPC: too little room to start).
 */
int fsp_statebase_open(struct fsp_statedir *sd, const char *base);

#endif
