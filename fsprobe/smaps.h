/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * smaps.h - the smaps entry of one VMA: the counters that say whether a
 * file mapping is PMD-mapped (FilePmdMapped, ShmemPmdMapped) and its Rss.
 * THPeligible is read but, as docs/probes.md says, predicts nothing.
 */
#ifndef FSP_SMAPS_H
#define FSP_SMAPS_H

#include <stddef.h>

struct fsp_smaps_vma {
	unsigned long start, end;
	unsigned long offset;
	char perms[8];
	char path[256];
	long rss_kb;
	long file_pmd_kb;	/* -1: field absent */
	long shmem_pmd_kb;
	long anon_huge_kb;
	int thp_eligible;	/* -1: field absent */
	char vmflags[128];
};

/* Parse smaps text; find the VMA containing addr. -ENOENT if none. */
int fsp_smaps_parse(const char *text, size_t len, unsigned long addr,
		    struct fsp_smaps_vma *vma);
/* Read /proc/self/smaps (or /proc/PID/smaps for pid > 0). */
int fsp_smaps_lookup(int pid, unsigned long addr, struct fsp_smaps_vma *vma);

#endif
