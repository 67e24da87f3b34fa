// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-trace.c - the tracefs parsers on recorded kernel output: the format of
 * filemap/mm_filemap_add_to_page_cache, huge_memory/mm_khugepaged_
 * collapse_file and events/header_page as Linux 6.18.44 prints them, and
 * ring-buffer pages read from per_cpu/cpu0/trace_pipe_raw on that kernel
 * while an 8 MiB xfs file was read or faulted (tests/data/trace-*). Then
 * layouts of other kernels, malformed text, corrupt pages, and mutation
 * runs that must fail cleanly. No root needed.
 *
 * trace-format-add-u64ino.txt is derived, not recorded: the layout of
 * Jeff Layton's "[PATCH v3 04/12] vfs: widen trace event i_ino fields to
 * u64" (linux-fsdevel, 2026-03-04, Message-Id <20260304-iino-u64-v3-4-
 * 2257ad83d372@kernel.org>), which moves i_ino first as a u64 and prints
 * it with %llx; offsets are what that struct gives on x86_64, the ID is
 * arbitrary (IDs are assigned at boot). trace-format-add-noorder.txt is
 * the older struct-page layout of include/trace/events/filemap.h in
 * torvalds/linux (pfn, i_ino, index, s_dev; "page=%p pfn=%lu"), before
 * the order field existed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "tap.h"
#include "trace.h"
#include "util.h"

#define XFS_KDEV	(7U << 20)	/* the loop0 xfs of the recordings */


/* TAP_EQ_LONG evaluates its arguments twice: never hand it a call. */
static int eq(long got, long want, const char *name)
{
	return TAP_EQ_LONG(got, want, name);
}

static const char *data_path(const char *name)
{
	static char path[4200];
	const char *d = getenv("FSP_TEST_DATA"), *s = getenv("srcdir");

	if (d)
		snprintf(path, sizeof(path), "%s/%s", d, name);
	else
		snprintf(path, sizeof(path), "%s/tests/data/%s", s ? s : ".",
			 name);
	return path;
}

static char *load(const char *name, size_t *len)
{
	char *buf = NULL;

	if (fsp_slurp(data_path(name), &buf, len))
		return NULL;
	return buf;
}

static int parse_file(const char *name, struct fsp_trace_format *f)
{
	size_t len;
	char *text = load(name, &len);
	int ret;

	if (!text)
		return -ENOENT;
	ret = fsp_trace_format_parse(text, len, f);
	free(text);
	return ret;
}

static void check_field(const struct fsp_trace_format *f, const char *name,
			unsigned int off, unsigned int size, const char *type)
{
	const struct fsp_trace_field *fl = fsp_trace_format_field(f, name);

	tap_ok(fl && fl->offset == off && fl->size == size &&
	       !strcmp(fl->type, type), "%s: field %s at %u size %u type '%s'",
	       f->name, name, off, size, type);
}

static void test_formats(void)
{
	struct fsp_trace_format f;
	struct fsp_trace_page_layout l;
	const struct fsp_trace_field *fl;

	eq(parse_file("trace-format-add-6.18.txt", &f), 0,
		    "6.18 add_to_page_cache format parses");
	eq(f.id, 600, "6.18: ID");
	eq(f.nr_fields, 9, "6.18: 4 common + 5 event fields");
	check_field(&f, "pfn", 8, 8, "unsigned long");
	check_field(&f, "i_ino", 16, 8, "unsigned long");
	check_field(&f, "index", 24, 8, "unsigned long");
	check_field(&f, "s_dev", 32, 4, "dev_t");
	check_field(&f, "order", 36, 1, "unsigned char");
	fl = fsp_trace_format_field(&f, "common_pid");
	tap_ok(fl && fl->is_signed, "6.18: common_pid is signed");
	tap_ok(!fsp_trace_format_field(&f, "nope"), "unknown field: NULL");

	eq(parse_file("trace-format-add-u64ino.txt", &f), 0,
		    "u64 i_ino layout parses");
	eq(f.id, 612, "u64 layout: ID from the file");
	check_field(&f, "i_ino", 8, 8, "u64");
	check_field(&f, "pfn", 16, 8, "unsigned long");
	check_field(&f, "order", 36, 1, "unsigned char");

	eq(parse_file("trace-format-add-noorder.txt", &f), 0,
		    "pre-order layout parses");
	tap_ok(!fsp_trace_format_field(&f, "order"),
	       "pre-order layout: no order field");

	eq(parse_file("trace-format-collapse-file-6.18.txt", &f), 0,
		    "collapse_file format parses");
	check_field(&f, "mm", 8, 8, "struct mm_struct *");
	check_field(&f, "filename", 44, 4, "__data_loc char[]");
	check_field(&f, "result", 52, 4, "int");

	eq(parse_file("trace-header-page-6.18.txt", &f), 0,
		    "header_page parses");
	eq(f.id, -1, "header_page: no ID");
	eq(fsp_trace_layout_from_format(&f, &l), 0,
		    "header_page: page layout");
	tap_ok(l.commit_off == 8 && l.commit_size == 8 && l.data_off == 16 &&
	       l.page_size == 4096, "layout: commit 8/8, data 16, page 4096");
}

