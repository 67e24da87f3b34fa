// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dsoload.c - dlopen() a bigtext DSO and hand it the rest of the command
 * line: the DSO's entry point does the reporting. `--fd N` loads the
 * file open as fd N through /proc/self/fd/N: fsprobe opens and checks
 * its copy on the filesystem under test and passes it on, so no path in
 * a directory someone else can change is ever looked up again. Given a
 * path instead (bench/text-impact), one without a slash gets "./" so
 * dlopen() never searches the library path for a different copy.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigtext.h"

/* The file to dlopen from argv; the arguments it used, or 0. */
static int lib_path(int argc, char **argv, char *path, size_t len)
{
	char *end;
	long fd;

	if (strcmp(argv[1], "--fd")) {
		if (snprintf(path, len, "%s%s", strchr(argv[1], '/') ?
			     "" : "./", argv[1]) >= (int)len)
			return 0;
		return 1;
	}
	if (argc < 3)
		return 0;
	fd = strtol(argv[2], &end, 10);
	if (*end || end == argv[2] || fd < 0 || fd > 65535)
		return 0;
	snprintf(path, len, "/proc/self/fd/%ld", fd);
	return 2;
}

int main(int argc, char **argv)
{
	char path[4096];
	bt_entry_fn *entry;
	int used;
	void *h;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"Usage: dsoload LIB|--fd N [bigtext options]\n");
		return argc < 2 ? 2 : 0;
	}
	used = lib_path(argc, argv, path, sizeof(path));
	if (!used) {
		fprintf(stderr, "dsoload: bad library '%s'\n", argv[1]);
		return 2;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "dsoload: %s\n", dlerror());
		return 1;
	}
	/* POSIX blesses this object-to-function pointer conversion */
	*(void **)&entry = dlsym(h, BT_DSO_ENTRY);
	if (!entry) {
		fprintf(stderr, "dsoload: %s: no %s\n", path, BT_DSO_ENTRY);
		return 1;
	}
	/* The entry's argv[0] is the last word dsoload used. */
	return entry(argc - used, argv + used);
}
