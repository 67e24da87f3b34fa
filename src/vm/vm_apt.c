// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_apt.c - debian:VERSION: Debian's kernel packages, fetched with apt
 * into fsprobe's cache and reused from there without a network. The
 * system's apt configuration is never touched: apt-get and apt-cache run
 * with a private sources list, lists and package cache under CACHE/apt,
 * the sources list naming the suites that carry kernels (bookworm and its
 * updates and security, trixie-backports, sid, experimental) on the
 * mirror the system's own sources use (vm_sources.c), every line
 * signed-by Debian's archive keyring: what apt cannot verify is refused
 * with one line saying so, never used. A release (6.1.0-57-amd64,
 * 7.2.13+deb14-amd64) is that package; a series (6.12, 7.2) the newest
 * of it. Where linux-image-V is sid's metapackage, its linux-binary,
 * linux-modules and linux-base are fetched instead. Which files a
 * VERSION came to is kept in CACHE/apt/kernels/VERSION.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"
#include "util.h"
#include "vm.h"

#define APT_TIMEOUT_S 1800

struct apt {
	char dir[PATH_MAX];	/* CACHE/apt */
	char opt[4][PATH_MAX + 64];	/* the private-dirs -o values */
	int quiet;
	char *why;
	size_t whylen;
};

/* path made anew with buf: a temporary file renamed over it. */
static int put_file(const char *path, const char *buf)
{
	char tmp[PATH_MAX];

	if (fsp_fmt(tmp, sizeof(tmp), "%s.%d", path, (int)getpid()))
		return -ENAMETOOLONG;
	return fsp_replace_file(path, tmp, buf, 0644);
}

/* FSPROBE_MIRROR, else the system's: the mirror and its security. */
static int pick_mirror(struct apt *a, char *uri, char *sec, size_t len)
{
	const char *env = getenv("FSPROBE_MIRROR");
	size_t n;

	if (env && *env) {
		n = strlen(env);
		while (n > 1 && env[n - 1] == '/')
			n--;
		if (strpbrk(env, " \t\n[]#") || n >= len ||
		    (strncmp(env, "http://", 7) && strncmp(env, "https://", 8) &&
		     strncmp(env, "file:", 5))) {
			snprintf(a->why, a->whylen, "FSPROBE_MIRROR=%s: not an "
				 "http, https or file URI", env);
			return -EINVAL;
		}
		memcpy(uri, env, n);
		uri[n] = '\0';
		if (fsp_vm_security_of(uri, sec, len))
			sec[0] = '\0';
		return 0;
	}
	if (fsp_vm_system_mirror(0, uri, len)) {
		snprintf(a->why, a->whylen, "no Debian mirror in the system's "
			 "apt sources (/etc/apt/sources.list, sources.list.d): "
			 "set FSPROBE_MIRROR");
		return -ENOENT;
	}
	if (fsp_vm_system_mirror(1, sec, len) &&
	    fsp_vm_security_of(uri, sec, len))
		sec[0] = '\0';
	return 0;
}

/*
 * Lists, .debs and records fetched under an earlier list with
 * trusted=yes came unverified: dropped, so that what is used next comes
 * through apt's checks (apt-get download reuses a .deb already in its
 * directory on its size alone).
 */
static void drop_unverified(struct apt *a, const char *path)
{
	static const char *const sub[] = { "lists", "lists/partial",
		"debs", "kernels" };
	char d[PATH_MAX], f[PATH_MAX], *old;
	struct dirent *de;
	size_t i, n;
	DIR *dir;

	if (fsp_slurp(path, &old, &n))
		return;
	n = !!strstr(old, "trusted=yes");
	free(old);
	if (!n)
		return;
	fprintf(stderr, "fsprobe: %s had trusted=yes: dropping the lists, "
		".debs and kernel records fetched unverified\n", path);
	for (i = 0; i < FSP_ARRAY_SIZE(sub); i++) {
		if (fsp_fmt(d, sizeof(d), "%s/%s", a->dir, sub[i]) ||
		    !(dir = opendir(d)))
			continue;
		while ((de = readdir(dir)))
			if (de->d_type != DT_DIR &&
			    !fsp_fmt(f, sizeof(f), "%s/%s", d, de->d_name))
				unlink(f);
		closedir(dir);
	}
}

