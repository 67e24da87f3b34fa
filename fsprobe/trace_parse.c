// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace_parse.c - the pure half of trace.h: tracefs format files, the
 * __print_symbolic table of a print fmt, and ring-buffer pages as
 * trace_pipe_raw returns them. No I/O. Nothing here trusts its input:
 * lines are bounded, numbers are bounded, and every record is checked
 * against the page's commit size before a byte of it is read.
 */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "trace.h"
#include "util.h"

#define LINE_MAX_LEN	512

/* Ring-buffer encoding (kernel/trace/ring_buffer.c). */
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_COMMIT_MASK		((1ULL << 30) - 1)

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Decimal number of at most 9 digits filling [s, e) exactly. */
static int parse_num(const char *s, const char *e, unsigned int *val)
{
	unsigned int v = 0;

	if (s == e || e - s > 9)
		return -EINVAL;
	for (; s < e; s++) {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		v = v * 10 + (*s - '0');
	}
	*val = v;
	return 0;
}

static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

static int copy_span(char *dst, size_t len, const char *s, const char *e)
{
	if (e <= s || (size_t)(e - s) >= len)
		return -EINVAL;
	memcpy(dst, s, e - s);
	dst[e - s] = '\0';
	return 0;
}

/* "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" (NUL-terminated). */
static int parse_field(const char *s, struct fsp_trace_field *fl)
{
	const char *decl, *end, *name, *semi, *tok, *colon;
	int have_off = 0, have_size = 0;
	unsigned int v;

	memset(fl, 0, sizeof(*fl));
	decl = s + strlen("field:");
	semi = strchr(decl, ';');
	if (!semi)
		return -EINVAL;
	end = semi;
	trim(&decl, &end);
	name = end;
	while (name > decl && !isspace((unsigned char)name[-1]))
		name--;
	if (name == decl)
		return -EINVAL;		/* no type */
	tok = memchr(name, '[', end - name);	/* "comm[16]" */
	if (copy_span(fl->name, sizeof(fl->name), name, tok ? tok : end))
		return -EINVAL;
	for (tok = fl->name; *tok; tok++)
		if (!isalnum((unsigned char)*tok) && *tok != '_')
			return -EINVAL;
	tok = name;
	trim(&decl, &tok);
	if (copy_span(fl->type, sizeof(fl->type), decl, tok))
		return -EINVAL;

	for (tok = semi + 1; *tok; tok = semi + 1) {
		semi = strchr(tok, ';');
		if (!semi)
			semi = tok + strlen(tok);
		end = semi;
		trim(&tok, &end);
		colon = memchr(tok, ':', end - tok);
		if (colon) {
			if (parse_num(colon + 1, end, &v))
				return -EINVAL;
			if (!strncmp(tok, "offset:", 7)) {
				fl->offset = v;
				have_off = 1;
			} else if (!strncmp(tok, "size:", 5)) {
				fl->size = v;
				have_size = 1;
			} else if (!strncmp(tok, "signed:", 7)) {
				fl->is_signed = v != 0;
			}
		} else if (tok != end) {
			return -EINVAL;
		}
		if (!*semi)
			break;
	}
	if (!have_off || !have_size || fl->offset > 65535 || fl->size > 65535)
		return -EINVAL;
	return 0;
}

int fsp_trace_format_parse(const char *text, size_t len,
			   struct fsp_trace_format *f)
{
	int saw_print = 0, ret;
	char buf[LINE_MAX_LEN + 1];
	const char *p = text, *end = text + len, *nl, *s, *e;
	unsigned int v;

