// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_check.c - `fsprobe check DIR` runs the probes on a filesystem that
 * is already mounted (NFS, a real disk): no mkfs, no loop device; our
 * files live in a private subdirectory that is removed afterwards.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checker.h"
#include "cli.h"
#include "report.h"

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
	fsp_check_dir(cli->args[0], &o, &si, fsp_cli_step_timeout(cli), p);
	ret = fsp_render(cli, doc);
	if (!ret)
		ret = fsp_doc_exit_status(doc);
	fsp_res_doc_free(doc);
	return ret;
}
