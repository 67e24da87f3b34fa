// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_cleanup.c - `fsprobe cleanup`: unwind what killed runs left, from
 * their journals only; live runs (lock held) are never touched.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "journal.h"
#include "unwind.h"

int fsp_cmd_cleanup(struct fsp_cli *cli)
{
	const char *base = getenv("FSPROBE_STATE_DIR");
	struct fsp_unwind_stats st;
	int ret;

	ret = fsp_enter_privileged("cleanup", "loop devices, knobs");
	if (ret)
		return ret;
	base = base && *base ? base : FSP_STATE_BASE;
	ret = fsp_journal_cleanup_stale(base, &st);
	if (ret) {
		fsp_warn("cleanup of %s: %s", base, strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	printf("cleanup: %d stale run(s) unwound, %d live left alone; "
	       "%d loop device(s) detached, %d dm device(s), %d null_blk "
	       "device(s), %d mount(s), %d knob(s) restored, %d tracefs "
	       "instance(s), %d FUSE server(s) killed, %d file(s)/dir(s) "
	       "removed, %d entr%s not ours left alone\n", st.runs, st.live,
	       st.loops, st.dms, st.nullbs, st.mounts, st.knobs, st.instances,
	       st.servers, st.files, st.refused,
	       st.refused == 1 ? "y" : "ies");
	if (st.stuck) {
		fsp_warn("cleanup: could not release %d run(s): %s%s",
			 st.stuck, st.stuck_what, st.stuck > 1 ?
			 " (and more)" : "");
		return FSP_EXIT_USAGE;
	}
	return FSP_EXIT_OK;
}
