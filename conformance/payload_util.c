// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * payload_util.c - run the large-text payloads on the filesystem under
 * test. The first mapping that faults a cold file decides its folio
 * sizes (docs/probes.md), and a binary's text is faulted by the loader
 * before the binary can madvise it; so each probe reports a `cold` run
 * (the binary alone) and a `warmed` run (its file made cold again, then
 * populated through a hinted mapping, then exec'd). The copy is run
 * through its fd, checked to be root's, never by its path: under
 * `check DIR` the path is the user's to swap (docs/safety.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elf.h"
#include "filedata.h"
#include "proc.h"
#include "payload_util.h"
#include "util.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

#define PAYLOAD_TIMEOUT_S 60

_Static_assert(FSP_PROC_PASS_FD == 3, "FSP_PAYLOAD_FD is the passed fd");

int fsp_payload_copy(const struct fsp_target *t, const char *name,
		     const char *dst)
{
	char src[4096];
	int ret;

	/* An executable of its own size, made by exec permission: new. */
	ret = fsp_case_needs_new_file(t, "%s: a copy of the payload %s "
				      "needs a new file of its own size and "
				      "mode 0755; this filesystem's files "
				      "are fixed", t->fs, name);
	if (ret || t->noexec)
		return ret;	/* run() says why it skips */
	if (!t->payload_dir ||
	    fsp_fmt(src, sizeof(src), "%s/%s", t->payload_dir, name))
		return -ENAMETOOLONG;
	if (access(src, R_OK))
		return -ENOENT;
	if (t->prep_dirfd < 0)
		return -EBADF;
	return fsp_file_copy_at(src, t->prep_dirfd, dst, 0755);
}

int fsp_payload_warm(const struct fsp_target *t, const char *dst)
{
	struct fsp_mapping m;
	int ret;

	ret = fsp_map_file(t, dst, PROT_READ, 1, &m);
	if (ret)
		return ret;
	ret = m.populate_rc;
	fsp_unmap_file(&m);
	return ret;
}

static long get_long(const char *line, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p && !strncmp(line, pat + 1, strlen(pat) - 1))
		p = line - 1;
	return p ? strtol(p + strlen(pat), NULL, 0) : -1;
}

static void get_word(const char *line, const char *key, char *out,
		     size_t len)
{
	char pat[64];
	const char *p;
	size_t n;

	out[0] = '\0';
	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return;
	p += strlen(pat);
	n = strcspn(p, " \n");
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

int fsp_payload_exec(int exec_fd, int pass_fd, char *const argv[], int shmem,
		     struct fsp_payload_report *r)
{
	struct fsp_proc res;
	char *line;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = fsp_proc_run_fd(exec_fd, pass_fd, argv, -1, FSP_PROC_TAIL,
			      PAYLOAD_TIMEOUT_S, &res);
	r->status = res.status;
	snprintf(r->line, sizeof(r->line), "%s", fsp_rstrip(res.tail));
	if (ret)
		return ret;
	line = strstr(res.tail, "kind=");
	if (res.status || !line)
		return -EPROTO;
	snprintf(r->line, sizeof(r->line), "%.*s", (int)strcspn(line, "\n"),
		 line);
	r->text_kb = get_long(r->line, "text_kb");
	r->rss_kb = get_long(r->line, "rss_kb");
	r->file_pmd_kb = get_long(r->line, "file_pmd_mapped_kb");
	r->shmem_pmd_kb = get_long(r->line, "shmem_pmd_mapped_kb");
	r->pmd_mapped_kb = shmem ? r->shmem_pmd_kb : r->file_pmd_kb;
	r->pmd_max_kb = get_long(r->line, "pmd_max_kb");
	r->aligned = (int)get_long(r->line, "aligned");
	get_word(r->line, "collapse_errno", r->collapse_errno,
		 sizeof(r->collapse_errno));
	get_word(r->line, "work_ms", r->work_ms, sizeof(r->work_ms));
	return r->text_kb < 0 || r->pmd_mapped_kb < 0 ? -EPROTO : 0;
}

int fsp_payload_layout(int fd, const char *name, char *why, size_t len)
{
	struct fsp_elf_info info;
	enum fsp_elf_verdict v;
	unsigned int best = 0;
	int ret = fsp_elf_read_fd(fd, 2UL << 20, &info);

	if (ret) {
		snprintf(why, len, "cannot read the ELF program headers of "
			 "%s: %s (%s)", name, strerror(-ret),
			 fsp_errno_name(ret));
		return ret;
	}
	v = fsp_elf_text_verdict(&info, &best);
	if (v != FSP_ELF_OK) {
		const struct fsp_elf_seg *s = info.nexec ? &info.exec[best] :
						NULL;

		snprintf(why, len, "payload text segment: %s (offset 0x%llx "
			 "vaddr 0x%llx): the toolchain ignored -z "
			 "max-page-size=0x200000?", fsp_elf_verdict_str(v),
			 s ? (unsigned long long)s->offset : 0ULL,
			 s ? (unsigned long long)s->vaddr : 0ULL);
		return -ENOEXEC;
	}
	return 0;
}

static void put_report(const struct fsp_target *t, struct fsp_probe *p,
		       const char *tag, const struct fsp_payload_report *r)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_file_pmd_mapped_kb", tag);
	fsp_ev_int(p, key, r->file_pmd_kb);
	if (t->shmem) {
		snprintf(key, sizeof(key), "%s_shmem_pmd_mapped_kb", tag);
		fsp_ev_int(p, key, r->shmem_pmd_kb);
	}
	snprintf(key, sizeof(key), "%s_text_kb", tag);
	fsp_ev_int(p, key, r->text_kb);
	snprintf(key, sizeof(key), "%s_rss_kb", tag);
	fsp_ev_int(p, key, r->rss_kb);
	snprintf(key, sizeof(key), "%s_work_ms", tag);
	fsp_ev_str(p, key, r->work_ms);
	snprintf(key, sizeof(key), "%s_report", tag);
	fsp_ev_str(p, key, r->line);
}

