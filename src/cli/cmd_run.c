// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_run.c - `fsprobe run`: the command line's part. It selects the
 * profiles and cases, hands them to the run engine (src/run/scheduler.h:
 * journal, workers, slots, CPUs, knobs), renders the document into the
 * output opened before any work started (render.c), and turns it into
 * the exit code (128 + the signal that interrupted the run).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "journal.h"
#include "scheduler.h"

int fsp_run_doc(struct fsp_cli *cli, struct fsp_res_doc **doc)
{
	struct fsp_profile *profs = NULL;
	struct fsp_sched_opts so = { .jobs = cli->jobs,
				     .tune_wq = cli->tune_wq,
				     .step_timeout =
					fsp_cli_step_timeout(cli) };
	struct fsp_run_opts o;
	const char *base = getenv("FSPROBE_STATE_DIR");
	int nr = 0, ret;

	*doc = NULL;
	/*
	 * A bad -P is a usage error with or without root; the profiles are
	 * read once root is checked (a user may not read their directory:
	 * /root/fsprobe on a fresh system).
	 */
	memset(&o, 0, sizeof(o));
	ret = fsp_select_cases(cli, &o);
	if (ret)
		return ret;
	ret = fsp_enter_privileged("run", "loop devices, mounts");
	if (ret)
		return ret;
	ret = fsp_select_profiles(cli, &profs, &nr);
	if (ret)
		return ret;
	o.size_mb = cli->size_mb;
	o.keep = cli->keep;
	o.verbose = cli->verbose;
	o.progress = fsp_progress_mode(cli->verbose);
	o.nr_profiles = nr;
	o.payload_dir = fsp_payload_dir();
	so.base = base && *base ? base : FSP_STATE_BASE;

	ret = fsp_sched_run(profs, nr, &o, &so, doc);
	fsp_profile_free_all(profs, nr);
	return ret;
}

int fsp_cmd_run(struct fsp_cli *cli)
{
	struct fsp_res_doc *doc = NULL;
	int ret;

	ret = fsp_run_doc(cli, &doc);
	if (!ret) {
		ret = doc ? fsp_render(cli, doc) : FSP_EXIT_USAGE;
		if (!ret)
			ret = fsp_doc_exit_status(doc);
		if (fsp_sched_signal())
			ret = 128 + fsp_sched_signal();
	}
	fsp_res_doc_free(doc);
	return ret;
}
