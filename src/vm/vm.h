/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm.h - the parts of `fsprobe vm`: running host tools by fork/exec
 * (vm_spawn.c), the guest's kernel modules from a .deb or a modules tree
 * (vm_modules.c), the initramfs: its file list, content hash, cache and
 * newc cpio writer (vm_initramfs.c), and booting it under qemu
 * (qemu.c). Library style: 0 or -errno, a one-line reason in the
 * caller's buffer, never exit; cli/cmd_vm.c talks to the user.
 */
#ifndef FSP_VM_H
#define FSP_VM_H

#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

/* --- vm_dirs.c (its tools run with fsprobe/proc.h) ------------------ */

/* mkdtemp under $TMPDIR (or /tmp) with the given prefix. */
int fsp_vm_mkdtemp(const char *prefix, char *buf, size_t len);
/* mkdir -p, mode 0755 (0700 for the last component if private). */
int fsp_vm_mkdirs(const char *path, int private);
/* The cache directory (created): FSPROBE_CACHE_DIR, /var/cache/fsprobe
 * for root, else $XDG_CACHE_HOME/fsprobe or ~/.cache/fsprobe. */
int fsp_vm_cache_dir(char *buf, size_t len);

/* --- vm_kernel.c: what a kernel SPEC names ------------------------- */

#define FSP_VM_DEBIAN "debian:"
enum fsp_vm_spec {
	FSP_VM_SPEC_IMAGE,	/* a bzImage (vmlinuz) */
	FSP_VM_SPEC_TREE,	/* an unpacked package or root directory */
	FSP_VM_SPEC_DEB,	/* a .deb */
	FSP_VM_SPEC_DEBIAN,	/* debian:VERSION, fetched with apt */
};

/* Which of the above spec is (a directory by stat, a .deb by name). */
int fsp_vm_spec_kind(const char *spec);

/* Where an unpacked kernel keeps its parts ("" for those it lacks). */
struct fsp_vm_layout {
	char kver[128];
	char kernel[4096];	/* boot/vmlinuz-V, usr/lib/modules/V/vmlinuz */
	char config[4096];	/* boot/config-V, usr/lib/modules/V/config */
	char modules[4096];	/* [usr/]lib/modules/V holding kernel/ */
};

/*
 * Find the one kernel release under root (lib/modules/V,
 * usr/lib/modules/V, else boot/vmlinuz-V) and its parts. -ENOENT and a
 * reason when there is none, more than one, or no kernel image.
 */
int fsp_vm_find_layout(const char *root, struct fsp_vm_layout *l,
		       char *why, size_t whylen);

/* --- vm_apt.c: debian:VERSION ---------------------------------------- */

#define FSP_VM_MAX_DEBS 8

/*
 * The .deb files of Debian's kernel VERSION (a release such as
 * 7.2.13+deb14-amd64 or 6.1.0-57-amd64, or a series such as 6.12: its
 * newest), downloaded with apt through a private sources list into
 * CACHE/apt, or found there from an earlier call (no network then).
 * debs[] gets malloc'd paths (free them), *nr their number; progress on
 * stderr unless quiet.
 */
int fsp_vm_apt_fetch(const char *version, int quiet, char **debs, int *nr,
		     char *why, size_t whylen);
/*
 * Each series[i] (6.1, 6.12, 7.3-rc) into its newest release kver[i]:
 * apt-get update and apt-cache search through the private list; when
 * apt cannot reach the mirror (said on stderr), the newest release
 * with a record of an earlier fetch in the cache. A series with none
 * gets kver[i] "" and why[i] a reason. 0, or -errno when there is no
 * cache directory at all (every why[i] set).
 */
int fsp_vm_apt_series(const char *const *series, int nr, int quiet,
		      char (*kver)[192], char (*why)[256]);

/* --- vm_sources.c: the mirror and the private sources list ----------- */

/* Debian's archive keyring (debian-archive-keyring): .gpg, later .pgp. */
#define FSP_VM_KEYRINGS { "/usr/share/keyrings/debian-archive-keyring.gpg", \
		"/usr/share/keyrings/debian-archive-keyring.pgp", NULL }
