// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doc.c - the result document (docs/json.md) and its rendering. Every
 * output format is rendered from the one result model (result.h), so
 * table, JSON, KTAP and JUnit cannot disagree about what was measured.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "sysinfo.h"

struct json_object *fsp_doc_new(const struct fsp_sysinfo *si)
{
	struct fsp_res_doc *d = fsp_res_doc_new(si);
	struct json_object *doc = d ? fsp_res_doc_json(d) : NULL;

	fsp_res_doc_free(d);
	return doc;
}

int fsp_doc_exit_status(const struct fsp_res_doc *doc)
{
	return fsp_res_exit_status(doc) ? FSP_EXIT_FAIL : FSP_EXIT_OK;
}

int fsp_report_json(FILE *out, const struct fsp_res_doc *doc)
{
	struct json_object *o = fsp_res_doc_json(doc);

	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED), out);
	fputc('\n', out);
	json_object_put(o);
	return ferror(out) ? -EIO : 0;
}
