// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_check.c - `fsprobe check DIR` runs the probes on a filesystem that
 * is already mounted (NFS, a real disk): no mkfs, no loop device; our
 * files live in a private subdirectory that is removed afterwards.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"

int fsp_cmd_check(struct fsp_cli *cli)
{
	struct json_object *doc, *arr;
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
	doc = fsp_doc_new(&si);
	json_object_object_get_ex(doc, "profiles", &arr);
	json_object_array_add(arr, fsp_run_dir(cli->args[0], &o, &si));
	ret = fsp_render(cli, doc);
	if (!ret)
		ret = fsp_doc_exit_status(doc);
	json_object_put(doc);
	return ret;
}