static int write_sources(struct apt *a, const char *path)
{
	static const char *const keyrings[] = FSP_VM_KEYRINGS;
	const char *keyring = fsp_vm_keyring(keyrings);
	char uri[1024], sec[1024], *buf;
	int ret;

	if (!keyring) {
		snprintf(a->why, a->whylen, "no Debian archive keyring (%s) "
			 "to verify downloads with: apt-get install %s",
			 keyrings[0], FSP_VM_KEYRING_PKG);
		return -ENOKEY;
	}
	ret = pick_mirror(a, uri, sec, sizeof(uri));
	if (!ret)
		ret = fsp_vm_sources_text(uri, sec[0] ? sec : NULL, keyring,
					  &buf);
	if (ret)
		return ret;
	drop_unverified(a, path);
	ret = put_file(path, buf);
	free(buf);
	return ret;
}

static int apt_init(struct apt *a)
{
	char cache[PATH_MAX], p[PATH_MAX];
	static const char *const sub[] = { "lists/partial",
		"cache/archives/partial", "debs", "kernels" };
	size_t i;
	int ret;

	ret = fsp_vm_cache_dir(cache, sizeof(cache));
	if (ret) {
		snprintf(a->why, a->whylen, "no cache directory: %s (set "
			 "FSPROBE_CACHE_DIR)", strerror(-ret));
		return ret;
	}
	if (fsp_fmt(a->dir, sizeof(a->dir), "%s/apt", cache))
		return -ENAMETOOLONG;
	for (i = 0; i < FSP_ARRAY_SIZE(sub); i++)
		if (fsp_fmt(p, sizeof(p), "%s/%s", a->dir, sub[i]) ||
		    (ret = fsp_vm_mkdirs(p, 0)))
			return ret ? ret : -ENAMETOOLONG;
	if (fsp_fmt(p, sizeof(p), "%s/sources.list", a->dir))
		return -ENAMETOOLONG;
	ret = write_sources(a, p);
	if (ret)
		return ret;
	snprintf(a->opt[0], sizeof(a->opt[0]), "Dir::Etc::sourcelist=%s", p);
	snprintf(a->opt[1], sizeof(a->opt[1]), "Dir::Etc::sourceparts=-");
	snprintf(a->opt[2], sizeof(a->opt[2]), "Dir::State::Lists=%s/lists",
		 a->dir);
	snprintf(a->opt[3], sizeof(a->opt[3]), "Dir::Cache=%s/cache", a->dir);
	return 0;
}

/*
 * Why apt failed, in one line: a signature or hash apt could not verify
 * is -EBADMSG and says so; anything else is -EIO with apt's last error.
 */
static int apt_failed(struct apt *a, const char *tool, const char *verb,
		      struct fsp_proc *p)
{
	const char *bad = fsp_vm_apt_unverified(p->tail), *e;
	int ret = bad ? -EBADMSG : -EIO;

	free(p->out);
	p->out = NULL;
	if (bad) {
		snprintf(a->why, a->whylen, "%s %s refused what it could not "
			 "verify with Debian's archive keyring: %.*s", tool,
			 verb, (int)strcspn(bad, "\n"), bad);
		return ret;
	}
	/* apt's first E: line, else the last line it wrote. */
	fsp_rstrip(p->tail);
	e = !strncmp(p->tail, "E: ", 3) ? p->tail : strstr(p->tail, "\nE: ");
	if (e && *e == '\n')
		e++;
	else if (!e && (e = strrchr(p->tail, '\n')))
		e++;
	if (!e)
		e = p->tail;
	snprintf(a->why, a->whylen, "%s %s: %.*s", tool, verb,
		 (int)strcspn(e, "\n"), e);
	return ret;
}

/*
 * tool -o ... args (at most 8); stdout captured in p->out, or copied to
 * stderr as progress when out is 2 and we are not quiet.
 */