	memset(f, 0, sizeof(*f));
	f->id = -1;
	if (!text)
		return -EINVAL;
	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		s = p;
		e = nl;
		p = nl + 1;
		trim(&s, &e);
		if ((size_t)(e - s) > LINE_MAX_LEN) {
			if (memcmp(s, "print fmt:", 10))
				return -EINVAL;
			saw_print = 1;
			continue;
		}
		memcpy(buf, s, e - s);
		buf[e - s] = '\0';
		if (starts(buf, "name:")) {
			s = buf + 5;
			e = buf + strlen(buf);
			trim(&s, &e);
			if (copy_span(f->name, sizeof(f->name), s, e))
				return -EINVAL;
		} else if (starts(buf, "ID:")) {
			s = buf + 3;
			e = buf + strlen(buf);
			trim(&s, &e);
			if (parse_num(s, e, &v) || v > 65535)
				return -EINVAL;
			f->id = v;
		} else if (starts(buf, "field:")) {
			if (f->nr_fields == FSP_TRACE_MAX_FIELDS)
				return -E2BIG;
			ret = parse_field(buf, &f->field[f->nr_fields]);
			if (ret)
				return ret;
			f->nr_fields++;
		} else if (starts(buf, "print fmt:")) {
			saw_print = 1;
		}
		/* "format:", blank and unknown lines: nothing to keep. */
	}
	if (!f->nr_fields)
		return -EINVAL;
	if (f->name[0] && (f->id < 0 || !saw_print))
		return -EINVAL;
	return 0;
}

const struct fsp_trace_field *
fsp_trace_format_field(const struct fsp_trace_format *f, const char *name)
{
	unsigned int i;

	for (i = 0; i < f->nr_fields; i++)
		if (!strcmp(f->field[i].name, name))
			return &f->field[i];
	return NULL;
}

/* The size-byte integer at p in host byte order, sign-extended if asked. */
static uint64_t load_int(const unsigned char *p, unsigned int size,
			 int is_signed)
{
	unsigned int shift = 64 - 8 * size, i;
	int le = __BYTE_ORDER == __LITTLE_ENDIAN;
	uint64_t v = 0;

	for (i = 0; i < size; i++)
		v = v << 8 | p[le ? size - 1 - i : i];
	if (!is_signed || !shift)
		return v;
	return (uint64_t)((int64_t)(v << shift) >> shift);
}

int fsp_trace_field_get(const struct fsp_trace_field *fl, const void *rec,
			size_t len, uint64_t *val)
{
	if (!fl || !rec || fl->offset > len || fl->size > len - fl->offset)
		return -EINVAL;
	if (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8)
		return -EINVAL;
	*val = load_int((const unsigned char *)rec + fl->offset, fl->size,
			fl->is_signed);
	return 0;
}

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* One "{VALUE, "NAME"}" at p; *ok = 0 if VALUE is not a plain number. */
static const char *parse_sym(const char *p, const char *end,
			     struct fsp_trace_sym *sym, int *ok)
{
	unsigned long long v = 0;
	int neg = 0, digits = 0, base = 10, d;
	const char *q;

	p = skip_ws(p + 1, end);
	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (; p < end && isxdigit((unsigned char)*p); p++, digits++) {
		d = isdigit((unsigned char)*p) ? *p - '0' :
			tolower((unsigned char)*p) - 'a' + 10;
		if (d >= base || digits > 15)
			break;
		v = v * base + d;
	}
	p = skip_ws(p, end);
	*ok = digits && p < end && *p == ',';
	sym->value = neg ? -(long long)v : (long long)v;
	sym->name[0] = '\0';
	q = memchr(p, '"', end - p);
	if (*ok && q) {
		p = q + 1;
		q = memchr(p, '"', end - p);
		if (!q || (size_t)(q - p) >= sizeof(sym->name) ||
		    memchr(p, '}', q - p))
			*ok = 0;
		else
			copy_span(sym->name, sizeof(sym->name), p, q);
	}
	q = memchr(p, '}', end - p);
	return q ? q + 1 : NULL;
}

