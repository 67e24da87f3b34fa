// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * select.c - where profiles and payloads live, and turning -p / -P
 * arguments into profiles and cases. A binary run from its build tree
 * uses the source tree's profiles and the built payloads; an installed
 * one uses pkgdatadir and pkglibexecdir; FSPROBE_PROFILE_DIR and
 * FSPROBE_PAYLOAD_DIR override (`fsprobe env` shows which applied).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "util.h"

/* Decided once, by the first call (main's, before any unshare). */
int fsp_in_build_tree(void)
{
	static int cached = -1;
	char exe[PATH_MAX], want[PATH_MAX];
	ssize_t n;

	if (cached >= 0)
		return cached;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	cached = 0;
	if (n > 0) {
		exe[n] = '\0';
		snprintf(want, sizeof(want), "%s/src/fsprobe", FSP_BUILDDIR);
		cached = !strcmp(exe, want);
	}
	return cached;
}

/*
 * FSPROBE_*_DIR if set, else the build tree's directory for a binary run
 * from there, else the installed one; *from names which of the three.
 */
static const char *pick_dir(const char *var, const char *build,
			    const char *installed, const char **from)
{
	const char *env = getenv(var);

	if (env && *env) {
		*from = "environment";
		return env;
	}
	if (fsp_in_build_tree()) {
		*from = "build-tree";
		return build;
	}
	*from = "installed";
	return installed;
}

const char *fsp_profile_dir_from(const char **from)
{
	const char *dummy;

	return pick_dir("FSPROBE_PROFILE_DIR", FSP_SRCDIR "/mkfs-profiles",
			FSP_PKGDATADIR, from ? from : &dummy);
}

const char *fsp_payload_dir_from(const char **from)
{
	const char *dummy;

	return pick_dir("FSPROBE_PAYLOAD_DIR",
			FSP_BUILDDIR "/conformance/payload",
			FSP_PKGLIBEXECDIR, from ? from : &dummy);
}

const char *fsp_profile_dir(void)
{
	return fsp_profile_dir_from(NULL);
}

const char *fsp_payload_dir(void)
{
	return fsp_payload_dir_from(NULL);
}

static int is_path(const char *s)
{
	size_t l = strlen(s);

	return strchr(s, '/') || (l > 5 && !strcmp(s + l - 5, ".conf"));
}

/* -p fstests:PATH[:SECTION]: a section of an fstests local.config. */
static int load_fstests(const char *arg, struct fsp_profile *p,
			struct fsp_profile_error *err)
{
	const char *colon = strrchr(arg, ':');
	char path[PATH_MAX];
	size_t n = colon && !strchr(colon, '/') ? (size_t)(colon - arg) :
		   strlen(arg);

	if (n >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, arg, n);
	path[n] = '\0';
	return fsp_profile_load_fstests(path, n < strlen(arg) ? arg + n + 1 :
					NULL, p, err);
}

/* A name as one line: control characters shown as '?'. */
static const char *one_line(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ?
			 '?' : s[i];
	buf[i] = '\0';
	return buf;
}

static int report_profile_error(const char *name,
				const struct fsp_profile_error *err, int ret)
{
	char path[PATH_MAX];

	one_line(name, path, sizeof(path));
	if (err->msg[0] && err->line)
		fsp_warn("%s:%d: %s", path, err->line, err->msg);
	else if (err->msg[0])
		fsp_warn("%s: %s", path, err->msg);
	else
		fsp_warn("%s: %s", path, strerror(-ret));
	fprintf(stderr, "Fix the profile (see fsprobe(8), PROFILES) or "
		"leave it out with -p.\n");
	return FSP_EXIT_USAGE;
}

static void suggest(const char *name, const struct fsp_profile *all, int nr)
{
	int i, shown = 0;

	for (i = 0; i < nr; i++) {
		if (fsp_edit_distance(name, all[i].name) <= 3 ||
		    strstr(all[i].name, name)) {
			fprintf(stderr, "%s%s", shown ? ", " : "  did you mean: ",
				all[i].name);
			shown++;
		}
	}
	if (shown)
		fputc('\n', stderr);
	fprintf(stderr, "  'fsprobe list' shows every profile.\n");
}

/*
 * The default matrix: every profile but those marked `matrix =
 * extended` (variants run when named with -p), kept in place; the
 * count of what is left.
 */
