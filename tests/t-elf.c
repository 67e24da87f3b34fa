// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-elf.c - the ELF layout checker: synthetic headers of both byte orders
 * give the right segments and verdicts; truncated, mutated and garbage
 * input gives -EINVAL / -ENOEXEC and never a crash; the built payloads
 * (FSPROBE_PAYLOAD_DIR, FSP_PAYLOAD_DIR or argv[1]) have a 2 MiB-aligned
 * text segment over 4 MiB; and a binary linked here and now with the
 * default max-page-size is rejected as unaligned, so a toolchain that
 * ignores -z max-page-size cannot pass unnoticed. Needs no root.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf.h"
#include "tap.h"

#define MiB (1ULL << 20)
#define PMD (2 * MiB)

extern char **environ;

struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, align;
};

static void put(unsigned char *p, int n, uint64_t v, int be)
{
	int i;

	for (i = 0; i < n; i++)
		p[be ? n - 1 - i : i] = v >> (8 * i);
}

/* An ELF64 header at 0 and n program headers at 64, in a len-byte buffer. */
static unsigned char *mkelf(size_t len, int be, int type,
			    const struct phdr *ph, int n)
{
	unsigned char *b = calloc(1, len);
	int i;

	if (!b)
		exit(1);
	memcpy(b, "\177ELF\2", 5);
	b[5] = be ? 2 : 1;
	b[6] = 1;
	put(b + 16, 2, type, be);
	put(b + 18, 2, 62, be);
	put(b + 20, 4, 1, be);
	put(b + 32, 8, 64, be);
	put(b + 52, 2, 64, be);
	put(b + 54, 2, 56, be);
	put(b + 56, 2, n, be);
	for (i = 0; i < n; i++) {
		unsigned char *p = b + 64 + 56 * i;

		put(p, 4, ph[i].type, be);
		put(p + 4, 4, ph[i].flags, be);
		put(p + 8, 8, ph[i].offset, be);
		put(p + 16, 8, ph[i].vaddr, be);
		put(p + 24, 8, ph[i].vaddr, be);
		put(p + 32, 8, ph[i].filesz, be);
		put(p + 40, 8, ph[i].filesz, be);
		put(p + 48, 8, ph[i].align, be);
	}
	return b;
}

static const struct phdr good[] = {
	{ 1, 4, 0, 0, 0x1000, PMD },			/* R: headers */
	{ 1, 5, PMD, PMD, 6 * MiB + 0x1234, PMD },	/* R+X: text */
	{ 1, 6, 8 * MiB + 0x1000, 10 * MiB + 0x1000, 0x100, PMD },
	{ 4, 4, 0x300, 0x300, 0x20, 4 },		/* PT_NOTE */
};

#define ANY (-1)	/* a variant's check that is not made */

/* good with its text segment (ph[1]) replaced, and what must come out. */
struct variant {
	const char *name;
	int type;		/* e_type: 2 ET_EXEC, 3 ET_DYN */
	struct phdr text;
	int verdict;		/* fsp_elf_text_verdict's, or ANY */
	int nexec, offset_aligned, vaddr_aligned, extents;	/* or ANY */
	const char *verdict_str;	/* the verdict's text, or NULL */
};

static const struct variant variants[] = {
	{ "ET_DYN with p_align 4 KiB: not aligned (load base is not)", 3,
	  { 1, 5, PMD, PMD, 6 * MiB + 0x1234, 0x1000 },
	  FSP_ELF_UNALIGNED, ANY, ANY, ANY, ANY, NULL },
	{ "ET_EXEC with p_align 4 KiB: ok (fixed address)", 2,
	  { 1, 5, PMD, PMD, 6 * MiB + 0x1234, 0x1000 },
	  FSP_ELF_OK, ANY, ANY, ANY, ANY, NULL },
	{ "text at 0x1000 (default layout): not aligned", 3,
	  { 1, 5, 0x1000, 0x1000, 6 * MiB + 0x1234, PMD },
	  FSP_ELF_UNALIGNED, ANY, 0, ANY, 2, NULL },
	{ "offset and vaddr not congruent: no PMD-mappable extent", 3,
	  { 1, 5, 0x1000, PMD, 6 * MiB + 0x1234, PMD },
	  ANY, ANY, ANY, 1, 0, NULL },
	{ "aligned 1 MiB text: smaller than one extent", 3,
	  { 1, 5, PMD, PMD, MiB, PMD },
	  FSP_ELF_TOO_SMALL, ANY, ANY, ANY, ANY, NULL },
	{ "no R+X segment: no exec", 3,
	  { 1, 4, PMD, PMD, 6 * MiB + 0x1234, PMD },
	  FSP_ELF_NO_EXEC, 0, ANY, ANY, ANY, "no executable PT_LOAD" },
};

