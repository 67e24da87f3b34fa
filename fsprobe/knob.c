// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * knob.c - save/set/restore of sysfs and proc values. THP policy files
 * read as "always [madvise] never" but take one word, so the saved value
 * is the selected word; plain files are saved as read, less the newline.
 * Only THP sysfs, a loop device's queue/read_ahead_kb and
 * queue/write_cache, and the workqueues' default affinity scope are
 * accepted, so that a forged journal cannot make cleanup write anything
 * else. System-wide knobs also go through the registry in FSP_KNOB_DIR
 * (knob.h): record, shared hold, last holder or cleanup restores.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

int fsp_knob_is_global(const char *path)
{
	return strncmp(path, "/sys/block/loop", 15) != 0;
}

/* FSP_KNOB_DIR/NAME.ext, NAME the path with '/' as '_'. */
static int reg_path(char *buf, size_t len, const char *path, const char *ext)
{
	char slug[256];
	size_t i;

	for (i = 0; path[i] && i < sizeof(slug) - 1; i++)
		slug[i] = path[i] == '/' ? '_' : path[i];
	if (path[i])
		return -ENAMETOOLONG;
	slug[i] = '\0';
	return fsp_fmt(buf, len, "%s/%s.%s", FSP_KNOB_DIR, slug, ext);
}

/* The registry's lock, taken exclusive (held only for microseconds). */
static int reg_lock(void)
{
	struct stat st;
	int fd;

	if (mkdir(FSP_KNOB_DIR, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(FSP_KNOB_DIR, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 0022))
		return -EPERM;
	fd = open(FSP_KNOB_DIR "/lock", O_RDWR | O_CREAT | O_NOFOLLOW |
		  O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX)) {
		close(fd);
		return -errno;
	}
	return fd;
}

static int open_hold(const char *path)
{
	char hold[PATH_MAX];
	int fd, ret = reg_path(hold, sizeof(hold), path, "hold");

	if (ret)
		return ret;
	fd = open(hold, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	return fd < 0 ? -errno : fd;
}

/* The recorded original of path: 0, -ENOENT (none) or -EINVAL. */
static int read_record(const char *path, char *saved, size_t len)
{
	char rec[PATH_MAX], buf[PATH_MAX + 160], *nl;
	ssize_t n;
	int ret = reg_path(rec, sizeof(rec), path, "rec");

	if (ret)
		return ret;
	n = fsp_read_text(rec, buf, sizeof(buf));
	if (n < 0)
		return n;
	nl = strchr(buf, '\n');
	if (!nl)
		return -EINVAL;
	*nl++ = '\0';
	if (strcmp(buf, path))
		return -EINVAL;
	return fsp_strcpy(saved, len, fsp_rstrip(nl));
}

/* Written whole under a temporary name, then renamed into place. */
static int write_record(const char *path, const char *saved)
{
	char rec[PATH_MAX], tmp[PATH_MAX + 8], buf[PATH_MAX + 160];
	int ret;

	ret = reg_path(rec, sizeof(rec), path, "rec");
	if (!ret)
		ret = fsp_fmt(tmp, sizeof(tmp), "%s.tmp", rec);
	if (!ret)
		ret = fsp_fmt(buf, sizeof(buf), "%s\n%s\n", path, saved);
	return ret ? ret : fsp_replace_file(rec, tmp, buf, 0600);
}

/*
 * Under the registry lock: if nobody holds path any more, write its
 * recorded original back and drop the record. 1 restored, 0 no record,
 * -EBUSY held by a live run, -errno.
 */
static int release_unheld(const char *path)
{
	char saved[128], name[PATH_MAX];
	int fd, ret;

	if (!knob_path_ok(path))
		return -EPERM;
	fd = open_hold(path);
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return -EBUSY;	/* a live run still uses it */
	}
	ret = read_record(path, saved, sizeof(saved));
	if (ret == -ENOENT)
		ret = 0;
	else if (!ret)
		ret = fsp_write_text(path, saved);
	/* Only once the original is back: a kill before redoes it. */
	if (!ret && !reg_path(name, sizeof(name), path, "rec") &&
	    !unlink(name))
		ret = 1;
	if (ret >= 0 && !reg_path(name, sizeof(name), path, "hold"))
		unlink(name);
	close(fd);
	return ret;
}

/*
 * No record: the original is the value now, read under the registry
 * lock. The value fsp_knob_set() read before taking the lock may be
 * another run's change that run has since restored (it held the knob,
 * released it, and removed the record in between): recording that
 * would make us "restore" the other run's value for good, as CI met
 * with two workers in the khugepaged probe at once.
 */
