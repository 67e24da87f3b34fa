// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * privileged.c - what every command that creates or removes system state
 * does first: refuse without root, with the reason and the command to
 * type, and move into a private mount namespace, so that anything we
 * mount (tracefs, to remove a dead run's instance) never appears in the
 * caller's namespace. (The signal handlers are the run engine's,
 * src/run/scheduler.c.)
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mnt.h"

int fsp_enter_privileged(const char *cmd, const char *needs)
{
	if (geteuid() != 0) {
		fsp_warn("%s needs root (%s): try 'sudo fsprobe %s'", cmd,
			 needs, cmd);
		return FSP_EXIT_USAGE;
	}
	if (unshare(CLONE_NEWNS) || fsp_mnt_make_private()) {
		fsp_warn("cannot create a private mount namespace: %s",
			 strerror(errno));
		return FSP_EXIT_USAGE;
	}
	return 0;
}
