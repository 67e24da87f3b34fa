/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * collapse_util.h - MADV_COLLAPSE driven the way prior tests learnt it must
 * be (bounded EAGAIN retries; one EINVAL retry after fsync, because freshly
 * written text can still be dirty), what its errno means on this kernel,
 * folio orders as evidence, and the probe body that `collapse` and
 * `collapse-exec` share: they differ only in the mapping's protection.
 */
#ifndef FSP_COLLAPSE_UTIL_H
#define FSP_COLLAPSE_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25	/* Linux 6.1, 7d8faaf15545 */
#endif

struct fsp_collapse_try {
	int rc;			/* 0 or -errno of the last attempt */
	int attempts;
	int fsync_retry;	/* an EINVAL was retried after fsync(fd) */
	int fsync_rc;		/* that fsync failed: -errno, no retry */
};

/* MADV_COLLAPSE [addr, addr + len), retrying as above; returns c->rc. */
int fsp_madv_collapse(void *addr, size_t len, int fd,
		      struct fsp_collapse_try *c);
/* What a MADV_COLLAPSE errno means here, for a reason string. */
const char *fsp_collapse_why(int err, const struct fsp_target *t);
/*
 * Record the folio-order histogram of a mapped range as evidence key
 * (or key_errno if pagemap cannot say); returns the largest order, or -1.
 */
int fsp_ev_orders(struct fsp_probe *p, const char *key, const void *addr,
		  size_t len);
/* {file,shmem}_pmd_mapped_kb_<sfx>: the counter tmpfs or a file has. */
void fsp_ev_pmd_kb(struct fsp_probe *p, const struct fsp_target *t,
		   const char *sfx, long kb);

/* The shared case: prepare a file, then collapse a prot mapping of it. */
int fsp_collapse_prepare(const struct fsp_target *t, const char *name,
			 uint32_t seed);
void fsp_collapse_run(const struct fsp_target *t, struct fsp_probe *p,
		      const char *name, int prot, uint32_t seed);

#endif
