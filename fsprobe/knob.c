// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * knob.c - save/set/restore of sysfs and proc values. THP policy files
 * read as "always [madvise] never" but take one word, so the saved value
 * is the selected word; plain files are saved as read, less the newline.
 * Only THP sysfs, a loop device's queue/read_ahead_kb and
 * queue/write_cache, and the workqueues' default affinity scope are
 * accepted, so that a forged journal cannot make cleanup write anything
 * else.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "journal.h"
#include "knob.h"
#include "sysinfo.h"
#include "util.h"

/*
 * Only the knobs fsprobe has a reason to change: THP policy, of a loop
 * device its readahead and whether it passes flushes on, and where
 * unbound work runs while workers are bound to CPUs (cpu.h).
 */
static int knob_path_ok(const char *path)
{
	if (!strcmp(path, FSP_KNOB_WQ_SCOPE))
		return 1;
	static const char *const prefixes[] = {
		"/sys/kernel/mm/transparent_hugepage/", "/sys/block/loop",
	};
	size_t i;

	if (strstr(path, "/.."))
		return 0;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(path, prefixes[i], strlen(prefixes[i])))
			return strncmp(path, "/sys/block/loop", 15) ||
			       strstr(path, "/queue/read_ahead_kb") != NULL ||
			       strstr(path, "/queue/write_cache") != NULL;
	return 0;
}

int fsp_knob_set(struct fsp_knobs *ks, struct fsp_journal *j,
		 const char *path, const char *value)
{
	struct fsp_knob *k;
	char buf[256];
	ssize_t n;
	int ret;

	if (!knob_path_ok(path))
		return -EPERM;
	if (ks->nr == FSP_KNOB_MAX)
		return -ENOSPC;
	k = &ks->k[ks->nr];
	n = fsp_read_text(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	ret = fsp_sysfs_selected(fsp_rstrip(buf), k->saved, sizeof(k->saved));
	if (ret)
		return ret;
	ret = fsp_strcpy(k->path, sizeof(k->path), path);
	if (ret)
		return ret;
	if (j) {
		ret = fsp_journal_add(j, "knob", path, k->saved);
		if (ret)
			return ret;
		ks->j = j;
	}
	ks->nr++;
	return fsp_write_text(path, value);
}

int fsp_knob_restore_saved(const char *path, const char *saved)
{
	if (!knob_path_ok(path))
		return -EPERM;
	return fsp_write_text(path, saved);
}

int fsp_knob_restore_all(struct fsp_knobs *ks)
{
	int ret = 0, r;

	while (ks->nr > 0) {
		struct fsp_knob *k = &ks->k[--ks->nr];

		r = fsp_knob_restore_saved(k->path, k->saved);
		if (!r && ks->j)
			r = fsp_journal_add(ks->j, "knob-restored", k->path,
					    NULL);
		if (r && !ret)
			ret = r;
	}
	return ret;
}
