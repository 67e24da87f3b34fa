// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unwind.c - the LIFO unwind of a journal (unwind.h). Unwinding re-checks
 * each entry against the live system before acting: a loop device is
 * detached only if it is still bound to the journal's image (the file's
 * st_dev/st_ino and the name we gave it, not the path sysfs shows, which
 * depends on mount namespaces that may be gone), a mount is removed only
 * if its source is the journal's loop (or dm) device, so a recycled device number
 * or a foreign mount is never touched. System-wide knobs are restored
 * through their registry (knob.h), never over a live run's change.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checkdir.h"
#include "dm.h"
#include "fuse.h"
#include "journal.h"
#include "knob.h"
#include "loop.h"
#include "mnt.h"
#include "nullb.h"
#include "task.h"
#include "trace.h"
#include "unwind.h"
#include "util.h"

struct mount_want {
	const char *target, *source;	/* source NULL: any */
};

static int is_wanted(const char *target, const char *source, void *arg)
{
	const struct mount_want *w = arg;

	return !strcmp(target, w->target) &&
	       (!w->source || !strcmp(source, w->source));
}

/* Is path (under one of our run dirs) mounted here with source src? */
static int mounted_from(const char *target, const char *src)
{
	struct mount_want w = { target, src };

	return fsp_mountinfo_each(is_wanted, &w) > 0;
}

/* Is p strictly inside dir (no "..", no escaping through prefixes)? */
static int inside(const char *dir, const char *p)
{
	size_t l = strlen(dir);

	return !strncmp(p, dir, l) && p[l] == '/' && p[l + 1] &&
	       !strstr(p, "/../") && !strstr(p, "/./");
}

/* One journal line, and for a "loop" line its image's identity. */
struct entry {
	char *kind, *a, *b;
	struct fsp_loop_id id;
};

/* What the backwards replay of one journal knows. */
struct replay {
	const char *rundir;
	struct entry *e;
	int nr;
	const char *restored[64];	/* "knob-restored" paths met so far */
	int nr_restored;
	int busy;			/* a server of ours would not die */
};

/*
 * A loop device's queue knob is restored only while the device is free
 * or still bound to an image of this run: once someone else has attached
 * it, its settings are theirs.
 */
static int knob_device_ours(const struct replay *r, const char *path)
{
	char dev[32], back[PATH_MAX];
	int nr, i;

	if (sscanf(path, "/sys/block/loop%d/", &nr) != 1)
		return 1;
	snprintf(dev, sizeof(dev), "/dev/loop%d", nr);
	if (fsp_loop_backing_file(nr, back, sizeof(back)) == -ENOENT)
		return 1;	/* free */
	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->e[i].kind, "loop") &&
		    !strcmp(r->e[i].a, dev) && inside(r->rundir, r->e[i].b) &&
		    fsp_loop_bound_to(dev, r->e[i].b, &r->e[i].id) == 1)
			return 1;
	return 0;
}

/* Was the knob restored after this set? Each mark covers one set. */
static int take_restored(struct replay *r, const char *path)
{
	int i;

	for (i = 0; i < r->nr_restored; i++)
		if (!strcmp(r->restored[i], path)) {
			r->restored[i] = r->restored[--r->nr_restored];
			return 1;
		}
	return 0;
}

static void unwind_knob(struct replay *r, const char *a, const char *b,
			struct fsp_unwind_stats *st)
{
	int ret;

	if (take_restored(r, a))
		return;
	/* System-wide: restored from the registry, once no run holds it. */
	if (fsp_knob_is_global(a)) {
		ret = fsp_knob_release_global(a);
		if (ret > 0)
			st->knobs += ret;
		else if (ret < 0)
			st->refused++;
		return;
	}
	if (knob_device_ours(r, a) && !fsp_knob_restore_saved(a, b))
		st->knobs++;
	else
		st->refused++;
}

/*
 * A FUSE server the run started ("fuse-server PID/START MNT"): killed
 * only while that pid has that start time, so a recycled pid is safe.
 * One that outlives SIGKILL is stuck in the kernel: the run directory
 * stays, as for the watchdog's stuck tasks.
 */