static int apt(struct apt *a, const char *tool, const char *const *args,
	       int out, struct fsp_proc *p)
{
	char *argv[28];
	int n = 0, i, ret;

	argv[n++] = (char *)tool;
	for (i = 0; i < 4; i++) {
		argv[n++] = "-o";
		argv[n++] = a->opt[i];
	}
	/* A stalled mirror fails in a minute and is retried, not hours. */
	argv[n++] = "-o";
	argv[n++] = "Acquire::http::Timeout=60";
	argv[n++] = "-o";
	argv[n++] = "Acquire::Retries=3";
	if (geteuid() == 0) {	/* no "download is performed unsandboxed" */
		argv[n++] = "-o";
		argv[n++] = "APT::Sandbox::User=root";
	}
	for (i = 0; args[i] && n < 27; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	ret = fsp_proc_run(argv, -1, out == 2 && a->quiet ? -1 : out,
			   APT_TIMEOUT_S, p);
	if (ret)
		snprintf(a->why, a->whylen, "%s: %s", tool, strerror(-ret));
	else if (p->status)
		ret = apt_failed(a, tool, args[0], p);
	return ret;
}

static int apt_update(struct apt *a)
{
	const char *args[] = { "update", NULL };
	struct fsp_proc p;

	if (!a->quiet)
		fprintf(stderr, "fsprobe: apt-get update (private list "
			"%s/sources.list)\n", a->dir);
	return apt(a, "apt-get", args, 2, &p);
}

/* apt-cache search for every kernel package: p->out (free it). */
static int search_kernels(struct apt *a, struct fsp_proc *p)
{
	const char *args[] = { "search", "--names-only",
		"^linux-(image|binary)-[0-9]", NULL };

	return apt(a, "apt-cache", args, FSP_PROC_CAPTURE, p);
}

/* A series (6.12) into its newest release (6.12.118+deb12-amd64). */
static int newest_of(struct apt *a, const char *series, char *kver,
		     size_t len)
{
	struct fsp_proc p;
	int ret = search_kernels(a, &p);

	if (ret)
		return ret;
	ret = fsp_vm_series_pick(p.out, series, kver, len);
	free(p.out);
	if (ret)
		snprintf(a->why, a->whylen, "no linux-image-%s.*-amd64 in "
			 "bookworm, trixie-backports, sid or experimental",
			 series);
	return ret;
}

/* Does apt know pkg? */
static int known(struct apt *a, const char *pkg)
{
	const char *args[] = { "show", "--no-all-versions", pkg, NULL };
	struct fsp_proc p;
	int ret = apt(a, "apt-cache", args, FSP_PROC_CAPTURE, &p);

	free(p.out);
	return !ret;
}

/* The newest CACHE/apt/debs/PKG_*.deb (by mtime) into path. */
static int downloaded(struct apt *a, const char *pkg, char *path, size_t len)
{
	char d[PATH_MAX], p[PATH_MAX];
	size_t pl = strlen(pkg), n;
	time_t best = 0;
	struct dirent *de;
	struct stat st;
	DIR *dir;

	if (fsp_fmt(d, sizeof(d), "%s/debs", a->dir))
		return -ENAMETOOLONG;
	dir = opendir(d);
	if (!dir)
		return -errno;
	path[0] = '\0';
	while ((de = readdir(dir))) {
		n = strlen(de->d_name);
		if (strncmp(de->d_name, pkg, pl) || de->d_name[pl] != '_' ||
		    n < 4 || strcmp(de->d_name + n - 4, ".deb") ||
		    fsp_fmt(p, sizeof(p), "%s/%s", d, de->d_name) ||
		    stat(p, &st) || st.st_mtime < best)
			continue;
		best = st.st_mtime;
		fsp_strcpy(path, len, p);
	}
	closedir(dir);
	return path[0] ? 0 : -ENOENT;
}

/* apt-get download pkgs (into CACHE/apt/debs: apt writes to its cwd). */
static int download(struct apt *a, char pkgs[][192], int nr)
{
	const char *args[FSP_VM_MAX_DEBS + 2];
	char d[PATH_MAX];
	struct fsp_proc p;
	int cwd, i, ret;

	args[0] = "download";
	for (i = 0; i < nr; i++)
		args[i + 1] = pkgs[i];
	args[nr + 1] = NULL;
	if (fsp_fmt(d, sizeof(d), "%s/debs", a->dir))
		return -ENAMETOOLONG;
	cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cwd < 0)
		return -errno;
	if (chdir(d)) {
		ret = -errno;
		close(cwd);
		return ret;
	}
	if (!a->quiet)
		fprintf(stderr, "fsprobe: apt-get download %s%s into %s\n",
			pkgs[0], nr > 1 ? " ..." : "", d);
	ret = apt(a, "apt-get", args, 2, &p);
	if (fchdir(cwd) && !ret)
		ret = -errno;
	close(cwd);
	return ret;
}

/* The packages of release kver, downloaded; their paths in debs. */
static int fetch_release(struct apt *a, const char *kver, char **debs,
			 int *nr)
{
	static const char *const split[] = {
		"linux-binary-", "linux-modules-", "linux-base-",
	};
	char pkgs[3][192], path[PATH_MAX];
	int i, n = 0, ret;

	if (fsp_fmt(pkgs[0], sizeof(pkgs[0]), "linux-binary-%s", kver))
		return -ENAMETOOLONG;
	if (known(a, pkgs[0])) {	/* sid's split: image is a metapackage */
		for (i = 0; i < 3; i++)
			snprintf(pkgs[i], sizeof(pkgs[i]), "%s%s", split[i],
				 kver);
		n = 3;
	} else {
		snprintf(pkgs[0], sizeof(pkgs[0]), "linux-image-%s", kver);
		if (!known(a, pkgs[0])) {
			snprintf(a->why, a->whylen, "apt knows no %s (nor "
				 "linux-binary-%s)", pkgs[0], kver);
			return -ENOENT;
		}
		n = 1;
	}
	ret = download(a, pkgs, n);
	for (i = 0; !ret && i < n; i++) {
		ret = downloaded(a, pkgs[i], path, sizeof(path));
		if (ret)
			snprintf(a->why, a->whylen, "%s: not downloaded",
				 pkgs[i]);
		else if (!(debs[(*nr)++] = strdup(path)))
			ret = -ENOMEM;
	}
	return ret;
}

