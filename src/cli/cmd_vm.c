// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_vm.c - `fsprobe vm`: the same matrix on a kernel that is not
 * running here. It checks what the user gave, has src/vm pack this
 * fsprobe, its payloads and profiles, the host's mkfs tools and the
 * guest kernel's modules into an initramfs (cached by content hash),
 * boot it under qemu (src/vm/qemu.c) and bring back the document the
 * guest's `fsprobe run -f json` wrote, and renders it here with the same
 * renderers as a local run. The run options (those the option table
 * marks) go in a small per-boot cpio appended to the cached archive, so
 * changing -p never rebuilds the big one. qemu stops on --timeout and on
 * INT/TERM/HUP; the temporary directory goes in every case.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"
#include "proc.h"
#include "report.h"
#include "util.h"
#include "vm.h"

/*
 * Against a hung guest, not a slow one: the whole matrix (22 profiles,
 * every probe) under TCG took ~10 min on this project's 2 shared vCPUs.
 */
#define DEFAULT_TIMEOUT_S 1800
#define TAIL_LINES 30

static volatile sig_atomic_t got_signal;

static int add_arg(char **buf, size_t *len, const char *a)
{
	size_t l = strlen(a);
	char *nb;

	if (strchr(a, '\n'))
		return -EINVAL;
	nb = realloc(*buf, *len + l + 2);
	if (!nb)
		return -ENOMEM;
	memcpy(nb + *len, a, l);
	nb[*len + l] = '\n';
	*len += l + 1;
	nb[*len] = '\0';
	*buf = nb;
	return 0;
}

struct guest_argv {
	struct fsp_vm_img *img;
	char *buf;
	size_t len;
};

/* One run option for the guest's argv; a -p file is copied in. */
static int guest_arg(void *ctx, const char *opt, const char *val, int k)
{
	struct guest_argv *g = ctx;
	const char *base;
	char dst[PATH_MAX];
	int ret;

	ret = add_arg(&g->buf, &g->len, opt);
	if (ret || !val)
		return ret;
	if (strcmp(opt, "-p") || !fsp_vm_is_profile_path(val))
		return add_arg(&g->buf, &g->len, val);
	base = strrchr(val, '/') ? strrchr(val, '/') + 1 : val;
	if (fsp_fmt(dst, sizeof(dst), "etc/fsprobe/p%d/%s", k, base))
		return -ENAMETOOLONG;
	ret = fsp_vm_img_file(g->img, dst, val, 0644);
	if (!ret && fsp_fmt(dst, sizeof(dst), "/etc/fsprobe/p%d/%s", k, base))
		ret = -ENAMETOOLONG;
	return ret ? ret : add_arg(&g->buf, &g->len, dst);
}

/* The run options as the guest's fsprobe takes them (the option table
 * says which), one a line, and this boot's nonce. */
