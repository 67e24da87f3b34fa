// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile.c - strict parser for the mkfs-profiles/ files. The format is
 * `key = value` lines with `#` comments; `mkfs` and `requires` are
 * shell-free word lists (split on blanks, double quotes group words, no
 * expansion of any kind). Every error names its line so that a profile
 * author can fix it without reading this code.
 */
#include <ctype.h>
#include <stdarg.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsattr.h"
#include "proc.h"
#include "profile.h"
#include "util.h"

#define FSP_PROFILE_FILE_MAX	(64 * 1024)

enum key_id {
	K_FS, K_MKFS, K_MOUNT, K_SIZE, K_REQ, K_DESC, K_LOWER, K_MATRIX,
	K_ATTRS, K_SERVER, K_FAULT, K_DEVICE, K_NR
};

static const char *const key_names[K_NR] = {
	[K_FS] = "fs", [K_MKFS] = "mkfs", [K_MOUNT] = "mount_options",
	[K_SIZE] = "size", [K_REQ] = "requires", [K_DESC] = "description",
	[K_LOWER] = "lower", [K_MATRIX] = "matrix", [K_SERVER] = "server",
	[K_ATTRS] = "attributes", [K_FAULT] = "device_fault",
	[K_DEVICE] = "device",
};

/* `device` values: one row per kind of block device a run can make. */
static const char *const device_names[] = {
	[FSP_DEVICE_LOOP] = "loop",
	[FSP_DEVICE_NULLB_ZONED] = "null_blk-zoned",
};

static const char *const fault_names[] = {
	[FSP_FAULT_NONE] = "none", [FSP_FAULT_READ] = "read",
	[FSP_FAULT_WRITE] = "write", [FSP_FAULT_ALL] = "all",
};

const char *fsp_device_fault_name(enum fsp_device_fault f)
{
	return (unsigned int)f < FSP_ARRAY_SIZE(fault_names) ?
	       fault_names[f] : "?";
}

static int parse_fault(const char *v, enum fsp_device_fault *f,
		       struct fsp_profile_error *err, int line)
{
	size_t i;

	for (i = FSP_FAULT_READ; i < FSP_ARRAY_SIZE(fault_names); i++)
		if (!strcmp(v, fault_names[i])) {
			*f = i;
			return 0;
		}
	return fsp_profile_err(err, line, "device_fault '%.32s': read, "
			       "write or all", v);
}

int fsp_profile_err(struct fsp_profile_error *err, int line,
		    const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Split a value into words; double quotes group, nothing else is special. */
static int split_words(char *val, char **words, int max, int *nr,
		       struct fsp_profile_error *err, int line)
{
	char *p = val, *w;
	int n = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (n == max)
			return fsp_profile_err(err, line, "too many words (at most %d)",
				    max);
		w = p;
		if (*p == '"') {
			w = ++p;
			while (*p && *p != '"')
				p++;
			if (*p != '"')
				return fsp_profile_err(err, line, "unterminated quote");
			*p++ = '\0';
			if (*p && *p != ' ' && *p != '\t')
				return fsp_profile_err(err, line,
					    "text right after a closing quote");
		} else {
			while (*p && *p != ' ' && *p != '\t') {
				if (*p == '"')
					return fsp_profile_err(err, line,
						    "quote inside a word");
				p++;
			}
			if (*p)
				*p++ = '\0';
		}
		words[n] = strdup(w);
		if (!words[n])
			return -ENOMEM;
		*nr = ++n;	/* so that a later error frees what we have */
	}
	words[n] = NULL;
	*nr = n;
	return 0;
}

/* Words that would make fsprobe touch something it did not create. */
static int check_safe_word(const char *w, struct fsp_profile_error *err,
			   int line)
{
	if (strstr(w, "/dev/"))
		return fsp_profile_err(err, line,
			    "'%s' names a device: profiles may only describe "
			    "the image fsprobe creates", w);
	return 0;
}