static void test_symbols(void)
{
	struct fsp_trace_sym sym[FSP_TRACE_MAX_SYMS];
	size_t len;
	char *text = load("trace-format-collapse-file-6.18.txt", &len);
	const char *cut;
	int n;

	if (!tap_ok(text != NULL, "load collapse_file format"))
		return;
	n = fsp_trace_format_symbols(text, len, "result", sym,
				     FSP_TRACE_MAX_SYMS);
	eq(n, 31, "result: 31 SCAN_* names");
	tap_ok(n == 31 && sym[0].value == 0 && !strcmp(sym[0].name, "failed") &&
	       sym[18].value == 18 && !strcmp(sym[18].name, "page_compound") &&
	       sym[30].value == 30 && !strcmp(sym[30].name, "page_filled"),
	       "result: 0 failed, 18 page_compound, 30 page_filled");
	n = fsp_trace_format_symbols(text, len, "result", sym, 4);
	eq(n, 4, "result: stops at max");
	eq(fsp_trace_format_symbols(text, len, "nr", sym, 4), -ENOENT,
		    "no table for nr: -ENOENT");
	cut = strstr(text, "{12, ");
	eq(fsp_trace_format_symbols(text, cut - text, "result", sym,
					     FSP_TRACE_MAX_SYMS),
		    -EINVAL, "truncated table: -EINVAL");
	free(text);
}

static void test_malformed(void)
{
	static const struct {
		const char *text;
		int ret;
		const char *why;
	} bad[] = {
		{ "", -EINVAL, "empty text" },
		{ "hello\nworld\n", -EINVAL, "garbage" },
		{ "\tfield:int x;\tsize:4;\tsigned:1;\n", -EINVAL,
		  "no offset" },
		{ "\tfield:int x;\toffset:4;\n", -EINVAL, "no size" },
		{ "\tfield:x;\toffset:0;\tsize:4;\n", -EINVAL, "no type" },
		{ "\tfield:int x;\toffset:abc;\tsize:4;\n", -EINVAL,
		  "non-numeric offset" },
		{ "\tfield:int x;\toffset:99999999999;\tsize:4;\n", -EINVAL,
		  "offset overflow" },
		{ "\tfield:int x;\toffset:-4;\tsize:4;\n", -EINVAL,
		  "negative offset" },
		{ "\tfield:int x\toffset:0;\tsize:4;\n", -EINVAL,
		  "no semicolon after the name" },
		{ "\tfield:int x-y;\toffset:0;\tsize:4;\n", -EINVAL,
		  "bad name" },
		{ "name: e\nformat:\n\tfield:int x;\toffset:0;\tsize:4;\n"
		  "print fmt: \"\"\n", -EINVAL, "event without ID" },
		{ "name: e\nID: 7\nformat:\n\tfield:int x;\toffset:0;\t"
		  "size:4;\n", -EINVAL, "event without print fmt" },
		{ "name: e\nID: 70000\n", -EINVAL, "ID above 16 bits" },
	};
	struct fsp_trace_format f;
	char big[4096], *text;
	size_t i, len, pf;
	int ret, worst = 0;

	for (i = 0; i < FSP_ARRAY_SIZE(bad); i++)
		eq(fsp_trace_format_parse(bad[i].text,
						   strlen(bad[i].text), &f),
			    bad[i].ret, bad[i].why);
	eq(fsp_trace_format_parse(NULL, 0, &f), -EINVAL, "NULL text");

	ret = fsp_trace_format_parse("\tfield:char comm[16];\toffset:8;\t"
				     "size:16;\tsigned:0;\n", 40, &f);
	tap_ok(!ret && !strcmp(f.field[0].name, "comm") &&
	       !strcmp(f.field[0].type, "char"), "array field: name comm");

	len = 0;
	for (i = 0; i <= FSP_TRACE_MAX_FIELDS; i++)
		len += snprintf(big + len, sizeof(big) - len,
				"\tfield:int f%zu;\toffset:%zu;\tsize:4;\n",
				i, i * 4);
	eq(fsp_trace_format_parse(big, len, &f), -E2BIG,
		    "33 fields: -E2BIG");
	memset(big, 'x', 600);
	memcpy(big, "\tfield:int ", 11);
	memcpy(big + 590, " y;\toffset", 10);
	eq(fsp_trace_format_parse(big, 600, &f), -EINVAL,
		    "600-byte field line: -EINVAL");

	text = load("trace-format-add-6.18.txt", &len);
	if (!tap_ok(text != NULL, "load 6.18 format"))
		return;
	/* Every cut before "print fmt:" must be refused, none may crash. */
	pf = strstr(text, "print fmt:") - text;
	for (i = 0; i < pf; i++)
		if (fsp_trace_format_parse(text, i, &f) >= 0)
			worst++;
	eq(worst, 0, "every truncation before print fmt refused");
	text[strstr(text, "offset:24") - text + 7] = '\0';
	eq(fsp_trace_format_parse(text, len, &f), -EINVAL,
		    "NUL inside a field line: -EINVAL");
	free(text);
}

