/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unwind.h - undo what a journal (journal.h) lists, newest first: mounts,
 * loop devices, knobs, tracefs instances, files. The one fsprobe/ module
 * that knows every kind of resource; journal, loop and knob know nothing
 * of it.
 */
#ifndef FSP_UNWIND_H
#define FSP_UNWIND_H

struct fsp_journal;

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

/* Unwind everything the journal lists (LIFO), remove the run dir. */
int fsp_journal_finish(struct fsp_journal *j, struct fsp_unwind_stats *st);
/* Unwind every stale (unlocked) run under base. */
int fsp_journal_cleanup_stale(const char *base, struct fsp_unwind_stats *st);

#endif
