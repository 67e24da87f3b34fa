// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_console.c - the guest's console is untrusted text that may show
 * its kernel going wrong: a panic, an oops, BUG, WARNING (the same
 * markers the runner looks for in /dev/kmsg, fsprobe/kmsg.c). A guest
 * whose kernel did that has measured nothing we can trust, even if its
 * fsprobe wrote a document: every profile becomes `error`, with the
 * excerpt from the first splat line on as its kernel_log. The guest's
 * own fsprobe lines ("fsprobe: ...") are its progress, never a splat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg.h"
#include "result.h"
#include "vm.h"

/* Lines the excerpt keeps from the first splat on: an oops and its
 * call trace, not the whole console. */
#define EXCERPT_LINES 40

static int splat_line(const char *s, size_t n)
{
	char line[512];

	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memcpy(line, s, n);
	line[n] = '\0';
	if (strstr(line, "fsprobe: ") == line ||
	    strstr(line, "fsprobe-vm: ") == line)
		return 0;
	return fsp_kmsg_is_splat(line);
}

/* Append line s (n bytes, \r and control bytes made spaces). */
static void put(char *buf, size_t len, size_t *used, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && *used + 1 < len; i++) {
		unsigned char c = s[i];

		buf[(*used)++] = c < 0x20 && c != '\t' ? ' ' : c;
	}
	if (*used + 1 < len)
		buf[(*used)++] = '\n';
	buf[*used] = '\0';
}

int fsp_vm_console_splats(const char *text, size_t len, char *buf,
			  size_t buflen)
{
	const char *p = text, *end = text + len, *nl;
	size_t used = 0;
	int hits = 0, kept = 0;

	if (buflen)
		buf[0] = '\0';
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (splat_line(p, nl - p))
			hits++;
		if ((hits || kept) && kept < EXCERPT_LINES && buflen) {
			put(buf, buflen, &used, p, nl - p);
			kept++;
		}
	}
	while (used && buf[used - 1] == '\n')
		buf[--used] = '\0';
	return hits;
}

/* "LINE" of the excerpt's first line, cut to fit a reason. */
static void first_line(const char *excerpt, char *buf, size_t len)
{
	size_t n = strcspn(excerpt, "\n");

	snprintf(buf, len, "%.*s", (int)n, excerpt);
}

void fsp_vm_console_mark(struct fsp_res_doc *doc, const char *excerpt)
{
	char why[384], line[256];
	int i;

	first_line(excerpt, line, sizeof(line));
	snprintf(why, sizeof(why), "the guest kernel's console shows a "
		 "splat: %s", line);
	for (i = 0; i < doc->nr_profiles; i++) {
		struct fsp_res_profile *p = &doc->profiles[i];
		char *log = NULL;

		fsp_res_set_verdict(p, FSP_V_ERROR, why);
		if (p->kernel_log && asprintf(&log, "%s\n%s", p->kernel_log,
					      excerpt) < 0)
			log = NULL;
		free(p->kernel_log);
		p->kernel_log = log ? log : strdup(excerpt);
	}
}
