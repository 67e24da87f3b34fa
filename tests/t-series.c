// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-series.c - the newest release of a Debian kernel series
 * (src/vm/vm_series.c): dpkg's version order on release names, which
 * names belong to a series (no -rt, -cloud, -dbg, -unsigned, no 6.120
 * in 6.1, the -rc apart), and the pick on apt-cache search output as
 * recorded from fsprobe's private lists on 2026-12-05
 * (tests/data/apt-cache-search.txt).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util.h"
#include "vm.h"

static void order(void)
{
	static const char *const lt[][2] = {
		{ "6.12.99+deb12-amd64", "6.12.118+deb12-amd64" },
		{ "6.1.0-9-amd64", "6.1.0-57-amd64" },
		{ "7.3~rc7", "7.3" },
		{ "7.3-amd64", "7.3.4+deb13-amd64" },
		{ "7.2.12+deb13-amd64", "7.2.13+deb14-amd64" },
		{ "1.0", "1.0a" },
		{ "1.0", "1.0.0" },
		{ "007", "8" },
	};
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(lt); i++) {
		tap_ok(fsp_vm_vercmp(lt[i][0], lt[i][1]) < 0 &&
		       fsp_vm_vercmp(lt[i][1], lt[i][0]) > 0,
		       "dpkg order: %s < %s", lt[i][0], lt[i][1]);
	}
	tap_ok(!fsp_vm_vercmp("6.12.118+deb12-amd64", "6.12.118+deb12-amd64"),
	       "dpkg order: equal is 0");
	tap_ok(!fsp_vm_vercmp("7", "007"), "dpkg order: leading zeros");
}

static void match(void)
{
	/* Each series: kernel versions of it, then some that are not. */
	static const struct {
		const char *series, *of[3], *not_of[6];
	} m[] = {
		{ "6.1", { "6.1.0-57-amd64" }, { "6.12.118+deb12-amd64" } },
		{ "6.12", { "6.12.118+deb12-amd64" },
		  { "6.12.118+deb12-rt-amd64", "6.12.118+deb12-cloud-amd64",
		    "6.12.118+deb12-amd64-dbg", "6.12.118+deb12-amd64-unsigned",
		    "6.12-amd64-signed-template" } },
		{ "7.3", { "7.3.4+deb13-amd64" }, { "7.3-amd64" } },
		{ "7.3-rc", { "7.3-amd64", "7.3.0-rc7-amd64" },
		  { "7.3.4+deb13-amd64" } },
	};
	size_t i, k;

	for (i = 0; i < FSP_ARRAY_SIZE(m); i++) {
		for (k = 0; k < FSP_ARRAY_SIZE(m[i].of) && m[i].of[k]; k++)
			tap_ok(fsp_vm_series_match(m[i].of[k],
						   m[i].series) == 1,
			       "%s is of series %s", m[i].of[k], m[i].series);
		for (k = 0; k < FSP_ARRAY_SIZE(m[i].not_of) && m[i].not_of[k];
		     k++)
			tap_ok(fsp_vm_series_match(m[i].not_of[k],
						   m[i].series) == 0,
			       "%s is not of series %s", m[i].not_of[k],
			       m[i].series);
	}
}

static void pick(void)
{
	static const char *const want[][2] = {
		{ "6.1", "6.1.0-57-amd64" },
		{ "6.12", "6.12.118+deb12-amd64" },
		{ "6.16", "6.16.12+deb13-amd64" },
		{ "6.17", "6.17.13+deb13-amd64" },
		{ "7.2", "7.2.13+deb14-amd64" },
		{ "7.3-rc", "7.3-amd64" },
	};
	char path[4200], kver[192], *text = NULL;
	const char *src = getenv("srcdir");
	size_t len, i;

	snprintf(path, sizeof(path), "%s/tests/data/apt-cache-search.txt",
		 src ? src : ".");
	if (!tap_ok(!fsp_slurp(path, &text, &len), "read %s", path))
		return;
	for (i = 0; i < FSP_ARRAY_SIZE(want); i++) {
		kver[0] = '\0';
		tap_ok(!fsp_vm_series_pick(text, want[i][0], kver,
					   sizeof(kver)) &&
		       !strcmp(kver, want[i][1]),
		       "recorded apt-cache: newest of %s is %s (got '%s')",
		       want[i][0], want[i][1], kver);
	}
	tap_ok(fsp_vm_series_pick(text, "5.10", kver, sizeof(kver)) == -ENOENT,
	       "recorded apt-cache: no 5.10 is -ENOENT");
	free(text);
	/* A list of releases, as the offline fallback reads the cache. */
	tap_ok(!fsp_vm_series_pick("6.12\n6.1.0-9-amd64\n6.1.0-10-rt-amd64\n"
				   "6.1.0-8-amd64\n", "6.1", kver,
				   sizeof(kver)) &&
	       !strcmp(kver, "6.1.0-9-amd64"),
	       "cached releases: newest 6.1 is 6.1.0-9-amd64 (got '%s')",
	       kver);
}

int main(void)
{
	order();
	match();
	pick();
	return tap_done();
}