static void unwind_server(struct replay *r, const char *a, const char *b,
			  struct fsp_unwind_stats *st)
{
	unsigned long long start;
	pid_t pid;
	int ret;

	if (fsp_fuse_parse_id(a, &pid, &start) || !inside(r->rundir, b)) {
		st->refused++;
		return;
	}
	ret = fsp_fuse_kill_stale(pid, start, r->rundir, 2000);
	if (ret == 1) {
		st->servers++;
	} else if (ret < 0) {
		r->busy = 1;
		if (!st->stuck++)
			snprintf(st->stuck_what, sizeof(st->stuck_what),
				 "%s: FUSE server %d serving %s survives "
				 "SIGKILL", r->rundir, (int)pid, b);
	}
}

/*
 * A dm device is removed by its uuid, which only our create sets, and
 * only if it is a name this run makes: fsprobe-RUNID-..., RUNID being
 * the run directory's own name.
 */
static void unwind_dm(const char *rundir, const char *name,
		      struct fsp_unwind_stats *st)
{
	const char *id = strrchr(rundir, '/');
	int ret = fsp_dm_remove_if_ours(name, id ? id + 1 : rundir);

	if (ret == 1)
		st->dms++;
	else if (ret == -EPERM)
		st->refused++;
}

/*
 * A null_blk device of this run (its name carries the run's id): the
 * configfs the run mounted went with its mount namespace, so configfs
 * is mounted again for the removal, inside the run directory (unwinding
 * runs in a private mount namespace, docs/safety.md), and unmounted.
 * No configfs in this kernel: no null_blk device can exist either.
 */
static void unwind_nullb(const char *rundir, const char *name,
			 struct fsp_unwind_stats *st)
{
	const char *run_id = strrchr(rundir, '/');
	char cfs[PATH_MAX];
	int ret;

	run_id = run_id ? run_id + 1 : rundir;
	if (!fsp_nullb_name_ours(name, run_id)) {
		st->refused++;
		return;
	}
	if (fsp_fmt(cfs, sizeof(cfs), "%s/.configfs-unwind", rundir) ||
	    (mkdir(cfs, 0700) && errno != EEXIST))
		return;
	if (!mount("configfs", cfs, "configfs", 0, NULL)) {
		ret = fsp_nullb_remove_name(cfs, name, run_id);
		if (!ret)
			st->nullbs++;
		umount2(cfs, MNT_DETACH);
	}
	rmdir(cfs);
}

/*
 * `check DIR`'s work directory, outside the run directory by nature:
 * removed through fds, only while it is the inode the line names
 * (checkdir.h).
 */
static void unwind_checkdir(const char *path, const char *id,
			    struct fsp_unwind_stats *st)
{
	int ret = fsp_checkdir_unwind(path, id);

	if (ret == 1)
		st->files++;
	else if (ret == -EPERM)
		st->refused++;
}

/*
 * Undo one entry. Journals are re-read after a crash, so they are input
 * like any other: a path outside the run's own directory, a loop device
 * bound to a file that is not its image, or a tracefs instance not named
 * by us is refused, whatever the journal says.
 */
static void unwind_entry(struct replay *r, const struct entry *e,
			 struct fsp_unwind_stats *st)
{
	const char *rundir = r->rundir, *kind = e->kind, *a = e->a, *b = e->b;