/*
 * A command acts only inside the run directory, its cwd: it names its
 * files by {image}, {src}, {dev} or {mnt}, or by absolute path (a file
 * root chose, as r-hang's FUSE file). A relative path with a '/', in a
 * word or in an option's value (`x=a/b`), or a `..`, would reach a file
 * outside it by where fsprobe was started (`truncate -s 0 dev/fakedisk`).
 */
static int check_confined(const char *w, struct fsp_profile_error *err,
			  int line)
{
	const char *v = strrchr(w, '=') ? strrchr(w, '=') + 1 : w;

	if (!strstr(w, "..") && (!strchr(v, '/') || v[0] == '/'))
		return 0;
	return fsp_profile_err(err, line, "'%.64s' is a relative path: "
			       "profile commands act only in the run "
			       "directory; name files as {image}, {src}, "
			       "{dev}, {mnt} or by absolute path", w);
}

/* A command's word list (mkfs, server), no word naming a device. */
static int safe_words(char *v, char **words, int *nr,
		      struct fsp_profile_error *err, int line)
{
	int i, ret;

	ret = split_words(v, words, FSP_PROFILE_MAX_ARGS, nr, err, line);
	for (i = 0; !ret && i < *nr; i++) {
		ret = check_safe_word(words[i], err, line);
		if (!ret)
			ret = check_confined(words[i], err, line);
	}
	return ret;
}

static int has_word(char *const *words, int nr, const char *w)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(words[i], w))
			return 1;
	return 0;
}

static int parse_size(const char *v, unsigned long *mb,
		      struct fsp_profile_error *err, int line)
{
	char *end;
	unsigned long n;

	if (!isdigit((unsigned char)*v))
		return fsp_profile_err(err, line, "size '%s' is not a number of MiB", v);
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end)
		return fsp_profile_err(err, line, "size '%s' is not a number of MiB", v);
	if (n < 16 || n > 65536)
		return fsp_profile_err(err, line,
			    "size %lu MiB out of range (16..65536)", n);
	*mb = n;
	return 0;
}

/* attributes = WORD...: each once, from fsattr.c's table. */
static int parse_attrs(struct fsp_profile *p, char *v,
		       struct fsp_profile_error *err, int line)
{
	char *words[FSP_NR_ATTRS + 2];
	int i, nr = 0, bit, ret;

	ret = split_words(v, words, FSP_NR_ATTRS + 1, &nr, err, line);
	if (!ret && !nr)
		ret = fsp_profile_err(err, line, "attributes: no value (one "
				      "or more of %s)", fsp_attr_names());
	for (i = 0; !ret && i < nr; i++) {
		bit = fsp_attr_from_name(words[i]);
		if (bit < 0)
			ret = fsp_profile_err(err, line, "attribute '%.32s': "
					      "one of %s", words[i],
					      fsp_attr_names());
		else if (p->attrs & bit)
			ret = fsp_profile_err(err, line, "attribute '%s' "
					      "given twice", words[i]);
		else
			p->attrs |= bit;
	}
	for (i = 0; i < nr; i++)
		free(words[i]);
	return ret;
}

/* Letters, digits, '_' and '.'; a FUSE subtype may have '-' too. */
static int valid_fs_name(const char *v)
{
	int fuse = !strncmp(v, "fuse.", 5);

	if (!*v || strlen(v) >= 32)
		return 0;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && *v != '_' && *v != '.' &&
		    !(fuse && *v == '-'))
			return 0;
	return 1;
}

