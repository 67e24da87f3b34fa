/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * payload_util.h - what exec-text and dso-text share: copying a payload
 * onto the filesystem under test, warming its page cache through a
 * hinted mapping, running it (fork/exec, never a shell) and reading its
 * one-line key=value report.
 */
#ifndef FSP_PAYLOAD_UTIL_H
#define FSP_PAYLOAD_UTIL_H

#include "case.h"

struct fsp_payload_report {
	char line[2048];	/* the report line, or the tool's output */
	int status;		/* exit status */
	long text_kb, rss_kb, pmd_max_kb;
	long file_pmd_kb;	/* FilePmdMapped of the text VMA */
	long shmem_pmd_kb;	/* ShmemPmdMapped (-1: not reported) */
	long pmd_mapped_kb;	/* the one that counts: shmem on tmpfs */
	int aligned;
	char collapse_errno[24];
	char work_ms[24];
};

/* Copy t->payload_dir/name to dst in t->prep_dirfd (mode 0755). */
int fsp_payload_copy(const struct fsp_target *t, const char *name,
		     const char *dst);
/* Fill dst's page cache through a MADV_HUGEPAGE mapping of the file. */
int fsp_payload_warm(const struct fsp_target *t, const char *dst);
/* The fd a loader is handed the copy on (dsoload --fd N). */
#define FSP_PAYLOAD_FD "3"	/* FSP_PROC_PASS_FD */
/*
 * Run argv, executing exec_fd if >= 0 (else argv[0], found in PATH),
 * with pass_fd (if >= 0) open in it as fd 3 (fsp_proc_run_fd); 0 if it
 * ran and printed a parsable report. shmem: the text is shmem-backed
 * (tmpfs), pmd_mapped_kb is its ShmemPmdMapped.
 */
int fsp_payload_exec(int exec_fd, int pass_fd, char *const argv[], int shmem,
		     struct fsp_payload_report *r);
/* The ELF layout check of the copy open as fd: 0, or a reason in why. */
int fsp_payload_layout(int fd, const char *name, char *why, size_t len);
/*
 * The shared run: the cold copy exec'd as is, which also tries
 * MADV_COLLAPSE (its text is read small before it can madvise, so only a
 * collapse can make it PMD: the collapse route); then the same copy made
 * cold again (fsync + POSIX_FADV_DONTNEED, checked with cachestat: not
 * one page may stay cached, so nothing the collapse built survives),
 * warmed, and run without collapse (PMD there is the fault route); pass
 * when either run is PMD-mapped. On tmpfs the data lives in the cache:
 * the warmed run reuses it, and the text counts in ShmemPmdMapped.
 * loader: the payload (in t->payload_dir) that runs the copy, handed it
 * as an open fd (`LOADER --fd 3`), or NULL: the copy is exec'd itself
 * through its fd. Either way with `--hint --work 1 [--collapse]`. The
 * copy is opened once and checked (fsp_case_open_exec): one that is not
 * root's alone is an error, never run.
 * The payload's work loop runs once: its timing is bench/text-impact's.
 */
void fsp_payload_probe(const struct fsp_target *t, struct fsp_probe *p,
		       const char *copy, const char *loader);

#endif