	if (!strcmp(kind, "mount")) {
		if (!inside(rundir, a) || (*b && strncmp(b, "/dev/loop", 9) &&
					   strncmp(b, "/dev/dm-", 8))) {
			st->refused++;
		} else if (mounted_from(a, *b ? b : NULL)) {
			if (!umount2(a, MNT_DETACH))
				st->mounts++;
		}
	} else if (!strcmp(kind, "loop")) {
		int ret = inside(rundir, b) ?
			  fsp_loop_detach_if_ours(a, b, &e->id) : -EPERM;

		if (ret == 1)
			st->loops++;
		else if (ret == -EPERM)
			st->refused++;
	} else if (!strcmp(kind, "fuse-server")) {
		unwind_server(r, a, b, st);
	} else if (!strcmp(kind, "dm")) {
		unwind_dm(rundir, a, st);
	} else if (!strcmp(kind, "nullb")) {
		unwind_nullb(rundir, a, st);
	} else if (!strcmp(kind, "knob-restored")) {
		if (r->nr_restored < (int)FSP_ARRAY_SIZE(r->restored))
			r->restored[r->nr_restored++] = a;
	} else if (!strcmp(kind, "knob")) {
		unwind_knob(r, a, b, st);
	} else if (!strcmp(kind, "tracefs")) {
		char root[128];
		int mounted;

		/* Instances are global: find tracefs (privately mounted). */
		if (strncmp(a, "fsprobe-", 8) || strchr(a, '/'))
			st->refused++;
		else if (!fsp_trace_find_root(root, sizeof(root), &mounted) &&
			 !fsp_trace_remove_instance(root, a))
			st->instances++;
	} else if (!strcmp(kind, "check-dir")) {
		unwind_checkdir(a, b, st);
	} else if (!strcmp(kind, "image") || !strcmp(kind, "file") ||
		   !strcmp(kind, "dir")) {
		if (!inside(rundir, a))
			st->refused++;
		else if (!strcmp(kind, "dir") ? !fsp_rmtree(a) : !unlink(a))
			st->files++;
	}
}

/*
 * Split the journal into entries; a "loop" line gets the identity of
 * the "loop-id" line journalled just before it for the same device.
 */
