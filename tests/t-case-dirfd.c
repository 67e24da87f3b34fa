// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-case-dirfd.c - the cases reach their files only through the target's
 * directory fds, as they must under `check DIR`, where the directory's
 * owner can swap any name for a symlink (docs/safety.md). A symlink
 * planted in place of a case's file is refused (ELOOP), for reading,
 * for writing and on the way to a fixed file's "sub/name"; nothing
 * leaves the directory (EXDEV); a new file is never made through one.
 * What is executed is the open fd, and only if it is a regular file of
 * ours writable by no one else: group- or other-writable, someone
 * else's (as root: uid 65534), a directory, a symlink are refused; a
 * script cannot run through the fd, a file open for write is ETXTBSY;
 * a payload probe refuses a planted copy, and on a filesystem marked
 * noexec (served by another user) copies and runs nothing. The
 * runner's remount keeps the fd numbers and parks them in between
 * (ENOTDIR, not some other directory). Real files in a temporary directory; root adds the chown.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "beneath.h"
#include "case.h"
#include "filedata.h"
#include "payload_util.h"
#include "proc.h"
#include "tap.h"
#include "targetfds.h"
#include "util.h"

static char dir[] = "/tmp/fsprobe-t-case-dirfd.XXXXXX";

/* dir/name as a path, for the test's own setup only. */
static const char *at(const char *name)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

static void test_symlinks(const struct fsp_target *t)
{
	long before = file_size("/etc/passwd");
	int fd;

	if (symlink("/etc/passwd", at("planted")) ||
	    symlink("/etc", at("lnk")) || mkdir(at("sub"), 0700) ||
	    fsp_file_create(at("sub/f"), 4096, 1, 0600)) {
		tap_ok(0, "setting up the planted names: %m");
		return;
	}
	TAP_EQ_LONG(fsp_case_open(t, "planted", O_RDONLY), -ELOOP,
		    "open of a symlink planted as the case file: ELOOP");
	TAP_EQ_LONG(fsp_case_open(t, "planted", O_RDWR), -ELOOP,
		    "open for write of it: ELOOP");
	TAP_EQ_LONG(fsp_case_create(t, "planted", 4096, 7, 0), -EEXIST,
		    "creating the case file over it: EEXIST");
	TAP_EQ_LONG(fsp_case_openat(t, 1, "planted", O_RDWR | O_CREAT,
				    0644), -ELOOP,
		    "O_CREAT without O_EXCL in the prep dir: ELOOP");
	TAP_EQ_LONG(file_size("/etc/passwd"), before,
		    "the symlink's target is unchanged");
	TAP_EQ_LONG(fsp_openat_beneath(t->dirfd, "lnk/passwd", O_RDONLY, 0),
		    -ELOOP, "a symlink on the way to sub/name: ELOOP");
	TAP_EQ_LONG(fsp_openat_walk(t->dirfd, "lnk/passwd", O_RDONLY, 0),
		    -ELOOP, "the same without openat2: ELOOP");
	TAP_EQ_LONG(fsp_openat_beneath(t->dirfd, "sub/../../etc/passwd",
				       O_RDONLY, 0), -EXDEV,
		    "a .. out of the directory: EXDEV");
	TAP_EQ_LONG(fsp_openat_walk(t->dirfd, "sub/../sub/f", O_RDONLY, 0),
		    -EXDEV, "no .. at all without openat2: EXDEV");
	TAP_EQ_LONG(fsp_openat_walk(t->dirfd, "/etc/passwd", O_RDONLY, 0),
		    -EXDEV, "an absolute name: EXDEV");
	fd = fsp_openat_walk(t->dirfd, "sub/f", O_RDONLY, 0);
	tap_ok(fd >= 0, "a real sub/name opens without openat2 (%d)", fd);
	if (fd >= 0)
		close(fd);
	fd = fsp_case_open(t, "sub/f", O_RDONLY);
	tap_ok(fd >= 0, "and with it (%d)", fd);
	if (fd >= 0)
		close(fd);
}