#define FSP_VM_KEYRING_PKG "debian-archive-keyring"

/*
 * The first Debian mirror in one apt sources file's text: a "deb" entry
 * (one-line, or deb822 when is_deb822) of http, https or file whose suite
 * is a Debian release (bookworm, sid, stable...), or with security its
 * -security suite. 0 and uri (no trailing slash), or -ENOENT.
 */
int fsp_vm_mirror_in(const char *text, int is_deb822, int security,
		     char *uri, size_t len);
/* The same over the system's sources, in apt's order of files. */
int fsp_vm_system_mirror(int security, char *uri, size_t len);
/* The security archive beside mirror (.../debian: .../debian-security). */
int fsp_vm_security_of(const char *mirror, char *uri, size_t len);
/* The first readable of the NULL-terminated candidates, else NULL. */
const char *fsp_vm_keyring(const char *const *candidates);
/*
 * The private sources list: the suites that carry kernels on mirror
 * (bookworm-security on security, left out when NULL), every line
 * signed-by keyring. *out is malloc'd; 0 or -errno.
 */
int fsp_vm_sources_text(const char *mirror, const char *security,
			const char *keyring, char **out);
/* The first line of apt's output saying a signature or hash failed. */
const char *fsp_vm_apt_unverified(const char *text);

/* --- vm_series.c: the newest release of a series --------------------- */

/* dpkg's comparison of two version strings (no epoch or revision). */
int fsp_vm_vercmp(const char *a, const char *b);
/* Is release kver (6.12.118+deb12-amd64) of series (6.12, 7.3-rc)? */
int fsp_vm_series_match(const char *kver, const char *series);
/* The newest release of series named in text (apt-cache search output
 * or a list of releases): 0 and kver, or -ENOENT. */
int fsp_vm_series_pick(const char *text, const char *series, char *kver,
		       size_t len);

/* VERSION usable as a file name: letters, digits and . + ~ _ - only. */
int fsp_vm_debian_version_valid(const char *v);

/* --- vm_modules.c ----------------------------------------------------- */

struct fsp_vm_mods {
	char kver[128];		/* the modules' (and kernel's) release */
	char kernel[4096];	/* vmlinuz found in a .deb, else "" */
	char config[4096];	/* its boot/config-KVER, else "" */
	char dir[4096];		/* decompressed .ko files and "order" */
	char **names;		/* file names in dir, in load order */
	int nr;
	char **builtin;		/* wanted modules that are built in */
	int nr_builtin;
	char *const *wanted;	/* what to resolve (fsp_vm_mods_wanted) */
	int nr_wanted;
	char **missing;		/* wanted modules found nowhere */
	int nr_missing;
	int own_dir;		/* dir is a temp dir: remove it */
};

/*
 * Unpack .debs into one tree (linux-image, or sid's linux-binary +
 * linux-modules + linux-base; cached by their content hash in the cache
 * dir) or take an unpacked lib/modules/KVER or usr/lib/modules/KVER tree, resolve the modules the
 * matrix needs with depmod + modprobe --show-depends, and decompress
 * them in load order into m->dir. Either argument may be NULL (not
 * both). why gets a one-line reason on failure.
 */
int fsp_vm_mods_prepare(const char *const *debs, int nr_debs,
			const char *modules_dir, char *const *wanted,
			int nr_wanted, int verbose, struct fsp_vm_mods *m,
			char *why, size_t whylen);
void fsp_vm_mods_release(struct fsp_vm_mods *m);
/*
 * The modules the guest loads, derived from the profiles: loop, every
 * profile's fs type and overlay lower (module name, else alias fs-TYPE),
 * from profile_dir and the -p arguments that name files, then the
 * character sets and tables filesystems request at mount time.
 */
int fsp_vm_mods_wanted(const char *profile_dir, const char *const *profiles,
		       int nr_profiles, char ***out, int *nr);
void fsp_vm_mods_wanted_free(char **arr, int nr);

/* --- vm_initramfs.c --------------------------------------------------- */

