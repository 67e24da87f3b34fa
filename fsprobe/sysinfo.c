// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysinfo.c - read THP sysfs and the kernel configuration. The config is
 * read through zlib from /proc/config.gz (CONFIG_IKCONFIG_PROC), else
 * from /boot/config-$(uname -r); without either, options are unknown
 * (-1) and the report says so instead of guessing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "sysinfo.h"
#include "util.h"

int fsp_sysfs_selected(const char *text, char *word, size_t len)
{
	const char *l = strchr(text, '['), *r;

	if (!l) {
		/* A knob with one value has no brackets. */
		char tmp[64];

		snprintf(tmp, sizeof(tmp), "%s", text);
		return fsp_strcpy(word, len, fsp_rstrip(fsp_lstrip(tmp)));
	}
	r = strchr(l, ']');
	if (!r || (size_t)(r - l - 1) >= len)
		return -EINVAL;
	memcpy(word, l + 1, r - l - 1);
	word[r - l - 1] = '\0';
	return 0;
}

static void read_selected(const char *name, char *word, size_t len)
{
	char path[256], buf[256];

	word[0] = '\0';
	snprintf(path, sizeof(path), FSP_THP_DIR "/%s", name);
	if (fsp_read_text(path, buf, sizeof(buf)) > 0)
		fsp_sysfs_selected(buf, word, len);
}

int fsp_kconfig_parse(const char *text, const char *sym, char *val)
{
	size_t l = strlen(sym);
	const char *p = text;

	*val = 'n';
	while (p && *p) {
		if (!strncmp(p, sym, l) && p[l] == '=') {
			*val = p[l + 1] == 'y' || p[l + 1] == 'm' ?
			       p[l + 1] : 'y';
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static int slurp_gz(const char *path, char **out)
{
	size_t cap = 1 << 16, len = 0;
	char *buf, *nbuf;
	gzFile gz;
	int n;

	gz = gzopen(path, "rb");
	if (!gz)
		return errno ? -errno : -ENOENT;
	buf = malloc(cap);
	if (!buf) {
		gzclose(gz);
		return -ENOMEM;
	}
	while ((n = gzread(gz, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 4096) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf) {
				free(buf);
				gzclose(gz);
				return -ENOMEM;
			}
			buf = nbuf;
			cap *= 2;
		}
	}
	gzclose(gz);
	if (n < 0) {
		free(buf);
		return -EIO;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

/* The running kernel's config text, read once; NULL without one. */
static const char *config_text(const char **source)
{
	static char *cached;
	static char cached_src[64];
	struct utsname u;
	char path[256];

	if (!cached) {
		if (!access("/proc/config.gz", R_OK) &&
		    !slurp_gz("/proc/config.gz", &cached)) {
			snprintf(cached_src, sizeof(cached_src),
				 "/proc/config.gz");
		} else {
			uname(&u);
			snprintf(path, sizeof(path), "/boot/config-%s",
				 u.release);
			if (fsp_slurp(path, &cached, NULL))
				return NULL;
			snprintf(cached_src, sizeof(cached_src), "%.63s", path);
		}
	}
	if (source)
		*source = cached_src;
	return cached;
}

int fsp_kconfig_get(const char *sym, char *val, char *source, size_t len)
{
	const char *src, *text = config_text(&src);

	if (!text)
		return -ENOENT;
	if (source)
		fsp_strcpy(source, len, src);
	return fsp_kconfig_parse(text, sym, val);
}

/* Does line p start with "# SYM is not set"? */
static int not_set_line(const char *p, const char *sym, size_t l)
{
	return !strncmp(p, "# ", 2) && !strncmp(p + 2, sym, l) &&
	       !strncmp(p + 2 + l, " is not set", 11);
}

enum fsp_kopt fsp_kconfig_state_parse(const char *text, const char *sym)
{
	size_t l = strlen(sym);
	const char *p = text;

	if (!text)
		return FSP_KOPT_UNKNOWN;
	while (p && *p) {
		if (!strncmp(p, sym, l) && p[l] == '=')
			return p[l + 1] == 'n' ? FSP_KOPT_NOT_SET :
			       FSP_KOPT_SET;
		if (not_set_line(p, sym, l))
			return FSP_KOPT_NOT_SET;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return FSP_KOPT_ABSENT;
}

enum fsp_kopt fsp_kconfig_state(const char *sym)
{
	return fsp_kconfig_state_parse(config_text(NULL), sym);
}

int fsp_sysinfo_config_text(struct fsp_sysinfo *si, const char *text)
{
	si->ro_thp_state = fsp_kconfig_state_parse(text,
					"CONFIG_READ_ONLY_THP_FOR_FS");
	si->ro_thp = si->ro_thp_state == FSP_KOPT_UNKNOWN ? -1 :
		     si->ro_thp_state == FSP_KOPT_SET;
	return 0;
}

int fsp_sysinfo_read(struct fsp_sysinfo *si)
{
	struct utsname u;
	unsigned long pmd;
	const char *src = "", *text;

	memset(si, 0, sizeof(*si));
	uname(&u);
	snprintf(si->kernel, sizeof(si->kernel), "%s", u.release);
	snprintf(si->arch, sizeof(si->arch), "%s", u.machine);
	si->page_size = sysconf(_SC_PAGESIZE);
	si->pmd_order = -1;
	if (!fsp_read_ulong(FSP_THP_DIR "/hpage_pmd_size", &pmd) && pmd) {
		int order = 0;

		si->pmd_size = pmd;
		while ((si->page_size << order) < (long)pmd)
			order++;
		si->pmd_order = order;
	}
	read_selected("enabled", si->thp_enabled, sizeof(si->thp_enabled));
	read_selected("shmem_enabled", si->thp_shmem_enabled,
		      sizeof(si->thp_shmem_enabled));
	read_selected("defrag", si->thp_defrag, sizeof(si->thp_defrag));
	text = config_text(&src);
	if (text)
		fsp_strcpy(si->config_source, sizeof(si->config_source), src);
	return fsp_sysinfo_config_text(si, text);
}