static void free_debs(char **debs, int *nr)
{
	while (*nr > 0)
		free(debs[--*nr]);
}

/* The record of an earlier fetch, if all its files are still there. */
static int from_record(const char *rec, char **debs, int *nr)
{
	char *text, *line, *save;
	size_t len;
	int ret = 0;

	if (fsp_slurp(rec, &text, &len))
		return -ENOENT;
	for (line = strtok_r(text, "\n", &save); !ret && line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (*nr == FSP_VM_MAX_DEBS || access(line, R_OK))
			ret = -ENOENT;
		else if (!(debs[(*nr)++] = strdup(line)))
			ret = -ENOMEM;
	}
	free(text);
	if (!ret && !*nr)
		ret = -ENOENT;
	if (ret)
		free_debs(debs, nr);
	return ret;
}

static int to_record(const char *rec, char **debs, int nr)
{
	char *buf = NULL, *nb;
	size_t len = 0;
	int i, ret;

	for (i = 0; i < nr; i++) {
		nb = realloc(buf, len + strlen(debs[i]) + 2);
		if (!nb) {
			free(buf);
			return -ENOMEM;
		}
		buf = nb;
		len += sprintf(buf + len, "%s\n", debs[i]);
	}
	ret = put_file(rec, buf ? buf : "");
	free(buf);
	return ret;
}

int fsp_vm_debian_version_valid(const char *v)
{
	size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
			  "TUVWXYZ0123456789.+~_-");

	return *v && *v != '.' && *v != '-' && !v[n] && n < 128;
}

/* Resolve and download once; the lists as they are. */
static int attempt(struct apt *a, const char *version, char **debs, int *nr)
{
	char kver[192];
	size_t l = strlen(version);
	int ret = 0;

	/* A release ends in its flavour; a series is to be resolved. */
	if (l > 6 && !strcmp(version + l - 6, "-amd64"))
		fsp_strcpy(kver, sizeof(kver), version);
	else
		ret = newest_of(a, version, kver, sizeof(kver));
	if (!ret && !a->quiet && strcmp(kver, version))
		fprintf(stderr, "fsprobe: debian:%s is %s\n", version,
			kver);
	if (!ret)
		ret = fetch_release(a, kver, debs, nr);
	if (ret)
		free_debs(debs, nr);
	return ret;
}

int fsp_vm_apt_fetch(const char *version, int quiet, char **debs, int *nr,
		     char *why, size_t whylen)
{
	struct apt a = { .quiet = quiet, .why = why, .whylen = whylen };
	char rec[PATH_MAX], lists[PATH_MAX];
	int ret;

	*nr = 0;
	why[0] = '\0';
	if (!fsp_vm_debian_version_valid(version)) {
		snprintf(why, whylen, "debian:%s: not a kernel version (such "
			 "as 6.12, 6.1.0-57-amd64, 7.2.13+deb14-amd64)",
			 version);
		return -EINVAL;
	}
	ret = apt_init(&a);
	if (ret)
		return ret;
	if (fsp_fmt(rec, sizeof(rec), "%s/kernels/%s", a.dir, version) ||
	    fsp_fmt(lists, sizeof(lists), "%s/lists/lock", a.dir))
		return -ENAMETOOLONG;
	if (!from_record(rec, debs, nr)) {
		if (!quiet)
			fprintf(stderr, "fsprobe: debian:%s: %d package(s) "
				"cached in %s/debs\n", version, *nr, a.dir);
		return 0;
	}
	/* Lists from an earlier update first; a fresh update if they fail. */
	ret = access(lists, F_OK) ? -ENOENT : attempt(&a, version, debs, nr);
	if (ret) {
		why[0] = '\0';
		ret = apt_update(&a);
		if (!ret)
			ret = attempt(&a, version, debs, nr);
	}
	if (!ret)
		ret = to_record(rec, debs, *nr);
	if (ret && !why[0])
		snprintf(why, whylen, "debian:%s: %s", version,
			 strerror(-ret));
	return ret;
}

