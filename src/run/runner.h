/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner.h - one profile's whole life: requirements, image, loop device,
 * mkfs, mount, the cases, the verdict, teardown. It runs in a child in a
 * private mount namespace and writes its result as JSON into the run
 * directory; the parent only collects.
 */
#ifndef FSP_RUNNER_H
#define FSP_RUNNER_H

#include <json-c/json.h>

#include "case.h"
#include "checkdir.h"
#include "journal.h"
#include "loop.h"
#include "profile.h"
#include "progress.h"
#include "result.h"
#include "sysinfo.h"

struct fsp_run_opts {
	const struct fsp_case *cases[64];	/* selected, in table order */
	int nr_cases;
	unsigned long size_mb;	/* --size: 0 means the profile's/default */
	int keep;
	int verbose;
	enum fsp_progress_mode progress;	/* on stderr (progress.h) */
	int nr_profiles;	/* for "[i/N]" in them */
	const char *payload_dir;
	struct fsp_wd_slot *wd;	/* where steps are announced, or NULL */
};

#define FSP_DEFAULT_SIZE_MB 512

struct fsp_slot_lease;
struct fsp_wd_slot;

/*
 * Run one profile with what its worker slot lent it (slots.h: the
 * tracefs instance, the loop device); its result goes into out (always
 * filled). Its image and directory stay: the caller removes them once
 * the worker has exited (fsp_remove_profile_dir), or the journal's
 * unwind does.
 */
void fsp_run_profile(const struct fsp_profile *prof, int idx,
		     const struct fsp_run_opts *o,
		     struct fsp_slot_lease *lease,
		     const struct fsp_sysinfo *si, struct fsp_journal *j,
		     struct fsp_res_profile *out);
/* A profile's directory in the run directory: RUNDIR/pNN. */
int fsp_run_profile_dir(const struct fsp_journal *j, int idx, char *buf,
			size_t len);
/* Remove profile idx's directory (its image included); 0 or -errno. */
int fsp_remove_profile_dir(const struct fsp_journal *j, int idx);
/* Why a profile cannot run here, or NULL if it can (list, run). */
const char *fsp_profile_unrunnable(const struct fsp_profile *prof,
				   char *buf, size_t len);
/*
 * The same without running any program the profile names (`list`): a
 * TOOL:WORD requirement, whose check runs TOOL --help, is left out.
 */
const char *fsp_profile_unrunnable_noexec(const struct fsp_profile *prof,
					  char *buf, size_t len);
/* A profile's result before it ran: name, fs, mkfs, mount_options. */
void fsp_profile_result(const struct fsp_profile *prof,
			struct fsp_res_profile *out);
/*
 * Run the cases on an existing directory (`fsprobe check DIR`), in c
 * (made and checked by the caller, who removes it), reached only
 * through its fd; what it makes is journalled in j (NULL: not).
 */
void fsp_run_dir(const char *dir, const struct fsp_checkdir *c,
		 const struct fsp_run_opts *o, const struct fsp_sysinfo *si,
		 struct fsp_journal *j, struct fsp_res_profile *out);

#endif
