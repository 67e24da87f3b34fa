// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_list.c - `fsprobe list`: every profile, its filesystem and mkfs
 * command (and FUSE server), and whether it can run on this machine
 * (and why not), then the probes. It runs no program a profile names:
 * a `requires = TOOL:WORD` (TOOL --help names WORD) is shown as not
 * checked, and the profile as "maybe" runnable. A malformed profile is an error
 * naming file and line. With --debian, the QA set of kernels as matrix
 * --debian would run it, resolved (debian_set.c), and nothing else.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The TOOL:WORD requirements list leaves unchecked. */
static void print_unchecked(const struct fsp_profile *p)
{
	int i, n = 0;

	for (i = 0; i < p->nr_requires; i++)
		if (strchr(p->requires[i], ':'))
			printf("%s%s", n++ ? " " : "; not checked: ",
			       p->requires[i]);
}

static int has_unchecked(const struct fsp_profile *p)
{
	int i;

	for (i = 0; i < p->nr_requires; i++)
		if (strchr(p->requires[i], ':'))
			return 1;
	return 0;
}

/* RUNNABLE: "?" where a TOOL:WORD requirement was left unchecked. */
static const char *runnable(const struct fsp_profile *p, const char *no)
{
	if (no)
		return "no";
	if (p->extended)
		return has_unchecked(p) ? "-p?" : "-p";
	return has_unchecked(p) ? "maybe" : "yes";
}

int fsp_cmd_list(struct fsp_cli *cli)
{
	struct fsp_profile *profs;
	char why[512];
	int nr, i, k, ret;

	if (cli->debian) {
		struct fsp_kset set;

		if (fsp_debian_set(cli, &set))
			return FSP_EXIT_USAGE;
		fsp_debian_set_print(&set, stdout);
		return 0;
	}
	ret = fsp_select_profiles(cli, &profs, &nr);
	if (ret)
		return ret;
	printf("Profiles (%s):\n", fsp_profile_dir());
	printf("  %-24s %-15s %-8s %s\n", "NAME", "FS", "RUNNABLE",
	       "MKFS / WHY NOT");
	for (i = 0; i < nr; i++) {
		const char *no = fsp_profile_unrunnable_noexec(&profs[i], why,
							       sizeof(why));

		printf("  %-24s %-15s %-8s ", profs[i].name, profs[i].fs,
		       runnable(&profs[i], no));
		if (no) {
			printf("%s\n", no);
			continue;
		}
		for (k = 0; k < profs[i].nr_mkfs; k++)
			printf("%s%s", k ? " " : "", profs[i].mkfs[k]);
		if (profs[i].mount_options[0])
			printf("%s-o %s", profs[i].nr_mkfs ? "; " : "",
			       profs[i].mount_options);
		for (k = 0; k < profs[i].nr_server; k++)
			printf("%s%s", k ? " " : "; served by ",
			       profs[i].server[k]);
		print_unchecked(&profs[i]);
		printf("\n");
	}
	printf("\nProbes:\n");
	for (i = 0; i < fsp_nr_cases; i++)
		printf("  %-16s %s\n", fsp_cases[i]->name,
		       fsp_cases[i]->summary);
	fsp_profile_free_all(profs, nr);
	return FSP_EXIT_OK;
}