/* The releases with a record in CACHE/apt/kernels, one a line. */
static char *cached_releases(struct apt *a)
{
	char d[PATH_MAX], *buf = NULL, *nb;
	size_t len = 0, n;
	struct dirent *de;
	DIR *dir;

	if (fsp_fmt(d, sizeof(d), "%s/kernels", a->dir) || !(dir = opendir(d)))
		return strdup("");
	while ((de = readdir(dir))) {
		n = strlen(de->d_name);
		nb = realloc(buf, len + n + 2);
		if (!nb)
			break;
		buf = nb;
		len += sprintf(buf + len, "%s\n", de->d_name);
	}
	closedir(dir);
	return buf ? buf : strdup("");
}

/*
 * A release's name outlives its packages (6.1.0-57-amd64 is 6.1.192-3,
 * then 6.1.193-1; 7.3-amd64 is rc7, then rc8): the record of an earlier
 * fetch is dropped when its first .deb (PKG_VERSION_ARCH.deb) is not the
 * version apt now has for PKG, so that the next fetch brings the newest.
 */
static void drop_stale(struct apt *a, const char *kver)
{
	char rec[PATH_MAX], pkg[192], have[128], *text = NULL, *base, *v, *e;
	const char *args[] = { "show", "--no-all-versions", pkg, NULL };
	struct fsp_proc p = { 0 };
	size_t len;

	if (fsp_fmt(rec, sizeof(rec), "%s/kernels/%s", a->dir, kver) ||
	    fsp_slurp(rec, &text, &len))
		return;
	text[strcspn(text, "\n")] = '\0';
	base = strrchr(text, '/');
	base = base ? base + 1 : text;
	v = strchr(base, '_');
	e = strrchr(base, '_');
	if (!v || e <= v || (size_t)(v - base) >= sizeof(pkg) ||
	    (size_t)(e - v) >= sizeof(have))
		goto out;
	memcpy(pkg, base, v - base);
	pkg[v - base] = '\0';
	memcpy(have, v + 1, e - v - 1);
	have[e - v - 1] = '\0';
	if (apt(a, "apt-cache", args, FSP_PROC_CAPTURE, &p) || !p.out)
		goto out;
	v = strstr(p.out, "\nVersion: ");
	if (v) {
		v += strlen("\nVersion: ");
		v[strcspn(v, "\n")] = '\0';
		e = strchr(v, ':');	/* the file name has no epoch */
		if (e)
			v = e + 1;
		if (strcmp(v, have) && !unlink(rec))
			fprintf(stderr, "fsprobe: debian %s: apt has %s %s, "
				"the cache %s: fetching it anew\n", kver, pkg,
				v, have);
	}
	free(p.out);
out:
	free(text);
}

int fsp_vm_apt_series(const char *const *series, int nr, int quiet,
		      char (*kver)[192], char (*why)[256])
{
	char err[512] = "";
	struct apt a = { .quiet = quiet, .why = err, .whylen = sizeof(err) };
	struct fsp_proc p = { 0 };
	char *cached;
	int i, ret, online;

	for (i = 0; i < nr; i++)
		kver[i][0] = why[i][0] = '\0';
	ret = apt_init(&a);
	if (ret) {
		for (i = 0; i < nr; i++)
			snprintf(why[i], sizeof(why[i]), "%s", err[0] ? err :
				 strerror(-ret));
		return ret;
	}
	online = !apt_update(&a) && !search_kernels(&a, &p);
	if (!online)
		fprintf(stderr, "fsprobe: %s (%s): the newest release of each "
			"series cached in %s/kernels instead\n",
			fsp_vm_apt_unverified(err) ? "apt refused the mirror" :
			"apt cannot reach the mirror", fsp_rstrip(err), a.dir);
	cached = online ? NULL : cached_releases(&a);
	for (i = 0; i < nr; i++) {
		ret = fsp_vm_series_pick(online ? p.out : cached ? cached : "",
					 series[i], kver[i], sizeof(kver[i]));
		if (ret && online)
			snprintf(why[i], sizeof(why[i]), "no linux-image-%s "
				 "(-amd64) in bookworm, trixie-backports, sid "
				 "or experimental", series[i]);
		else if (ret)
			snprintf(why[i], sizeof(why[i]), "offline, and no "
				 "release of %s cached (%s/kernels)",
				 series[i], a.dir);
		else if (!online)
			fprintf(stderr, "fsprobe: debian %s: %s (cached)\n",
				series[i], kver[i]);
		else
			drop_stale(&a, kver[i]);
	}
	if (online)
		free(p.out);
	free(cached);
	return 0;
}