static int parse_journal(char *text, struct entry *e, int max)
{
	struct fsp_loop_id id = { 0, 0 };
	const char *id_dev = "";
	char *line, *save;
	int n = 0;

	for (line = strtok_r(text, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		char *a = strchr(line, '\t'), *b;

		if (!a)
			continue;
		*a++ = '\0';
		b = strchr(a, '\t');
		if (!b)
			continue;
		*b++ = '\0';
		if (!strcmp(line, "loop-id")) {
			if (fsp_loop_parse_id(b, &id))
				memset(&id, 0, sizeof(id));
			id_dev = a;
			continue;
		}
		e[n] = (struct entry){ line, a, b, { 0, 0 } };
		if (!strcmp(line, "loop") && !strcmp(a, id_dev))
			e[n].id = id;
		n++;
	}
	return n;
}

#define JOURNAL_MAX_ENTRIES 4096

/*
 * Read and parse the journal file at path: *text holds the strings that
 * *e points into (free both). Returns the number of entries or -errno.
 */
static int read_journal(const char *path, char **text, struct entry **e)
{
	int ret = fsp_slurp(path, text, NULL);

	if (ret)
		return ret;
	*e = calloc(JOURNAL_MAX_ENTRIES, sizeof(**e));
	if (!*e) {
		free(*text);
		return -ENOMEM;
	}
	return parse_journal(*text, *e, JOURNAL_MAX_ENTRIES);
}

/* The journal of run j: read_journal of its file. */
static int read_run_journal(const struct fsp_journal *j, char **text,
			    struct entry **e)
{
	char path[PATH_MAX];
	int ret = fsp_journal_path(j, path, sizeof(path), FSP_JOURNAL_NAME);

	return ret ? ret : read_journal(path, text, e);
}

/* Replay a journal file backwards. */
static int unwind_file(const char *rundir, const char *path,
		       struct fsp_unwind_stats *st)
{
	struct replay r = { .rundir = rundir };
	char *text;
	int i;

	r.nr = read_journal(path, &text, &r.e);
	if (r.nr < 0)
		return r.nr == -ENOENT ? 0 : r.nr;
	for (i = r.nr - 1; i >= 0; i--)
		unwind_entry(&r, &r.e[i], st);
	free(r.e);
	free(text);
	return r.busy ? -EBUSY : 0;
}

/* Fill c from e[from..nr) for c->path: the last value set, restored. */
static void knob_history(const struct entry *e, int from, int nr,
			 struct fsp_knob_change *c)
{
	int i, changes = 0, restores = 0;

	c->during = "";
	for (i = from; i < nr; i++) {
		if (strcmp(e[i].a, c->path))
			continue;
		if (!strcmp(e[i].kind, "knob"))
			changes++;
		else if (!strcmp(e[i].kind, "knob-set"))
			c->during = e[i].b;
		else if (!strcmp(e[i].kind, "knob-restored"))
			restores++;
	}
	c->restored = restores >= changes;
}

/* Is e[i] a "knob" line for a path no earlier "knob" line had? */
static int first_change(const struct entry *e, int i)
{
	int k;

	if (strcmp(e[i].kind, "knob") || !fsp_knob_is_global(e[i].a))
		return 0;
	for (k = 0; k < i; k++)
		if (!strcmp(e[k].kind, "knob") && !strcmp(e[k].a, e[i].a))
			return 0;
	return 1;
}

int fsp_journal_knobs(const struct fsp_journal *j,
		      void (*each)(void *arg, const struct fsp_knob_change *c),
		      void *arg)
{
	struct fsp_knob_change c;
	struct entry *e;
	char *text;
	int i, nr = read_run_journal(j, &text, &e);

	if (nr < 0)
		return nr;
	for (i = 0; i < nr; i++) {
		if (!first_change(e, i))
			continue;
		c.path = e[i].a;
		c.was = e[i].b;
		knob_history(e, i, nr, &c);
		each(arg, &c);
	}
	free(e);
	free(text);
	return 0;
}

int fsp_journal_kill_servers(const struct fsp_journal *j, const char *dir)
{
	unsigned long long start;
	struct entry *e;
	char *text;
	int i, killed = 0, nr = read_run_journal(j, &text, &e);
	pid_t pid;

	if (nr < 0)
		return nr;
	for (i = nr - 1; i >= 0; i--) {
		if (strcmp(e[i].kind, "fuse-server") || !inside(dir, e[i].b) ||
		    !inside(j->dir, e[i].b) ||
		    fsp_fuse_parse_id(e[i].a, &pid, &start))
			continue;
		if (fsp_fuse_kill_stale(pid, start, j->dir, 2000) == 1)
			killed++;
	}
	free(e);
	free(text);
	return killed;
}

int fsp_journal_finish(struct fsp_journal *j, struct fsp_unwind_stats *st)
{
	struct fsp_unwind_stats dummy;
	char path[PATH_MAX];
	int ret;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	ret = fsp_journal_path(j, path, sizeof(path), FSP_JOURNAL_NAME);
	if (!ret)
		ret = unwind_file(j->dir, path, st);
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	if (ret != -EBUSY)
		fsp_rmtree(j->dir);
	if (j->lockfd >= 0)
		close(j->lockfd);
	j->lockfd = -1;
	return ret;
}

/*
 * Take a run's lock. A run whose main process is gone may still hold it
 * for a moment through its workers, which die with it (PDEATHSIG): wait
 * for those, boundedly (15 s: a killed nfs worker's soft client gives
 * its stopped server some seconds first). 1: locked (the run is dead),
 * 0: alive.
 */
static int lock_when_dead(int lfd)
{
	struct timespec ts = { 0, 20 * 1000000L };
	char buf[32];
	ssize_t n;
	int pid, i;

	if (!flock(lfd, LOCK_EX | LOCK_NB))
		return 1;
	n = pread(lfd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = atoi(buf);
	if (pid <= 0 || !kill(pid, 0) || errno != ESRCH)
		return 0;
	for (i = 0; i < 750; i++) {
		nanosleep(&ts, NULL);
		if (!flock(lfd, LOCK_EX | LOCK_NB))
			return 1;
	}
	return 0;
}

/*
 * A '.new-ID' directory is a run directory being made (see
 * fsp_journal_create): it lives for microseconds and holds nothing but
 * the lock. One a minute old belongs to a run killed in between; it is
 * removed if its lock is not held. The age keeps us off a directory
 * whose creator has not taken its lock yet.
 */
static void stale_fresh_dir(const char *base, const char *name,
			    struct fsp_unwind_stats *st)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct stat sb;
	int lfd;

	if (fsp_fmt(dir, sizeof(dir), "%s/%s", base, name) ||
	    lstat(dir, &sb) || !S_ISDIR(sb.st_mode) ||
	    time(NULL) - sb.st_mtime < 60 ||
	    fsp_fmt(path, sizeof(path), "%s/%s", dir, FSP_JOURNAL_LOCK))
		return;
	lfd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (lfd >= 0 && !lock_when_dead(lfd)) {
		close(lfd);
		return;
	}
	if (!fsp_rmtree(dir))
		st->files++;
	if (lfd >= 0)
		close(lfd);
}

/*
 * The watchdog's "stuck\tPID/START\tCOMM: STEP" lines of a journal: 1
 * if such a task still lives (the same pid and start time), which then
 * holds what the run made (its mounts, the loop device under them);
 * what says which.
 */
static int stuck_alive(const char *dir, const char *journal, char *what,
		       size_t len)
{
	char *text, *line, *save;
	int found = 0;

	if (fsp_slurp(journal, &text, NULL))
		return 0;
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long start;
		char step[256];
		int pid;

		if (sscanf(line, "stuck\t%d/%llu\t%255[^\n]", &pid, &start,
			   step) != 3 || !fsp_task_alive(pid, start))
			continue;
		snprintf(what, len, "%s: task %d (%s) is stuck in the "
			 "kernel; the mounts and loop device it holds cannot "
			 "be released until it ends", dir, pid, step);
		found = 1;
	}
	free(text);
	return found;
}