static int record_current(const char *path, struct fsp_knob *k)
{
	char buf[256];
	int n = fsp_read_text(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	n = fsp_sysfs_selected(fsp_rstrip(buf), k->saved, sizeof(k->saved));
	return n ? n : write_record(path, k->saved);
}

/* Take a shared hold on a system-wide knob; saved gets its original. */
static int global_hold(struct fsp_knob *k, const char *path)
{
	int lfd, ret;

	lfd = reg_lock();
	if (lfd < 0)
		return lfd;
	k->holdfd = open_hold(path);
	ret = k->holdfd < 0 ? k->holdfd :
	      flock(k->holdfd, LOCK_SH) ? -errno : 0;
	if (!ret) {
		/* Recorded by a run before us (live or dead): the original. */
		ret = read_record(path, k->saved, sizeof(k->saved));
		if (ret == -ENOENT)
			ret = record_current(path, k);
	}
	if (ret && k->holdfd >= 0) {
		close(k->holdfd);
		release_unheld(path);
	}
	if (ret)
		k->holdfd = -1;
	close(lfd);
	return ret;
}

void fsp_knob_forget_inherited(struct fsp_knobs *ks)
{
	int i;

	for (i = 0; i < ks->nr; i++)
		if (ks->k[i].holdfd >= 0) {
			close(ks->k[i].holdfd);
			ks->k[i].holdfd = -1;
		}
	ks->nr = 0;
}

/* Drop our hold; the last holder restores the original. */
static int global_unhold(struct fsp_knob *k)
{
	int lfd = reg_lock(), ret;

	if (k->holdfd >= 0)
		close(k->holdfd);
	k->holdfd = -1;
	if (lfd < 0)
		return lfd;
	ret = release_unheld(k->path);
	close(lfd);
	return ret < 0 && ret != -EBUSY ? ret : 0;
}

/*
 * For a dead run's journal: its workers may still be closing their
 * copies of the hold (the run's lock, which cleanup waited for, goes a
 * moment before it in the same exit), so a held knob is retried for up
 * to half a second before it is taken for a live run's.
 */
static int release_dead(int lfd, const char *path)
{
	struct timespec ts = { 0, 10 * 1000000L };
	int ret, tries;

	for (tries = 0; tries < 50; tries++) {
		ret = release_unheld(path);
		if (ret != -EBUSY)
			return ret;
		flock(lfd, LOCK_UN);
		nanosleep(&ts, NULL);
		if (flock(lfd, LOCK_EX))
			return -errno;
	}
	return 0;	/* a live run's: it restores it */
}

int fsp_knob_release_global(const char *path)
{
	struct dirent *de;
	int lfd, ret = 0, r;
	DIR *d;

	if (path && !fsp_knob_is_global(path))
		return -EINVAL;
	d = opendir(FSP_KNOB_DIR);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	lfd = reg_lock();
	if (lfd < 0) {
		closedir(d);
		return lfd;
	}
	if (path) {
		ret = release_dead(lfd, path);
	} else {
		while ((de = readdir(d))) {
			char rec[PATH_MAX], buf[PATH_MAX + 160], *nl;
			size_t l = strlen(de->d_name);

			if (l < 5 || strcmp(de->d_name + l - 4, ".rec") ||
			    fsp_fmt(rec, sizeof(rec), "%s/%s", FSP_KNOB_DIR,
				    de->d_name) ||
			    fsp_read_text(rec, buf, sizeof(buf)) < 0)
				continue;
			nl = strchr(buf, '\n');
			if (!nl)
				continue;
			*nl = '\0';
			r = release_unheld(buf);
			if (r > 0)
				ret += r;
		}
	}
	close(lfd);
	closedir(d);
	return ret;
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
	k->holdfd = -1;
	n = fsp_read_text(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	ret = fsp_sysfs_selected(fsp_rstrip(buf), k->saved, sizeof(k->saved));
	if (ret)
		return ret;
	ret = fsp_strcpy(k->path, sizeof(k->path), path);
	if (!ret)
		ret = fsp_strcpy(k->value, sizeof(k->value), value);
	if (ret)
		return ret;
	k->restored = 0;
	/*
	 * Journalled, and for a system-wide knob recorded and held, before
	 * the write: a kill at any point leaves something that says what
	 * to write back.
	 */
	if (j) {
		ret = fsp_journal_add(j, "knob", path, k->saved);
		if (ret)
			return ret;
		ks->j = j;
	}
	if (fsp_knob_is_global(path)) {
		ret = global_hold(k, path);
		if (ret)
			return ret;
	}
	ks->nr++;
	ret = fsp_write_text(path, value);
	if (ret && k->holdfd >= 0) {
		ks->nr--;
		global_unhold(k);
	}
	/* What was written, for the run's report (fsp_journal_knobs). */
	if (!ret && j)
		fsp_journal_add(j, "knob-set", path, value);
	return ret;
}

int fsp_knob_pending(const char *path, char *saved, size_t len)
{
	char hold[PATH_MAX];
	int fd, ret;

	if (!fsp_knob_is_global(path))
		return -EINVAL;
	ret = read_record(path, saved, len);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	ret = reg_path(hold, sizeof(hold), path, "hold");
	if (ret)
		return ret;
	fd = open(hold, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 1 : -errno;
	/* A live run holds it shared: an exclusive try fails. */
	ret = flock(fd, LOCK_EX | LOCK_NB) ? 2 : 1;
	close(fd);
	return ret;
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

		r = k->holdfd >= 0 ? global_unhold(k) :
		    fsp_knob_restore_saved(k->path, k->saved);
		k->restored = !r;
		if (!r && ks->j)
			r = fsp_journal_add(ks->j, "knob-restored", k->path,
					    NULL);
		if (r && !ret)
			ret = r;
	}
	return ret;
}
