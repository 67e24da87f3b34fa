// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-console.c - the guest console's splat detection (src/vm/
 * vm_console.c) on console text in tests/data: a clean boot of Debian's
 * 6.12 guest as recorded (console-clean.txt: SeaBIOS, the guest init's
 * lines, a shell error of the guest's, power down) finds nothing; an
 * int3 oops ending in a panic (console-oops.txt, the boot's head as
 * recorded, the oops in the 6.12 kernel's format) and a WARNING
 * (console-warn.txt) are found, with an excerpt from the first splat
 * line on; the guest fsprobe's own "fsprobe: WARNING" line is not a
 * splat; and marking a recorded document turns every profile into
 * error with the excerpt, which the encoder writes and the decoder
 * reads back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report.h"
#include "util.h"
#include "vm.h"

static char datadir[4096];

static char *slurp(const char *name, size_t *len)
{
	char path[4200], *buf = NULL;

	snprintf(path, sizeof(path), "%s/%s", datadir, name);
	if (fsp_slurp(path, &buf, len))
		tap_ok(0, "read %s", path);
	return buf;
}

static int lines(const char *s)
{
	int n = 1;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The splat lines of tests/data/name as one TAP test; excerpt in ex. */
static void splats(const char *name, int want, const char *desc, char *ex,
		   size_t exlen)
{
	size_t len;
	char *t = slurp(name, &len);

	TAP_EQ_LONG(fsp_vm_console_splats(t, len, ex, exlen), want, desc);
	free(t);
}

static void clean(void)
{
	char ex[4096];

	splats("console-clean.txt", 0, "clean console: no splat", ex,
	       sizeof(ex));
	tap_ok(!ex[0], "clean console: empty excerpt");
}

static void oops(char *ex, size_t exlen)
{
	/* Oops:, the Kernel panic line and its end marker. */
	splats("console-oops.txt", 3, "oops console: 3 splat lines", ex, exlen);
	tap_ok(!strncmp(ex, "[   41.207713] Oops: int3: 0000 [#1]", 36),
	       "excerpt starts at the first splat line: %.50s", ex);
	tap_ok(strstr(ex, "page_cache_ra_order+0x1e6/0x390") != NULL,
	       "excerpt keeps the call trace");
	tap_ok(lines(ex) == 31 && strlen(ex) > 30 &&
	       !strcmp(ex + strlen(ex) - 30, "not syncing: Fatal exception ]---"
		       + 3), "excerpt runs to the console's end (%d lines)",
	       lines(ex));
	tap_ok(!strstr(ex, "fsprobe: [2/2]"), "nothing before the oops");
}

/* A long splat is cut at 40 lines. */
static void cut(void)
{
	char text[8192], ex[4096];
	size_t used = 0;
	int i;

	used += snprintf(text, sizeof(text), "boot\n[    1.0] BUG: kernel "
			 "NULL pointer dereference\n");
	for (i = 0; i < 100; i++)
		used += snprintf(text + used, sizeof(text) - used,
				 "[    1.%d]  frame_%d+0x1/0x2\n", i, i);
	TAP_EQ_LONG(fsp_vm_console_splats(text, used, ex, sizeof(ex)), 1,
		    "long splat: 1 splat line");
	tap_ok(lines(ex) == 40 && strstr(ex, "frame_38+") &&
	       !strstr(ex, "frame_39+"), "cut at 40 lines (got %d)",
	       lines(ex));
}

static void warn(void)
{
	char ex[4096];

	splats("console-warn.txt", 1,
	       "warn console: 1 splat line (not the fsprobe: line)", ex,
	       sizeof(ex));
	tap_ok(strstr(ex, "[   30.114712] WARNING: CPU: 0 PID: 190 at "
		      "mm/filemap.c:1560") == ex, "excerpt starts at WARNING");
	tap_ok(strstr(ex, "reboot: Power down") != NULL,
	       "excerpt runs to the end of a short console");
	TAP_EQ_LONG(fsp_vm_console_splats("\r\n\r\n", 4, ex, sizeof(ex)), 0,
		    "an empty console");
}

static void mark(const char *ex)
{
	struct fsp_res_doc *doc = NULL, *back = NULL;
	struct json_object *o;
	char path[4200], err[512];
	int i, all = 1;

	snprintf(path, sizeof(path), "%s/run-6.18.json", datadir);
	if (!tap_ok(!fsp_doc_load(path, &doc, err, sizeof(err)), "load %s",
		    path))
		return;
	fsp_vm_console_mark(doc, ex);
	for (i = 0; i < doc->nr_profiles; i++) {
		const struct fsp_res_profile *p = &doc->profiles[i];

		all &= p->verdict == FSP_V_ERROR && p->reason &&
		       strstr(p->reason, "Oops: int3") && p->kernel_log &&
		       strstr(p->kernel_log, "Call Trace:");
	}
	tap_ok(all && doc->nr_profiles == 6, "all 6 profiles error, reason "
	       "and kernel_log from the excerpt");
	TAP_EQ_LONG(fsp_res_exit_status(doc), 1, "exit status 1");
	o = fsp_res_doc_json(doc);
	tap_ok(!fsp_res_doc_decode(o, "marked", &back, err, sizeof(err)) &&
	       back->profiles[0].verdict == FSP_V_ERROR &&
	       !strcmp(back->profiles[0].kernel_log,
		       doc->profiles[0].kernel_log),
	       "the marked document round-trips");
	json_object_put(o);
	fsp_res_doc_free(back);
	fsp_res_doc_free(doc);
}

int main(void)
{
	const char *src = getenv("srcdir");
	char ex[4096];

	snprintf(datadir, sizeof(datadir), "%s/tests/data", src ? src : ".");
	clean();
	oops(ex, sizeof(ex));
	cut();
	warn();
	mark(ex);
	return tap_done();
}
