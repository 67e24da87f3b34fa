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

/* Prints o as the pretty JSON every document is written in; puts o. */
int fsp_report_json_object(FILE *out, struct json_object *o)
{
	if (!o)
		return -ENOMEM;
	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED), out);
	fputc('\n', out);
	json_object_put(o);
	return ferror(out) ? -EIO : 0;
}

int fsp_report_json(FILE *out, const struct fsp_res_doc *doc)
{
	return fsp_report_json_object(out, fsp_res_doc_json(doc));
}

const char *fsp_report_value_text(struct json_object *v, size_t *len)
{
	const char *s;

	if (v && json_object_is_type(v, json_type_string)) {
		*len = (size_t)json_object_get_string_len(v);
		return json_object_get_string(v);
	}
	if (!v)
		s = "null";
	else if (json_object_is_type(v, json_type_object) ||
		 json_object_is_type(v, json_type_array))
		s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	else
		s = json_object_get_string(v);
	if (!s)
		s = "";
	*len = strlen(s);
	return s;
}