/* The fields a page-cache record is decoded with, from its format. */
struct decode {
	const struct fsp_trace_format *f;
	unsigned long n, bad, foreign;
	uint64_t ino, next;
	int contiguous;
	struct fsp_order_hist h;
};

static int get(const struct decode *d, const char *name, const void *rec,
	       size_t len, uint64_t *v)
{
	return fsp_trace_field_get(fsp_trace_format_field(d->f, name), rec,
				   len, v);
}

static int on_rec(void *ctx, const void *rec, size_t len)
{
	struct decode *d = ctx;
	uint64_t type, dev, ino, index, order;

	if (get(d, "common_type", rec, len, &type) ||
	    type != (uint64_t)d->f->id || get(d, "s_dev", rec, len, &dev) ||
	    get(d, "i_ino", rec, len, &ino) ||
	    get(d, "index", rec, len, &index) ||
	    get(d, "order", rec, len, &order) || order > FSP_ORDER_MAX) {
		d->bad++;
		return 0;
	}
	if (dev != XFS_KDEV || ino != d->ino)
		d->foreign++;
	/* One reader, in file order: each folio starts where the last ended. */
	if (index != d->next)
		d->contiguous = 0;
	d->next = index + (1ULL << order);
	fsp_order_hist_add(&d->h, (int)order);
	d->h.nr_pages += 1UL << order;
	d->n++;
	return 0;
}

static void test_raw(const char *file, uint64_t ino, unsigned long nr,
		     const char *want)
{
	struct fsp_trace_format f, hp;
	struct fsp_trace_page_layout l;
	struct decode d = { .f = &f, .ino = ino, .contiguous = 1 };
	size_t len, off;
	char *raw, got[128];
	const char *g = got;
	int ret = 0, missed, pages = 0, lost = 0;

	fsp_order_hist_init(&d.h);
	raw = load(file, &len);
	if (!tap_ok(raw && len && len % 4096 == 0 &&
		    !parse_file("trace-format-add-6.18.txt", &f) &&
		    !parse_file("trace-header-page-6.18.txt", &hp) &&
		    !fsp_trace_layout_from_format(&hp, &l),
		    "%s: load", file)) {
		free(raw);
		return;
	}
	for (off = 0; off < len && ret >= 0; off += l.page_size, pages++) {
		ret = fsp_trace_page_parse(&l, raw + off, l.page_size, on_rec,
					   &d, &missed);
		lost += missed;
	}
	eq(ret >= 0, 1, "pages decode");
	tap_ok(d.n == nr && !d.bad && !d.foreign && !lost,
	       "%s: %lu records in %d pages, all ino %llu on 7:0 "
	       "(got %lu, %lu bad, %lu foreign)", file, nr, pages,
	       (unsigned long long)ino, d.n, d.bad, d.foreign);
	fsp_order_hist_fmt(&d.h, got, sizeof(got));
	TAP_EQ_STR(g, want, "orders match the text trace of the same run");
	eq(d.h.nr_pages, 2048, "folios cover the 8 MiB file");
	tap_ok(d.contiguous, "folios follow each other by index");
	free(raw);
}

