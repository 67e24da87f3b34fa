// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_initramfs.c - the guest's initramfs for `fsprobe vm`: a list of
 * entries (host files, inline text, symlinks, device nodes), the shared
 * libraries of each ELF as the host's dynamic loader resolves them
 * (`ld.so --list`, fork/exec: ldd is a shell script), and a newc cpio
 * written here and compressed by gzip. The archive is named by a hash of
 * its whole content, so an unchanged fsprobe, tool set and module set
 * boots from the cached file and any change (a rebuilt payload, an
 * upgraded mkfs.xfs) makes a new one. Entries have uid 0 and mtime 0, so
 * the same content gives the same bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/elf.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "util.h"
#include "vm.h"

#define CPIO_VERSION "fsprobe-vm-cpio-1"
#define CACHE_MAX_AGE_S (30 * 24 * 3600)
#define LDSO_TIMEOUT_S 30
#define GZIP_TIMEOUT_S 300

uint64_t fsp_vm_hash(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

int fsp_vm_hash_file(uint64_t *h, const char *path)
{
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		*h = fsp_vm_hash(*h, buf, n);
	}
	close(fd);
	return ret;
}

void fsp_vm_img_init(struct fsp_vm_img *img)
{
	memset(img, 0, sizeof(*img));
}

void fsp_vm_img_free(struct fsp_vm_img *img)
{
	size_t i;

	for (i = 0; i < img->nr; i++) {
		free(img->e[i].dst);
		free(img->e[i].src);
		free(img->e[i].data);
	}
	free(img->e);
	memset(img, 0, sizeof(*img));
}

static struct fsp_vm_entry *find(struct fsp_vm_img *img, const char *dst)
{
	size_t i;

	for (i = 0; i < img->nr; i++)
		if (!strcmp(img->e[i].dst, dst))
			return &img->e[i];
	return NULL;
}

/* A new entry for dst (leading '/' dropped), or NULL if it exists. */
static int add(struct fsp_vm_img *img, const char *dst, mode_t mode,
	       struct fsp_vm_entry **out);

static int add_parents(struct fsp_vm_img *img, const char *dst)
{
	char p[PATH_MAX], *s;
	int ret;

	ret = fsp_strcpy(p, sizeof(p), dst);
	if (ret)
		return ret;
	for (s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
		struct fsp_vm_entry *e;

		*s = '\0';
		ret = add(img, p, S_IFDIR | 0755, &e);
		*s = '/';
		if (ret)
			return ret;
	}
	return 0;
}

static int add(struct fsp_vm_img *img, const char *dst, mode_t mode,
	       struct fsp_vm_entry **out)
{
	struct fsp_vm_entry *e;
	int ret;

	*out = NULL;
	while (*dst == '/')
		dst++;
	if (!*dst || find(img, dst))
		return 0;
	ret = add_parents(img, dst);
	if (ret)
		return ret;
	if (img->nr == img->cap) {
		size_t cap = img->cap ? img->cap * 2 : 64;

		e = realloc(img->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		img->e = e;
		img->cap = cap;
	}
	e = &img->e[img->nr];
	memset(e, 0, sizeof(*e));
	e->dst = strdup(dst);
	if (!e->dst)
		return -ENOMEM;
	e->mode = mode;
	img->nr++;
	*out = e;
	return 0;
}

int fsp_vm_img_dir(struct fsp_vm_img *img, const char *dst)
{
	struct fsp_vm_entry *e;

	return add(img, dst, S_IFDIR | 0755, &e);
}

int fsp_vm_img_file(struct fsp_vm_img *img, const char *dst,
		    const char *src, mode_t perm)
{
	struct fsp_vm_entry *e;
	int ret;

	if (access(src, R_OK)) {
		ret = -errno;
		snprintf(img->why, sizeof(img->why), "%s: %s", src,
			 strerror(errno));
		return ret;
	}
	ret = add(img, dst, S_IFREG | perm, &e);
	if (ret || !e)
		return ret;
	e->src = strdup(src);
	return e->src ? 0 : -ENOMEM;
}

int fsp_vm_img_data(struct fsp_vm_img *img, const char *dst,
		    const char *data, size_t len, mode_t perm)
{
	struct fsp_vm_entry *e;
	int ret;

	ret = add(img, dst, S_IFREG | perm, &e);
	if (ret || !e)
		return ret;
	e->data = malloc(len + 1);
	if (!e->data)
		return -ENOMEM;
	memcpy(e->data, data, len);
	e->data[len] = '\0';
	e->len = len;
	return 0;
}

int fsp_vm_img_symlink(struct fsp_vm_img *img, const char *dst,
		       const char *target)
{
	struct fsp_vm_entry *e;
	int ret;

	ret = add(img, dst, S_IFLNK | 0777, &e);
	if (ret || !e)
		return ret;
	e->data = strdup(target);
	e->len = strlen(target);
	return e->data ? 0 : -ENOMEM;
}

int fsp_vm_img_chardev(struct fsp_vm_img *img, const char *dst,
		       unsigned int major, unsigned int minor)
{
	struct fsp_vm_entry *e;
	int ret;

	ret = add(img, dst, S_IFCHR | 0600, &e);
	if (ret || !e)
		return ret;
	e->rmajor = major;
	e->rminor = minor;
	return 0;
}

/* PT_INTERP of an ELF64 file: 1 and the path, 0 if none, or -errno. */
static int elf_interp(const char *path, char *buf, size_t len)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0, i;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph)) {
		ret = -ENOEXEC;
		goto out;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph)) {
			ret = -ENOEXEC;
			goto out;
		}
		if (ph.p_type != PT_INTERP)
			continue;
		if (ph.p_filesz >= len) {
			ret = -ENAMETOOLONG;
			goto out;
		}
		n = pread(fd, buf, ph.p_filesz, ph.p_offset);
		if (n != (ssize_t)ph.p_filesz) {
			ret = -ENOEXEC;
			goto out;
		}
		buf[n] = '\0';
		ret = 1;
		goto out;
	}
