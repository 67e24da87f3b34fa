// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_modules.c - the guest kernel's modules for `fsprobe vm`. Distro
 * kernels build loop and most filesystems as modules, so the initramfs
 * must carry them, in an order the guest's busybox insmod can follow
 * without modprobe: that order comes from the host's kmod, `depmod -b`
 * then `modprobe -d ROOT -S KVER --show-depends` (softdeps included, so
 * crc32c arrives before btrfs asks the crypto API for it). A modules tree
 * given with --modules is never written to: depmod works on a temporary
 * tree of symlinks to it (so lib/modules and usr/lib/modules look
 * alike). .debs are unpacked with dpkg-deb once, into one tree (sid ships
 * the kernel in three); the kernel, config and decompressed modules are
 * cached under the hash of the .debs,
 * so the second boot of the same package skips the ~10 s of unpacking,
 * depmod and xz. Which modules: fsp_vm_mods_wanted(), from the profiles
 * (their fs, and device-mapper for a device_fault).
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

#include "fsattr.h"
#include "proc.h"
#include "profile.h"
#include "util.h"
#include "vm.h"

#define TOOL_TIMEOUT_S 300
#define MODS_VERSION "fsprobe-vm-mods-2"

static int push(char ***arr, int *nr, const char *s)
{
	char **a;
	int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*arr)[i], s))
			return 0;
	a = realloc(*arr, (*nr + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	*arr = a;
	a[*nr] = strdup(s);
	if (!a[*nr])
		return -ENOMEM;
	(*nr)++;
	return 0;
}

static void free_list(char **arr, int nr)
{
	while (nr-- > 0)
		free(arr[nr]);
	free(arr);
}

/*
 * Character sets the filesystems look up by name at mount time (vfat's
 * codepage 437 and iocharset, exfat's and ntfs3's utf8) and the unicode
 * table casefolding asks for: the guest has no modprobe to load them on
 * request, so they are loaded with the rest.
 */
static const char *const companions[] = {
	"nls_cp437", "nls_iso8859-1", "nls_utf8", "nls_ascii", "utf8data",
};

/*
 * The ciphers fscrypt asks the crypto API for by name when a file of an
 * `attributes = encrypt` profile is opened (xts(aes) for contents,
 * cts(cbc(aes)) for names): distro kernels build the templates and the
 * AES-NI driver as modules, and nothing in the guest would load them.
 * Names the kernel has built in or lacks are only noted.
 */
static const char *const fscrypt_ciphers[] = {
	"xts", "cts", "cbc", "ecb", "aes_generic", "aesni_intel",
};

/*
 * The modules a profile's kind of device needs: a zoned null_blk is made
 * through configfs (a module of its own on Debian's kernels, which
 * null_blk's dependencies would bring too; named so that it is there
 * for the mount even where null_blk is built in).
 */
static const struct {
	enum fsp_device_kind kind;
	const char *mods[2];
} device_mods[] = {
	{ FSP_DEVICE_NULLB_ZONED, { "configfs", "null_blk" } },
};

static void add_profile_device(char ***arr, int *nr,
			       const struct fsp_profile *p, int *ret)
{
	size_t i, k;

	for (i = 0; i < FSP_ARRAY_SIZE(device_mods); i++)
		for (k = 0; !*ret && device_mods[i].kind == p->device &&
		     k < FSP_ARRAY_SIZE(device_mods[i].mods); k++)
			*ret = push(arr, nr, device_mods[i].mods[k]);
}

/* fuse.SUBTYPE is served by the module fuse, its server in userspace. */
static void add_profile_fs(char ***arr, int *nr, const struct fsp_profile *p,
			   int *ret)
{
	size_t i;

	if (!*ret)
		*ret = push(arr, nr, p->kind == FSP_PROFILE_FUSE ? "fuse" :
			    p->fs);
	if (!*ret && p->lower[0])
		*ret = push(arr, nr, p->lower);
	/* nfs4: the client's v4 half is a module of its own; the server. */
	if (!*ret && p->kind == FSP_PROFILE_NFS)
		*ret = push(arr, nr, "nfsv4");
	if (!*ret && p->kind == FSP_PROFILE_NFS)
		*ret = push(arr, nr, "nfsd");
	for (i = 0; (p->attrs & FSP_ATTR_ENCRYPT) &&
	     i < FSP_ARRAY_SIZE(fscrypt_ciphers); i++)
		if (!*ret)
			*ret = push(arr, nr, fscrypt_ciphers[i]);
	/* device_fault: dm's error target is in dm-mod, flakey is not. */
	if (!*ret && p->device_fault)
		*ret = push(arr, nr, "dm-mod");
	if (!*ret && p->device_fault && p->device_fault != FSP_FAULT_ALL)
		*ret = push(arr, nr, "dm-flakey");
	add_profile_device(arr, nr, p, ret);
}

int fsp_vm_mods_wanted(const char *profile_dir, const char *const *profiles,
		       int nr_profiles, char ***out, int *nr)
{
	struct fsp_profile *all = NULL, one;
	struct fsp_profile_error err;
	char errpath[PATH_MAX];
	int n = 0, k, ret;
	size_t i;

	*out = NULL;
	*nr = 0;
	ret = push(out, nr, "loop");
	if (!ret && !fsp_profile_load_dir(profile_dir, &all, &n, errpath,
					  sizeof(errpath), &err)) {
		for (k = 0; k < n; k++)
			add_profile_fs(out, nr, &all[k], &ret);
		fsp_profile_free_all(all, n);
	}
	for (k = 0; !ret && k < nr_profiles; k++) {
		if (!fsp_vm_is_profile_path(profiles[k]) ||
		    fsp_profile_load(profiles[k], &one, &err))
			continue;
		add_profile_fs(out, nr, &one, &ret);
		fsp_profile_free(&one);
	}
	for (i = 0; !ret && i < FSP_ARRAY_SIZE(companions); i++)
		ret = push(out, nr, companions[i]);
	if (ret) {
		free_list(*out, *nr);
		*out = NULL;
		*nr = 0;
	}
	return ret;
}

void fsp_vm_mods_wanted_free(char **arr, int nr)
{
	free_list(arr, nr);
}

void fsp_vm_mods_release(struct fsp_vm_mods *m)
{
	free_list(m->names, m->nr);
	free_list(m->builtin, m->nr_builtin);
	free_list(m->missing, m->nr_missing);
	if (m->own_dir && m->dir[0])
		fsp_rmtree(m->dir);
	memset(m, 0, sizeof(*m));
}

/* root/lib/modules/KVER as symlinks to dir's entries, minus depmod's. */
static int symlink_farm(const char *dir, const char *root, const char *kver)
{
	char p[PATH_MAX], t[PATH_MAX], real[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret;

	if (!realpath(dir, real))
		return -errno;
	ret = fsp_fmt(p, sizeof(p), "%s/lib/modules/%s", root, kver);
	if (!ret)
		ret = fsp_vm_mkdirs(p, 0);
	if (ret)
		return ret;
	d = opendir(real);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		/* depmod regenerates these; its own modules.* inputs stay. */
		if (de->d_name[0] == '.' ||
		    (!strncmp(de->d_name, "modules.", 8) &&
		     strcmp(de->d_name, "modules.order") &&
		     strcmp(de->d_name, "modules.builtin") &&
		     strcmp(de->d_name, "modules.builtin.modinfo")))
			continue;
		if (fsp_fmt(t, sizeof(t), "%s/%s", real, de->d_name) ||
		    fsp_fmt(p, sizeof(p), "%s/lib/modules/%s/%s", root, kver,
			    de->d_name)) {
			ret = -ENAMETOOLONG;
			break;
		}
		if (symlink(t, p)) {
			ret = -errno;
			break;
		}
	}
	closedir(d);
	return ret;
}

static int run(char **argv, int out_fd, struct fsp_proc *p, char *why,
	       size_t whylen)
{
	int ret = fsp_proc_run(argv, -1, out_fd, TOOL_TIMEOUT_S, p);

	if (ret) {
		snprintf(why, whylen, "%s: %s%s", argv[0], strerror(-ret),
			 ret == -ENOENT ? " (install kmod, dpkg, xz-utils, "
			 "zstd: ./bootstrap-deps --vm)" : "");
		return ret;
	}
	return 0;
}

/* Copy or decompress one module file into m->dir; its name in *name. */
static int unpack_ko(const char *src, struct fsp_vm_mods *m, char *name,
		     size_t len, char *why, size_t whylen)
{
	static const struct { const char *ext, *tool; } comp[] = {
		{ ".ko.xz", "xz" }, { ".ko.zst", "zstd" }, { ".ko.gz", "gzip" },
		{ ".ko", "cat" },
	};
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	char dst[PATH_MAX], *argv[5];
	struct fsp_proc p;
	size_t i, bl = strlen(base);
	int fd, ret;

	for (i = 0; i < FSP_ARRAY_SIZE(comp); i++) {
		size_t el = strlen(comp[i].ext);

		if (bl > el && !strcmp(base + bl - el, comp[i].ext))
			break;
	}
	if (i == FSP_ARRAY_SIZE(comp)) {
		snprintf(why, whylen, "%s: unknown module compression", src);
		return -EINVAL;
	}
	if (fsp_fmt(name, len, "%.*s.ko", (int)(bl - strlen(comp[i].ext)),
		    base) || fsp_fmt(dst, sizeof(dst), "%s/%s", m->dir, name))
		return -ENAMETOOLONG;
	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	argv[0] = (char *)comp[i].tool;
	argv[1] = i < 3 ? "-dc" : (char *)src;
	argv[2] = i < 3 ? (char *)src : NULL;
	argv[3] = NULL;
	ret = run(argv, fd, &p, why, whylen);
	close(fd);
	if (!ret && p.status) {
		snprintf(why, whylen, "%s -dc %s: %s", comp[i].tool, src,
			 fsp_rstrip(p.tail));
		ret = -EIO;
	}
	return ret;
}

/*
 * modprobe --show-depends NAME; a filesystem type that is no module's
 * name (ext2, served by ext4) is tried again as its alias fs-NAME.
 */
static int show_depends(const char *root, const struct fsp_vm_mods *m,
			const char *name, struct fsp_proc *p, char *why,
			size_t whylen)
{
	char alias[80];
	char *argv[] = { "modprobe", "-d", (char *)root, "-S",
			 (char *)m->kver, "--show-depends", (char *)name,
			 NULL };
	int ret = run(argv, FSP_PROC_CAPTURE, p, why, whylen);

	if (ret || !p->status)
		return ret;
	if (fsp_fmt(alias, sizeof(alias), "fs-%s", name))
		return 0;	/* keep the first answer: not found */
	free(p->out);
	argv[6] = alias;
	return run(argv, FSP_PROC_CAPTURE, p, why, whylen);
}

/* Module files in load order, from modprobe --show-depends. */
static int resolve(const char *root, struct fsp_vm_mods *m, int verbose,
		   char *why, size_t whylen)
{
	char *argv[5], *line, *save, *save2, name[256];
	struct fsp_proc p;
	size_t i;
	int ret;

	argv[0] = "depmod";
	argv[1] = "-b";
	argv[2] = (char *)root;
	argv[3] = m->kver;
	argv[4] = NULL;
	ret = run(argv, FSP_PROC_CAPTURE, &p, why, whylen);
	if (ret)
		return ret;
	free(p.out);
	if (p.status) {
		snprintf(why, whylen, "depmod -b %s %s: %s", root, m->kver,
			 fsp_rstrip(p.tail));
		return -EIO;
	}
	for (i = 0; i < (size_t)m->nr_wanted; i++) {
		ret = show_depends(root, m, m->wanted[i], &p, why, whylen);
		if (ret)
			return ret;
		if (p.status) {
			/* Not in this kernel: the guest run says "skip". */
			free(p.out);
			ret = push(&m->missing, &m->nr_missing, m->wanted[i]);
			if (ret)
				return ret;
			continue;
		}
		for (line = strtok_r(p.out, "\n", &save); !ret && line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *path;

			if (!strncmp(line, "builtin ", 8)) {
				ret = push(&m->builtin, &m->nr_builtin,
					   fsp_rstrip(line + 8));
				continue;
			}
			if (strncmp(line, "insmod ", 7))
				continue;
			path = strtok_r(line + 7, " ", &save2);
			if (!path)
				continue;
			ret = unpack_ko(path, m, name, sizeof(name), why,
					whylen);
			if (!ret)
				ret = push(&m->names, &m->nr, name);
		}
		free(p.out);
		if (ret)
			return ret;
	}
	if (verbose)
		fprintf(stderr, "fsprobe vm: %d module(s) for %s, %d built "
			"in, %d missing\n", m->nr, m->kver, m->nr_builtin,
			m->nr_missing);
	return 0;
}

static int write_list(const char *dir, const char *file, char **arr, int nr)
{
	char p[PATH_MAX];
	FILE *f;
	int i, ret = 0;

	if (fsp_fmt(p, sizeof(p), "%s/%s", dir, file))
		return -ENAMETOOLONG;
	f = fopen(p, "we");
	if (!f)
		return -errno;
	for (i = 0; i < nr; i++)
		fprintf(f, "%s\n", arr[i]);
	if (fflush(f) || ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

static int read_list(const char *dir, const char *file, char ***arr,
		     int *nr)
{
	char p[PATH_MAX], *text, *line, *save;
	size_t len;
	int ret;

	if (fsp_fmt(p, sizeof(p), "%s/%s", dir, file))
		return -ENAMETOOLONG;
	ret = fsp_slurp(p, &text, &len);
	if (ret)
		return ret;
	for (line = strtok_r(text, "\n", &save); !ret && line;
	     line = strtok_r(NULL, "\n", &save))
		ret = push(arr, nr, line);
	free(text);
	return ret;
}

static int save_set(const char *dir, const struct fsp_vm_mods *m)
{
	int ret = write_list(dir, "order", m->names, m->nr);
	char *kv = (char *)m->kver;

	if (!ret)
		ret = write_list(dir, "builtin", m->builtin, m->nr_builtin);
	if (!ret)
		ret = write_list(dir, "missing", m->missing, m->nr_missing);
	if (!ret)
		ret = write_list(dir, "kver", &kv, 1);
	return ret;
}

static int load_set(const char *dir, struct fsp_vm_mods *m)
{
	char **kv = NULL;
	int n = 0, ret;

	ret = read_list(dir, "kver", &kv, &n);
	if (!ret && n == 1)
		ret = fsp_strcpy(m->kver, sizeof(m->kver), kv[0]);
	else if (!ret)
		ret = -EINVAL;
	free_list(kv, n);
	if (!ret)
		ret = read_list(dir, "order", &m->names, &m->nr);
	if (!ret)
		ret = read_list(dir, "builtin", &m->builtin, &m->nr_builtin);
	if (!ret)
		ret = read_list(dir, "missing", &m->missing, &m->nr_missing);
	if (!ret)
		ret = fsp_fmt(m->kernel, sizeof(m->kernel), "%s/vmlinuz", dir);
	if (!ret)
		ret = fsp_strcpy(m->dir, sizeof(m->dir), dir);
	if (!ret && !fsp_fmt(m->config, sizeof(m->config), "%s/config", dir) &&
	    access(m->config, R_OK))
		m->config[0] = '\0';
	return ret;
}

static int copy_file(const char *src, const char *dst)
{
	char *argv[] = { "cat", (char *)src, NULL };
	struct fsp_proc p;
	int fd, ret;

	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = fsp_proc_run(argv, -1, fd, TOOL_TIMEOUT_S, &p);
	close(fd);
	return ret ? ret : p.status ? -EIO : 0;
}

/* The cache entry for debs: their content hash and the modules wanted. */
static int deb_cache_path(const char *const *debs, int nr,
			  const struct fsp_vm_mods *m, char *final,
			  size_t len, char *why, size_t whylen)
{
	char cache[PATH_MAX];
	uint64_t h = fsp_vm_hash(FSP_VM_HASH_INIT, MODS_VERSION,
				 sizeof(MODS_VERSION));
	int k, ret;

	for (k = 0; k < nr; k++) {
		ret = fsp_vm_hash_file(&h, debs[k]);
		if (ret) {
			snprintf(why, whylen, "%s: %s", debs[k],
				 strerror(-ret));
			return ret;
		}
	}
	for (k = 0; k < m->nr_wanted; k++)
		h = fsp_vm_hash(h, m->wanted[k], strlen(m->wanted[k]) + 1);
	ret = fsp_vm_cache_dir(cache, sizeof(cache));
	if (ret) {
		snprintf(why, whylen, "no cache directory: %s (set "
			 "FSPROBE_CACHE_DIR)", strerror(-ret));
		return ret;
	}
	if (fsp_fmt(final, len, "%s/deb-%016llx", cache,
		    (unsigned long long)h))
		return -ENAMETOOLONG;
	return 0;
}

/* dpkg-deb -x deb root. */
static int extract(const char *deb, const char *root, int verbose,
		   char *why, size_t whylen)
{
	char *argv[] = { "dpkg-deb", "-x", (char *)deb, (char *)root, NULL };
	struct fsp_proc p;
	int ret;

	if (verbose)
		fprintf(stderr, "fsprobe vm: unpacking %s\n", deb);
	ret = run(argv, FSP_PROC_CAPTURE, &p, why, whylen);
	if (ret)
		return ret;
	free(p.out);
	if (p.status) {
		snprintf(why, whylen, "dpkg-deb -x %s: %s", deb,
			 fsp_rstrip(p.tail));
		return -EIO;
	}
	return 0;
}

/* Unpack debs under work; their modules, kernel and config go to tmp. */
static int unpack_debs(const char *const *debs, int nr, const char *work,
		       const char *tmp, int verbose, struct fsp_vm_mods *m,
		       char *why, size_t whylen)
{
	char root[PATH_MAX], farm[PATH_MAX];
	struct fsp_vm_layout l;
	int k, ret = 0;

	if (fsp_fmt(root, sizeof(root), "%s/root", work) ||
	    fsp_fmt(farm, sizeof(farm), "%s/farm", work))
		return -ENAMETOOLONG;
	for (k = 0; !ret && k < nr; k++)
		ret = extract(debs[k], root, verbose, why, whylen);
	if (!ret)
		ret = fsp_vm_find_layout(root, &l, why, whylen);
	if (ret)
		return ret;
	if (!l.modules[0]) {
		snprintf(why, whylen, "%s: no modules for %s (a linux-binary "
			 "package needs its linux-modules)", debs[0], l.kver);
		return -ENOENT;
	}
	fsp_strcpy(m->kver, sizeof(m->kver), l.kver);
	/* depmod -b wants ROOT/lib/modules/KVER, whichever layout. */
	ret = symlink_farm(l.modules, farm, l.kver);
	if (!ret)
		ret = fsp_vm_mkdirs(tmp, 0);
	if (ret)
		return ret;
	fsp_strcpy(m->dir, sizeof(m->dir), tmp);
	ret = resolve(farm, m, verbose, why, whylen);
	if (ret)
		return ret;
	if (fsp_fmt(m->kernel, sizeof(m->kernel), "%s/vmlinuz", tmp))
		return -ENAMETOOLONG;
	ret = copy_file(l.kernel, m->kernel);
	/* fsprobe reads /boot/config-KVER where there is no config.gz. */
	if (!ret && l.config[0] &&
	    !fsp_fmt(m->config, sizeof(m->config), "%s/config", tmp))
		ret = copy_file(l.config, m->config);
	if (!ret)
		ret = save_set(tmp, m);
	return ret;
}

static int from_debs(const char *const *debs, int nr, int verbose,
		     struct fsp_vm_mods *m, char *why, size_t whylen)
{
	char final[PATH_MAX], tmp[PATH_MAX], work[PATH_MAX];
	int ret;

	ret = deb_cache_path(debs, nr, m, final, sizeof(final), why, whylen);
	if (ret)
		return ret;
	if (fsp_fmt(tmp, sizeof(tmp), "%s.tmp.%d", final, (int)getpid()))
		return -ENAMETOOLONG;
	if (!access(final, R_OK)) {
		utimensat(AT_FDCWD, final, NULL, 0);	/* used: keep it */
		if (verbose)
			fprintf(stderr, "fsprobe vm: %s%s: cached in %s\n",
				debs[0], nr > 1 ? " ..." : "", final);
		return load_set(final, m);
	}

	ret = fsp_vm_mkdtemp("fsprobe-deb", work, sizeof(work));
	if (ret) {
		snprintf(why, whylen, "temporary directory: %s",
			 strerror(-ret));
		return ret;
	}
	ret = unpack_debs(debs, nr, work, tmp, verbose, m, why, whylen);
	/* Complete sets only: a killed unpack never looks like a hit. */
	if (!ret && rename(tmp, final))
		ret = -errno;
	if (!ret) {
		fsp_strcpy(m->dir, sizeof(m->dir), final);
		fsp_fmt(m->kernel, sizeof(m->kernel), "%s/vmlinuz", final);
		if (m->config[0])
			fsp_fmt(m->config, sizeof(m->config), "%s/config",
				final);
	}
	if (ret && !why[0])
		snprintf(why, whylen, "preparing %s: %s", debs[0],
			 strerror(-ret));
	if (ret)
		fsp_rmtree(tmp);
	fsp_rmtree(work);
	return ret;
}

/* DIR/config (sid), else boot/config-KVER of the root DIR is in. */
static void dir_config(const char *real, struct fsp_vm_mods *m)
{
	static const char *const up[] = { "/", "/../../../boot/",
					  "/../../../../boot/" };
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(up); i++)
		if (!fsp_fmt(m->config, sizeof(m->config), "%s%s%s%s", real,
			     up[i], i ? "config-" : "config",
			     i ? m->kver : "") && !access(m->config, R_OK))
			return;
	m->config[0] = '\0';
}

static int from_dir(const char *dir, int verbose, struct fsp_vm_mods *m,
		    char *why, size_t whylen)
{
	char real[PATH_MAX], work[PATH_MAX], root[PATH_MAX];
	const char *base;
	int ret;

	if (!realpath(dir, real)) {
		snprintf(why, whylen, "--modules %s: %s", dir,
			 strerror(errno));
		return -errno;
	}
	base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	ret = fsp_strcpy(m->kver, sizeof(m->kver), base);
	if (ret)
		return ret;
	ret = fsp_vm_mkdtemp("fsprobe-mods", work, sizeof(work));
	if (ret) {
		snprintf(why, whylen, "temporary directory: %s",
			 strerror(-ret));
		return ret;
	}
	/* The .ko files go to work/, the farm to work/root: one rmtree. */
	m->own_dir = 1;
	fsp_strcpy(m->dir, sizeof(m->dir), work);
	if (fsp_fmt(root, sizeof(root), "%s/root", work))
		return -ENAMETOOLONG;
	/* An unpacked package or root: DIR is ROOT/[usr/]lib/modules/KVER. */
	dir_config(real, m);
	ret = symlink_farm(real, root, m->kver);
	if (ret) {
		snprintf(why, whylen, "--modules %s: %s", dir,
			 strerror(-ret));
		return ret;
	}
	ret = resolve(root, m, verbose, why, whylen);
	if (ret && !why[0])
		snprintf(why, whylen, "--modules %s: %s", dir,
			 strerror(-ret));
	return ret;
}

int fsp_vm_mods_prepare(const char *const *debs, int nr_debs,
			const char *modules_dir, char *const *wanted,
			int nr_wanted, int verbose, struct fsp_vm_mods *m,
			char *why, size_t whylen)
{
	memset(m, 0, sizeof(*m));
	m->wanted = wanted;
	m->nr_wanted = nr_wanted;
	why[0] = '\0';
	if (modules_dir)
		return from_dir(modules_dir, verbose, m, why, whylen);
	if (nr_debs > 0)
		return from_debs(debs, nr_debs, verbose, m, why, whylen);
	return -EINVAL;
}
