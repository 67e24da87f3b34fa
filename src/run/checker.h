/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checker.h - `fsprobe check DIR`'s engine: the cases run on DIR in a
 * forked worker, so that the watchdog (watchdog.h) can give up on a step
 * that hangs in the kernel (a FUSE or NFS server that stopped
 * answering) and still report, where a process stuck in D state could
 * not even exit.
 */
#ifndef FSP_CHECKER_H
#define FSP_CHECKER_H

#include "result.h"
#include "runner.h"
#include "sysinfo.h"

/*
 * Run the cases on dir (fsp_run_dir) in a worker, in a work directory
 * made and checked here (checkdir.h) and journalled in a run directory
 * under base (NULL: no journal, without root); out gets its result, or
 * verdict error and `watchdog` when a step ran over step_timeout
 * seconds (0: no limit), or why the worker gave none. SIGINT, SIGTERM
 * and SIGHUP stop it (fsp_check_signal), cleaning up as `run` does.
 * 0, or FSP_EXIT_USAGE if the state directory cannot be used.
 */
int fsp_check_dir(const char *dir, const struct fsp_run_opts *o,
		  const struct fsp_sysinfo *si, const char *base,
		  int step_timeout, struct fsp_res_profile *out);
/* The signal that interrupted the last fsp_check_dir, or 0. */
int fsp_check_signal(void);

#endif
