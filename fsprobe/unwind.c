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
 * Run directories, locks and journals are reached through the state
 * dir's fd, and files a journal names through the run directory's, one
 * name at a time, never through a symlink (statedir.h).
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
#include "statedir.h"
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

/*
 * Is p strictly inside dir: dir, '/', then names none of which is
 * empty, "." or ".." (a string test: unwind_path also walks the names)?
 */
static int inside(const char *dir, const char *p)
{
	size_t l = strlen(dir);

	return !strncmp(p, dir, l) && p[l] == '/' &&
	       fsp_statedir_rel_ok(p + l + 1);
}

/* One journal line, and for a "loop" line its image's identity. */
struct entry {
	char *kind, *a, *b;
	struct fsp_loop_id id;
};

/* What the backwards replay of one journal knows. */
struct replay {
	const char *rundir;
	int dirfd;			/* rundir's */
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
 * A "dir", "image" or "file" entry: inside the run directory, reached
 * from its fd one name at a time without following a symlink, and
 * removed with unlinkat (a tree through fds). A journal naming a path
 * through a symlink, even one inside the run directory, names something
 * not ours. A path that does not exist was journalled and never made.
 */
static void unwind_path(const struct replay *r, const struct entry *e,
			struct fsp_unwind_stats *st)
{
	const char *name;
	int pfd, ret;

	if (!inside(r->rundir, e->a)) {
		st->refused++;
		return;
	}
	pfd = fsp_statedir_parent(r->dirfd, e->a + strlen(r->rundir) + 1,
				  &name);
	if (pfd < 0) {
		if (pfd == -EPERM)
			st->refused++;
		return;
	}
	if (!strcmp(e->kind, "dir"))
		ret = fsp_statedir_rmtree(pfd, name);
	else
		ret = unlinkat(pfd, name, 0) ? -errno : 0;
	close(pfd);
	if (!ret)
		st->files++;
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
			if (!umount2(a, MNT_DETACH | UMOUNT_NOFOLLOW))
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
		unwind_path(r, e, st);
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

/*
 * A journal is input (docs/safety.md): read through the run directory's
 * fd, and never more than this. A run's journal is a few KiB (some 15
 * lines of at most two paths per profile); one past these limits is
 * not a run's, and is left alone unread, with the run directory.
 */
#define JOURNAL_MAX_BYTES (16u << 20)
#define JOURNAL_MAX_ENTRIES (1 << 17)

/* Lines in text, if no more than JOURNAL_MAX_ENTRIES; else -EFBIG. */
static int count_lines(const char *text)
{
	int n = 1;

	while ((text = strchr(text, '\n')) && n <= JOURNAL_MAX_ENTRIES) {
		text++;
		n++;
	}
	return n > JOURNAL_MAX_ENTRIES ? -EFBIG : n;
}

/*
 * Read and parse the journal of the run directory dirfd: *text holds
 * the strings that *e points into (free both). Returns the number of
 * entries or -errno (-EFBIG: over the limits above).
 */
static int read_journal(int dirfd, char **text, struct entry **e)
{
	int ret = fsp_statedir_read(dirfd, FSP_JOURNAL_NAME,
				    JOURNAL_MAX_BYTES, text);
	int max;

	if (ret)
		return ret;
	max = count_lines(*text);
	*e = max < 0 ? NULL : calloc(max, sizeof(**e));
	if (!*e) {
		free(*text);
		return max < 0 ? max : -ENOMEM;
	}
	return parse_journal(*text, *e, max);
}

/* The journal of run j: read_journal of its directory. */
static int read_run_journal(const struct fsp_journal *j, char **text,
			    struct entry **e)
{
	return read_journal(j->dirfd, text, e);
}

/* Replay the journal of the run directory dirfd (path rundir) backwards. */
static int unwind_file(int dirfd, const char *rundir,
		       struct fsp_unwind_stats *st)
{
	struct replay r = { .rundir = rundir, .dirfd = dirfd };
	char *text;
	int i;

	r.nr = read_journal(dirfd, &text, &r.e);
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
	int ret;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	ret = unwind_file(j->dirfd, j->dir, st);
	/* Kept when a server survives, or the journal was not read. */
	if (!ret)
		fsp_statedir_rmtree(j->basefd, j->id);
	fsp_journal_leave(j);
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

#define RUN_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* The lock file of the run directory dfd; -1 if none (never a FIFO's wait). */
static int open_lock(int dfd)
{
	return openat(dfd, FSP_JOURNAL_LOCK, O_RDONLY | O_NOFOLLOW |
		      O_NONBLOCK | O_CLOEXEC);
}

/*
 * A '.new-ID' directory is a run directory being made (see
 * fsp_journal_create_at): it lives for microseconds and holds nothing
 * but the lock. One a minute old belongs to a run killed in between; it
 * is removed if its lock is not held. The age keeps us off a directory
 * whose creator has not taken its lock yet.
 */
static void stale_fresh_dir(int basefd, const char *name,
			    struct fsp_unwind_stats *st)
{
	struct stat sb;
	int dfd, lfd;

