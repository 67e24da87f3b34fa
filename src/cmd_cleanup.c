// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_cleanup.c - `fsprobe cleanup`: unwind what killed runs left, from
 * their journals only; live runs (lock held) are never touched.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "journal.h"
#include "mnt.h"

int fsp_cmd_cleanup(struct fsp_cli *cli)
{
	const char *base = getenv("FSPROBE_STATE_DIR");
	struct fsp_unwind_stats st;
	int ret;

	if (geteuid() != 0) {
		fsp_warn("cleanup needs root (loop devices, knobs): try "
			 "'sudo fsprobe cleanup'");
		return FSP_EXIT_USAGE;
	}
	/*
	 * Our own mount namespace: tracefs, if we must mount it to remove a
	 * dead run's instance, never appears in the caller's.
	 */
	if (unshare(CLONE_NEWNS) || fsp_mnt_make_private()) {
		fsp_warn("cannot create a private mount namespace: %s",
			 strerror(errno));
		return FSP_EXIT_USAGE;
	}
	base = base && *base ? base : FSP_STATE_BASE;
	ret = fsp_journal_cleanup_stale(base, &st);
	if (ret) {
		fsp_warn("cleanup of %s: %s", base, strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	printf("cleanup: %d stale run(s) unwound, %d live left alone; "
	       "%d loop device(s) detached, %d mount(s), %d knob(s) restored, "
	       "%d tracefs instance(s), %d file(s)/dir(s) removed, %d entr%s "
	       "not ours left alone\n", st.runs, st.live, st.loops, st.mounts,
	       st.knobs, st.instances, st.files, st.refused,
	       st.refused == 1 ? "y" : "ies");
	return FSP_EXIT_OK;
}