int fsp_trace_format_symbols(const char *text, size_t len, const char *field,
			     struct fsp_trace_sym *sym, size_t max)
{
	char needle[FSP_TRACE_NAME_MAX + 32];
	const char *p, *end = text + len;
	struct fsp_trace_sym one;
	size_t n = 0;
	int ok;

	if (!text || fsp_fmt(needle, sizeof(needle),
			     "__print_symbolic(REC->%s,", field))
		return -EINVAL;
	p = memmem(text, len, needle, strlen(needle));
	if (!p)
		return -ENOENT;
	p += strlen(needle);
	for (;;) {
		p = skip_ws(p, end);
		if (p >= end)
			return -EINVAL;		/* truncated */
		if (*p == ')')
			break;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p != '{')
			return -EINVAL;
		p = parse_sym(p, end, &one, &ok);
		if (!p)
			return -EINVAL;
		if (ok && one.name[0] && n < max)
			sym[n++] = one;
	}
	return n;
}

int fsp_trace_layout_from_format(const struct fsp_trace_format *hp,
				 struct fsp_trace_page_layout *l)
{
	const struct fsp_trace_field *c = fsp_trace_format_field(hp, "commit");
	const struct fsp_trace_field *d = fsp_trace_format_field(hp, "data");

	if (!c || !d || (c->size != 4 && c->size != 8) ||
	    c->offset + c->size > d->offset || d->size < 8)
		return -EINVAL;
	l->commit_off = c->offset;
	l->commit_size = c->size;
	l->data_off = d->offset;
	l->page_size = d->offset + d->size;
	return 0;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

int fsp_trace_page_parse(const struct fsp_trace_page_layout *l,
			 const void *page, size_t len, fsp_trace_record_fn fn,
			 void *ctx, int *missed)
{
	const unsigned char *base = page;
	uint64_t commit = 0;
	size_t pos, end, rlen, dlen, data;
	unsigned int type, delta;
	uint32_t hdr, a0;
	int n = 0, ret;

	*missed = 0;
	if (!l || !page || l->commit_off + l->commit_size > l->data_off ||
	    len < l->data_off)
		return -EINVAL;
	if (l->commit_size == 4)
		commit = get32(base + l->commit_off);
	else if (l->commit_size == 8)
		memcpy(&commit, base + l->commit_off, 8);
	else
		return -EINVAL;
	*missed = !!(commit & RB_MISSED_EVENTS);
	end = commit & RB_COMMIT_MASK;
	if (end > len - l->data_off)
		return -EINVAL;
	pos = l->data_off;
	end += l->data_off;
	while (end - pos >= 4) {
		hdr = get32(base + pos);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		type = hdr >> 27;
		delta = hdr & ((1U << 27) - 1);
#else
		type = hdr & 31;
		delta = hdr >> 5;
#endif
		data = 0;
		dlen = 0;
		if (type == RB_TYPE_TIME_EXTEND || type == RB_TYPE_TIME_STAMP) {
			rlen = 8;
		} else if (type == RB_TYPE_PADDING || type == 0) {
			if (type == RB_TYPE_PADDING && !delta)
				break;		/* the rest is padding */
			if (end - pos < 8)
				return -EINVAL;
			a0 = get32(base + pos + 4);
			if (a0 > end - pos - 4)
				return -EINVAL;
			rlen = (size_t)a0 + 4;
			if (type == 0) {
				if (a0 < 4)
					return -EINVAL;
				data = pos + 8;
				dlen = a0 - 4;
			}
		} else {
			data = pos + 4;
			dlen = type * 4;
			rlen = dlen + 4;
		}
		if (rlen > end - pos)
			return -EINVAL;
		if (data) {
			ret = fn(ctx, base + data, dlen);
			if (ret)
				return ret;
			n++;
		}
		pos += rlen;
	}
	return n;
}

uint32_t fsp_trace_kdev(dev_t dev)
{
	return ((uint32_t)major(dev) << 20) | (minor(dev) & ((1U << 20) - 1));
}