/*
 * [LOADER --fd 3 | COPY] --hint --work 1 [--collapse]: the copy is
 * executed through its fd, or handed to the loader (from t->payload_dir,
 * ours) as fd 3 to dlopen; its name is never looked up again.
 */
static void payload_argv(const struct fsp_target *t, const char *copy,
			 const char *loader, int collapse, char *argv[8],
			 char *store, size_t len)
{
	int n = 0;

	if (loader) {
		snprintf(store, len, "%s/%s", t->payload_dir, loader);
		argv[n++] = store;
		argv[n++] = "--fd";
		argv[n++] = FSP_PAYLOAD_FD;
	} else {
		argv[n++] = (char *)copy;
	}
	argv[n++] = "--hint";
	argv[n++] = "--work";
	argv[n++] = "1";
	if (collapse)
		argv[n++] = "--collapse";
	argv[n] = NULL;
}

/* Run one copy (fd: open, checked); 0 and the report, or the result set. */
static int run_copy(const struct fsp_target *t, struct fsp_probe *p,
		    const char *copy, int fd, const char *tag, int collapse,
		    const char *loader, struct fsp_payload_report *r)
{
	char *argv[8], store[4096];
	int ret;

	payload_argv(t, copy, loader, collapse, argv, store, sizeof(store));
	ret = loader ? fsp_payload_exec(-1, fd, argv, t->shmem, r) :
	      fsp_payload_exec(fd, -1, argv, t->shmem, r);
	if (ret) {
		fsp_probe_set(p, FSP_FAIL, "%s run of %s failed (exit %d): "
			      "%.160s", tag, copy, r->status, r->line);
		fsp_ev_str(p, "failed_output", r->line);
		return ret;
	}
	put_report(t, p, tag, r);
	if (r->pmd_mapped_kb > r->text_kb)
		fsp_probe_set(p, FSP_FAIL, "%s: %s %ld kB exceeds the %ld kB "
			      "text VMA", tag, t->shmem ? "ShmemPmdMapped" :
			      "FilePmdMapped", r->pmd_mapped_kb, r->text_kb);
	return 0;
}

/* Make the copy cold again for the warmed run (not on tmpfs). */
static int recool(const struct fsp_target *t, struct fsp_probe *p,
		  const char *copy)
{
	if (t->shmem) {
		fsp_ev_str(p, "warmed_cold", "none (tmpfs: data lives in the "
			   "cache)");
		return 0;
	}
	return fsp_case_recool(t, p, copy, "warmed_cold", "the warmed run");
}

/*
 * khugepaged collapsed pages while the warmed copy ran (its counter is
 * machine-wide): a PMD it then maps may be khugepaged's, as under TCG on
 * a READ_ONLY_THP_FOR_FS=y kernel, where squashfs text without large
 * folios came back PMD-mapped with no MADV_COLLAPSE. Not the fault route.
 */
