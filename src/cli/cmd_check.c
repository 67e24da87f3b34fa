// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_check.c - `fsprobe check DIR` runs the probes on a filesystem that
 * is already mounted (NFS, a real disk): no mkfs, no loop device; our
 * files live in a private subdirectory that is removed afterwards
 * (src/run/checker.h: journalled, signals handled as `run` does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checker.h"
#include "cli.h"
#include "journal.h"
#include "report.h"

/*
 * As root, check is a run like the others: journalled in the state
 * directory (its tracefs instance, its work directory), so that
 * `fsprobe cleanup` removes what a killed check left. Without root
 * there is no state directory, and nothing but the work directory.
 */
static const char *state_base(void)
{
	const char *base = getenv("FSPROBE_STATE_DIR");

	if (geteuid() != 0)
		return NULL;
	return base && *base ? base : FSP_STATE_BASE;
}

int fsp_cmd_check(struct fsp_cli *cli)
{
	struct fsp_res_profile *p;
	struct fsp_res_doc *doc;
	struct fsp_run_opts o = { 0 };
	struct fsp_sysinfo si;
	struct stat st;
	int ret;

	if (stat(cli->args[0], &st) || !S_ISDIR(st.st_mode)) {
		fsp_warn("check: '%s' is not a directory", cli->args[0]);
		return FSP_EXIT_USAGE;
	}
	/*
	 * As root, probes may mount tracefs: do it in a private mount
	 * namespace (DIR stays visible there). Without root there is no
	 * tracefs, pagemap PFN or kpageflags anyway; the probes say so.
	 */
	if (geteuid() == 0) {
		ret = fsp_enter_privileged("check", "");
		if (ret)
			return ret;
	}
	ret = fsp_select_cases(cli, &o);
	if (ret)
		return ret;
	o.payload_dir = fsp_payload_dir();
	fsp_sysinfo_read(&si);
	doc = fsp_res_doc_new(&si);
	p = doc ? fsp_res_add_profile(doc) : NULL;
	if (!p) {
		fsp_warn("out of memory");
		fsp_res_doc_free(doc);
		return FSP_EXIT_USAGE;
	}
	ret = fsp_check_dir(cli->args[0], &o, &si, state_base(),
			    fsp_cli_step_timeout(cli), p);
	if (!ret)
		ret = fsp_render(cli, doc);
	if (!ret)
		ret = fsp_doc_exit_status(doc);
	if (fsp_check_signal())
		ret = 128 + fsp_check_signal();
	fsp_res_doc_free(doc);
	return ret;
}
