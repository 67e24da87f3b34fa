// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doc.c - the result document (docs/json.md) and its rendering. Every
 * output format is rendered from this one json-c document, so table,
 * JSON, KTAP and JUnit cannot disagree about what was measured.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "sysinfo.h"

struct json_object *fsp_doc_new(const struct fsp_sysinfo *si)
{
	struct json_object *doc = json_object_new_object(), *thp;

	json_object_object_add(doc, "fsprobe",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(doc, "kernel", json_object_new_string(si->kernel));
	json_object_object_add(doc, "arch", json_object_new_string(si->arch));
	json_object_object_add(doc, "page_size",
			       json_object_new_int64(si->page_size));
	json_object_object_add(doc, "pmd_order", si->pmd_order >= 0 ?
			       json_object_new_int(si->pmd_order) : NULL);
	thp = json_object_new_object();
	json_object_object_add(thp, "enabled",
			       json_object_new_string(si->thp_enabled));
	json_object_object_add(thp, "shmem_enabled",
			       json_object_new_string(si->thp_shmem_enabled));
	json_object_object_add(thp, "defrag",
			       json_object_new_string(si->thp_defrag));
	json_object_object_add(thp, "read_only_thp_for_fs", si->ro_thp < 0 ?
			       NULL : json_object_new_boolean(si->ro_thp));
	json_object_object_add(thp, "config_source",
			       json_object_new_string(si->config_source));
	json_object_object_add(doc, "thp", thp);
	json_object_object_add(doc, "profiles", json_object_new_array());
	return doc;
}

/* 1 if a probe failed or the kernel log showed a splat, else 0. */
int fsp_doc_exit_status(struct json_object *doc)
{
	struct json_object *profs, *probes, *r;
	size_t i, k;

	if (!json_object_object_get_ex(doc, "profiles", &profs))
		return FSP_EXIT_OK;
	for (i = 0; i < json_object_array_length(profs); i++) {
		struct json_object *p = json_object_array_get_idx(profs, i);

		/* A kernel splat fails the run even if every probe passed. */
		if (json_object_object_get_ex(p, "kernel_log", &r))
			return FSP_EXIT_FAIL;
		if (!json_object_object_get_ex(p, "probes", &probes))
			continue;
		for (k = 0; k < json_object_array_length(probes); k++) {
			struct json_object *pr =
				json_object_array_get_idx(probes, k);

			if (json_object_object_get_ex(pr, "result", &r) &&
			    !strcmp(json_object_get_string(r), "fail"))
				return FSP_EXIT_FAIL;
		}
	}
	return FSP_EXIT_OK;
}
