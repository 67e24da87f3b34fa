// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_lava.c - the result file of Linaro's test-definitions: one line
 * "NAME RESULT" or "NAME RESULT MEASUREMENT UNITS" per test, which
 * automated/utils/send-to-lava.sh turns into lava-test-case calls (it
 * matches RESULT against pass|fail|skip and splits on blanks, so names
 * carry no blanks and the units are one word). NAME is PROFILE.PROBE
 * (characters other than [A-Za-z0-9_.-] become '_'), a probe error is
 * "fail" (LAVA has no error word there), and the measurement is the
 * probe's key number, as in -f kcidb: its PMD-mapped size in kB, else
 * the largest folio order it saw. A profile that ran no probe gets one
 * line PROFILE with skip (verdict skip) or fail (harness error).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

static void put_name(FILE *out, const char *s)
{
	if (!s || !*s) {
		fputc('_', out);
		return;
	}
	for (; *s; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			c = '_';
		fputc(c, out);
	}
}

static const char *result_word(const struct fsp_res_probe *pr)
{
	switch (pr->result) {
	case FSP_PASS:
		return "pass";
	case FSP_SKIP:
		return "skip";
	default:
		return "fail";
	}
}

/* The key number: 1 with *v and *units set, 0 if there is none. */
static int measurement(const struct fsp_res_probe *pr, long long *v,
		       const char **units)
{
	static const char *const keys[] = {
		"file_pmd_mapped_kb", "shmem_pmd_mapped_kb", "warmed_pmd_kb",
		"max_order", "order_before",
	};
	struct json_object *o;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		o = fsp_json_get(pr->evidence, keys[i]);
		if (!o || !json_object_is_type(o, json_type_int))
			continue;
		*v = json_object_get_int64(o);
		if (*v < 0)
			continue;
		*units = i < 3 ? "kB" : "order";
		return 1;
	}
	return 0;
}

int fsp_report_lava(FILE *out, const struct fsp_res_doc *doc)
{
	const char *units;
	long long v;
	int i, j;

	if (!doc)
		return -EINVAL;
	for (i = 0; i < doc->nr_profiles; i++) {
		const struct fsp_res_profile *p = &doc->profiles[i];

		if (!p->nr_probes) {
			put_name(out, p->name);
			fprintf(out, " %s\n", p->verdict == FSP_V_ERROR ?
				"fail" : "skip");
			continue;
		}
		for (j = 0; j < p->nr_probes; j++) {
			const struct fsp_res_probe *pr = &p->probes[j];

			put_name(out, p->name);
			fputc('.', out);
			put_name(out, pr->name);
			fprintf(out, " %s", result_word(pr));
			if (pr->result != FSP_SKIP &&
			    measurement(pr, &v, &units))
				fprintf(out, " %lld %s", v, units);
			fputc('\n', out);
		}
	}
	return ferror(out) ? -EIO : 0;
}
