// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * debian_set.c - --debian: the named set of kernels QA runs the matrix
 * on. Debian's series 6.1 (bookworm), 6.12 (bookworm-security), 6.17
 * (trixie-backports), 7.2 (sid) and 7.3-rc (experimental), each the
 * newest release apt knows (or, offline, the newest cached), as
 * debian:RELEASE; the host; the READ_ONLY_THP_FOR_FS=y build of
 * contrib/kernel-with-ro-thp.sh when it has been built; then any -k
 * given. A series with no release stays in the set with the reason, so
 * that the matrix shows it as a column of `error` rather than dropping
 * it (`list --debian` prints the set without booting anything).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "cli.h"
#include "util.h"
#include "vm.h"

/* The READ_ONLY_THP_FOR_FS=y kernel, FSPROBE_RO_THP_KERNEL or the default. */
static const char *ro_thp_kernel(void)
{
	const char *env = getenv("FSPROBE_RO_THP_KERNEL");

	return env && *env ? env : FSP_RO_THP_KERNEL;
}

static const char *const series[] = { "6.1", "6.12", "6.17", "7.2", "7.3-rc" };
static const char *const suite[] = { "bookworm", "bookworm-security",
	"trixie-backports", "sid", "experimental" };

static struct fsp_kset_entry *add(struct fsp_kset *set, const char *label,
				  const char *spec)
{
	struct fsp_kset_entry *e;

	if (set->nr == FSP_KSET_MAX)
		return NULL;
	e = &set->e[set->nr++];
	memset(e, 0, sizeof(*e));
	snprintf(e->label, sizeof(e->label), "%s", label);
	snprintf(e->spec, sizeof(e->spec), "%s", spec);
	return e;
}

int fsp_debian_set(const struct fsp_cli *cli, struct fsp_kset *set)
{
	char kver[FSP_ARRAY_SIZE(series)][192];
	char why[FSP_ARRAY_SIZE(series)][256];
	struct fsp_kset_entry *e;
	char spec[256];
	size_t i;
	int k;

	set->nr = 0;
	fsp_vm_apt_series(series, FSP_ARRAY_SIZE(series), 0, kver, why);
	for (i = 0; i < FSP_ARRAY_SIZE(series); i++) {
		snprintf(spec, sizeof(spec), "%s%s", FSP_VM_DEBIAN,
			 kver[i][0] ? kver[i] : series[i]);
		e = add(set, series[i], spec);
		if (!e)
			return -1;
		snprintf(e->suite, sizeof(e->suite), "%s", suite[i]);
		snprintf(e->why, sizeof(e->why), "%s", why[i]);
	}
	if (!add(set, "host", "host"))
		return -1;
	if (!access(ro_thp_kernel(), R_OK) &&
	    !add(set, "ro-thp", ro_thp_kernel()))
		return -1;
	for (k = 0; k < cli->nr_kernels; k++)
		if (!add(set, "-k", cli->kernels[k]))
			return -1;
	return 0;
}

void fsp_debian_set_print(const struct fsp_kset *set, FILE *out)
{
	struct utsname u;
	int i;

	fprintf(out, "%-8s %-18s %s\n", "SERIES", "SUITE", "KERNEL");
	for (i = 0; i < set->nr; i++) {
		const struct fsp_kset_entry *e = &set->e[i];

		fprintf(out, "%-8s %-18s %s", e->label,
			e->suite[0] ? e->suite : "-", e->spec);
		if (e->why[0])
			fprintf(out, "  (error: %s)", e->why);
		if (!strcmp(e->spec, "host") && !uname(&u))
			fprintf(out, " (%s)", u.release);
		fprintf(out, "\n");
	}
	if (access(ro_thp_kernel(), R_OK))
		fprintf(out, "(ro-thp: %s not built; contrib/kernel-with-ro-thp.sh "
			"builds it)\n", ro_thp_kernel());
}