/* Run the copy through fd: its exit status, or -errno. */
static int run_fd(int fd)
{
	char *const argv[] = { "true", NULL };
	pid_t pid;
	int ret = fsp_proc_spawn_fd(fd, argv, NULL, -1, -1, -1, &pid);

	return ret ? ret : fsp_proc_wait(pid);
}

static int open_exec_mode(const struct fsp_target *t, mode_t mode)
{
	int fd;

	if (fchmodat(t->dirfd, "true", mode, 0))
		return -errno;
	fd = fsp_case_open_exec(t, "true");
	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : 0;
}

static void test_exec_checks(const struct fsp_target *t)
{
	int ret, fd;

	ret = fsp_file_copy_at("/bin/true", t->prep_dirfd, "true", 0755);
	TAP_EQ_LONG(ret, 0, "copy of /bin/true made in the prep dir fd");
	fd = fsp_case_open_exec(t, "true");
	tap_ok(fd >= 0, "our 0755 copy passes the exec check (%d)", fd);
	if (fd >= 0) {
		TAP_EQ_LONG(run_fd(fd), 0, "and runs through its fd");
		close(fd);
	}
	TAP_EQ_LONG(open_exec_mode(t, 0775), -EPERM,
		    "group-writable: refused (EPERM)");
	TAP_EQ_LONG(open_exec_mode(t, 0757), -EPERM,
		    "other-writable: refused (EPERM)");
	if (geteuid()) {
		tap_skip("someone else's file: needs root to chown");
	} else if (fchownat(t->dirfd, "true", 65534, 0, 0)) {
		tap_ok(0, "chown to 65534: %m");
	} else {
		TAP_EQ_LONG(open_exec_mode(t, 0755), -EPERM,
			    "root: a 0755 file of uid 65534 is refused");
		tap_ok(!fchownat(t->dirfd, "true", 0, 0, 0),
		       "chown back to root");
	}
	tap_ok(!fchmodat(t->dirfd, "true", 0755, 0), "chmod 0755 again");
	tap_ok(!symlink("/bin/true", at("exe")), "symlink exe -> /bin/true");
	TAP_EQ_LONG(fsp_case_open_exec(t, "exe"), -ELOOP,
		    "a symlink to /bin/true in its place: ELOOP");
	TAP_EQ_LONG(fsp_case_open_exec(t, "sub"), -EACCES,
		    "a directory: EACCES");
}

static void test_exec_fd(const struct fsp_target *t)
{
	int fd = fsp_case_open_exec(t, "true"), w, ret;
	char out[64] = "";

	w = fsp_case_open(t, "true", O_WRONLY);
	TAP_EQ_LONG(fd >= 0 && w >= 0 ? run_fd(fd) : -1, -ETXTBSY,
		    "open for write elsewhere: the exec is ETXTBSY");
	if (w >= 0)
		close(w);
	if (fd >= 0)
		close(fd);
	fd = openat(t->prep_dirfd, "script", O_WRONLY | O_CREAT | O_EXCL |
		    O_CLOEXEC, 0755);
	ret = fd >= 0 ? fsp_write_all(fd, "#!/bin/sh\nexit 0\n", 17) : -1;
	if (fd >= 0)
		close(fd);
	fd = ret ? -1 : fsp_case_open_exec(t, "script");
	TAP_EQ_LONG(fd >= 0 ? run_fd(fd) : -1, -ENOENT,
		    "a script cannot run through its O_CLOEXEC fd: ENOENT");
	if (fd >= 0)
		close(fd);
	fd = fsp_case_open(t, "sub/f", O_RDONLY);
	if (fd >= 0) {
		char *const argv[] = { "sh", "-c", "head -c 8 <&3 | wc -c",
				       NULL };
		struct fsp_proc p;

		ret = fsp_proc_run_fd(-1, fd, argv, -1, FSP_PROC_CAPTURE, 10,
				      &p);
		if (!ret)
			snprintf(out, sizeof(out), "%s", fsp_rstrip(p.out));
		free(p.out);
		close(fd);
	}
	tap_ok(!strcmp(out, "8"), "a passed fd is the child's fd 3 (%s)", out);
}

