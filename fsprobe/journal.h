/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal.h - the run directory and its journal (docs/safety.md). Every
 * resource a run creates (image, loop device, mount, knob, tracefs
 * instance) is written to the journal *before* it is created, so that
 * `fsprobe cleanup` or the next run can unwind exactly what a killed run
 * left, and nothing else. A run holds an flock on its `lock` file for its
 * whole life; a locked run is alive and is never touched.
 */
#ifndef FSP_JOURNAL_H
#define FSP_JOURNAL_H

#include <limits.h>
#include <sys/types.h>

#define FSP_STATE_BASE "/run/fsprobe"

struct fsp_journal {
	char base[PATH_MAX];
	char dir[PATH_MAX];	/* base/RUNID */
	char id[48];
	int fd;			/* journal, O_APPEND */
	int lockfd;
};

struct fsp_unwind_stats {
	int runs;		/* stale runs unwound */
	int live;		/* runs skipped because they are alive */
	int loops;		/* loop devices detached */
	int mounts;		/* mounts removed */
	int knobs;		/* knobs restored */
	int instances;		/* tracefs instances removed */
	int files;		/* images and directories removed */
	int refused;		/* entries not ours on inspection, left alone */
};

/* Create base (0700, root-owned, no symlink) and a new run directory. */
int fsp_journal_create(struct fsp_journal *j, const char *base);
/*
 * Append "kind\ta\tb" in one write(2), not synced (journal.c says why);
 * fields must not contain tab or newline.
 */
int fsp_journal_add(struct fsp_journal *j, const char *kind, const char *a,
		    const char *b);
/* Path of a name inside the run directory. */
int fsp_journal_path(const struct fsp_journal *j, char *buf, size_t len,
		     const char *name);
/* Unwind everything the journal lists (LIFO), remove the run dir. */
int fsp_journal_finish(struct fsp_journal *j, struct fsp_unwind_stats *st);
/* Unwind every stale (unlocked) run under base. */
int fsp_journal_cleanup_stale(const char *base, struct fsp_unwind_stats *st);

#endif
