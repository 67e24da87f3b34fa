/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * knob.h - sysfs/proc values fsprobe changes: saved to the journal before
 * the first write and restored byte-identical afterwards, also by
 * `fsprobe cleanup` after a killed run. A small push/pop stack in the
 * spirit of the mm selftests' thp_settings, without their exit() in
 * signal handlers.
 */
#ifndef FSP_KNOB_H
#define FSP_KNOB_H

#include <limits.h>
#include <stddef.h>

struct fsp_journal;

#define FSP_KNOB_MAX 16

/* The workqueues' default affinity scope (Linux 6.6), see cpu.h. */
#define FSP_KNOB_WQ_SCOPE \
	"/sys/module/workqueue/parameters/default_affinity_scope"
/* khugepaged's scan knobs, which the khugepaged probe speeds up. */
#define FSP_KNOB_KHUGEPAGED "/sys/kernel/mm/transparent_hugepage/khugepaged"

/*
 * System-wide knobs (all but a loop device's) are shared by every run on
 * the machine, whatever its state directory: their original value is
 * recorded here (NAME.rec: path and value) before the first change, each
 * run using one holds NAME.hold shared (flock), and the last holder to
 * go, or `fsprobe cleanup` of any state directory once no live run holds
 * it, writes the original back and removes the record. Two overlapping
 * runs thus never save each other's "cpu" as the original, and a killed
 * run's change is found whatever happened to its run directory.
 */
#define FSP_KNOB_DIR "/run/fsprobe-knobs"

struct fsp_knob {
	char path[PATH_MAX];
	char saved[128];	/* value to write back (selected word) */
	char value[128];	/* the value written */
	int holdfd;		/* system-wide: our shared hold, else -1 */
	int restored;		/* set by fsp_knob_restore_all: 1 if done */
};

struct fsp_knobs {
	struct fsp_knob k[FSP_KNOB_MAX];
	int nr;
	struct fsp_journal *j;	/* where the sets were journalled */
};

/* Save path's current value (journalled), then write value. */
int fsp_knob_set(struct fsp_knobs *ks, struct fsp_journal *j,
		 const char *path, const char *value);
/*
 * Restore every knob, newest first; the first error is returned. The
 * entries stay in k[] (ks->nr is 0 after) with restored set: 1 if the
 * original was written back, or for a system-wide knob our hold was
 * dropped and a live run still holding it restores it when it ends. Each
 * restored knob gets a "knob-restored" journal line, so the journal's
 * unwind does not write it again (a write_cache write freezes the
 * device's queue, and the device may be someone else's by then).
 */
int fsp_knob_restore_all(struct fsp_knobs *ks);
/*
 * In a child just forked from the process that set ks: close its copies
 * of the system-wide holds and forget the knobs, restoring nothing. A
 * hold is a flock on an open file that fork shares: a child keeping its
 * copy holds the knob for its parent, whose restore then takes it for
 * another run's and leaves it to that run, which is gone when the
 * child dies (SIGINT to a run: its worker outlived the restore, the
 * workqueue scope stayed "cpu").
 */
void fsp_knob_forget_inherited(struct fsp_knobs *ks);
/* For cleanup: write a journalled saved value back. */
int fsp_knob_restore_saved(const char *path, const char *saved);
/* Is path a system-wide knob (one in the FSP_KNOB_DIR registry)? */
int fsp_knob_is_global(const char *path);
/*
 * For cleanup: restore the system-wide knob path (or, path NULL, every
 * one recorded) if no live run holds it. Returns how many were restored,
 * or -errno.
 */
int fsp_knob_release_global(const char *path);
/*
 * For `fsprobe env`: is a system-wide knob's original recorded in
 * FSP_KNOB_DIR? 0 no record, 1 recorded by a killed run (for cleanup to
 * restore; saved gets the original), 2 held by a live run, or -errno
 * (-EACCES without root). Creates nothing, takes no lock for long.
 */
int fsp_knob_pending(const char *path, char *saved, size_t len);

#endif