/* The one place that tells kinds of fs apart by name. */
static enum fsp_profile_kind kind_of(const char *fs)
{
	if (!strcmp(fs, "tmpfs") || !strcmp(fs, "ramfs"))
		return FSP_PROFILE_MEMORY;
	if (!strcmp(fs, "squashfs") || !strcmp(fs, "erofs") ||
	    !strcmp(fs, "iso9660") || !strcmp(fs, "romfs"))
		return FSP_PROFILE_IMAGE;
	if (!strcmp(fs, "overlay"))
		return FSP_PROFILE_OVERLAY;
	if (!strcmp(fs, "nfs4"))
		return FSP_PROFILE_NFS;
	/* fuseblk needs a block device a server opens: not a kind here. */
	if (!strcmp(fs, "fuse") || !strncmp(fs, "fuse.", 5))
		return FSP_PROFILE_FUSE;
	return FSP_PROFILE_DEVICE;
}

static int parse_device(const char *v, enum fsp_device_kind *kind,
			struct fsp_profile_error *err, int line)
{
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(device_names); i++)
		if (!strcmp(v, device_names[i])) {
			*kind = i;
			return 0;
		}
	return fsp_profile_err(err, line, "device '%.32s': loop or "
			       "null_blk-zoned", v);
}

const char *fsp_device_kind_name(enum fsp_device_kind kind)
{
	return (unsigned int)kind < FSP_ARRAY_SIZE(device_names) ?
	       device_names[kind] : "?";
}

/* Filesystems whose files exist from mkfs on, one per zone. */
static int has_fixed_files(const char *fs)
{
	return !strcmp(fs, "zonefs");
}

/*
 * Options libmount acts on itself by making a loop device over the
 * source: one fsprobe never journalled, so no cleanup would find it.
 */
static const char *const loop_options[] = {
	"loop", "offset", "sizelimit", "encryption",
};

/* A loop-making option among the comma-separated ones, by its name. */
static int check_loop_options(const char *v, struct fsp_profile_error *err,
			      int line)
{
	const char *o = v;
	size_t i, n;

	for (; *o; o += n + (o[n] == ',')) {
		n = strcspn(o, ",");
		for (i = 0; i < FSP_ARRAY_SIZE(loop_options); i++) {
			size_t l = strlen(loop_options[i]);

			if (n < l || strncmp(o, loop_options[i], l) ||
			    (n > l && o[l] != '='))
				continue;
			return fsp_profile_err(err, line, "mount option '%s' "
					       "is not allowed: it makes libmount "
					       "set up a loop device, and fsprobe "
					       "attaches its own", loop_options[i]);
		}
	}
	return 0;
}

static int parse_mount_options(struct fsp_profile *p, const char *v,
			       struct fsp_profile_error *err, int line)
{
	int i, ret;

	if (strlen(v) >= sizeof(p->mount_options))
		return fsp_profile_err(err, line, "mount_options too long");
	for (i = 0; v[i]; i++)
		if (isspace((unsigned char)v[i]))
			return fsp_profile_err(err, line,
				    "mount_options must not contain blanks");
	ret = check_safe_word(v, err, line);
	if (!ret)
		ret = check_loop_options(v, err, line);
	if (!ret)
		strcpy(p->mount_options, v);
	return ret;
}

