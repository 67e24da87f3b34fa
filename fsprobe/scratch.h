/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch.h - the one large I/O buffer of a process (pattern files
 * written, files read back and checked). A fresh malloc'd 1-4 MiB buffer
 * is a fresh mmap whose every page faults, and the munmap at free()
 * gives them back: measured 9.5 us a fault in this paravirtualized
 * guest, ~2300 faults per profile. This one is mapped once, populated
 * in one call, and kept for the life of the process.
 */
#ifndef FSP_SCRATCH_H
#define FSP_SCRATCH_H

#include <stddef.h>

/*
 * At least len bytes, the same buffer every call while len fits (its
 * contents are not kept when it grows). One user at a time: nothing may
 * hold it across a call that uses it too. NULL with errno on failure.
 */
void *fsp_scratch(size_t len);

#endif
