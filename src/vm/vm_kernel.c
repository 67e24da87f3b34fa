// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_kernel.c - what a kernel SPEC names and where an unpacked kernel
 * keeps its parts. A SPEC is a bzImage, a directory (an unpacked package
 * or root), a .deb, or debian:VERSION. The layouts Debian has shipped:
 * bookworm's boot/vmlinuz-V, boot/config-V and lib/modules/V; trixie's
 * merged /usr, modules under usr/lib/modules/V; and sid's split kernel,
 * where linux-binary puts the image at usr/lib/modules/V/vmlinuz and
 * linux-base the config at usr/lib/modules/V/config.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "vm.h"

static const char *const mod_dirs[] = { "lib/modules", "usr/lib/modules" };

int fsp_vm_spec_kind(const char *spec)
{
	size_t l = strlen(spec);
	struct stat st;

	if (!strncmp(spec, FSP_VM_DEBIAN, strlen(FSP_VM_DEBIAN)))
		return FSP_VM_SPEC_DEBIAN;
	if (!stat(spec, &st) && S_ISDIR(st.st_mode))
		return FSP_VM_SPEC_TREE;
	if (l > 4 && !strcmp(spec + l - 4, ".deb"))
		return FSP_VM_SPEC_DEB;
	return FSP_VM_SPEC_IMAGE;
}

/* Add name to the distinct releases in kv (at most max). */
static void add_kver(char kv[][128], int *n, int max, const char *name)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(kv[i], name))
			return;
	if (*n < max)
		fsp_strcpy(kv[*n], sizeof(kv[0]), name);
	(*n)++;
}

/* The releases a tree has: module directories, else boot/vmlinuz-V. */
static int tree_kvers(const char *root, char kv[][128], int max)
{
	char p[PATH_MAX];
	struct dirent *de;
	size_t i;
	int n = 0;
	DIR *d;

	for (i = 0; i < FSP_ARRAY_SIZE(mod_dirs); i++) {
		if (fsp_fmt(p, sizeof(p), "%s/%s", root, mod_dirs[i]))
			continue;
		d = opendir(p);
		while (d && (de = readdir(d)))
			if (de->d_name[0] != '.')
				add_kver(kv, &n, max, de->d_name);
		if (d)
			closedir(d);
	}
	if (n || fsp_fmt(p, sizeof(p), "%s/boot", root))
		return n;
	d = opendir(p);
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "vmlinuz-", 8) && de->d_name[8])
			add_kver(kv, &n, max, de->d_name + 8);
	if (d)
		closedir(d);
	return n;
}

/* The first of root/PREFIX kver SUFFIX (pairs in c) that is readable. */
static void first_of(const char *root, const char *kver,
		     const char *const *c, size_t nr, char *out, size_t len)
{
	size_t i;

	out[0] = '\0';
	for (i = 0; i < nr; i += 2) {
		if (fsp_fmt(out, len, "%s/%s%s%s", root, c[i], kver, c[i + 1]))
			continue;
		if (!access(out, R_OK))
			return;
	}
	out[0] = '\0';
}

int fsp_vm_find_layout(const char *root, struct fsp_vm_layout *l, char *why,
		       size_t whylen)
{
	static const char *const kernels[] = {
		"boot/vmlinuz-", "", "usr/lib/modules/", "/vmlinuz",
		"lib/modules/", "/vmlinuz",
	};
	static const char *const configs[] = {
		"boot/config-", "", "usr/lib/modules/", "/config",
		"lib/modules/", "/config",
	};
	static const char *const modules[] = {
		"usr/lib/modules/", "/kernel", "lib/modules/", "/kernel",
	};
	char kv[4][128];
	int n, i;

	memset(l, 0, sizeof(*l));
	n = tree_kvers(root, kv, 4);
	if (n != 1) {
		if (!n)
			snprintf(why, whylen, "%s: no kernel in it (neither "
				 "lib/modules/V, usr/lib/modules/V nor "
				 "boot/vmlinuz-V)", root);
		else
			snprintf(why, whylen, "%s: %d kernels (%s, %s%s): "
				 "give one", root, n, kv[0], kv[1],
				 n > 2 ? ", ..." : "");
		return -ENOENT;
	}
	fsp_strcpy(l->kver, sizeof(l->kver), kv[0]);
	first_of(root, l->kver, kernels, FSP_ARRAY_SIZE(kernels), l->kernel,
		 sizeof(l->kernel));
	first_of(root, l->kver, configs, FSP_ARRAY_SIZE(configs), l->config,
		 sizeof(l->config));
	/* Where kernel/ is: linux-binary alone has usr/lib/modules/V too. */
	for (i = 0; i < (int)FSP_ARRAY_SIZE(modules); i += 2) {
		first_of(root, l->kver, &modules[i], 2, l->modules,
			 sizeof(l->modules));
		if (l->modules[0]) {	/* the tree, not its kernel/ */
			l->modules[strlen(l->modules) - 7] = '\0';
			break;
		}
	}
	if (!l->kernel[0]) {
		snprintf(why, whylen, "%s: no kernel image for %s (boot/"
			 "vmlinuz-%s or usr/lib/modules/%s/vmlinuz)", root,
			 l->kver, l->kver, l->kver);
		return -ENOENT;
	}
	return 0;
}