/* A tool's name or a --help word: no path, nothing a shell would see. */
static int plain_name(const char *s, size_t n)
{
	size_t i;

	if (!n || s[0] == '.' || s[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._+-", s[i]))
			return 0;
	return 1;
}

/*
 * requires = CONFIG_X, TOOL or TOOL:WORD. A tool is a name, looked up
 * on a fixed root-owned path when a run checks it (runner.c), never a
 * path the profile chose: that would be a program the profile's author
 * has root run.
 */
static int parse_requires(struct fsp_profile *p, char *v,
			  struct fsp_profile_error *err, int line)
{
	int i, ret;

	ret = split_words(v, p->requires, FSP_PROFILE_MAX_REQS,
			  &p->nr_requires, err, line);
	for (i = 0; !ret && i < p->nr_requires; i++) {
		const char *r = p->requires[i], *c = strchr(r, ':');
		size_t n = c ? (size_t)(c - r) : strlen(r);

		if (!plain_name(r, n) ||
		    (c && !plain_name(c + 1, strlen(c + 1))))
			ret = fsp_profile_err(err, line, "requires '%.64s': "
				"name a tool (TOOL or TOOL:WORD), not a path; "
				"tools are looked up in %s", r,
				FSP_PROC_ROOT_PATH);
	}
	return ret;
}

static int set_key(struct fsp_profile *p, enum key_id k, char *v,
		   struct fsp_profile_error *err, int line)
{
	switch (k) {
	case K_FS:
	case K_LOWER:
		if (!valid_fs_name(v))
			return fsp_profile_err(err, line, "bad filesystem type '%s'", v);
		return fsp_strcpy(k == K_FS ? p->fs : p->lower, 32, v);
	case K_MKFS:
		return safe_words(v, p->mkfs, &p->nr_mkfs, err, line);
	case K_SERVER:
		return safe_words(v, p->server, &p->nr_server, err, line);
	case K_MOUNT:
		return parse_mount_options(p, v, err, line);
	case K_SIZE:
		return parse_size(v, &p->size_mb, err, line);
	case K_REQ:
		return parse_requires(p, v, err, line);
	case K_MATRIX:
		/* extended: a variant the default run leaves out. */
		if (strcmp(v, "default") && strcmp(v, "extended"))
			return fsp_profile_err(err, line, "matrix '%.32s': "
				    "default or extended", v);
		p->extended = !strcmp(v, "extended");
		return 0;
	case K_ATTRS:
		return parse_attrs(p, v, err, line);
	case K_FAULT:
		return parse_fault(v, &p->device_fault, err, line);
	case K_DEVICE:
		return parse_device(v, &p->device, err, line);
	case K_DESC:
		if (strlen(v) >= sizeof(p->description))
			return fsp_profile_err(err, line, "description too long");
		strcpy(p->description, v);
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * fuse: mkfs makes the image file (from {src}: the staged files, then
 * read-only), the server serves it on {mnt}, mounting it itself, and
 * stays in the foreground as our child: what fsprobe journals, waits
 * for and kills is that process, never one it forked off.
 */
static int check_fuse(struct fsp_profile *p, struct fsp_profile_error *err)
{
	char *const *srv = p->server, *const *mk = p->mkfs;
	int ns = p->nr_server, nm = p->nr_mkfs;

	if (p->kind != FSP_PROFILE_FUSE)
		return ns ? fsp_profile_err(err, 0, "'server' is only for "
					    "fs = fuse.SUBTYPE") : 0;
	if (!ns)
		return fsp_profile_err(err, 0, "fuse profile needs a 'server'");
	if (!has_word(srv, ns, "{mnt}"))
		return fsp_profile_err(err, 0, "server must name the mount "
				       "point as the word {mnt}");
	if (!has_word(srv, ns, "-f"))
		return fsp_profile_err(err, 0, "server must stay in the "
				       "foreground (-f): fsprobe owns its "
				       "process");
	if (has_word(srv, ns, "{src}") || has_word(srv, ns, "{dev}"))
		return fsp_profile_err(err, 0, "server takes {image} and "
				       "{mnt} only");
	if (!has_word(mk, nm, "{image}") || has_word(mk, nm, "{dev}"))
		return fsp_profile_err(err, 0, "fuse: mkfs must make {image} "
				       "(there is no device)");
	if (p->mount_options[0])
		return fsp_profile_err(err, 0, "fuse: the server mounts; its "
				       "options belong in 'server'");
	p->staged = has_word(mk, nm, "{src}");
	return 0;
}

/* What the kind asks of the other keys; p->kind is set. */
static int check_kind(struct fsp_profile *p, struct fsp_profile_error *err)
{
	int stacked = p->kind == FSP_PROFILE_OVERLAY ||
		      p->kind == FSP_PROFILE_NFS;

	if (stacked && !p->lower[0])
		return fsp_profile_err(err, 0, "%s profile needs a 'lower' "
				       "fs type", p->fs);
	if (!stacked && p->lower[0])
		return fsp_profile_err(err, 0, "'lower' is only for fs = "
				       "overlay or nfs4");
	p->staged = p->kind == FSP_PROFILE_IMAGE;
	if (p->lower[0]) {
		p->lower_kind = kind_of(p->lower);
		if (p->lower_kind != FSP_PROFILE_DEVICE &&
		    p->lower_kind != FSP_PROFILE_MEMORY)
			return fsp_profile_err(err, 0, "lower '%s': %s needs "
				"a writable lower fs (a device fs or tmpfs)",
				p->lower, p->fs);
		if (p->lower_kind == FSP_PROFILE_MEMORY && p->nr_mkfs)
			return fsp_profile_err(err, 0, "lower '%s' has no "
					       "mkfs", p->lower);
	}
	if (p->device != FSP_DEVICE_LOOP &&
	    (p->kind != FSP_PROFILE_DEVICE || !p->nr_mkfs))
		return fsp_profile_err(err, 0, "device '%s' is for a block "
				       "filesystem made by mkfs",
				       fsp_device_kind_name(p->device));
	if (p->device_fault && p->device != FSP_DEVICE_LOOP)
		return fsp_profile_err(err, 0, "device_fault stacks device-"
				       "mapper on a loop device: not with "
				       "device = %s",
				       fsp_device_kind_name(p->device));
	if ((p->device_fault || p->attrs) && p->kind != FSP_PROFILE_DEVICE)
		return fsp_profile_err(err, 0, p->device_fault ?
				       "device_fault needs a filesystem made "
				       "on a device by mkfs, not %s" :
				       "attributes need a filesystem made by "
				       "mkfs on a device (this one is %s)",
				       fsp_profile_kind_name(p->kind));
	return check_fuse(p, err);
}

int fsp_profile_parse_text(const char *name, const char *text, size_t len,
			   struct fsp_profile *p, struct fsp_profile_error *err)
{
	char line[FSP_PROFILE_LINE_MAX];
	unsigned int seen = 0;
	size_t pos = 0;
	int lineno = 0, ret = 0;

	memset(p, 0, sizeof(*p));
	memset(err, 0, sizeof(*err));
	if (fsp_strcpy(p->name, sizeof(p->name), name))
		return fsp_profile_err(err, 0, "profile name too long");
	if (memchr(text, '\0', len))
		return fsp_profile_err(err, 0, "binary data (NUL byte) in profile");

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *key, *val, *eq;
		int k;

		lineno++;
		if (n >= sizeof(line)) {
			ret = fsp_profile_err(err, lineno, "line longer than %d bytes",
				   FSP_PROFILE_LINE_MAX - 1);
			goto fail;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + (nl ? 1 : 0);

		key = fsp_lstrip(line);
		fsp_rstrip(key);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			ret = fsp_profile_err(err, lineno, "expected 'key = value'");
			goto fail;
		}
		*eq = '\0';
		val = fsp_lstrip(eq + 1);
		fsp_rstrip(key);
		for (k = 0; k < K_NR; k++)
			if (!strcmp(key, key_names[k]))
				break;
		if (k == K_NR) {
			ret = fsp_profile_err(err, lineno, "unknown key '%.64s'", key);
			goto fail;
		}
		if (seen & (1u << k)) {
			ret = fsp_profile_err(err, lineno, "duplicate key '%s'", key);
			goto fail;
		}
		seen |= 1u << k;
		ret = set_key(p, k, val, err, lineno);
		if (ret)
			goto fail;
	}
	if (!(seen & (1u << K_FS))) {
		ret = fsp_profile_err(err, 0, "missing required key 'fs'");
		goto fail;
	}
	p->kind = kind_of(p->fs);
	p->fixed_files = has_fixed_files(p->fs);
	ret = check_kind(p, err);
	if (ret)
		goto fail;
	return 0;
fail:
	fsp_profile_free(p);
	return ret;
}

/* What reading a named input file says when it is refused. */
int fsp_profile_load_error(int ret, size_t max, struct fsp_profile_error *err)
{
	int mib = max >= (1u << 20);

	if (ret == -FSP_ENOTREG)
		return fsp_profile_err(err, 0, "not a regular file: name one "
				       "(a FIFO, device or directory is never "
				       "read)");
	if (ret == -EFBIG)
		return fsp_profile_err(err, 0, "larger than %zu %s: too large "
				       "to be read", max >> (mib ? 20 : 10),
				       mib ? "MiB" : "KiB");
	return ret;
}

int fsp_profile_load(const char *path, struct fsp_profile *p,
		     struct fsp_profile_error *err)
{
	char name[64], *text = NULL;
	const char *base = strrchr(path, '/');
	size_t len, blen;
	int ret;

	memset(err, 0, sizeof(*err));
	base = base ? base + 1 : path;
	blen = strlen(base);
	if (blen > 5 && !strcmp(base + blen - 5, ".conf"))
		blen -= 5;
	if (blen == 0 || blen >= sizeof(name))
		return fsp_profile_err(err, 0, "bad profile file name");
	memcpy(name, base, blen);
	name[blen] = '\0';

	ret = fsp_slurp_regular(path, FSP_PROFILE_FILE_MAX, &text, &len);
	if (ret)
		return fsp_profile_load_error(ret, FSP_PROFILE_FILE_MAX, err);
	ret = fsp_profile_parse_text(name, text, len, p, err);
	free(text);
	if (!ret)
		fsp_strcpy(p->path, sizeof(p->path), path);
	return ret;
}

void fsp_profile_free(struct fsp_profile *p)
{
	int i;

	for (i = 0; i < p->nr_mkfs; i++)
		free(p->mkfs[i]);
	for (i = 0; i < p->nr_requires; i++)
		free(p->requires[i]);
	for (i = 0; i < p->nr_server; i++)
		free(p->server[i]);
	p->nr_mkfs = p->nr_requires = p->nr_server = 0;
	p->mkfs[0] = p->requires[0] = p->server[0] = NULL;
}

void fsp_profile_free_all(struct fsp_profile *p, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		fsp_profile_free(&p[i]);
	free(p);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct fsp_profile *)a)->name,
		      ((const struct fsp_profile *)b)->name);
}