static void test_synthetic(void)
{
	struct fsp_elf_info info;
	struct phdr ph[4];
	unsigned char *b;
	unsigned int best;
	int be, ret;
	size_t i;

	for (be = 0; be < 2; be++) {
		b = mkelf(9 * MiB, be, 3, good, 4);
		ret = fsp_elf_parse(b, 9 * MiB, PMD, &info);
		tap_ok(!ret && info.nexec == 1 && info.nphdr == 4 &&
		       info.big_endian == be && info.type == 3 &&
		       info.machine == 62, "%s: parses, one exec segment (ret %d)",
		       be ? "big-endian" : "little-endian", ret);
		tap_ok(info.exec[0].offset == PMD && info.exec[0].vaddr == PMD &&
		       info.exec[0].filesz == 6 * MiB + 0x1234 &&
		       info.exec[0].align == PMD && info.exec[0].flags == 5 &&
		       info.exec[0].offset_aligned &&
		       info.exec[0].vaddr_aligned &&
		       info.exec[0].full_extents == 3,
		       "%s: segment fields and 3 full extents",
		       be ? "big-endian" : "little-endian");
		tap_ok(fsp_elf_text_verdict(&info, &best) == FSP_ELF_OK &&
		       best == 0, "%s: verdict ok", be ? "big-endian" :
		       "little-endian");
		free(b);
	}

	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		const struct variant *v = &variants[i];
		long verdict = -1;
		int checks = 1;

		memcpy(ph, good, sizeof(ph));
		ph[1] = v->text;
		b = mkelf(9 * MiB, 0, v->type, ph, 4);
		memset(&info, 0, sizeof(info));
		ret = fsp_elf_parse(b, 9 * MiB, PMD, &info);
		if (!ret)
			verdict = fsp_elf_text_verdict(&info, NULL);
		if (v->verdict != ANY)
			checks &= verdict == v->verdict;
		if (v->nexec != ANY)
			checks &= info.nexec == (unsigned int)v->nexec;
		if (v->offset_aligned != ANY)
			checks &= info.exec[0].offset_aligned == v->offset_aligned;
		if (v->vaddr_aligned != ANY)
			checks &= info.exec[0].vaddr_aligned == v->vaddr_aligned;
		if (v->extents != ANY)
			checks &= info.exec[0].full_extents ==
				  (uint64_t)v->extents;
		if (v->verdict_str)
			checks &= !strcmp(fsp_elf_verdict_str(v->verdict),
					  v->verdict_str);
		tap_ok(!ret && checks, "%s", v->name);
		free(b);
	}

	/* PN_XNUM: the real count is in section header 0's sh_info */
	b = mkelf(9 * MiB, 0, 3, good, 4);
	put(b + 56, 2, 0xffff, 0);
	put(b + 40, 8, 8 * MiB + 0x2000, 0);
	put(b + 58, 2, 64, 0);
	put(b + 8 * MiB + 0x2000 + 44, 4, 4, 0);
	ret = fsp_elf_parse(b, 9 * MiB, PMD, &info);
	tap_ok(!ret && info.nphdr == 4 && info.nexec == 1,
	       "PN_XNUM: count from section 0 (ret %d)", ret);
	free(b);

	b = mkelf(8 * MiB, 0, 3, good, 4);
	TAP_EQ_LONG(fsp_elf_parse(b, 8 * MiB, PMD, &info), -EINVAL,
		    "text segment past end of file");
	TAP_EQ_LONG(fsp_elf_parse(b, 8 * MiB, 3 * MiB, &info), -EINVAL,
		    "alignment not a power of two");
	free(b);
}

