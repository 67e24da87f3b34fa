// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * statebase.c - the state directory as `run` and `check` start with it
 * (statebase.h): one refusal line, one report of dead runs unwound.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "progress.h"
#include "statebase.h"
#include "statedir.h"
#include "unwind.h"
#include "util.h"

/*
 * A run's images are sparse files in the state directory, and mkfs and
 * the case files fill some of each: below this, a run would only end in
 * workers that cannot write their results ("exited 5 without a result").
 */
#define STATE_MIN_FREE	(64ULL << 20)

/* Refuse, before anything is made there, a state dir with no room. */
static int state_room(const char *base)
{
	unsigned long long free_b;

	if (fsp_free_bytes(base, &free_b) || free_b >= STATE_MIN_FREE)
		return 0;	/* unreadable: opening it will say why */
	fsp_warn("state directory %s: %s (%llu KiB free, a run needs %llu "
		 "MiB): free some or set FSPROBE_STATE_DIR", base,
		 strerror(ENOSPC), free_b >> 10, STATE_MIN_FREE >> 20);
	return -ENOSPC;
}

int fsp_statebase_open(struct fsp_statedir *sd, const char *base)
{
	struct fsp_unwind_stats st;
	char msg[2 * PATH_MAX + 256];
	int ret;

	ret = state_room(base);
	if (ret)
		return ret;
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