static size_t put(unsigned char *p, size_t pos, const void *v, size_t n)
{
	memcpy(p + pos, v, n);
	return pos + n;
}

static unsigned int off(const struct fsp_trace_format *f, const char *name)
{
	return fsp_trace_format_field(f, name)->offset;
}

/* Write one add_to_page_cache payload in layout f at rec. */
static void fill(const struct fsp_trace_format *f, unsigned char *rec,
		 uint64_t index, uint8_t order)
{
	uint16_t type = f->id;
	uint32_t dev = XFS_KDEV;
	uint64_t ino = 0x123456789ULL;

	memcpy(rec + off(f, "common_type"), &type, 2);
	memcpy(rec + off(f, "s_dev"), &dev, 4);
	memcpy(rec + off(f, "i_ino"), &ino, 8);
	memcpy(rec + off(f, "index"), &index, 8);
	memcpy(rec + off(f, "order"), &order, 1);
}

static void test_synthetic_page(void)
{
	struct fsp_trace_page_layout l = { 8, 8, 16, 4096 };
	struct fsp_trace_format f;
	struct decode d = { .f = &f, .ino = 0x123456789ULL, .contiguous = 1 };
	unsigned char page[4096];
	uint32_t hdr, a0;
	uint64_t commit;
	size_t pos = 16;
	char got[64];
	const char *g = got;
	int n, missed;

	fsp_order_hist_init(&d.h);
	if (!tap_ok(!parse_file("trace-format-add-u64ino.txt", &f),
		    "u64 layout for the synthetic page"))
		return;
	memset(page, 0, sizeof(page));
	hdr = 30 | (5U << 5);			/* time extend */
	pos = put(page, pos, &hdr, 4);
	pos = put(page, pos, &hdr, 4);
	hdr = 10;				/* short form, 40 bytes */
	pos = put(page, pos, &hdr, 4);
	fill(&f, page + pos, 0, 9);
	pos += 40;
	hdr = 29 | (1U << 5);			/* discarded event */
	a0 = 12;
	pos = put(page, pos, &hdr, 4);
	pos = put(page, pos, &a0, 4);
	pos += 8;
	hdr = 0;				/* long form */
	a0 = 44;
	pos = put(page, pos, &hdr, 4);
	pos = put(page, pos, &a0, 4);
	fill(&f, page + pos, 512, 9);
	pos += 40;
	hdr = 31;				/* absolute time stamp */
	pos = put(page, pos, &hdr, 4);
	pos = put(page, pos, &hdr, 4);
	hdr = 29;				/* end-of-page padding */
	put(page, pos, &hdr, 4);
	commit = pos + 8 - 16;
	memcpy(page + 8, &commit, 8);
	n = fsp_trace_page_parse(&l, page, sizeof(page), on_rec, &d, &missed);
	eq(n, 2, "synthetic page: 2 records among extend/padding");
	fsp_order_hist_fmt(&d.h, got, sizeof(got));
	TAP_EQ_STR(g, "9:2", "synthetic page, u64 i_ino layout: 9:2");
	tap_ok(!d.bad && !d.foreign && d.contiguous && !missed,
	       "synthetic page: ino 0x123456789 read at offset 8");

	commit |= 1ULL << 31;
	memcpy(page + 8, &commit, 8);
	fsp_trace_page_parse(&l, page, sizeof(page), on_rec, &d, &missed);
	eq(missed, 1, "RB_MISSED_EVENTS reported");

	commit = 4096;
	memcpy(page + 8, &commit, 8);
	eq(fsp_trace_page_parse(&l, page, sizeof(page), on_rec, &d,
					 &missed), -EINVAL,
		    "commit beyond the page: -EINVAL");
	commit = 40;				/* cuts the first record */
	memcpy(page + 8, &commit, 8);
	eq(fsp_trace_page_parse(&l, page, sizeof(page), on_rec, &d,
					 &missed), -EINVAL,
		    "record beyond commit: -EINVAL");
	commit = 16;
	memcpy(page + 8, &commit, 8);
	a0 = 2;
	hdr = 0;
	memcpy(page + 16, &hdr, 4);
	memcpy(page + 20, &a0, 4);
	eq(fsp_trace_page_parse(&l, page, sizeof(page), on_rec, &d,
					 &missed), -EINVAL,
		    "long form with length 2: -EINVAL");
	eq(fsp_trace_page_parse(&l, page, 12, on_rec, &d, &missed),
		    -EINVAL, "page shorter than its header: -EINVAL");
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static int count_rec(void *ctx, const void *rec, size_t len)
{
	(*(unsigned long *)ctx) += len;
	return 0;
}

/* Mutated inputs: any answer will do, as long as nothing crashes. */
static void test_mutations(void)
{
	struct fsp_trace_page_layout l = { 8, 8, 16, 4096 };
	struct fsp_trace_sym sym[8];
	struct fsp_trace_format f;
	unsigned long sink = 0;
	size_t len, rlen, i;
	char *text, *raw, *m;
	uint32_t s = 2463534242U;
	int k, missed, ok = 0;

	text = load("trace-format-collapse-file-6.18.txt", &len);
	raw = load("trace-raw-xfs-read.bin", &rlen);
	if (!tap_ok(text && raw, "load inputs to mutate"))
		goto out;
	m = malloc(len > 4096 ? len : 4096);
	for (k = 0; k < 20000; k++) {
		memcpy(m, text, len);
		for (i = 0; i < 1 + rnd(&s) % 8; i++)
			m[rnd(&s) % len] = (char)rnd(&s);
		if (fsp_trace_format_parse(m, rnd(&s) % (len + 1), &f) == 0)
			ok++;
		fsp_trace_format_symbols(m, len, "result", sym, 8);
		memcpy(m, raw, 4096);
		for (i = 0; i < 1 + rnd(&s) % 8; i++)
			m[rnd(&s) % 4096] = (char)rnd(&s);
		fsp_trace_page_parse(&l, m, 4096, count_rec, &sink, &missed);
	}
	free(m);
	tap_ok(1, "20000 mutated formats and pages (%d formats still parse)",
	       ok);
out:
	free(text);
	free(raw);
}

static void test_misc(void)
{
	struct fsp_trace_field fl = { .offset = 2, .size = 2, .is_signed = 1 };
	unsigned char rec[8] = { 0, 0, 0xfe, 0xff, 0x01, 0, 0, 0 };
	uint64_t v = 0;

	eq(fsp_trace_kdev(makedev(7, 0)), 7U << 20, "kdev 7:0");
	eq(fsp_trace_kdev(makedev(259, 300)), (259U << 20) | 300,
		    "kdev 259:300 (minor above 255)");
	tap_ok(fsp_trace_kdev(makedev(8, 300)) != (uint32_t)makedev(8, 300),
	       "kdev differs from the userspace dev_t");
	tap_ok(!fsp_trace_field_get(&fl, rec, 8, &v) && (int64_t)v == -2,
	       "signed 16-bit field sign-extends");
	fl.is_signed = 0;
	tap_ok(!fsp_trace_field_get(&fl, rec, 8, &v) && v == 0xfffe,
	       "unsigned 16-bit field");
	fl.offset = 7;
	eq(fsp_trace_field_get(&fl, rec, 8, &v), -EINVAL,
		    "field past the record: -EINVAL");
	fl.offset = 0;
	fl.size = 3;
	eq(fsp_trace_field_get(&fl, rec, 8, &v), -EINVAL,
		    "3-byte field: -EINVAL");
	eq(fsp_trace_field_get(NULL, rec, 8, &v), -EINVAL,
		    "absent field: -EINVAL");
}

int main(void)
{
	test_formats();
	test_symbols();
	test_malformed();
	test_raw("trace-raw-xfs-read.bin", 134, 241,
		 "0:128 2:64 4:32 6:16 7:1");
	test_raw("trace-raw-xfs-pmd.bin", 132, 4, "9:4");
	test_raw("trace-raw-xfs-small.bin", 133, 842, "0:640 2:160 4:40 6:2");
	test_synthetic_page();
	test_mutations();
	test_misc();
	return tap_done();
}