static int guest_args(struct fsp_vm_img *img, const struct fsp_cli *cli,
		      const char *nonce)
{
	struct guest_argv g = { .img = img };
	int ret;

	ret = fsp_cli_guest_args(cli, guest_arg, &g);
	if (!ret)
		ret = fsp_vm_img_data(img, "etc/fsprobe/vm-args",
				      g.buf ? g.buf : "", g.len, 0644);
	if (!ret)
		ret = fsp_vm_img_data(img, "etc/fsprobe/vm-nonce", nonce,
				      strlen(nonce), 0644);
	if (!ret && cli->kill_after_s) {
		char kill[32];

		snprintf(kill, sizeof(kill), "%lu\n", cli->kill_after_s);
		ret = fsp_vm_img_data(img, "etc/fsprobe/vm-kill-after", kill,
				      strlen(kill), 0644);
	}
	free(g.buf);
	return ret;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

static int chatty(const struct fsp_cli *cli)
{
	return cli->verbose || isatty(2);
}

/* The last lines of what qemu said, for the user. */
static void tail_show(const char *what, struct fsp_vm_tail *t)
{
	const char *p = fsp_vm_tail_last(t, TAIL_LINES);

	if (!p)
		return;
	fprintf(stderr, "--- %s (last lines) ---\n%s%s", what, p,
		t->len && t->buf[t->len - 1] != '\n' ? "\n" : "");
}

/* An oops is longer than the lines shown: keep the rest for the user. */
static void save_console(const char *cache, const struct fsp_vm_tail *t)
{
	char path[PATH_MAX];

	if (!fsp_vm_save_console(cache, t, path, sizeof(path)))
		fprintf(stderr, "fsprobe vm: the console's last %zu kB are in "
			"%s\n", t->len / 1024, path);
}

/*
 * The guest kernel as the user gave it: -k/--kernel SPEC (vm_kernel.c
 * says what it names), --modules DIR, --deb PKG.deb (repeatable).
 */
struct kspec {
	const char *image;	/* a bzImage; NULL: the one in the debs */
	const char *modules;	/* a modules tree, or NULL */
	const char *debs[FSP_VM_MAX_DEBS];
	int nr_debs;
	const char *debian;	/* debian:VERSION's VERSION, or NULL */
	char *fetched[FSP_VM_MAX_DEBS];	/* what apt brought */
	int nr_fetched;
	struct fsp_vm_layout tree;	/* a directory SPEC's parts */
};

static int kernel_spec(struct fsp_cli *cli, struct kspec *k)
{
	const char *s = cli->kernel;
	char why[512];
	int i, kind = s ? fsp_vm_spec_kind(s) : -1;

	if (!s && !cli->nr_debs)
		return fsp_usage_error("vm needs --kernel VMLINUZ or --deb "
				       "PKG.deb (or -k DIR, -k PKG.deb, "
				       "-k debian:VERSION)");
	if (cli->nr_debs && cli->modules)
		return fsp_usage_error("--deb brings its own modules: give "
				       "--deb or --modules, not both");
	if (kind != FSP_VM_SPEC_IMAGE && kind != -1 &&
	    (cli->modules || (cli->nr_debs && kind != FSP_VM_SPEC_DEB)))
		return fsp_usage_error("--kernel %s brings its own modules: "
				       "no --modules or --deb with it", s);
	for (i = 0; i < cli->nr_debs; i++)
		k->debs[k->nr_debs++] = cli->debs[i];
	k->modules = cli->modules;
	if (kind == FSP_VM_SPEC_IMAGE)
		k->image = s;
	else if (kind == FSP_VM_SPEC_DEB && k->nr_debs < FSP_VM_MAX_DEBS)
		k->debs[k->nr_debs++] = s;
	else if (kind == FSP_VM_SPEC_DEB)
		return fsp_usage_error("too many .debs");
	else if (kind == FSP_VM_SPEC_DEBIAN)
		k->debian = s + strlen(FSP_VM_DEBIAN);
	/* Before anything slow or host-dependent (qemu, apt) is looked at. */
	if (k->debian && !fsp_vm_debian_version_valid(k->debian))
		return fsp_usage_error("--kernel debian:%s: not a kernel "
				       "version (such as 6.12, 6.1.0-57-amd64,"
				       " 7.2.13+deb14-amd64)", k->debian);
	if (kind != FSP_VM_SPEC_TREE)
		return 0;
	if (fsp_vm_find_layout(s, &k->tree, why, sizeof(why))) {
		fsp_warn("--kernel %s", why);
		return FSP_EXIT_USAGE;
	}
	k->image = k->tree.kernel;
	k->modules = k->tree.modules[0] ? k->tree.modules : NULL;
	return 0;
}

/* debian:VERSION: its .debs from the cache, else from apt. */
static int kernel_fetch(struct fsp_cli *cli, struct kspec *k)
{
	char why[512];
	int i, ret;

	if (!k->debian)
		return 0;
	ret = fsp_vm_apt_fetch(k->debian, 0, k->fetched,
			       &k->nr_fetched, why, sizeof(why));
	if (ret) {
		fsp_warn("--kernel debian:%s: %s", k->debian,
			 why[0] ? why : strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	for (i = 0; i < k->nr_fetched; i++)
		k->debs[k->nr_debs++] = k->fetched[i];
	return 0;
}

static void kernel_free(struct kspec *k)
{
	while (k->nr_fetched > 0)
		free(k->fetched[--k->nr_fetched]);
}

/*
 * Check what the user gave before anything slow happens. -p and -P are
 * resolved as `run` would, against the profiles the guest gets, so a
 * typo is a usage error here and not a guest's exit 2 a minute later.
 */
static int check_inputs(struct fsp_cli *cli, struct kspec *k, char *release,
			size_t len)
{
	const char *qemu = fsp_vm_qemu();
	struct fsp_profile *profs = NULL;
	struct fsp_run_opts o;
	char path[PATH_MAX];
	int ret, i, nr = 0;

	ret = kernel_spec(cli, k);
	if (ret)
		return ret;
	ret = fsp_select_cases(cli, &o);
	if (!ret)
		ret = fsp_select_profiles(cli, &profs, &nr);
	if (ret)
		return ret;
	fsp_profile_free_all(profs, nr);
	for (i = 0; i < k->nr_debs; i++)
		if (access(k->debs[i], R_OK)) {
			fsp_warn("--deb %s: %s", k->debs[i], strerror(errno));
			return FSP_EXIT_USAGE;
		}
	if (k->modules && access(k->modules, R_OK | X_OK)) {
		fsp_warn("--modules %s: %s", k->modules, strerror(errno));
		return FSP_EXIT_USAGE;
	}
	release[0] = '\0';
	ret = k->image ? fsp_vm_bzimage_release(k->image, release, len) : 0;
	if (ret) {
		fsp_warn("--kernel %s: %s", k->image, ret == -ENOEXEC ?
			 "not an x86 kernel image (bzImage)" : strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	if (fsp_proc_find(qemu, path, sizeof(path))) {
		fsp_warn("%s not found: install qemu-system-x86 "
			 "(./bootstrap-deps --vm)", qemu);
		return FSP_EXIT_USAGE;
	}
	return 0;
}

/*
 * The boot's initrd in tmp: the cached base archive (built if need be;
 * base gets its path) and this boot's run options and nonce.
 */
static int make_initrd(struct fsp_cli *cli, struct fsp_vm_mods *m,
		       const char *release, const char *cache,
		       const char *nonce, char *base, char *initrd)
{
	struct fsp_vm_guest_in in = {
		.profile_dir = fsp_profile_dir(),
		.payload_dir = fsp_payload_dir(),
		.profiles = cli->profiles, .nr_profiles = cli->nr_profiles,
	};
	struct fsp_vm_img img, args;
	long long t0 = fsp_now_ms();
	int hit, ret;

	fsp_vm_img_init(&img);
	fsp_vm_img_init(&args);
	ret = fsp_vm_guest_base(&img, &in, m, release);
	if (!ret)
		ret = fsp_vm_img_build(&img, cache, base, PATH_MAX, &hit);
	if (ret) {
		fsp_warn("building the initramfs: %s", img.why[0] ? img.why :
			 strerror(-ret));
		fsp_vm_img_free(&img);
		return FSP_EXIT_USAGE;
	}
	if (chatty(cli))
		fprintf(stderr, "fsprobe vm: initramfs %s (%s, %zu files, "
			"%.1f s)\n", base, hit ? "cached" : "built", img.nr,
			(fsp_now_ms() - t0) / 1000.0);
	fsp_vm_img_free(&img);
	ret = guest_args(&args, cli, nonce);
	if (!ret)
		ret = fsp_vm_guest_initrd(base, &args, initrd);
	if (ret)
		fsp_warn("per-boot initramfs: %s", args.why[0] ? args.why :
			 ret == -EINVAL ? "an argument contains a newline" :
			 strerror(-ret));
	fsp_vm_img_free(&args);
	return ret ? FSP_EXIT_USAGE : 0;
}

/* The console's splats (vm_console.c) into out->log; their number. */
static int console_splats(struct fsp_vm_boot *b, struct fsp_vm_out *out)
{
	int n = fsp_vm_console_splats(b->console.buf, b->console.len,
				      out->log, sizeof(out->log));

	if (n)
		fsp_warn("the guest kernel's console shows %d splat line%s, "
			 "from: %.*s", n, n == 1 ? "" : "s",
			 (int)strcspn(out->log, "\n"), out->log);
	return n;
}

/* The guest's document, or why there is none (and what qemu said). */
static struct fsp_res_doc *result_doc(struct fsp_vm_boot *b,
				      const char *cache, const char *nonce,
				      int *rc, struct fsp_vm_out *out)
{
	struct fsp_res_doc *doc;
	char *why = out->why;
	size_t len = sizeof(out->why);

	doc = b->timed_out ? NULL :
	      fsp_vm_extract(b->result, nonce, rc, why, len);
	if (console_splats(b, out) && doc)
		fsp_vm_console_mark(doc, out->log);
	if (doc)
		return doc;
	if (b->timed_out)
		snprintf(why, len, "the guest did not finish within %d s "
			 "(--timeout); qemu stopped", b->timeout_s);
	else
		snprintf(out->why + strlen(why), len - strlen(why),
			 " (qemu exit %d after %.1f s)",
			 WIFEXITED(b->status) ? WEXITSTATUS(b->status) :
			 128 + WTERMSIG(b->status), b->ms / 1000.0);
	fsp_warn("%s", why);
	if (!out->log[0])
		fsp_strcpy(out->log, sizeof(out->log),
			   fsp_vm_tail_last(&b->console, TAIL_LINES) ?: "");
	tail_show("guest console", &b->console);
	tail_show("qemu stderr", &b->err);
	save_console(cache, &b->console);
	return NULL;
}

/* The guest's progress lines as the host's status line. */
static void guest_line(void *arg, const char *line)
{
	if (!strncmp(line, "fsprobe: ", 9) ||
	    !strncmp(line, "fsprobe-vm: ", 12))
		fsp_progress(FSP_PROGRESS_STATUS, "vm %s: %s",
			     (const char *)arg, strchr(line, ' ') + 1);
}

/* Boot the guest; its document into out, 0, or the exit code. */
static int boot_doc(struct fsp_cli *cli, struct fsp_vm_boot *b,
		    const char *release, const char *cache,
		    const char *base, const char *nonce,
		    struct fsp_vm_out *out)
{
	struct fsp_res_doc *doc;
	int ret, rc = -1;

	if (chatty(cli))
		fprintf(stderr, "fsprobe vm: booting %s (%s), -accel %s -m %s "
			"-smp 2, timeout %d s\n", b->kernel, release, b->accel,
			FSP_VM_MEM, b->timeout_s);
	if (fsp_progress_mode(cli->verbose) == FSP_PROGRESS_STATUS) {
		b->on_line = guest_line;
		b->line_arg = (void *)release;
	}
	ret = fsp_vm_boot(b);
	fsp_progress_clear();
	if (ret) {
		snprintf(out->why, sizeof(out->why), "cannot start qemu: %s",
			 strerror(-ret));
		fsp_warn("%s", out->why);
		return FSP_EXIT_USAGE;
	}
	if (got_signal)
		return 128 + got_signal;
	doc = result_doc(b, cache, nonce, &rc, out);
	if (!doc)
		return FSP_EXIT_USAGE;
	if (chatty(cli))
		fprintf(stderr, "fsprobe vm: guest %s ran the matrix in %.1f s "
			"(qemu start to exit), guest fsprobe exit %d\n",
			doc->kernel ? doc->kernel : "?", b->ms / 1000.0,
			rc);
	fsp_vm_add_info(doc, b, base, rc);
	out->doc = doc;
	return 0;
}

static int run_vm(struct fsp_cli *cli, const struct kspec *k,
		  struct fsp_vm_mods *m, const char *release, const char *tmp,
		  struct fsp_vm_out *out)
{
	char cache[PATH_MAX], base[PATH_MAX], initrd[PATH_MAX];
	char result[PATH_MAX], nonce[32];
	struct fsp_vm_boot *b;
	int ret;

	ret = fsp_vm_cache_dir(cache, sizeof(cache));
	if (ret) {
		fsp_warn("no cache directory for the initramfs: %s (set "
			 "FSPROBE_CACHE_DIR)", strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	if (fsp_vm_nonce(nonce, sizeof(nonce)) ||
	    fsp_fmt(initrd, sizeof(initrd), "%s/initrd", tmp) ||
	    fsp_fmt(result, sizeof(result), "%s/result", tmp))
		return FSP_EXIT_USAGE;
	ret = make_initrd(cli, m, release, cache, nonce, base, initrd);
	if (ret)
		return ret;
	if (got_signal)
		return 128 + got_signal;
	b = calloc(1, sizeof(*b));
	if (!b)
		return FSP_EXIT_USAGE;
	b->kernel = k->image ? k->image : m->kernel;
	b->deb = k->nr_debs ? k->debs[0] : NULL;
	b->accel = fsp_vm_accel();
	b->initrd = initrd;
	b->result = result;
	b->timeout_s = cli->timeout_s ? (int)cli->timeout_s :
		       DEFAULT_TIMEOUT_S;
	b->echo_fd = cli->verbose ? 2 : -1;
	b->stop = &got_signal;
	ret = boot_doc(cli, b, release[0] ? release :
		       m->kver[0] ? m->kver : "?", cache, base, nonce, out);
	free(b);
	return ret;
}

/* The modules (and kernel, config) of k into m; 0 or the exit code. */
static int prepare_mods(struct fsp_cli *cli, struct kspec *k,
			struct fsp_vm_mods *m, char *release, size_t len)
{
	char why[512], **wanted;
	int ret, nr_wanted;

	if (k->nr_debs || k->modules) {
		ret = fsp_vm_mods_wanted(fsp_profile_dir(),
					 (const char *const *)cli->profiles,
					 cli->nr_profiles, &wanted, &nr_wanted);
		if (ret) {
			fsp_warn("the modules the profiles need: %s",
				 strerror(-ret));
			return FSP_EXIT_USAGE;
		}
		ret = fsp_vm_mods_prepare(k->debs, k->nr_debs, k->modules,
					  wanted, nr_wanted, cli->verbose, m,
					  why, sizeof(why));
		/* m->wanted is only read while preparing. */
		fsp_vm_mods_wanted_free(wanted, nr_wanted);
		m->wanted = NULL;
		m->nr_wanted = 0;
		if (ret) {
			if (got_signal)
				return 128 + got_signal;
			fsp_warn("%s", why[0] ? why : strerror(-ret));
			return FSP_EXIT_USAGE;
		}
		if (release[0] && strcmp(release, m->kver)) {
			fsp_warn("the modules are for %s but --kernel %s is "
				 "%s", m->kver, k->image, release);
			return FSP_EXIT_USAGE;
		}
		if (!release[0])
			fsp_strcpy(release, len, m->kver);
	}
	if (k->tree.config[0])
		fsp_strcpy(m->config, sizeof(m->config), k->tree.config);
	if (!m->config[0] && k->image)
		fsp_vm_kernel_config(k->image, release, m->config,
				     sizeof(m->config));
	return 0;
}

int fsp_vm_doc(struct fsp_cli *cli, struct fsp_vm_out *out)
{
	char release[256], tmp[PATH_MAX];
	struct fsp_vm_mods m;
	struct kspec *k;
	int ret;

	memset(out, 0, sizeof(*out));
	k = calloc(1, sizeof(*k));
	if (!k)
		return FSP_EXIT_USAGE;
	memset(&m, 0, sizeof(m));
	ret = check_inputs(cli, k, release, sizeof(release));
	if (!ret)
		ret = kernel_fetch(cli, k);
	if (ret) {
		kernel_free(k);
		free(k);
		return ret;
	}
	fsp_set_signals(on_signal);
	ret = prepare_mods(cli, k, &m, release, sizeof(release));
	if (!ret) {
		fsp_strcpy(out->release, sizeof(out->release), release);
		ret = fsp_vm_mkdtemp("fsprobe-vm", tmp, sizeof(tmp));
		if (ret) {
			fsp_warn("temporary directory: %s", strerror(-ret));
			ret = FSP_EXIT_USAGE;
		} else {
			ret = run_vm(cli, k, &m, release, tmp, out);
			fsp_rmtree(tmp);
		}
	}
	fsp_vm_mods_release(&m);
	kernel_free(k);
	free(k);
	fsp_set_signals(SIG_DFL);
	if (got_signal)
		ret = 128 + got_signal;
	if (ret) {
		fsp_res_doc_free(out->doc);
		out->doc = NULL;
	}
	return ret;
}

int fsp_cmd_vm(struct fsp_cli *cli)
{
	struct fsp_vm_out *out;
	int ret;

	if (cli->nr_kernels > 1)
		return fsp_usage_error("vm takes one --kernel; `fsprobe matrix "
				       "-k A -k B` runs several");
	cli->kernel = cli->nr_kernels ? cli->kernels[0] : NULL;
	out = calloc(1, sizeof(*out));
	if (!out)
		return FSP_EXIT_USAGE;
	ret = fsp_vm_doc(cli, out);
	if (!ret) {
		ret = fsp_render(cli, out->doc);
		if (!ret)
			ret = fsp_doc_exit_status(out->doc);
	}
	fsp_res_doc_free(out->doc);
	free(out);
	return ret;
}
