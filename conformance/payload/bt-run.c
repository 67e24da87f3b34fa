// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bt-run.c - the body of the bigtext payloads (executable and DSO): find
 * our own text VMA, ask for huge text on it (MADV_HUGEPAGE), fault it in
 * (MADV_POPULATE_READ), optionally MADV_COLLAPSE, read back its smaps
 * entry, run a fixed amount of work through calls spread over every 2 MiB
 * page of the text (not under QEMU TCG: see on_tcg()), and print one
 * "key=value ..." line. The fsprobe probes
 * and bench/text-impact parse that line, so its keys are a contract: add
 * keys, never rename them; path= stays last (a path may contain blanks).
 */
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bigtext.h"

/* uapi values, for C libraries older than the kernel features */
#ifndef MADV_HUGEPAGE
#define MADV_HUGEPAGE 14
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

struct bt_opts {
	const char *warm;
	int hint, populate, collapse;
	unsigned long work;
	unsigned int depth;
};

struct bt_vma {
	unsigned long start, end, offset;
	char path[4096];
};

struct bt_call {
	int rc, err;
};

static const char *errname(int err)
{
	static const struct { int err; const char *name; } tab[] = {
		{ 0, "0" }, { EINVAL, "EINVAL" }, { ENOMEM, "ENOMEM" },
		{ EAGAIN, "EAGAIN" }, { EPERM, "EPERM" }, { EFAULT, "EFAULT" },
		{ EBUSY, "EBUSY" }, { ENOSYS, "ENOSYS" }, { EIO, "EIO" },
		{ EHWPOISON, "EHWPOISON" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	};
	static char buf[16];
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (tab[i].err == err)
			return tab[i].name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bigtext [--hint|--no-hint] [--no-populate] [--collapse]\n"
		"               [--work N] [--depth D]\n"
		"       bigtext --warm FILE\n"
		"       dsoload LIB|--fd N [same options]\n"
		"Prints one line of key=value pairs about the payload's text VMA\n"
		"(FilePmdMapped, Rss, madvise results) and the work's wall time\n"
		"(under QEMU TCG, text populated: no work, work_ms=untimed-tcg).\n"
		"  --hint / --no-hint  MADV_HUGEPAGE on the text first (default on)\n"
		"  --no-populate       skip MADV_POPULATE_READ\n"
		"  --collapse          try MADV_COLLAPSE after populating\n"
		"  --work N            N rounds of calls over all functions (100)\n"
		"  --depth D           mixing blocks run per call (16; 0 = all)\n"
		"  --warm FILE         only fill FILE's page cache through a\n"
		"                      MADV_HUGEPAGE mapping (the \"warmed\" start)\n");
}

static int parse_ulong(const char *s, unsigned long max, unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(s, &end, 10);
	return errno || end == s || *end || *s == '-' || *val > max ? -1 : 0;
}

