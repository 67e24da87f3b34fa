/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysinfo.h - what the running kernel says about THP: page size, PMD
 * size and order, the sysfs THP policy words, and the CONFIG_* options
 * that change the answers (from /proc/config.gz or /boot/config-*).
 */
#ifndef FSP_SYSINFO_H
#define FSP_SYSINFO_H

#include <stddef.h>

#define FSP_THP_DIR "/sys/kernel/mm/transparent_hugepage"

/* A CONFIG_* option as the kernel's own config text has it. */
enum fsp_kopt {
	FSP_KOPT_UNKNOWN = -1,	/* no config readable */
	FSP_KOPT_NOT_SET,	/* "# CONFIG_X is not set" (or =n) */
	FSP_KOPT_SET,		/* CONFIG_X=y or =m */
	FSP_KOPT_ABSENT,	/* the config has no line for it at all */
};

struct fsp_sysinfo {
	char kernel[128];	/* uname -r */
	char arch[32];
	long page_size;
	unsigned long pmd_size;	/* 0: THP not available */
	int pmd_order;		/* -1: unknown */
	char thp_enabled[32];	/* selected word, "" if absent */
	char thp_shmem_enabled[32];
	char thp_defrag[32];
	int ro_thp;		/* CONFIG_READ_ONLY_THP_FOR_FS: 1 y, 0 n, -1 ? */
	enum fsp_kopt ro_thp_state;	/* the same, telling absent apart */
	char config_source[64];	/* where the CONFIG_* answers came from */
};

int fsp_sysinfo_read(struct fsp_sysinfo *si);
/* The bracketed word of "always [madvise] never". */
int fsp_sysfs_selected(const char *text, char *word, size_t len);
/*
 * Kernel config: *val gets 'y', 'm' or 'n' (n also for "is not set" and
 * for a symbol the config does not mention). -ENOENT: no config found.
 */
int fsp_kconfig_get(const char *sym, char *val, char *source, size_t len);
/* Same lookup on config text already in memory (for tests). */
int fsp_kconfig_parse(const char *text, const char *sym, char *val);
/* set, not set or absent: a line for sym, a "# sym is not set", neither. */
enum fsp_kopt fsp_kconfig_state_parse(const char *text, const char *sym);
/* The same on the running kernel's config; FSP_KOPT_UNKNOWN without one. */
enum fsp_kopt fsp_kconfig_state(const char *sym);
/* "set", "not set", "absent"; NULL for unknown. */
static inline const char *fsp_kopt_name(enum fsp_kopt k)
{
	return k == FSP_KOPT_SET ? "set" : k == FSP_KOPT_NOT_SET ?
	       "not set" : k == FSP_KOPT_ABSENT ? "absent" : NULL;
}
/* Parse the above from text (a config file read by hand, for tests). */
int fsp_sysinfo_config_text(struct fsp_sysinfo *si, const char *text);

#endif