/* A dead run left because a task of it is stuck (stuck_alive). */
static int left_stuck(const char *dir, struct fsp_unwind_stats *st)
{
	char path[PATH_MAX], what[sizeof(st->stuck_what)];

	if (fsp_fmt(path, sizeof(path), "%s/%s", dir, FSP_JOURNAL_NAME) ||
	    !stuck_alive(dir, path, what, sizeof(what)))
		return 0;
	if (!st->stuck++)
		memcpy(st->stuck_what, what, sizeof(what));
	return 1;
}

/* The pid in a run's lock file is gone (its workers may linger). */
static int owner_dead(int lfd)
{
	char buf[32];
	ssize_t n = pread(lfd, buf, sizeof(buf) - 1, 0);
	int pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = atoi(buf);
	return pid > 0 && kill(pid, 0) && errno == ESRCH;
}

int fsp_journal_cleanup_stale(const char *base, struct fsp_unwind_stats *st)
{
	struct dirent *de;
	DIR *d;
	int ret;

	memset(st, 0, sizeof(*st));
	/* System-wide knobs of killed runs, whatever their state dir. */
	ret = fsp_knob_release_global(NULL);
	if (ret > 0)
		st->knobs += ret;
	d = opendir(base);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	ret = fsp_journal_ensure_base(base);
	if (ret) {
		closedir(d);
		return ret;
	}
	while ((de = readdir(d))) {
		char dir[PATH_MAX], path[PATH_MAX];
		struct stat sb;
		int lfd;

		if (!strncmp(de->d_name, ".new-", 5)) {
			stale_fresh_dir(base, de->d_name, st);
			continue;
		}
		if (de->d_name[0] == '.')
			continue;
		if (fsp_fmt(dir, sizeof(dir), "%s/%s", base, de->d_name) ||
		    lstat(dir, &sb) || !S_ISDIR(sb.st_mode))
			continue;
		if (fsp_fmt(path, sizeof(path), "%s/%s", dir, FSP_JOURNAL_LOCK))
			continue;
		lfd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (lfd >= 0 && !lock_when_dead(lfd)) {
			/* Held by a stuck worker of a dead run, or live. */
			if (!(owner_dead(lfd) && left_stuck(dir, st)))
				st->live++;
			close(lfd);
			continue;
		}
		if (left_stuck(dir, st)) {
			if (lfd >= 0)
				close(lfd);
			continue;
		}
		if (fsp_fmt(path, sizeof(path), "%s/%s", dir, FSP_JOURNAL_NAME) ||
		    unwind_file(dir, path, st)) {
			if (lfd >= 0)
				close(lfd);
			continue;
		}
		fsp_rmtree(dir);
		st->runs++;
		if (lfd >= 0)
			close(lfd);
	}
	closedir(d);
	return 0;
}