/* 0, or the exit status (2: usage error, after a message). */
static int parse_opts(int argc, char **argv, struct bt_opts *o)
{
	unsigned long v;
	int i;

	*o = (struct bt_opts){ .hint = 1, .populate = 1, .work = 100,
			       .depth = 16 };
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--hint")) {
			o->hint = 1;
		} else if (!strcmp(a, "--no-hint")) {
			o->hint = 0;
		} else if (!strcmp(a, "--no-populate")) {
			o->populate = 0;
		} else if (!strcmp(a, "--collapse")) {
			o->collapse = 1;
		} else if (!strcmp(a, "--warm") && i + 1 < argc) {
			o->warm = argv[++i];
		} else if (!strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if ((!strcmp(a, "--work") || !strcmp(a, "--depth")) &&
			   i + 1 < argc) {
			if (parse_ulong(argv[i + 1], a[2] == 'w' ? 100000000UL :
					bt_nblock, &v)) {
				fprintf(stderr, "bigtext: bad %s '%s'\n", a,
					argv[i + 1]);
				return 2;
			}
			if (a[2] == 'w')
				o->work = v;
			else
				o->depth = v;
			i++;
		} else {
			fprintf(stderr, "bigtext: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		}
	}
	return 0;
}

/* The /proc/self/maps line whose range holds addr. */
static int find_vma(unsigned long addr, struct bt_vma *v)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = -1;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		unsigned long s, e, off;
		int pos = 0;

		if (sscanf(line, "%lx-%lx %*s %lx %*s %*u %n", &s, &e, &off,
			   &pos) < 3 || !pos || addr < s || addr >= e)
			continue;
		v->start = s;
		v->end = e;
		v->offset = off;
		line[strcspn(line, "\n")] = '\0';
		snprintf(v->path, sizeof(v->path), "%s", line + pos);
		ret = 0;
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * Rss, FilePmdMapped and ShmemPmdMapped (shmem-backed text: tmpfs) of the
 * smaps entry starting at start; -1 if absent. Fails without the first two.
 */
static int read_smaps(unsigned long start, long *rss_kb, long *pmd_kb,
		      long *shmem_kb)
{
	char *line = NULL;
	size_t cap = 0;
	int in = 0;
	FILE *f;

	*rss_kb = *pmd_kb = *shmem_kb = -1;
	f = fopen("/proc/self/smaps", "re");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		unsigned long s, e;
		char c;

		if (sscanf(line, "%lx-%lx %c", &s, &e, &c) == 3) {
			if (in)
				break;
			in = s == start;
		} else if (in) {
			sscanf(line, "Rss: %ld kB", rss_kb);
			sscanf(line, "FilePmdMapped: %ld kB", pmd_kb);
			sscanf(line, "ShmemPmdMapped: %ld kB", shmem_kb);
		}
	}
	free(line);
	fclose(f);
	return *rss_kb < 0 || *pmd_kb < 0 ? -1 : 0;
}

static unsigned long pmd_size(void)
{
	unsigned long sz = 0;
	FILE *f;

	f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "re");
	if (f) {
		if (fscanf(f, "%lu", &sz) != 1)
			sz = 0;
		fclose(f);
	}
	/* no THP sysfs: the x86_64 value, so the report still says something */
	return sz ? sz : 2UL << 20;
}

static void advise(struct bt_vma *v, int advice, struct bt_call *c)
{
	c->rc = madvise((void *)v->start, v->end - v->start, advice);
	c->err = c->rc ? errno : 0;
}

static unsigned long gcd(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * 1 when the CPU is QEMU's TCG emulator: the hypervisor bit and the
 * "TCGTCGTCGTCG" signature at CPUID leaf 0x40000000 (qemu's tcg-cpuid).
 * There every first execution of an instruction is a translation, so
 * running the 4+ MiB text costs seconds and times nothing real.
 */
static int on_tcg(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char sig[13];

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1U << 31)))
		return 0;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = 0;
	return !strcmp(sig, "TCGTCGTCGTCG");
#else
	return 0;
#endif
}

/*
 * Visit every function once per round in the order j = i * stride mod n.
 * A stride of ~3/8 of the table puts consecutive calls ~2 MiB apart, so
 * with 4 KiB text each call needs another iTLB entry; with PMD text the
 * whole table fits in a handful.
 */
static unsigned long work(unsigned long x, unsigned long rounds,
			  unsigned int depth, double *ms)
{
	unsigned long n = bt_nfunc, stride = n * 3 / 8 | 1, r, i, j;
	struct timespec t0, t1;

	while (gcd(stride, n) != 1)
		stride += 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (r = 0; r < rounds; r++)
		for (i = 0, j = 0; i < n; i++, j = (j + stride) % n)
			x = bt_table[j](x + r, depth);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	return x;
}

/*
 * The "warmed" start of docs/probes.md: the first mapping to fault a cold
 * file decides its folio sizes, so map FILE with MADV_HUGEPAGE and populate
 * it; a later exec / dlopen of FILE then finds PMD folios in the cache.
 */
