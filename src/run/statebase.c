// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * statebase.c - the state directory as `run` and `check` start with it
 * (statebase.h): one refusal line, one report of dead runs unwound.
 */
#include <limits.h>

#include "progress.h"
#include "statebase.h"
#include "statedir.h"
#include "unwind.h"
#include "util.h"

int fsp_statebase_open(struct fsp_statedir *sd, const char *base)
{
	struct fsp_unwind_stats st;
	char msg[2 * PATH_MAX + 256];
	int ret;

	ret = fsp_statedir_open(sd, base, 1);
	if (ret) {
		fsp_statedir_explain(sd, base, ret, msg, sizeof(msg));
		fsp_warn("%s", msg);
		return ret;
	}
	if (!fsp_journal_cleanup_stale_at(sd, &st) && st.runs)
		fsp_warn("removed what %d killed run(s) left: %d loop, "
			 "%d dm, %d knob, %d FUSE server(s), %d file(s)",
			 st.runs, st.loops, st.dms, st.knobs, st.servers,
			 st.files);
	if (st.unread)
		fsp_warn("left %d dead run(s) alone: %s", st.unread,
			 st.unread_what);
	return 0;
}