static int default_matrix(struct fsp_profile *all, int nall)
{
	int i, n = 0;

	for (i = 0; i < nall; i++) {
		if (all[i].extended) {
			fsp_profile_free(&all[i]);
			continue;
		}
		if (n != i)
			all[n] = all[i];
		n++;
	}
	return n;
}

int fsp_select_profiles(struct fsp_cli *cli, struct fsp_profile **out,
			int *nr)
{
	struct fsp_profile *all = NULL, *sel;
	struct fsp_profile_error err;
	const char *dir = fsp_profile_dir();
	char errpath[PATH_MAX] = "";
	int nall = 0, i, j, ret;

	ret = fsp_profile_load_dir(dir, &all, &nall, errpath, sizeof(errpath),
				   &err);
	if (ret && errpath[0])
		return report_profile_error(errpath, &err, ret);
	if (ret) {
		fsp_warn("profile directory %s: %s (set FSPROBE_PROFILE_DIR)",
			 dir, strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	if (!cli->nr_profiles) {
		/* list shows every profile; run and vm the default matrix. */
		*nr = cli->cmd == CMD_LIST ? nall : default_matrix(all, nall);
		*out = all;
		return 0;
	}
	sel = calloc(cli->nr_profiles, sizeof(*sel));
	if (!sel) {
		fsp_profile_free_all(all, nall);
		return FSP_EXIT_USAGE;
	}
	for (i = 0; i < cli->nr_profiles; i++) {
		const char *name = cli->profiles[i];

		if (!strncmp(name, "fstests:", 8)) {
			ret = load_fstests(name + 8, &sel[i], &err);
			if (ret) {
				fsp_profile_free_all(sel, i);
				fsp_profile_free_all(all, nall);
				return report_profile_error(name + 8, &err,
							    ret);
			}
			continue;
		} else if (is_path(name)) {
			ret = fsp_profile_load(name, &sel[i], &err);
			if (ret) {
				fsp_profile_free_all(sel, i);
				fsp_profile_free_all(all, nall);
				return report_profile_error(name, &err, ret);
			}
			continue;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(cli->profiles[j], name))
				break;
		if (j < i) {
			fsp_warn("profile '%s' given twice", name);
			fsp_profile_free_all(sel, i);
			fsp_profile_free_all(all, nall);
			return FSP_EXIT_USAGE;
		}
		for (j = 0; j < nall; j++)
			if (!strcmp(all[j].name, name))
				break;
		if (j == nall) {
			fsp_warn("unknown profile '%s' (in %s)", name, dir);
			suggest(name, all, nall);
			fprintf(stderr, "Try 'fsprobe --help' for more "
				"information.\n");
			fsp_profile_free_all(sel, i);
			fsp_profile_free_all(all, nall);
			return FSP_EXIT_USAGE;
		}
		/* Move it: the selection owns the words now. */
		sel[i] = all[j];
		memset(&all[j], 0, sizeof(all[j]));
		snprintf(all[j].name, sizeof(all[j].name), "%s", name);
	}
	fsp_profile_free_all(all, nall);
	*out = sel;
	*nr = cli->nr_profiles;
	return 0;
}

int fsp_select_cases(struct fsp_cli *cli, struct fsp_run_opts *o)
{
	int i, j;

	o->nr_cases = 0;
	if (!cli->nr_probes) {
		for (i = 0; i < fsp_nr_cases; i++)
			o->cases[o->nr_cases++] = fsp_cases[i];
		return 0;
	}
	for (i = 0; i < cli->nr_probes; i++)
		if (!fsp_case_find(cli->probes[i])) {
			fsp_warn("unknown probe '%s'", cli->probes[i]);
			fprintf(stderr, "  probes:");
			for (j = 0; j < fsp_nr_cases; j++)
				fprintf(stderr, " %s", fsp_cases[j]->name);
			fprintf(stderr, "\nTry 'fsprobe --help' for more "
				"information.\n");
			return FSP_EXIT_USAGE;
		}
	/* Table order, each once, whatever order -P came in. */
	for (i = 0; i < fsp_nr_cases; i++)
		for (j = 0; j < cli->nr_probes; j++)
			if (!strcmp(fsp_cases[i]->name, cli->probes[j])) {
				o->cases[o->nr_cases++] = fsp_cases[i];
				break;
			}
	return 0;
}
