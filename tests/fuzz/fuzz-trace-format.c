// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-trace-format.c - libFuzzer target for the tracefs parsers of
 * trace_parse.c. The input is a format text, a NUL byte, then binary
 * bytes (no NUL: the whole input is both). The text goes through
 * fsp_trace_format_parse() and fsp_trace_format_symbols(); every field it
 * yields is looked up by name and read out of the binary bytes as one
 * record. The bytes are then walked as a trace_pipe_raw page with the
 * layout the text gives (when it is a header_page) and with the x86_64
 * and 32-bit layouts, reading the fields from each record the walk hands
 * back, as fsp_trace_collect() does.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct walk {
	const struct fsp_trace_format *f;	/* NULL: text did not parse */
	const uint8_t *page;
	size_t len;
};

static void fail(const char *what)
{
	fprintf(stderr, "fuzz-trace-format: %s\n", what);
	abort();
}

static void read_fields(const struct fsp_trace_format *f, const void *rec,
			size_t len)
{
	const struct fsp_trace_field *fl;
	unsigned int i;
	uint64_t v;

	for (i = 0; i < f->nr_fields; i++) {
		fl = fsp_trace_format_field(f, f->field[i].name);
		if (!fl)
			fail("a parsed field is not found by its name");
		if (!fsp_trace_field_get(fl, rec, len, &v) &&
		    (size_t)fl->offset + fl->size > len)
			fail("field read past the record");
	}
}

static int on_record(void *ctx, const void *rec, size_t len)
{
	const struct walk *w = ctx;
	const uint8_t *r = rec;
	size_t off = r - w->page;

	if (r < w->page || off > w->len || len > w->len - off)
		fail("record outside the page");
	if (w->f)
		read_fields(w->f, rec, len);
	return 0;
}

static void walk_page(const struct fsp_trace_page_layout *l, struct walk *w)
{
	int missed, n;

	n = fsp_trace_page_parse(l, w->page, w->len, on_record, w, &missed);
	if (n < 0 && n != -EINVAL)
		fail("page walk: unexpected error");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fsp_trace_page_layout fixed[] = {
		{ 8, 8, 16, 4096 },	/* x86_64 header_page */
		{ 8, 4, 12, 4096 },	/* 32-bit: local_t commit is 4 bytes */
	};
	struct fsp_trace_sym sym[FSP_TRACE_MAX_SYMS];
	struct fsp_trace_format *f = malloc(sizeof(*f));
	struct fsp_trace_page_layout l;
	const uint8_t *nul = memchr(data, '\0', size);
	size_t tlen = nul ? (size_t)(nul - data) : size;
	struct walk w;
	char *text;
	unsigned int i;
	int ret;

	/* An exact-size copy: ASan sees any read past the text. */
	text = malloc(tlen ? tlen : 1);
	if (!f || !text)
		goto out;
	memcpy(text, data, tlen);
	w.page = nul ? nul + 1 : data;
	w.len = nul ? size - tlen - 1 : size;

	ret = fsp_trace_format_parse(text, tlen, f);
	if (ret && ret != -EINVAL && ret != -E2BIG)
		fail("format parse: unexpected error");
	if (!ret && (f->nr_fields == 0 || f->nr_fields > FSP_TRACE_MAX_FIELDS))
		fail("format parse: field count out of range");
	w.f = ret ? NULL : f;
	if (w.f) {
		read_fields(f, w.page, w.len);
		if (!fsp_trace_layout_from_format(f, &l))
			walk_page(&l, &w);
	}
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		walk_page(&fixed[i], &w);

	ret = fsp_trace_format_symbols(text, tlen, "result", sym,
				       FSP_TRACE_MAX_SYMS);
	if (ret > FSP_TRACE_MAX_SYMS)
		fail("symbols: more than max");
	for (i = 0; ret > 0 && i < (unsigned int)ret; i++)
		if (!memchr(sym[i].name, '\0', sizeof(sym[i].name)))
			fail("symbols: unterminated name");
out:
	free(text);
	free(f);
	return 0;
}