out:
	close(fd);
	return ret;
}

/*
 * One line of `ld.so --list`: "\tlibc.so.6 => /lib/.../libc.so.6 (0x..)",
 * "\t/lib64/ld-linux-x86-64.so.2 (0x..)", "\tlinux-vdso.so.1 (0x..)" or
 * "\tlibfoo.so => not found". The library path goes to path ("" if the
 * line names none, like the vDSO); -ENOENT for "not found".
 */
static int ldso_line(char *line, char *path, size_t len)
{
	char *s = fsp_lstrip(line), *arrow = strstr(s, " => "), *paren;

	path[0] = '\0';
	if (arrow)
		s = arrow + 4;
	if (!strncmp(s, "not found", 9))
		return -ENOENT;
	if (*s != '/')
		return 0;
	paren = strstr(s, " (");
	if (paren)
		*paren = '\0';
	return fsp_strcpy(path, len, fsp_rstrip(s));
}

/*
 * glibc dlopens libgcc_s.so.1 for pthread_exit and cancellation
 * (mksquashfs aborts without it), so no loader listing shows it: take it
 * from libc's directory whenever libc comes in.
 */
static int add_libgcc(struct fsp_vm_img *img, const char *lib)
{
	const char *slash = strrchr(lib, '/');
	char p[PATH_MAX];

	if (!slash || strcmp(slash + 1, "libc.so.6") ||
	    fsp_fmt(p, sizeof(p), "%.*s/libgcc_s.so.1", (int)(slash - lib),
		    lib) || access(p, R_OK))
		return 0;
	return fsp_vm_img_file(img, p, p, 0644);
}

