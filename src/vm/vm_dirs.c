// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_dirs.c - the directories of `fsprobe vm` on the host: temporary
 * work directories and the cache that keeps unpacked kernels and built
 * initramfs images between runs. The host tools themselves are run with
 * fsprobe/proc.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "vm.h"

int fsp_vm_mkdtemp(const char *prefix, char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int ret;

	ret = fsp_fmt(buf, len, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
		      prefix);
	if (ret)
		return ret;
	return mkdtemp(buf) ? 0 : -errno;
}

int fsp_vm_mkdirs(const char *path, int private)
{
	char p[PATH_MAX], *s;
	int ret;

	ret = fsp_strcpy(p, sizeof(p), path);
	if (ret)
		return ret;
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, private ? 0700 : 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int fsp_vm_cache_dir(char *buf, size_t len)
{
	const char *env = getenv("FSPROBE_CACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	size_t n = strlen(FSP_SRCDIR);
	int ret, private = 1;

	if (env && *env) {
		ret = fsp_strcpy(buf, len, env);
	} else if (geteuid() == 0) {
		ret = fsp_strcpy(buf, len, "/var/cache/fsprobe");
		private = 0;
	} else if (xdg && *xdg == '/') {
		ret = fsp_fmt(buf, len, "%s/fsprobe", xdg);
	} else if (home && *home == '/') {
		ret = fsp_fmt(buf, len, "%s/.cache/fsprobe", home);
	} else {
		return -ENOENT;
	}
	if (ret)
		return ret;
	/* Build products never land in the source tree (make distcheck). */
	if (!strncmp(buf, FSP_SRCDIR, n) && (buf[n] == '/' || !buf[n]))
		return -EINVAL;
	return fsp_vm_mkdirs(buf, private);
}
