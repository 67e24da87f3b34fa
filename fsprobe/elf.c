// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elf.c - read the ELF64 header and program header table of a file or a
 * buffer, byte by byte (no <elf.h> structs: the file may be of the other
 * byte order, truncated or hostile), and describe its executable PT_LOAD
 * segments. Every offset is bounds-checked against the file size before
 * use, so garbage gives -ENOEXEC / -EINVAL, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf.h"

/* ELF constants (gABI), spelled out so the code needs no <elf.h> */
#define EI_NIDENT	16
#define EHDR64_SIZE	64
#define PHDR64_SIZE	56
#define SHDR64_SIZE	64
#define PN_XNUM		0xffff
#define PT_LOAD		1
#define PF_X		1
#define ET_DYN		3
/* binfmt_elf refuses program header tables over 64 KiB: so do we */
#define PHDR_MAX_BYTES	65536

struct src {
	const unsigned char *buf;	/* buffer mode */
	int fd;				/* fd mode, when buf is NULL */
	uint64_t size;
};

/* Read exactly n bytes at off; -EINVAL if they are not all in the file. */
static int src_read(const struct src *s, uint64_t off, void *dst, size_t n)
{
	size_t done = 0;

	if (off > s->size || n > s->size - off)
		return -EINVAL;
	if (s->buf) {
		memcpy(dst, s->buf + off, n);
		return 0;
	}
	while (done < n) {
		ssize_t r = pread(s->fd, (char *)dst + done, n - done,
				  (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EINVAL;	/* shrank under us: truncated */
		done += r;
	}
	return 0;
}

static uint64_t get(const unsigned char *p, int n, bool be)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[be ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

static void describe(struct fsp_elf_seg *s, uint64_t size)
{
	uint64_t mask = size - 1, lo, hi;

	s->offset_aligned = !(s->offset & mask);
	s->vaddr_aligned = !(s->vaddr & mask);
	s->full_extents = 0;
	/* the kernel needs file offset and address congruent mod size */
	if ((s->offset & mask) != (s->vaddr & mask) || s->vaddr > -size)
		return;
	lo = (s->vaddr + mask) & ~mask;
	hi = (s->vaddr + s->filesz) & ~mask;
	if (hi > lo)
		s->full_extents = (hi - lo) / size;
}

static int parse_phdrs(const struct src *s, const unsigned char *tab,
		       struct fsp_elf_info *info)
{
	bool be = info->big_endian;
	unsigned int i;

	for (i = 0; i < info->nphdr; i++) {
		const unsigned char *p = tab + (size_t)i * PHDR64_SIZE;
		struct fsp_elf_seg seg;

		if (get(p, 4, be) != PT_LOAD || !(get(p + 4, 4, be) & PF_X))
			continue;
		seg.flags = get(p + 4, 4, be);
		seg.offset = get(p + 8, 8, be);
		seg.vaddr = get(p + 16, 8, be);
		seg.filesz = get(p + 32, 8, be);
		seg.memsz = get(p + 40, 8, be);
		seg.align = get(p + 48, 8, be);
		/* text past EOF: the binary would SIGBUS; bounds overflow too */
		if (seg.offset > s->size || seg.filesz > s->size - seg.offset ||
		    seg.filesz > UINT64_MAX - seg.vaddr)
			return -EINVAL;
		describe(&seg, info->size);
		if (info->nexec < FSP_ELF_MAX_EXEC)
			info->exec[info->nexec] = seg;
		info->nexec++;
	}
	return 0;
}

static int parse(const struct src *s, uint64_t size, struct fsp_elf_info *info)
{
	unsigned char eh[EHDR64_SIZE], sh[SHDR64_SIZE], *tab;
	uint64_t phoff, phnum, shoff;
	bool be;
	int ret;

	memset(info, 0, sizeof(*info));
	if (!size || (size & (size - 1)))
		return -EINVAL;
	info->size = size;
	info->file_size = s->size;
	if (s->size < EI_NIDENT)
		return -ENOEXEC;
	ret = src_read(s, 0, eh, EI_NIDENT);
	if (ret)
		return ret;
	if (memcmp(eh, "\177ELF", 4) || eh[4] != 2 /* ELFCLASS64 */ ||
	    (eh[5] != 1 && eh[5] != 2) /* ELFDATA2LSB/MSB */ ||
	    eh[6] != 1 /* EV_CURRENT */)
		return -ENOEXEC;
	ret = src_read(s, 0, eh, EHDR64_SIZE);
	if (ret)
		return ret;
	be = info->big_endian = eh[5] == 2;
	info->type = get(eh + 16, 2, be);
	info->machine = get(eh + 18, 2, be);
	phoff = get(eh + 32, 8, be);
	shoff = get(eh + 40, 8, be);
	phnum = get(eh + 56, 2, be);
	if (phnum == PN_XNUM) {
		/* more than 0xfffe headers: the count is section 0's sh_info */
		if (!shoff || get(eh + 58, 2, be) != SHDR64_SIZE)
			return -EINVAL;
		ret = src_read(s, shoff, sh, sizeof(sh));
		if (ret)
			return ret;
		phnum = get(sh + 44, 4, be);
	}
	if (!phnum)
		return 0;
	if (get(eh + 54, 2, be) != PHDR64_SIZE ||
	    phnum > PHDR_MAX_BYTES / PHDR64_SIZE)
		return -EINVAL;
	info->nphdr = phnum;
	tab = malloc(phnum * PHDR64_SIZE);
	if (!tab)
		return -ENOMEM;
	ret = src_read(s, phoff, tab, phnum * PHDR64_SIZE);
	if (!ret)
		ret = parse_phdrs(s, tab, info);
	free(tab);
	return ret;
}

int fsp_elf_parse(const void *buf, size_t len, uint64_t size,
		  struct fsp_elf_info *info)
{
	struct src s = { .buf = buf, .fd = -1, .size = len };

	if (!buf && len)
		return -EINVAL;
	if (!buf)
		s.buf = (const unsigned char *)"";
	return parse(&s, size, info);
}

int fsp_elf_read_fd(int fd, uint64_t size, struct fsp_elf_info *info)
{
	struct src s = { .buf = NULL, .fd = fd };
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	s.size = st.st_size;
	return parse(&s, size, info);
}

int fsp_elf_read(const char *path, uint64_t size, struct fsp_elf_info *info)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fsp_elf_read_fd(fd, size, info);
	close(fd);
	return ret;
}

/*
 * A PIE or DSO is placed at a base aligned only to its largest p_align
 * (binfmt_elf, glibc >= 2.35 ld.so): below size, an aligned vaddr in the
 * file does not give an aligned address at run time.
 */
static bool seg_aligned(const struct fsp_elf_info *info,
			const struct fsp_elf_seg *s)
{
	return s->offset_aligned && s->vaddr_aligned &&
	       (info->type != ET_DYN || s->align >= info->size);
}

enum fsp_elf_verdict fsp_elf_text_verdict(const struct fsp_elf_info *info,
					  unsigned int *best)
{
	unsigned int i, n = info->nexec, b = 0;

	if (n > FSP_ELF_MAX_EXEC)
		n = FSP_ELF_MAX_EXEC;
	if (best)
		*best = 0;
	if (!n)
		return FSP_ELF_NO_EXEC;
	for (i = 0; i < n; i++) {
		const struct fsp_elf_seg *s = &info->exec[i], *o = &info->exec[b];

		if (seg_aligned(info, s) && s->full_extents) {
			b = i;
			break;
		}
		if (s->full_extents > o->full_extents ||
		    (s->full_extents == o->full_extents && s->filesz > o->filesz))
			b = i;
	}
	if (best)
		*best = b;
	if (!seg_aligned(info, &info->exec[b]))
		return FSP_ELF_UNALIGNED;
	return info->exec[b].full_extents ? FSP_ELF_OK : FSP_ELF_TOO_SMALL;
}

const char *fsp_elf_verdict_str(enum fsp_elf_verdict v)
{
	switch (v) {
	case FSP_ELF_OK:
		return "ok";
	case FSP_ELF_NO_EXEC:
		return "no executable PT_LOAD";
	case FSP_ELF_UNALIGNED:
		return "not aligned";
	case FSP_ELF_TOO_SMALL:
		return "smaller than one extent";
	}
	return "?";
}
