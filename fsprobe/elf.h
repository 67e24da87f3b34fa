/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf.h - readelf-free check of an ELF64 file's executable PT_LOAD
 * segments: is the text at a file offset and address aligned to the PMD
 * size, and does it span at least one whole aligned extent? Only then can
 * the kernel map it by PMD, so the exec-text / dso-text probes check this
 * before trusting a "base" result: a toolchain that stops honouring
 * -z max-page-size must show up as a layout problem, not as a filesystem
 * that lost huge text. Both byte orders are read; ELF32 is not.
 */
#ifndef FSP_ELF_H
#define FSP_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Executable segments kept; a file may have more (nexec counts them all). */
#define FSP_ELF_MAX_EXEC 4

struct fsp_elf_seg {
	uint64_t offset, vaddr, filesz, memsz, align;
	uint32_t flags;			/* PF_X | PF_W | PF_R */
	bool offset_aligned;		/* offset % size == 0 */
	bool vaddr_aligned;		/* vaddr % size == 0 */
	/*
	 * Whole size-aligned extents of [vaddr, vaddr + filesz): what the
	 * kernel could map by PMD. 0 unless offset == vaddr (mod size).
	 */
	uint64_t full_extents;
};

struct fsp_elf_info {
	uint64_t size;			/* the alignment asked about */
	uint64_t file_size;		/* bytes seen: buffer length or st_size */
	uint16_t type;			/* ET_EXEC, ET_DYN, ... */
	uint16_t machine;		/* EM_X86_64, ... */
	bool big_endian;
	unsigned int nphdr;		/* program headers */
	unsigned int nexec;		/* executable PT_LOADs in the file */
	struct fsp_elf_seg exec[FSP_ELF_MAX_EXEC];	/* the first of them */
};

enum fsp_elf_verdict {
	FSP_ELF_OK,			/* aligned and >= one full extent */
	FSP_ELF_NO_EXEC,		/* no executable PT_LOAD */
	FSP_ELF_UNALIGNED,		/* offset or vaddr not size-aligned */
	FSP_ELF_TOO_SMALL,		/* aligned, but no whole extent */
};

/*
 * Read the program headers. size is the alignment to test (a power of
 * two, e.g. the PMD size). Returns 0; -ENOEXEC if this is no ELF64 file
 * (bad magic, ELF32, unknown byte order or version, shorter than an ELF
 * identification); -EINVAL if it is ELF64 but the header or program header
 * table is truncated or inconsistent, or an executable segment's bytes lie
 * past the end of the file (a truncated binary); -errno on I/O failure.
 */
int fsp_elf_parse(const void *buf, size_t len, uint64_t size,
		  struct fsp_elf_info *info);
int fsp_elf_read_fd(int fd, uint64_t size, struct fsp_elf_info *info);
int fsp_elf_read(const char *path, uint64_t size, struct fsp_elf_info *info);

/*
 * Can this file's text be PMD-mapped? *best (may be NULL) gets the index
 * in info->exec of the segment the verdict is about: the first OK one, or
 * else the one with the most full extents, or else the largest.
 */
enum fsp_elf_verdict fsp_elf_text_verdict(const struct fsp_elf_info *info,
					  unsigned int *best);
/* "ok", "no executable PT_LOAD", "not aligned", "smaller than one extent" */
const char *fsp_elf_verdict_str(enum fsp_elf_verdict v);

#endif
