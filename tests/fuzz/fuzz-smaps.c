// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-smaps.c - libFuzzer target for the smaps parser: any bytes are
 * smaps text, looked up at a few fixed addresses (the VMAs of the
 * recorded smaps-xfs-pmd.txt, 0, the top of the address space) and at
 * the start of the input's first VMA header, so that mutated headers
 * still match and their fields get parsed. A VMA found must contain the
 * address and hold NUL-terminated strings; nothing else is promised.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smaps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const char *text, size_t len, unsigned long addr)
{
	struct fsp_smaps_vma v;
	int ret;

	ret = fsp_smaps_parse(text, len, addr, &v);
	if (ret == -ENOENT)
		return;
	if (ret ||
	    v.start > addr || addr >= v.end ||
	    !memchr(v.perms, '\0', sizeof(v.perms)) ||
	    !memchr(v.path, '\0', sizeof(v.path)) ||
	    !memchr(v.vmflags, '\0', sizeof(v.vmflags)) ||
	    v.rss_kb < -1 || v.file_pmd_kb < -1 || v.shmem_pmd_kb < -1 ||
	    v.anon_huge_kb < -1) {
		fprintf(stderr, "fuzz-smaps: bad result %d for %#lx\n", ret,
			addr);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned long fixed[] = {
		0, 0x55d0c0a00000UL, 0x7f0000400000UL, 0x7f0000bff000UL,
		ULONG_MAX,
	};
	const char *text = (const char *)data;
	char head[24];
	unsigned long first;
	size_t i, n;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		check(text, size, fixed[i]);
	n = size < sizeof(head) - 1 ? size : sizeof(head) - 1;
	memcpy(head, data, n);
	head[n] = '\0';
	first = strtoul(head, NULL, 16);
	check(text, size, first);
	check(text, size, first + 4096);
	return 0;
}
