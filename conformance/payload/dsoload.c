// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dsoload.c - dlopen() a bigtext DSO from the path given (a copy on the
 * filesystem under test) and hand it the rest of the command line: the
 * DSO's entry point does the reporting. A path without a slash gets "./"
 * so dlopen() never searches the library path for a different copy.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "bigtext.h"

int main(int argc, char **argv)
{
	char path[4096];
	bt_entry_fn *entry;
	void *h;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"Usage: dsoload LIB [bigtext options]\n");
		return argc < 2 ? 2 : 0;
	}
	if (snprintf(path, sizeof(path), "%s%s", strchr(argv[1], '/') ?
		     "" : "./", argv[1]) >= (int)sizeof(path)) {
		fprintf(stderr, "dsoload: path too long\n");
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
	return entry(argc - 1, argv + 1);
}