struct fsp_vm_entry {
	char *dst;		/* path in the guest, without leading '/' */
	mode_t mode;		/* S_IF* | permissions */
	char *src;		/* host file to copy, or NULL */
	char *data;		/* inline content (or symlink target) */
	size_t len;
	unsigned int rmajor, rminor;	/* device nodes */
};

struct fsp_vm_img {
	struct fsp_vm_entry *e;
	size_t nr, cap;
	char interp[4096];	/* the host's dynamic loader */
	char why[512];		/* first failure, for the user */
};

void fsp_vm_img_init(struct fsp_vm_img *img);
void fsp_vm_img_free(struct fsp_vm_img *img);
/* Parents are created as needed; a dst already present is kept. */
int fsp_vm_img_dir(struct fsp_vm_img *img, const char *dst);
int fsp_vm_img_file(struct fsp_vm_img *img, const char *dst,
		    const char *src, mode_t perm);
int fsp_vm_img_data(struct fsp_vm_img *img, const char *dst,
		    const char *data, size_t len, mode_t perm);
int fsp_vm_img_symlink(struct fsp_vm_img *img, const char *dst,
		       const char *target);
int fsp_vm_img_chardev(struct fsp_vm_img *img, const char *dst,
		       unsigned int major, unsigned int minor);
/*
 * An executable or DSO plus every shared library the dynamic loader
 * resolves for it (ld.so --list, fork/exec), the loader included; the
 * libraries go to their host paths. Static binaries have none.
 */
int fsp_vm_img_elf(struct fsp_vm_img *img, const char *dst,
		   const char *src);
/*
 * Write the image as a gzip'd newc cpio to CACHE/initrd-HASH.cpio.gz, or
 * reuse it if it is there; path gets its name, *hit whether it was reused.
 */
int fsp_vm_img_build(struct fsp_vm_img *img, const char *cache, char *path,
		     size_t len, int *hit);

/* The image as an uncompressed newc cpio, written to fd. */
int fsp_vm_img_write_fd(struct fsp_vm_img *img, int fd);

/* --- vm_guest.c ------------------------------------------------------ */

/* What the guest image is made of besides the kernel's modules. */
struct fsp_vm_guest_in {
	const char *profile_dir;	/* the host's profiles, copied */
	const char *payload_dir;	/* the host's payloads, copied */
	const char *const *profiles;	/* -p arguments: their tools too */
	int nr_profiles;
};

/* The marker lines around the guest's document on its second serial port. */
#define FSP_VM_MARK "FSPROBE-VM-RESULT"

/*
 * Everything but the run options, the part worth caching: /init,
 * busybox, fsprobe, payloads, profiles, host tools, m's modules and
 * config (at boot/config-release).
 */
int fsp_vm_guest_base(struct fsp_vm_img *img,
		      const struct fsp_vm_guest_in *in,
		      const struct fsp_vm_mods *m, const char *release);
/* A -p argument that names a file (copied), not a profile by name. */
int fsp_vm_is_profile_path(const char *s);
/*
 * The boot's initrd at path: the cached archive base, zero padding to 4
 * bytes (the kernel looks for the next archive there), then args.
 */
int fsp_vm_guest_initrd(const char *base, struct fsp_vm_img *args,
			const char *path);

/* --- qemu.c --------------------------------------------------------- */

/* qemu and its -accel unless FSPROBE_QEMU, FSPROBE_VM_ACCEL say else. */
#define FSP_VM_QEMU "qemu-system-x86_64"
/* contrib/kernel-with-ro-thp.sh's default OUTDIR/bzImage. */
#define FSP_RO_THP_KERNEL "/var/tmp/fsprobe-kernel/bzImage"
/*
 * One host thread for all vCPUs. With thread=multi, Debian's 6.12 guest
 * died in 2 of 4 full runs with "Oops: int3" in __filemap_add_folio, RIP
 * inside a jmp: by the look of it a vCPU ran into the int3 of a
 * tracepoint static key the other vCPU was patching (read-order turns
 * mm_filemap_add_to_page_cache on and off while a neighbouring profile
 * faults pages in). Cross-modifying code is where multi-threaded TCG is
 * weakest; with one thread the guest keeps its 2 CPUs, interleaved.
 */