/* The payload probe runs nothing it did not check. */
static void test_payload_refused(struct fsp_target *t)
{
	const struct fsp_case c = { .name = "exec-text" };
	struct fsp_probe p;

	tap_ok(!symlink("/bin/true", at("exec-text")),
	       "symlink exec-text -> /bin/true");
	fsp_probe_init(&p, &c);
	fsp_payload_probe(t, &p, "exec-text", NULL);
	tap_ok(p.result == FSP_ERROR && strstr(p.reason, "refusing"),
	       "exec-text, a symlink in place of the copy: error, not run "
	       "(%s)", p.reason);
	json_object_put(p.evidence);
	unlink(at("exec-text"));
	fsp_file_copy("/bin/true", at("exec-text"), 0775);
	fsp_probe_init(&p, &c);
	fsp_payload_probe(t, &p, "exec-text", NULL);
	tap_ok(p.result == FSP_ERROR && strstr(p.reason, "refusing"),
	       "a group-writable copy: error, not run (%s)", p.reason);
	json_object_put(p.evidence);
}

/* A filesystem another user's server serves: nothing copied, nothing run. */
static void test_noexec(struct fsp_target *t)
{
	const struct fsp_case c = { .name = "exec-text" };
	struct fsp_probe p;
	struct stat st;

	t->noexec = "served by someone else";
	TAP_EQ_LONG(fsp_payload_copy(t, "copy-src", "noexec-copy"), 0,
		    "noexec: the payload copy is not made, no error");
	TAP_EQ_LONG(fstatat(t->dirfd, "noexec-copy", &st,
			    AT_SYMLINK_NOFOLLOW) ? -errno : 0, -ENOENT,
		    "noexec: no copy in the directory");
	fsp_probe_init(&p, &c);
	fsp_payload_probe(t, &p, "true", NULL);
	tap_ok(p.result == FSP_SKIP && strstr(p.reason, t->noexec),
	       "noexec: a good copy is not run either: skip (%s)", p.reason);
	json_object_put(p.evidence);
	t->noexec = NULL;
}

/* What a remount does to the fds: same numbers, parked in between. */
static void test_park(struct fsp_target *t)
{
	int d = t->dirfd, fd;

	TAP_EQ_LONG(fsp_target_fds_park(t), 0, "parked");
	TAP_EQ_LONG(fsp_case_open(t, "sub/f", O_RDONLY), -ENOTDIR,
		    "a parked fd reaches nothing: ENOTDIR");
	TAP_EQ_LONG(fsp_target_fds_reopen(t), 0, "reopened");
	fd = fsp_case_open(t, "sub/f", O_RDONLY);
	tap_ok(fd >= 0 && t->dirfd == d, "same number, the directory again");
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	struct fsp_target t = { .dirfd = -1, .prep_dirfd = -1 };

	if (!mkdtemp(dir))
		tap_skip_all("no temporary directory");
	t.dir = t.prep_dir = dir;
	t.payload_dir = dir;	/* copy-src: a file of its own below */
	if (fsp_target_fds_open(&t)) {
		tap_ok(0, "opening %s as the target's fds", dir);
		return tap_done();
	}
	fsp_file_create(at("copy-src"), 4096, 3, 0644);
	test_symlinks(&t);
	test_exec_checks(&t);
	test_exec_fd(&t);
	test_payload_refused(&t);
	test_noexec(&t);
	test_park(&t);
	fsp_target_fds_close(&t);
	fsp_rmtree(dir);
	return tap_done();
}