static void test_garbage(void)
{
	static const struct { const char *name; const char *bytes; size_t len;
			      int ret; } g[] = {
		{ "empty", "", 0, -ENOEXEC },
		{ "magic only", "\177ELF", 4, -ENOEXEC },
		{ "text file", "#!/bin/sh\necho hello\n", 21, -ENOEXEC },
		{ "ELF32", "\177ELF\1\1\1\0\0\0\0\0\0\0\0\0", 16, -ENOEXEC },
		{ "bad byte order", "\177ELF\2\3\1\0\0\0\0\0\0\0\0\0", 16,
		  -ENOEXEC },
		{ "bad version", "\177ELF\2\1\2\0\0\0\0\0\0\0\0\0", 16,
		  -ENOEXEC },
		{ "ident only", "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0", 16, -EINVAL },
	};
	static const struct phdr small[] = { { 1, 5, 0, 0, 4096, 4096 } };
	struct fsp_elf_info info;
	unsigned char *b, *m;
	size_t i, len = 4096;
	int ret, bad = 0;

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		TAP_EQ_LONG(fsp_elf_parse(g[i].bytes, g[i].len, PMD, &info),
			    g[i].ret, g[i].name);
	TAP_EQ_LONG(fsp_elf_parse(NULL, 0, PMD, &info), -ENOEXEC,
		    "NULL buffer");

	b = mkelf(len, 0, 3, small, 1);
	tap_ok(!fsp_elf_parse(b, len, 4096, &info) && info.nexec == 1,
	       "small valid file parses");
	put(b + 54, 2, 32, 0);
	TAP_EQ_LONG(fsp_elf_parse(b, len, 4096, &info), -EINVAL,
		    "e_phentsize 32");
	put(b + 54, 2, 56, 0);
	put(b + 56, 2, 2000, 0);
	TAP_EQ_LONG(fsp_elf_parse(b, len, 4096, &info), -EINVAL,
		    "2000 program headers (over 64 KiB)");
	put(b + 56, 2, 1, 0);
	put(b + 32, 8, UINT64_MAX - 10, 0);
	TAP_EQ_LONG(fsp_elf_parse(b, len, 4096, &info), -EINVAL,
		    "e_phoff near 2^64");
	put(b + 32, 8, 64, 0);
	put(b + 64 + 8, 8, UINT64_MAX - 100, 0);
	TAP_EQ_LONG(fsp_elf_parse(b, len, 4096, &info), -EINVAL,
		    "p_offset near 2^64");
	put(b + 64 + 8, 8, 0, 0);
	put(b + 64 + 16, 8, UINT64_MAX - 100, 0);
	TAP_EQ_LONG(fsp_elf_parse(b, len, 4096, &info), -EINVAL,
		    "p_vaddr + p_filesz overflows");
	put(b + 64 + 16, 8, 0, 0);

	/* every truncation, then random byte flips: only clean answers */
	for (i = 0; i < 64 + 56; i++) {
		ret = fsp_elf_parse(b, i, 4096, &info);
		bad += ret != -EINVAL && ret != -ENOEXEC;
	}
	tap_ok(!bad, "all %d truncations of the headers rejected cleanly",
	       64 + 56);
	m = malloc(len);
	if (!m)
		exit(1);
	srand(5);
	for (i = 0; i < 20000; i++) {
		int k, flips = 1 + rand() % 4;

		memcpy(m, b, len);
		for (k = 0; k < flips; k++)
			m[rand() % (64 + 56)] = rand();
		ret = fsp_elf_parse(m, len, 4096, &info);
		bad += ret && ret != -EINVAL && ret != -ENOEXEC;
		bad += !ret && info.nexec > info.nphdr;
	}
	tap_ok(!bad, "20000 mutated headers: 0, -EINVAL or -ENOEXEC only");
	free(m);
	free(b);
}

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n = -1;

	if (fd >= 0) {
		n = write(fd, buf, len);
		close(fd);
	}
	return n == (ssize_t)len ? 0 : -1;
}