static void khugepaged_meanwhile(struct fsp_probe *p, long kh)
{
	fsp_ev_int(p, "warmed_khugepaged_pages_collapsed", kh);
	fsp_ev_str(p, "warmed_note", "khugepaged collapsed pages while the "
		   "warmed run ran: its PMD is not counted as the fault "
		   "route's");
}

/* Both runs of the copy open (and checked) as fd. */
static void probe_copy(const struct fsp_target *t, struct fsp_probe *p,
		       const char *copy, int fd, const char *loader)
{
	struct fsp_payload_report rc, rw;
	char why[256];
	const char *ce;
	long kh;
	int ret;

	ret = fsp_payload_layout(fd, copy, why, sizeof(why));
	if (ret) {
		/* EIO: the copy on the filesystem under test is unreadable. */
		fsp_probe_set(p, ret == -EIO ? FSP_ERROR : FSP_SKIP, "%s", why);
		return;
	}
	fsp_ev_str(p, "cold", t->cold_method);
	if (run_copy(t, p, copy, fd, "cold", 1, loader, &rc))
		return;
	fsp_ev_int(p, "pmd_max_kb", rc.pmd_max_kb);
	fsp_ev_bool(p, "aligned", rc.aligned == 1);
	fsp_ev_str(p, "cold_collapse_errno", rc.collapse_errno);
	if (recool(t, p, copy))
		return;
	ret = fsp_payload_warm(t, copy);
	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "warming %s: %s", copy,
			      strerror(-ret));
		return;
	}
	kh = fsp_khugepaged_counter("pages_collapsed");
	if (run_copy(t, p, copy, fd, "warmed", 0, loader, &rw))
		return;
	kh = kh < 0 ? 0 : fsp_khugepaged_counter("pages_collapsed") - kh;
	if (p->result != FSP_PASS)
		return;
	/* Which route made it PMD: see fsp_payload_probe() in the header. */
	if (rc.pmd_mapped_kb > 0)
		p->routes |= FSP_ROUTE_COLLAPSE;
	/*
	 * tmpfs keeps the cache the cold run collapsed: the warmed run's
	 * PMD then is the collapse's, not the shmem fault route's.
	 */
	if (t->shmem && rc.pmd_mapped_kb > 0 && !strcmp(rc.collapse_errno, "0"))
		fsp_ev_str(p, "warmed_note", "tmpfs: the warmed run maps the "
			   "cache the cold run's MADV_COLLAPSE left");
	else if (rw.pmd_mapped_kb > 0 && kh > 0)
		khugepaged_meanwhile(p, kh);
	else if (rw.pmd_mapped_kb > 0)
		p->routes |= t->shmem ? FSP_ROUTE_SHMEM : FSP_ROUTE_FAULT;
	if (rc.pmd_mapped_kb > 0 || rw.pmd_mapped_kb > 0)
		return;
	/* The cold run's MADV_COLLAPSE says why it made nothing. */
	ce = rc.collapse_errno[0] && strcmp(rc.collapse_errno, "0") ?
	     rc.collapse_errno : NULL;
	fsp_probe_set(p, FSP_SKIP, "text VMA not PMD-mapped: cold %ld kB%s%s%s,"
		      " warmed %ld kB%s (of %ld kB text)", rc.pmd_mapped_kb,
		      ce ? " (MADV_COLLAPSE: " : "", ce ? ce : "",
		      ce ? ")" : "", rw.pmd_mapped_kb,
		      t->shmem ? " ShmemPmdMapped" : "", rw.text_kb);
}

void fsp_payload_probe(const struct fsp_target *t, struct fsp_probe *p,
		       const char *copy, const char *loader)
{
	int fd;

	if (t->noexec) {
		fsp_probe_set(p, FSP_SKIP, "%s: not run (%s)", copy,
			      t->noexec);
		return;
	}
	fd = fsp_case_open_exec(t, copy);
	if (fd == -ENOENT) {
		fsp_probe_set(p, FSP_SKIP, "payload not copied (%s/%s missing:"
			      " build it with make)", t->payload_dir, copy);
		return;
	}
	if (fd < 0) {
		/* Not the file we wrote: never run it as root. */
		fsp_ev_str(p, "exec_refused", fsp_errno_name(-fd));
		fsp_probe_set(p, FSP_ERROR, "refusing to run %s: %s (not a "
			      "regular file of root's, writable by root "
			      "alone)", copy, strerror(-fd));
		return;
	}
	probe_copy(t, p, copy, fd, loader);
	close(fd);
}
