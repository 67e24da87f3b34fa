// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_cleanup.c - `fsprobe cleanup`: unwind what killed runs left, from
 * their journals only; live runs (lock held) are never touched. The
 * state dir is refused as `run` refuses it, in the same words.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "journal.h"
#include "statedir.h"
#include "unwind.h"

/*
 * The state dir checked as `run` checks it (statedir.h), and refused in
 * the same words; a missing one is nothing to clean up.
 */
static int open_state(struct fsp_statedir *sd, const char *base)
{
	char msg[2 * PATH_MAX + 256];
	int ret = fsp_statedir_open(sd, base, 0);

	if (!ret || ret == -ENOENT)
		return 0;
	fsp_statedir_explain(sd, base, ret, msg, sizeof(msg));
	fsp_warn("%s", msg);
	return FSP_EXIT_USAGE;
}

/* Dead runs cleanup had to leave, said; FSP_EXIT_USAGE if any. */
static int report_left(const struct fsp_unwind_stats *st)
{
	if (st->stuck)
		fsp_warn("cleanup: could not release %d run(s): %s%s",
			 st->stuck, st->stuck_what, st->stuck > 1 ?
			 " (and more)" : "");
	if (st->unread)
		fsp_warn("cleanup: left %d run(s) alone: %s%s", st->unread,
			 st->unread_what, st->unread > 1 ? " (and more)" : "");
	return st->stuck || st->unread ? FSP_EXIT_USAGE : FSP_EXIT_OK;
}

int fsp_cmd_cleanup(struct fsp_cli *cli)
{
	const char *base = getenv("FSPROBE_STATE_DIR");
	struct fsp_unwind_stats st;
	struct fsp_statedir sd;
	int ret;

	ret = fsp_enter_privileged("cleanup", "loop devices, knobs");
	if (ret)
		return ret;
	base = base && *base ? base : FSP_STATE_BASE;
	ret = open_state(&sd, base);
	if (ret)
		return ret;
	ret = fsp_journal_cleanup_stale_at(&sd, &st);
	fsp_statedir_close(&sd);
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
	return report_left(&st);
}
