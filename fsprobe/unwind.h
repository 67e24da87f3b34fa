/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unwind.h - undo what a journal (journal.h) lists, newest first: mounts,
 * FUSE servers, device-mapper, loop and null_blk devices, knobs, tracefs
 * instances, files. The one fsprobe/ module that knows every kind of
 * resource; journal, loop and knob know nothing of it.
 */
#ifndef FSP_UNWIND_H
#define FSP_UNWIND_H

struct fsp_journal;
struct fsp_statedir;

struct fsp_unwind_stats {
	int runs;		/* stale runs unwound */
	int live;		/* runs skipped because they are alive */
	int loops;		/* loop devices detached */
	int dms;		/* device-mapper devices removed */
	int mounts;		/* mounts removed */
	int knobs;		/* knobs restored */
	int instances;		/* tracefs instances removed */
	int servers;		/* FUSE servers of ours killed */
	int nullbs;		/* null_blk devices removed */
	int files;		/* images and directories removed */
	int refused;		/* entries not ours on inspection, left alone */
	int stuck;		/* dead runs left: a task of theirs is stuck */
	char stuck_what[512];	/* the first such: run, task, step */
	int unread;		/* dead runs left: journal not read */
	char unread_what[512];	/* the first such: run, why */
};

/*
 * Unwind everything the journal lists (LIFO), remove the run dir; kept
 * (-EBUSY) when a FUSE server of the run survives SIGKILL.
 */
int fsp_journal_finish(struct fsp_journal *j, struct fsp_unwind_stats *st);
/*
 * The FUSE servers j lists with a mount point under dir (a profile's
 * directory), killed while still theirs (fuse.h): the watchdog's way to
 * free a worker stuck in a request its server will never answer. The
 * number killed, or -errno.
 */
int fsp_journal_kill_servers(const struct fsp_journal *j, const char *dir);
/*
 * Unwind every stale (unlocked) run in the state dir sd (statedir.h),
 * reaching each run, its lock and journal through fds; sd->fd -1: none,
 * only the system-wide knobs of killed runs are restored.
 */
int fsp_journal_cleanup_stale_at(const struct fsp_statedir *sd,
				 struct fsp_unwind_stats *st);

/* A system-wide knob as a run's journal tells it (fsp_journal_knobs). */
struct fsp_knob_change {
	const char *path;
	const char *was;	/* the value before the run's first change */
	const char *during;	/* the last value it wrote; "" if unknown */
	int restored;		/* every change of it was restored */
};
/*
 * Each system-wide knob the run j (workers included) changed, once per
 * path, in the order first changed: each(arg, change). Read before
 * fsp_journal_finish; 0 or -errno.
 */
int fsp_journal_knobs(const struct fsp_journal *j,
		      void (*each)(void *arg, const struct fsp_knob_change *c),
		      void *arg);

#endif