/* A copy of the first len bytes of src: a truncated binary. */
static int truncated_copy(const char *src, const char *dst, size_t len)
{
	char *buf = malloc(len);
	int fd, ret = -1;

	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (buf && fd >= 0 && read(fd, buf, len) == (ssize_t)len)
		ret = write_file(dst, buf, len);
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

static void test_payload(const char *dir, const char *name, const char *tmp)
{
	char path[4096], cut[4096];
	struct fsp_elf_info info;
	const struct fsp_elf_seg *s;
	unsigned int best;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = fsp_elf_read(path, PMD, &info);
	if (!tap_ok(!ret, "%s: parses (ret %d)", name, ret)) {
		tap_skip("%s: layout (not parsed)", name);
		return;
	}
	tap_ok(fsp_elf_text_verdict(&info, &best) == FSP_ELF_OK,
	       "%s: text verdict ok", name);
	s = &info.exec[best];
	tap_diag("%s: offset 0x%llx vaddr 0x%llx filesz 0x%llx align 0x%llx "
		 "extents %llu", name, (unsigned long long)s->offset,
		 (unsigned long long)s->vaddr, (unsigned long long)s->filesz,
		 (unsigned long long)s->align,
		 (unsigned long long)s->full_extents);
	tap_ok(info.nexec == 1 && s->offset_aligned && s->vaddr_aligned &&
	       s->align >= PMD && s->filesz > 4 * MiB && s->full_extents >= 2,
	       "%s: one 2 MiB-aligned executable segment > 4 MiB", name);

	snprintf(cut, sizeof(cut), "%s/cut", tmp);
	if (truncated_copy(path, cut, 3 * MiB)) {
		tap_skip("%s: truncated copy (could not write it)", name);
		return;
	}
	TAP_EQ_LONG(fsp_elf_read(cut, PMD, &info), -EINVAL,
		    "truncated to 3 MiB: text past EOF");
	if (truncate(cut, 100))
		tap_skip("truncated to 100 bytes: %s", strerror(errno));
	else
		TAP_EQ_LONG(fsp_elf_read(cut, PMD, &info), -EINVAL,
			    "truncated to 100 bytes: program headers past EOF");
	unlink(cut);
}

/* Run argv with stdout sent to stderr (TAP owns stdout); exit status. */
static int run(char **argv)
{
	posix_spawn_file_actions_t fa;
	int status, err;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, 2, 1);
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		return -err;
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void test_cc(const char *tmp)
{
	char src[4096], out[4096], *cc = getenv("CC");
	char *argv[] = { NULL, "-o", out, src, NULL, NULL, NULL, NULL };
	struct fsp_elf_info info;
	int ret;

	/* CC may be "gcc -std=gnu11": then plain cc is the safer bet */
	if (!cc || !*cc || strchr(cc, ' '))
		cc = "cc";
	argv[0] = cc;
	snprintf(src, sizeof(src), "%s/tiny.c", tmp);
	snprintf(out, sizeof(out), "%s/tiny", tmp);
	if (write_file(src, "int main(void) { return 0; }\n", 29)) {
		tap_skip("default-layout binary: cannot write %s", src);
		return;
	}
	ret = run(argv);
	if (ret) {
		tap_skip("default-layout binary: %s failed (%d)", cc, ret);
		return;
	}
	ret = fsp_elf_read(out, PMD, &info);
	tap_ok(!ret && fsp_elf_text_verdict(&info, NULL) == FSP_ELF_UNALIGNED,
	       "binary linked by %s with the default max-page-size: not "
	       "aligned", cc);

	argv[4] = "-Wl,-z,max-page-size=0x200000";
	argv[5] = "-Wl,-z,common-page-size=0x200000";
	argv[6] = "-Wl,-z,separate-code";
	if (run(argv)) {
		tap_skip("2 MiB layout tiny binary: %s failed", cc);
	} else {
		ret = fsp_elf_read(out, PMD, &info);
		tap_ok(!ret && fsp_elf_text_verdict(&info, NULL) ==
		       FSP_ELF_TOO_SMALL, "tiny binary with 2 MiB layout: "
		       "aligned but smaller than one extent");
	}
	unlink(out);
	unlink(src);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("FSPROBE_PAYLOAD_DIR");
	char tmp[] = "/tmp/t-elf.XXXXXX", probe[4096];
	struct fsp_elf_info info;

	if (!dir || !*dir)
		dir = getenv("FSP_PAYLOAD_DIR");
	if (argc > 1)
		dir = argv[1];

	test_synthetic();
	test_garbage();

	tap_ok(fsp_elf_read("/proc/self/exe", PMD, &info) == 0 &&
	       fsp_elf_text_verdict(&info, NULL) != FSP_ELF_OK,
	       "this test binary (default layout) is not PMD-text");
	TAP_EQ_LONG(fsp_elf_read("/", PMD, &info), -EISDIR, "a directory");
	TAP_EQ_LONG(fsp_elf_read("/nonexistent/x", PMD, &info), -ENOENT,
		    "a missing file");

	if (!mkdtemp(tmp)) {
		tap_skip("payloads and cc: mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	snprintf(probe, sizeof(probe), "%s/bigtext", dir ? dir : "");
	if (!dir || access(probe, R_OK)) {
		tap_skip("payloads: no FSPROBE_PAYLOAD_DIR with bigtext");
	} else {
		test_payload(dir, "bigtext", tmp);
		test_payload(dir, "libbigtext.so", tmp);
	}
	test_cc(tmp);
	rmdir(tmp);
	return tap_done();
}