int fsp_profile_load_dir(const char *dir, struct fsp_profile **out, int *nr,
			 char *errpath, size_t errlen,
			 struct fsp_profile_error *err)
{
	struct fsp_profile *v = NULL, *nv;
	struct dirent *de;
	int n = 0, cap = 0, ret = 0;
	char path[PATH_MAX];
	DIR *d = opendir(dir);

	memset(err, 0, sizeof(*err));
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l <= 5 || strcmp(de->d_name + l - 5, ".conf") ||
		    de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				ret = -ENOMEM;
				break;
			}
			v = nv;
		}
		ret = fsp_fmt(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!ret)
			ret = fsp_profile_load(path, &v[n], err);
		if (ret) {
			fsp_strcpy(errpath, errlen, path);
			break;
		}
		n++;
	}
	closedir(d);
	if (ret) {
		fsp_profile_free_all(v, n);
		return ret;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_name);
	*out = v;
	*nr = n;
	return 0;
}

const char *fsp_profile_kind_name(enum fsp_profile_kind kind)
{
	static const char *const names[] = {
		[FSP_PROFILE_DEVICE] = "device",
		[FSP_PROFILE_MEMORY] = "memory",
		[FSP_PROFILE_IMAGE] = "image",
		[FSP_PROFILE_OVERLAY] = "overlay",
		[FSP_PROFILE_FUSE] = "fuse",
		[FSP_PROFILE_NFS] = "nfs",
	};

	return (unsigned int)kind < FSP_ARRAY_SIZE(names) ? names[kind] : "?";
}