	if (fstatat(basefd, name, &sb, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISDIR(sb.st_mode) || time(NULL) - sb.st_mtime < 60)
		return;
	dfd = openat(basefd, name, RUN_DIR_FLAGS);
	if (dfd < 0)
		return;
	lfd = open_lock(dfd);
	close(dfd);
	if (lfd >= 0 && !lock_when_dead(lfd)) {
		close(lfd);
		return;
	}
	if (!fsp_statedir_rmtree(basefd, name))
		st->files++;
	if (lfd >= 0)
		close(lfd);
}

/*
 * The watchdog's "stuck\tPID/START\tCOMM: STEP" lines of the journal of
 * run dir (fd dfd): 1 if such a task still lives (the same pid and
 * start time), which then holds what the run made (its mounts, the loop
 * device under them); what says which.
 */
static int stuck_alive(int dfd, const char *dir, char *what, size_t len)
{
	char *text, *line, *save;
	int found = 0;

	if (fsp_statedir_read(dfd, FSP_JOURNAL_NAME, JOURNAL_MAX_BYTES,
			      &text))
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
static int left_stuck(int dfd, const char *dir, struct fsp_unwind_stats *st)
{
	char what[sizeof(st->stuck_what)];

	if (!stuck_alive(dfd, dir, what, sizeof(what)))
		return 0;
	if (!st->stuck++)
		memcpy(st->stuck_what, what, sizeof(what));
	return 1;
}

/* A dead run left because its journal was not read (err). */
static void left_unread(const char *dir, int err, struct fsp_unwind_stats *st)
{
	if (st->unread++)
		return;
	if (err == -EFBIG)
		snprintf(st->unread_what, sizeof(st->unread_what),
			 "%s: journal over %u MiB or %d lines, not a run's; "
			 "not read", dir, JOURNAL_MAX_BYTES >> 20,
			 JOURNAL_MAX_ENTRIES);
	else if (err == -EINVAL)
		snprintf(st->unread_what, sizeof(st->unread_what),
			 "%s: journal is not a regular file; not read", dir);
	else
		snprintf(st->unread_what, sizeof(st->unread_what),
			 "%s: journal not read: %s", dir, strerror(-err));
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

/*
 * The run directory name in the state dir, if it is one: not a symlink,
 * a directory root made and only root may write (else counted not ours).
 */
static int open_run(int basefd, const char *name, struct fsp_unwind_stats *st)
{
	struct stat sb;
	int fd = openat(basefd, name, RUN_DIR_FLAGS);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) || sb.st_uid != 0 || (sb.st_mode & 022)) {
		st->refused++;
		close(fd);
		return -1;
	}
	return fd;
}

/* One run directory of the state dir sd: unwound and removed if dead. */
static void stale_run(const struct fsp_statedir *sd, const char *name,
		      struct fsp_unwind_stats *st)
{
	char dir[PATH_MAX];
	int dfd, lfd, ret;

	if (fsp_fmt(dir, sizeof(dir), "%s/%s", sd->path, name))
		return;
	dfd = open_run(sd->fd, name, st);
	if (dfd < 0)
		return;
	lfd = open_lock(dfd);
	if (lfd >= 0 && !lock_when_dead(lfd)) {
		/* Held by a stuck worker of a dead run, or live. */
		if (!(owner_dead(lfd) && left_stuck(dfd, dir, st)))
			st->live++;
	} else if (!left_stuck(dfd, dir, st)) {
		ret = unwind_file(dfd, dir, st);
		if (!ret) {
			fsp_statedir_rmtree(sd->fd, name);
			st->runs++;
		} else if (ret != -EBUSY) {
			left_unread(dir, ret, st);
		}
	}
	if (lfd >= 0)
		close(lfd);
	close(dfd);
}

int fsp_journal_cleanup_stale_at(const struct fsp_statedir *sd,
				 struct fsp_unwind_stats *st)
{
	struct dirent *de;
	DIR *d;
	int fd, ret;

	memset(st, 0, sizeof(*st));
	/* System-wide knobs of killed runs, whatever their state dir. */
	ret = fsp_knob_release_global(NULL);
	if (ret > 0)
		st->knobs += ret;
	if (sd->fd < 0)
		return 0;
	/* A read position of our own: not sd->fd's, as a dup would share. */
	fd = openat(sd->fd, ".", RUN_DIR_FLAGS);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, ".new-", 5))
			stale_fresh_dir(sd->fd, de->d_name, st);
		else if (de->d_name[0] != '.')
			stale_run(sd, de->d_name, st);
	}
	closedir(d);
	return 0;
}