int fsp_vm_img_elf(struct fsp_vm_img *img, const char *dst,
		   const char *src)
{
	char interp[PATH_MAX], lib[PATH_MAX], *argv[4], *line, *save;
	struct fsp_proc p;
	int ret, dyn;

	ret = fsp_vm_img_file(img, dst, src, 0755);
	if (ret)
		return ret;
	dyn = elf_interp(src, interp, sizeof(interp));
	if (dyn < 0 && dyn != -ENOEXEC) {
		snprintf(img->why, sizeof(img->why), "%s: %s", src,
			 strerror(-dyn));
		return dyn;
	}
	if (!img->interp[0]) {
		/* Our own loader runs --list for everything. */
		ret = elf_interp("/proc/self/exe", img->interp,
				 sizeof(img->interp));
		if (ret <= 0)
			fsp_strcpy(img->interp, sizeof(img->interp),
				   "/lib64/ld-linux-x86-64.so.2");
	}
	if (dyn == 1) {
		ret = fsp_vm_img_file(img, interp, interp, 0755);
		if (ret)
			return ret;
	}
	argv[0] = img->interp;
	argv[1] = "--list";
	argv[2] = (char *)src;
	argv[3] = NULL;
	ret = fsp_proc_run(argv, -1, FSP_PROC_CAPTURE, LDSO_TIMEOUT_S, &p);
	if (ret) {
		snprintf(img->why, sizeof(img->why), "%s --list %s: %s",
			 img->interp, src, strerror(-ret));
		return ret;
	}
	if (p.status) {
		free(p.out);
		/* A static binary: the loader has nothing to say about it. */
		if (dyn <= 0)
			return 0;
		snprintf(img->why, sizeof(img->why), "%s --list %s: exit %d: "
			 "%s", img->interp, src, p.status, fsp_rstrip(p.tail));
		return -ENOEXEC;
	}
	for (line = strtok_r(p.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ret = ldso_line(line, lib, sizeof(lib));
		if (ret == -ENOENT)
			snprintf(img->why, sizeof(img->why), "%s needs %s",
				 src, fsp_lstrip(line));
		if (!ret && lib[0])
			ret = fsp_vm_img_file(img, lib, lib, 0755);
		if (!ret && lib[0])
			ret = add_libgcc(img, lib);
		if (ret)
			break;
	}
	free(p.out);
	return ret;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct fsp_vm_entry *x = a, *y = b;

	return strcmp(x->dst, y->dst);
}

static int hash_img(struct fsp_vm_img *img, uint64_t *out)
{
	uint64_t h = fsp_vm_hash(FSP_VM_HASH_INIT, CPIO_VERSION,
				 sizeof(CPIO_VERSION));
	size_t i;
	int ret;

	/* Sorted, a parent directory always comes before its children. */
	qsort(img->e, img->nr, sizeof(*img->e), cmp_entry);
	for (i = 0; i < img->nr; i++) {
		const struct fsp_vm_entry *e = &img->e[i];
		unsigned int meta[3] = { e->mode, e->rmajor, e->rminor };

		h = fsp_vm_hash(h, e->dst, strlen(e->dst) + 1);
		h = fsp_vm_hash(h, meta, sizeof(meta));
		if (e->src) {
			ret = fsp_vm_hash_file(&h, e->src);
			if (ret) {
				snprintf(img->why, sizeof(img->why), "%s: %s",
					 e->src, strerror(-ret));
				return ret;
			}
		} else if (e->data) {
			h = fsp_vm_hash(h, e->data, e->len);
		}
	}
	*out = h;
	return 0;
}

/* A small buffered writer over the pipe to gzip. */
struct wbuf {
	int fd;
	size_t used;
	unsigned long long off;
	char buf[1 << 16];
};

static int wb_flush(struct wbuf *w)
{
	int ret = fsp_write_all(w->fd, w->buf, w->used);

	w->used = 0;
	return ret;
}

static int wb_put(struct wbuf *w, const void *data, size_t len)
{
	const char *p = data;
	int ret;

	while (len) {
		size_t n = sizeof(w->buf) - w->used;

		if (n > len)
			n = len;
		memcpy(w->buf + w->used, p, n);
		w->used += n;
		w->off += n;
		p += n;
		len -= n;
		if (w->used == sizeof(w->buf)) {
			ret = wb_flush(w);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int wb_pad4(struct wbuf *w)
{
	static const char zero[4];

	return wb_put(w, zero, (4 - w->off % 4) % 4);
}

static int cpio_header(struct wbuf *w, unsigned int ino, const char *name,
		       mode_t mode, unsigned long size, unsigned int rmajor,
		       unsigned int rminor)
{
	char hdr[111];
	int ret;

	snprintf(hdr, sizeof(hdr), "070701%08X%08X%08X%08X%08X%08X%08lX"
		 "%08X%08X%08X%08X%08zX%08X", ino, (unsigned int)mode, 0, 0,
		 S_ISDIR(mode) ? 2 : 1, 0, size, 0, 0, rmajor, rminor,
		 strlen(name) + 1, 0);
	ret = wb_put(w, hdr, 110);
	if (!ret)
		ret = wb_put(w, name, strlen(name) + 1);
	return ret ? ret : wb_pad4(w);
}

static int cpio_file(struct wbuf *w, unsigned int ino,
		     const struct fsp_vm_entry *e)
{
	char buf[1 << 16];
	struct stat st;
	off_t left;
	int fd, ret;

	fd = open(e->src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	ret = cpio_header(w, ino, e->dst, e->mode, st.st_size, 0, 0);
	for (left = st.st_size; !ret && left > 0;) {
		ssize_t n = read(fd, buf, left < (off_t)sizeof(buf) ?
				 (size_t)left : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n ? -errno : -EIO;	/* shrank under us */
			break;
		}
		ret = wb_put(w, buf, n);
		left -= n;
	}
	if (!ret)
		ret = wb_pad4(w);
out:
	close(fd);
	return ret;
}

static int write_cpio(struct fsp_vm_img *img, struct wbuf *w)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < img->nr; i++) {
		const struct fsp_vm_entry *e = &img->e[i];

		if (e->src) {
			ret = cpio_file(w, i + 1, e);
			if (ret)
				snprintf(img->why, sizeof(img->why), "%s: %s",
					 e->src, strerror(-ret));
			continue;
		}
		ret = cpio_header(w, i + 1, e->dst, e->mode,
				  S_ISREG(e->mode) || S_ISLNK(e->mode) ?
				  e->len : 0, e->rmajor, e->rminor);
		if (!ret && e->data)
			ret = wb_put(w, e->data, e->len);
		if (!ret)
			ret = wb_pad4(w);
	}
	if (!ret)
		ret = cpio_header(w, 0, "TRAILER!!!", 0, 0, 0, 0);
	if (!ret)
		ret = wb_flush(w);
	return ret;
}

/* cpio | gzip -n > tmp; the caller renames tmp into place. */
static int compress_to(struct fsp_vm_img *img, const char *tmp)
{
	char *argv[] = { "gzip", "-n", "-c", NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int pfd[2], out, ret, wret, status;
	pid_t pid;

	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0)
		return -errno;
	if (pipe2(pfd, O_CLOEXEC)) {
		ret = -errno;
		close(out);
		return ret;
	}
	ret = fsp_proc_start(argv, pfd[0], out, -1, &pid);
	close(pfd[0]);
	close(out);
	if (ret) {
		close(pfd[1]);
		snprintf(img->why, sizeof(img->why), "gzip: %s (install "
			 "gzip)", strerror(-ret));
		return ret;
	}
	/* gzip dying must be an error here, not a SIGPIPE for fsprobe. */
	sigaction(SIGPIPE, &ign, &old);
	wret = fsp_vm_img_write_fd(img, pfd[1]);
	close(pfd[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGPIPE, &old, NULL);
	if (wret) {
		if (!img->why[0])
			snprintf(img->why, sizeof(img->why), "writing the "
				 "initramfs: %s", strerror(-wret));
		return wret;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(img->why, sizeof(img->why), "gzip failed (status "
			 "0x%x)", status);
		return -EIO;
	}
	return 0;
}

int fsp_vm_img_write_fd(struct fsp_vm_img *img, int fd)
{
	struct wbuf *w = malloc(sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	qsort(img->e, img->nr, sizeof(*img->e), cmp_entry);
	w->fd = fd;
	w->used = 0;
	w->off = 0;
	ret = write_cpio(img, w);
	free(w);
	return ret;
}

/* A NAME.tmp.PID whose writer is dead (killed mid-build). */
static int orphan_tmp(const char *name)
{
	const char *t = strstr(name, ".tmp.");
	char *end;
	long pid;

	if (!t)
		return 0;
	pid = strtol(t + 5, &end, 10);
	return pid > 0 && !*end && kill(pid, 0) && errno == ESRCH;
}

/*
 * Drop cached archives and module sets nobody has used for a month, and
 * what a killed build left half-written.
 */
static void prune(const char *cache)
{
	time_t now = time(NULL);
	struct dirent *de;
	DIR *d = opendir(cache);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char p[PATH_MAX];
		struct stat st;

		if (strncmp(de->d_name, "initrd-", 7) &&
		    strncmp(de->d_name, "deb-", 4))
			continue;
		if (fsp_fmt(p, sizeof(p), "%s/%s", cache, de->d_name) ||
		    lstat(p, &st))
			continue;
		if (now - st.st_mtime < CACHE_MAX_AGE_S &&
		    !orphan_tmp(de->d_name))
			continue;
		if (S_ISDIR(st.st_mode))
			fsp_rmtree(p);
		else
			unlink(p);
	}
	closedir(d);
}

int fsp_vm_img_build(struct fsp_vm_img *img, const char *cache, char *path,
		     size_t len, int *hit)
{
	char tmp[PATH_MAX];
	uint64_t h;
	int ret;

	*hit = 0;
	ret = hash_img(img, &h);
	if (ret)
		return ret;
	ret = fsp_fmt(path, len, "%s/initrd-%016llx.cpio.gz", cache,
		      (unsigned long long)h);
	if (ret)
		return ret;
	if (!access(path, R_OK)) {
		*hit = 1;
		utimensat(AT_FDCWD, path, NULL, 0);	/* used: keep it */
		return 0;
	}
	prune(cache);
	ret = fsp_fmt(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	if (ret)
		return ret;
	ret = compress_to(img, tmp);
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}
