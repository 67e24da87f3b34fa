// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-profile.c - libFuzzer target for the profile parser: any bytes go
 * to fsp_profile_parse_text() as the text of one profile file. Besides
 * memory errors and leaks (ASan, UBSan, LeakSanitizer) it checks what the
 * parser promises: an error carries a NUL-terminated message and a line
 * that exists, and an accepted profile has a filesystem type, bounded
 * NULL-terminated word lists, and no mkfs word or mount option that names
 * an absolute path under /dev, however it is spelled ("//dev/sda",
 * "name=/./dev/sdb"): what the refusal of device paths promises.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz-profile: %s: '%s'\n", what, detail);
	abort();
}

static int terminated(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

/*
 * Does the absolute path at s (up to a ',' ':' or the end) lead into
 * /dev once "//", "." and ".." are resolved? Symlinks are not followed.
 */
static int abs_path_in_dev(const char *s)
{
	const char *comp[64];
	size_t clen[64], len;
	int depth = 0;

	while (*s && *s != ',' && *s != ':') {
		while (*s == '/')
			s++;
		len = strcspn(s, "/,:");
		if (len == 2 && !strncmp(s, "..", 2)) {
			depth -= depth > 0;
		} else if (len && !(len == 1 && *s == '.') && depth < 64) {
			comp[depth] = s;
			clen[depth++] = len;
		}
		s += len;
	}
	return depth >= 2 && clen[0] == 3 && !strncmp(comp[0], "dev", 3);
}

/* Any absolute path in the word, alone or after '=' ',' ':', in /dev? */
static int names_dev(const char *w)
{
	const char *p;

	if (*w == '/' && abs_path_in_dev(w))
		return 1;
	for (p = w; *p; p++)
		if ((*p == '=' || *p == ',' || *p == ':') && p[1] == '/' &&
		    abs_path_in_dev(p + 1))
			return 1;
	return 0;
}

static void check_words(char *const *w, int nr, int max, const char *what)
{
	int i;

	if (nr < 0 || nr > max || w[nr])
		fail(what, "word list not NULL-terminated at nr");
	for (i = 0; i < nr; i++)
		if (!w[i])
			fail(what, "missing word");	/* "" is a word */
}

static void check_profile(const struct fsp_profile *p)
{
	int i;

	if (!terminated(p->fs, sizeof(p->fs)) || !p->fs[0])
		fail("accepted profile", "fs empty or unterminated");
	if (!terminated(p->mount_options, sizeof(p->mount_options)) ||
	    !terminated(p->description, sizeof(p->description)) ||
	    !terminated(p->lower, sizeof(p->lower)))
		fail("accepted profile", "unterminated string field");
	check_words(p->mkfs, p->nr_mkfs, FSP_PROFILE_MAX_ARGS, "mkfs");
	check_words(p->requires, p->nr_requires, FSP_PROFILE_MAX_REQS,
		    "requires");
	check_words(p->server, p->nr_server, FSP_PROFILE_MAX_ARGS, "server");
	for (i = 0; i < p->nr_mkfs; i++)
		if (names_dev(p->mkfs[i]))
			fail("accepted mkfs word names a device", p->mkfs[i]);
	for (i = 0; i < p->nr_server; i++)
		if (names_dev(p->server[i]))
			fail("accepted server word names a device",
			     p->server[i]);
	if (names_dev(p->mount_options))
		fail("accepted mount_options name a device", p->mount_options);
	if (p->size_mb && (p->size_mb < 16 || p->size_mb > 65536))
		fail("accepted profile", "size out of range");
	if (!strcmp(fsp_profile_kind_name(p->kind), "?"))
		fail("accepted profile", "kind out of range");
	if ((p->kind == FSP_PROFILE_OVERLAY) != !!p->lower[0])
		fail("accepted profile", "overlay kind and 'lower' disagree");
	if ((p->kind == FSP_PROFILE_FUSE) != !!p->nr_server)
		fail("accepted profile", "fuse kind and 'server' disagree");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fsp_profile *p = malloc(sizeof(*p));
	struct fsp_profile_error err;
	size_t i, lines = 1;
	int ret;

	if (!p)
		return 0;
	ret = fsp_profile_parse_text("fuzz", (const char *)data, size, p, &err);
	if (ret == -EINVAL) {
		for (i = 0; i < size; i++)
			lines += data[i] == '\n';
		if (!terminated(err.msg, sizeof(err.msg)) || !err.msg[0])
			fail("error", "message empty or unterminated");
		if (err.line < 0 || (size_t)err.line > lines)
			fail("error", "line number past the end of the text");
	} else if (!ret) {
		check_profile(p);
		fsp_profile_free(p);
	}
	free(p);
	return 0;
}
