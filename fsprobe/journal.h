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

struct fsp_statedir;

struct fsp_journal {
	char base[PATH_MAX];	/* the state dir's path, as walked */
	char dir[PATH_MAX];	/* base/RUNID */
	char id[48];
	int fd;			/* journal, O_APPEND */
	int lockfd;
	int basefd;		/* the state dir, held for the run */
	int dirfd;		/* the run directory */
};

/*
 * A new run directory in the state dir sd (statedir.h, checked and
 * open), reached only through its fd; the journal keeps its own.
 */
int fsp_journal_create_at(struct fsp_journal *j,
			  const struct fsp_statedir *sd);
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

#endif
