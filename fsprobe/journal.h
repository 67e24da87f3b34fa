/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal.h - the run directory and its journal (docs/safety.md). Every
 * resource a run creates (image, loop device, mount, knob, tracefs
 * instance) is written to the journal *before* it is created, so that
 * `fsprobe cleanup` or the next run can unwind exactly what a killed run
 * left, and nothing else. A run holds an flock on its `lock` file for its
 * whole life; a locked run is alive and is never touched. Undoing what
 * a journal lists is unwind.h's: loop and knob journal through this
 * header, and unwind uses them, so the dependency runs one way.
 */
#ifndef FSP_JOURNAL_H
#define FSP_JOURNAL_H

#include <limits.h>
#include <sys/types.h>

#define FSP_STATE_BASE "/run/fsprobe"
#define FSP_JOURNAL_NAME "journal"	/* in a run directory */
#define FSP_JOURNAL_LOCK "lock"	/* flock held while the run lives */

struct fsp_journal {
	char base[PATH_MAX];
	char dir[PATH_MAX];	/* base/RUNID */
	char id[48];
	int fd;			/* journal, O_APPEND */
	int lockfd;
};

/* Create base (0700, root-owned, no symlink) and a new run directory. */
int fsp_journal_create(struct fsp_journal *j, const char *base);
/*
 * Append "kind\ta\tb" in one write(2), not synced (journal.c says why);
 * fields must not contain tab or newline.
 */
int fsp_journal_add(struct fsp_journal *j, const char *kind, const char *a,
		    const char *b);
/*
 * Close the journal and give up the run's lock, leaving the run
 * directory for `fsprobe cleanup`: a task that cannot be killed still
 * holds what it lists (the journal's "stuck" line names the task).
 */
void fsp_journal_leave(struct fsp_journal *j);
/* Path of a name inside the run directory. */
int fsp_journal_path(const struct fsp_journal *j, char *buf, size_t len,
		     const char *name);
/* base, made 0700 if missing: a root-owned directory, not a symlink, that
 * no one else may write; else -EPERM. */
int fsp_journal_ensure_base(const char *base);

#endif