static int warm(const char *path)
{
	struct bt_call hint = { 0, 0 }, pop = { 0, 0 };
	struct bt_vma v;
	long rss_kb, pmd_kb, shmem_kb;
	struct stat st;
	void *p;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "bigtext: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (!st.st_size) {
		fprintf(stderr, "bigtext: %s: empty file\n", path);
		close(fd);
		return 1;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		fprintf(stderr, "bigtext: mmap %s: %s\n", path, strerror(errno));
		return 1;
	}
	v.start = (unsigned long)p;
	v.end = v.start + st.st_size;	/* madvise rounds the length up */
	advise(&v, MADV_HUGEPAGE, &hint);
	advise(&v, MADV_POPULATE_READ, &pop);
	read_smaps(v.start, &rss_kb, &pmd_kb, &shmem_kb);
	printf("warm=1 size_kb=%lld rss_kb=%ld file_pmd_mapped_kb=%ld "
	       "shmem_pmd_mapped_kb=%ld hint_rc=%d hint_errno=%s "
	       "populate_rc=%d populate_errno=%s path=%s\n",
	       (long long)st.st_size >> 10, rss_kb, pmd_kb, shmem_kb, hint.rc,
	       errname(hint.err), pop.rc, errname(pop.err), path);
	munmap(p, st.st_size);
	return pop.rc || fflush(stdout) ? 1 : 0;
}

int bt_run(const char *kind, int argc, char **argv)
{
	struct bt_call hint = { 0, 0 }, pop = { 0, 0 }, col = { 0, 0 };
	unsigned long pmd = pmd_size(), x = 0x6a09e667f3bcc908UL, lo, hi;
	static struct bt_vma v;	/* 4 KiB path: keep it off the stack */
	long rss_kb, pmd_kb, shmem_kb;
	struct bt_opts o;
	unsigned int f;
	double ms = 0;
	int ret, tcg;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret;
	if (o.warm)
		return warm(o.warm);
	if (find_vma((unsigned long)bt_table[bt_nfunc / 2], &v)) {
		fprintf(stderr, "bigtext: own text VMA not in /proc/self/maps\n");
		return 1;
	}
	if (o.hint)
		advise(&v, MADV_HUGEPAGE, &hint);
	if (o.populate)
		advise(&v, MADV_POPULATE_READ, &pop);
	if (o.collapse)
		advise(&v, MADV_COLLAPSE, &col);
	if (read_smaps(v.start, &rss_kb, &pmd_kb, &shmem_kb))
		fprintf(stderr, "bigtext: no Rss/FilePmdMapped in smaps\n");

	/*
	 * Every instruction of the big text runs once, then the timed work.
	 * Under TCG, with the text populated, the mapping above is already
	 * the evidence and the timing would be the emulator's: skip both.
	 */
	tcg = o.populate && !pop.rc && on_tcg();
	if (!tcg) {
		for (f = 0; f < bt_nfunc; f++)
			x = bt_table[f](x, 0);
		x = work(x, o.work, o.depth, &ms);
	}

	/* PMD extents the VMA could hold: needs start == offset (mod pmd) */
	lo = (v.start + pmd - 1) & ~(pmd - 1);
	hi = v.end & ~(pmd - 1);
	printf("kind=%s vma_start=0x%lx vma_end=0x%lx file_offset=0x%lx "
	       "text_kb=%lu rss_kb=%ld file_pmd_mapped_kb=%ld "
	       "shmem_pmd_mapped_kb=%ld pmd_kb=%lu aligned=%d pmd_max_kb=%lu ",
	       kind, v.start, v.end, v.offset, (v.end - v.start) >> 10,
	       rss_kb, pmd_kb, shmem_kb, pmd >> 10,
	       (v.start - v.offset) % pmd == 0,
	       (v.start - v.offset) % pmd == 0 && hi > lo ? (hi - lo) >> 10 : 0);
	printf("hint=%d hint_rc=%d hint_errno=%s ", o.hint, hint.rc,
	       errname(hint.err));
	printf("populate=%d populate_rc=%d populate_errno=%s ", o.populate,
	       pop.rc, errname(pop.err));
	printf("collapse=%d collapse_rc=%d collapse_errno=%s ", o.collapse,
	       col.rc, errname(col.err));
	printf("work=%lu depth=%u work_calls=%lu ", o.work, o.depth,
	       tcg ? 0 : o.work * bt_nfunc);
	if (tcg)
		printf("work_ms=untimed-tcg ");
	else
		printf("work_ms=%.3f ", ms);
	printf("checksum=0x%016lx path=%s\n", x, v.path);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "bigtext: writing the report: %s\n",
			strerror(errno));
		return 1;
	}
	if (pop.rc) {
		fprintf(stderr, "bigtext: MADV_POPULATE_READ: %s\n",
			strerror(pop.err));
		return 1;
	}
	return rss_kb < 0 || pmd_kb < 0;
}