#define FSP_VM_ACCEL "tcg,thread=single"
/* >= 1 GiB: below 512 MiB the guest kernel turns THP off by default. */
#define FSP_VM_MEM "2G"
#define FSP_VM_TAIL_MAX (256 * 1024)

/* FSPROBE_QEMU, else FSP_VM_QEMU; FSPROBE_VM_ACCEL, else FSP_VM_ACCEL. */
const char *fsp_vm_qemu(void);
const char *fsp_vm_accel(void);

/*
 * The release from a bzImage's setup header into rel ("" if it has
 * none); -ENOEXEC if path is not an x86 kernel image at all.
 */
int fsp_vm_bzimage_release(const char *path, char *rel, size_t len);
/*
 * A config next to a bare kernel image (config-RELEASE or config in its
 * directory) into buf, else "".
 */
void fsp_vm_kernel_config(const char *kernel, const char *release,
			  char *buf, size_t len);
/* A random hex nonce that marks this boot's document. */
int fsp_vm_nonce(char *buf, size_t len);

/* The last FSP_VM_TAIL_MAX bytes of what qemu said. */
struct fsp_vm_tail {
	char buf[FSP_VM_TAIL_MAX + 1];
	size_t len;
};

/* Its last lines, \r made spaces; NULL if it is empty. */
const char *fsp_vm_tail_last(struct fsp_vm_tail *t, int lines);
/* Write it to CACHE/last-console.log; path gets that name. */
int fsp_vm_save_console(const char *cache, const struct fsp_vm_tail *t,
			char *path, size_t len);

struct fsp_vm_boot {
	/* in */
	const char *kernel, *deb, *initrd, *result, *accel;
	int timeout_s;
	int echo_fd;		/* qemu's output copied here; -1: not */
	volatile sig_atomic_t *stop;	/* set (by a signal): stop qemu */
	/* each whole console line (without \r\n), if set: for progress */
	void (*on_line)(void *arg, const char *line);
	void *line_arg;
	/* out */
	struct fsp_vm_tail console, err;
	char line[256];		/* the console line being read */
	size_t line_len;
	int status, timed_out;	/* qemu's wait status; the deadline hit */
	long long ms;		/* qemu start to exit */
};

/*
 * Boot kernel and initrd under qemu, the guest's second serial port to
 * the file result, until qemu exits, timeout_s pass or *stop is set.
 * 0 when qemu ran (see status, timed_out), -errno when it could not.
 */
int fsp_vm_boot(struct fsp_vm_boot *b);

struct fsp_res_doc;
/* The document between this boot's markers; *rc the guest's exit. */
struct fsp_res_doc *fsp_vm_extract(const char *path, const char *nonce,
				   int *rc, char *why, size_t len);
/* The "vm" object: how the guest was booted, its fsprobe's exit. */
void fsp_vm_add_info(struct fsp_res_doc *doc, const struct fsp_vm_boot *b,
		     const char *initrd, int rc);

/* --- vm_console.c: splats on the guest's console -------------------- */

/*
 * Count the console lines of text that show a kernel splat (panic,
 * Oops, BUG:, WARNING: ..., fsprobe/kmsg.c's list; the guest fsprobe's
 * own "fsprobe: " lines never count); buf gets the excerpt from the
 * first of them on (40 lines at most, control bytes made spaces).
 */
int fsp_vm_console_splats(const char *text, size_t len, char *buf,
			  size_t buflen);
/* Every profile of doc becomes `error`: the excerpt's first line is
 * the reason, the excerpt is appended to its kernel_log. */
void fsp_vm_console_mark(struct fsp_res_doc *doc, const char *excerpt);

/* Content hash (FNV-1a 64) helpers shared with vm_modules.c. */
#define FSP_VM_HASH_INIT 0xcbf29ce484222325ULL
uint64_t fsp_vm_hash(uint64_t h, const void *buf, size_t len);
int fsp_vm_hash_file(uint64_t *h, const char *path);

#endif
