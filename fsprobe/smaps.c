// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smaps.c - parse smaps text. A VMA header is "START-END PERMS OFFSET
 * DEV INODE [PATH]"; fields follow as "Name: value [kB]" until the next
 * header. Unknown fields are ignored, missing ones stay -1, so a kernel
 * that adds or drops a field never makes us misreport another.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* As fsp_smaps_parse; *done: the next VMA's header was seen too. */
static int parse_vma(const char *text, size_t len, unsigned long addr,
		     struct fsp_smaps_vma *vma, int *done)
{
	const char *p = text, *end = text + len;
	int in = 0;

	*done = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!nl)
			break;	/* a line still being read */
		if (is_header(p, n)) {
			struct fsp_smaps_vma v;

			if (in) {
				*done = 1;	/* next VMA: ours is complete */
				return 0;
			}
			if (!parse_header(p, n, &v)) {
				if (v.start > addr) {
					*done = 1;	/* ascending: not here */
					return -ENOENT;
				}
				if (addr < v.end) {
					*vma = v;
					in = 1;
				}
			}
		} else if (in) {
			parse_field(p, n, vma);
		}
		p += n + 1;
	}
	return in ? 0 : -ENOENT;
}

int fsp_smaps_parse(const char *text, size_t len, unsigned long addr,
		    struct fsp_smaps_vma *vma)
{
	const char *end = text + len;
	char *copy;
	int done, ret;

	/* Text without a last newline: its last line counts too. */
	if (!len || end[-1] == '\n')
		return parse_vma(text, len, addr, vma, &done);
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	copy[len] = '\n';
	ret = parse_vma(copy, len + 1, addr, vma, &done);
	free(copy);
	return ret;
}

/*
 * Read only as far as the VMA: smaps walks the page tables of every VMA
 * it shows, and the seq_file shows them as the reads ask for them, in
 * ascending order. A probe's fresh mapping comes before the libraries
 * and the stack, so most of the walk is saved.
 */
int fsp_smaps_lookup(int pid, unsigned long addr, struct fsp_smaps_vma *vma)
{
	size_t cap = 16384, len = 0;
	char path[64], *buf, *nbuf;
	int fd, done = 0, ret = -ENOENT;
	ssize_t n;

	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/smaps");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf)
		ret = -ENOMEM;
	while (buf && !done) {
		if (cap - len < 4097) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf) {
				ret = -ENOMEM;
				break;
			}
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, 4096);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0) {	/* the end: its last line counts too */
			ret = fsp_smaps_parse(buf, len, addr, vma);
			break;
		}
		len += n;
		ret = parse_vma(buf, len, addr, vma, &done);
	}
	free(buf);
	close(fd);
	return ret;
}
