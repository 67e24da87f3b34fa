// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smaps.c - parse smaps text. A VMA header is "START-END PERMS OFFSET
 * DEV INODE [PATH]"; fields follow as "Name: value [kB]" until the next
 * header. Unknown fields are ignored, missing ones stay -1, so a kernel
 * that adds or drops a field never makes us misreport another.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smaps.h"
#include "util.h"

static int parse_header(const char *line, size_t n, struct fsp_smaps_vma *v)
{
	char buf[512], perms[8] = "", path[256] = "";
	unsigned long start, end, off;
	int pos = 0;

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	if (sscanf(buf, "%lx-%lx %7s %lx %*s %*u%n", &start, &end, perms,
		   &off, &pos) < 4 || !pos)
		return -EINVAL;
	sscanf(buf + pos, " %255[^\n]", path);
	memset(v, 0, sizeof(*v));
	v->start = start;
	v->end = end;
	v->offset = off;
	memcpy(v->perms, perms, sizeof(v->perms));
	snprintf(v->path, sizeof(v->path), "%s", path);
	v->rss_kb = v->file_pmd_kb = v->shmem_pmd_kb = v->anon_huge_kb = -1;
	v->thp_eligible = -1;
	return 0;
}

static int is_header(const char *line, size_t n)
{
	size_t i = 0;

	while (i < n && isxdigit((unsigned char)line[i]))
		i++;
	return i > 0 && i < n && line[i] == '-';
}

static void parse_field(const char *line, size_t n, struct fsp_smaps_vma *v)
{
	static const struct { const char *name; size_t off; } kb[] = {
		{ "Rss:", offsetof(struct fsp_smaps_vma, rss_kb) },
		{ "FilePmdMapped:", offsetof(struct fsp_smaps_vma, file_pmd_kb) },
		{ "ShmemPmdMapped:", offsetof(struct fsp_smaps_vma, shmem_pmd_kb) },
		{ "AnonHugePages:", offsetof(struct fsp_smaps_vma, anon_huge_kb) },
	};
	char buf[256];
	size_t i;

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	for (i = 0; i < FSP_ARRAY_SIZE(kb); i++) {
		size_t l = strlen(kb[i].name);
		long val;

		if (!strncmp(buf, kb[i].name, l) &&
		    sscanf(buf + l, " %ld kB", &val) == 1 && val >= 0) {
			*(long *)((char *)v + kb[i].off) = val;
			return;
		}
	}
	if (!strncmp(buf, "THPeligible:", 12)) {
		int e;

		if (sscanf(buf + 12, " %d", &e) == 1)
			v->thp_eligible = e;
	} else if (!strncmp(buf, "VmFlags:", 8)) {
		snprintf(v->vmflags, sizeof(v->vmflags), "%s",
			 fsp_lstrip(buf + 8));
	}
}

int fsp_smaps_parse(const char *text, size_t len, unsigned long addr,
		    struct fsp_smaps_vma *vma)
{
	const char *p = text, *end = text + len;
	int in = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (is_header(p, n)) {
			struct fsp_smaps_vma v;

			if (in)
				return 0;	/* next VMA: ours is complete */
			if (!parse_header(p, n, &v) && v.start <= addr &&
			    addr < v.end) {
				*vma = v;
				in = 1;
			}
		} else if (in) {
			parse_field(p, n, vma);
		}
		p += n + 1;
	}
	return in ? 0 : -ENOENT;
}

int fsp_smaps_lookup(int pid, unsigned long addr, struct fsp_smaps_vma *vma)
{
	char path[64], *text;
	size_t len;
	int ret;

	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/smaps");
	ret = fsp_slurp(path, &text, &len);
	if (ret)
		return ret;
	ret = fsp_smaps_parse(text, len, addr, vma);
	free(text);
	return ret;
}
