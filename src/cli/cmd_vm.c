// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_vm.c - `fsprobe vm`: the same matrix on a kernel that is not
 * running here. It packs this fsprobe, its payloads and profiles, the
 * host's mkfs tools and the guest kernel's modules into an initramfs
 * (cached by content hash), boots it under qemu TCG (this host's
 * /dev/kvm is PVM and cannot run stock kernels), lets the guest's /init
 * run `fsprobe run -f json` and write the document to a second serial
 * port, so kernel messages on the console can never corrupt it, and
 * renders it here with the same renderers as a local run. The run
 * options go in a small per-boot cpio appended to the cached archive,
 * so changing -p never rebuilds the big one. qemu dies with us
 * (PR_SET_PDEATHSIG), on --timeout and on INT/TERM/HUP; the temporary
 * directory goes in every case.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mkfs.h"
#include "report.h"
#include "util.h"
#include "vm.h"

/*
 * Against a hung guest, not a slow one: the whole matrix (22 profiles,
 * every probe) under TCG took ~10 min on this project's 2 shared vCPUs.
 */
#define DEFAULT_TIMEOUT_S 1800
#define QEMU FSP_VM_QEMU
/*
 * One host thread for all vCPUs. With thread=multi, Debian's 6.12 guest
 * died in 2 of 4 full runs with "Oops: int3" in __filemap_add_folio, RIP
 * inside a jmp: by the look of it a vCPU ran into the int3 of a
 * tracepoint static key the other vCPU was patching (read-order turns
 * mm_filemap_add_to_page_cache on and off while a neighbouring profile
 * faults pages in). Cross-modifying code is where multi-threaded TCG is
 * weakest; with one thread the guest keeps its 2 CPUs, interleaved.
 */
#define DEFAULT_ACCEL FSP_VM_ACCEL
/* >= 1 GiB: below 512 MiB the guest kernel turns THP off by default. */
#define GUEST_MEM "2G"
#define TAIL_MAX (256 * 1024)
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

/*
 * The release from a bzImage's setup header (boot protocol 2.00+:
 * "HdrS" at 0x202, kernel_version at 0x200 + the u16 at 0x20e). Also
 * tells a kernel image from a mistyped path.
 */
static int bzimage_release(const char *path, char *rel, size_t len)
{
	unsigned char buf[32768];
	unsigned int off;
	ssize_t n;
	size_t i;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	if (n < 0x210 || memcmp(buf + 0x202, "HdrS", 4))
		return -ENOEXEC;
	buf[n] = '\0';
	off = (buf[0x20e] | buf[0x20f] << 8) + 0x200;
	if (off < 0x200 + 1 || off >= (size_t)n) {
		rel[0] = '\0';
		return 0;
	}
	for (i = 0; i + 1 < len && buf[off + i] > ' '; i++)
		rel[i] = buf[off + i];
	rel[i] = '\0';
	return 0;
}

/* qemu's option syntax: a comma in a value is written twice. */
static int qemu_escape(char *dst, size_t len, const char *prefix,
		       const char *val)
{
	size_t o;

	if (fsp_strcpy(dst, len, prefix))
		return -ENAMETOOLONG;
	for (o = strlen(dst); *val; val++) {
		if (o + 3 > len)
			return -ENAMETOOLONG;
		if (*val == ',')
			dst[o++] = ',';
		dst[o++] = *val;
	}
	dst[o] = '\0';
	return 0;
}

struct tail {
	char buf[TAIL_MAX + 1];
	size_t len;
};

static void tail_add(struct tail *t, const char *s, size_t n)
{
	if (n > TAIL_MAX) {
		s += n - TAIL_MAX;
		n = TAIL_MAX;
	}
	if (t->len + n > TAIL_MAX) {
		size_t drop = t->len + n - TAIL_MAX;

		memmove(t->buf, t->buf + drop, t->len - drop);
		t->len -= drop;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* The last lines of what qemu said, \r dropped, for the user. */
static void tail_show(const char *what, struct tail *t)
{
	char *s = t->buf, *p;
	int lines = 0;

	for (p = s; *p; p++)
		if (*p == '\r')
			*p = ' ';
	for (p = s + t->len; p > s; p--)
		if (p[-1] == '\n' && p != s + t->len && ++lines == TAIL_LINES)
			break;
	if (!*p)
		return;
	fprintf(stderr, "--- %s (last lines) ---\n%s%s", what, p,
		t->len && s[t->len - 1] != '\n' ? "\n" : "");
}

/* An oops is longer than the lines shown: keep the rest for the user. */
static void save_console(const char *cache, const struct tail *t)
{
	char path[PATH_MAX];
	int fd, ret;

	if (fsp_fmt(path, sizeof(path), "%s/last-console.log", cache))
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	ret = fsp_write_all(fd, t->buf, t->len);
	if (!close(fd) && !ret)
		fprintf(stderr, "fsprobe vm: the console's last %zu kB are in "
			"%s\n", t->len / 1024, path);
}

/* TERM, a moment to go, then KILL: qemu flushes its files on TERM. */
static void stop(pid_t pid, int *status)
{
	long long deadline = fsp_now_ms() + 3000;

	kill(pid, SIGTERM);
	while (fsp_now_ms() < deadline) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return;
		usleep(50000);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

struct boot {
	const char *kernel, *deb, *initrd, *result, *accel;
	int timeout_s, verbose;
	struct tail console, err;
	int status, timed_out;
	long long ms;
};

static int boot(struct boot *b)
{
	char chardev[PATH_MAX + 64], *argv[40];
	int out[2], err[2], n = 0, ret;
	long long t0 = fsp_now_ms(), deadline;
	const char *qemu = getenv("FSPROBE_QEMU");
	pid_t pid;

	ret = qemu_escape(chardev, sizeof(chardev), "file,id=fspres,path=",
			  b->result);
	if (ret)
		return ret;
	argv[n++] = (char *)(qemu && *qemu ? qemu : QEMU);
	argv[n++] = "-accel";
	argv[n++] = (char *)b->accel;
	argv[n++] = "-cpu";
	argv[n++] = "max";
	argv[n++] = "-m";
	argv[n++] = GUEST_MEM;
	argv[n++] = "-smp";
	argv[n++] = "2";
	argv[n++] = "-nographic";
	argv[n++] = "-no-reboot";
	argv[n++] = "-nic";	/* no NIC: no iPXE ROM to load either */
	argv[n++] = "none";
	argv[n++] = "-monitor";
	argv[n++] = "none";
	argv[n++] = "-serial";
	argv[n++] = "stdio";
	argv[n++] = "-chardev";
	argv[n++] = chardev;
	argv[n++] = "-serial";
	argv[n++] = "chardev:fspres";
	argv[n++] = "-kernel";
	argv[n++] = (char *)b->kernel;
	argv[n++] = "-initrd";
	argv[n++] = (char *)b->initrd;
	argv[n++] = "-append";
	argv[n++] = "console=ttyS0 panic=-1 quiet";
	argv[n] = NULL;

	if (pipe2(out, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		ret = -errno;
		close(out[0]);
		close(out[1]);
		return ret;
	}
	ret = fsp_vm_start(argv, -1, out[1], err[1], &pid);
	close(out[1]);
	close(err[1]);
	if (ret) {
		close(out[0]);
		close(err[0]);
		return ret;
	}
	deadline = t0 + (long long)b->timeout_s * 1000;
	b->status = -1;
	while (out[0] >= 0 || err[0] >= 0) {
		struct pollfd pf[2] = { { .fd = out[0], .events = POLLIN },
					{ .fd = err[0], .events = POLLIN } };
		long long left = deadline - fsp_now_ms();
		char buf[8192];
		int i;

		if (got_signal)
			break;
		if (left <= 0) {
			b->timed_out = 1;
			break;
		}
		if (poll(pf, 2, left > 1000 ? 1000 : (int)left) <= 0)
			continue;
		for (i = 0; i < 2; i++) {
			ssize_t r;

			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			r = read(pf[i].fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(pf[i].fd);
				*(i ? &err[0] : &out[0]) = -1;
				continue;
			}
			tail_add(i ? &b->err : &b->console, buf, r);
			if (b->verbose)
				fsp_write_all(2, buf, r);
		}
	}
	if (out[0] >= 0 || err[0] >= 0)
		stop(pid, &b->status);
	else
		while (waitpid(pid, &b->status, 0) < 0 && errno == EINTR)
			;
	if (out[0] >= 0)
		close(out[0]);
	if (err[0] >= 0)
		close(err[0]);
	b->ms = fsp_now_ms() - t0;
	return 0;
}

/* The document between this boot's markers; *rc the guest's exit. */
static struct json_object *extract(const char *path, const char *nonce,
				   int *rc, char *why, size_t len)
{
	char begin[128], end[128], *text, *s, *e, *p;
	struct json_object *doc;
	enum json_tokener_error jerr;
	size_t n;

	snprintf(begin, sizeof(begin), FSP_VM_MARK "-BEGIN %s\n", nonce);
	snprintf(end, sizeof(end), "\n" FSP_VM_MARK "-END %s rc=", nonce);
	if (fsp_slurp(path, &text, &n)) {
		snprintf(why, len, "the guest wrote no result");
		return NULL;
	}
	/* A tty may still add \r; JSON never needs one. */
	for (s = p = text; *s; s++)
		if (*s != '\r')
			*p++ = *s;
	*p = '\0';
	s = strstr(text, begin);
	e = s ? strstr(s, end) : NULL;
	if (!s || !e) {
		snprintf(why, len, s ? "the guest's result is truncated" :
			 "the guest wrote no result");
		free(text);
		return NULL;
	}
	*rc = atoi(e + strlen(end));
	*e = '\0';
	doc = json_tokener_parse_verbose(s + strlen(begin), &jerr);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		/* No document and a status: its stderr is on the console. */
		if (*rc)
			snprintf(why, len, "the guest's fsprobe exited %d "
				 "without a result", *rc);
		else
			snprintf(why, len, "the guest's result is not JSON: "
				 "%s", json_tokener_error_desc(jerr));
		json_object_put(doc);
		doc = NULL;
	}
	free(text);
	return doc;
}

static void add_vm_info(struct json_object *doc, const struct boot *b,
			const char *initrd, int rc)
{
	struct json_object *vm = json_object_new_object();

	json_object_object_add(vm, "kernel_image",
			       json_object_new_string(b->kernel));
	json_object_object_add(vm, "deb", b->deb ?
			       json_object_new_string(b->deb) : NULL);
	json_object_object_add(vm, "initramfs", json_object_new_string(initrd));
	json_object_object_add(vm, "accel", json_object_new_string(b->accel));
	json_object_object_add(vm, "memory", json_object_new_string(GUEST_MEM));
	json_object_object_add(vm, "qemu_ms", json_object_new_int64(b->ms));
	json_object_object_add(vm, "guest_exit", json_object_new_int(rc));
	json_object_object_add(doc, "vm", vm);
}

/*
 * Check what the user gave before anything slow happens. -p and -P are
 * resolved as `run` would, against the profiles the guest gets, so a
 * typo is a usage error here and not a guest's exit 2 a minute later.
 */
static int check_inputs(struct fsp_cli *cli, char *release, size_t len)
{
	const char *qemu = getenv("FSPROBE_QEMU");
	struct fsp_profile *profs = NULL;
	struct fsp_run_opts o;
	char path[PATH_MAX];
	int ret, nr = 0;

	if (!cli->kernel && !cli->deb)
		return fsp_usage_error("vm needs --kernel VMLINUZ or --deb "
				       "PKG.deb");
	if (cli->deb && cli->modules)
		return fsp_usage_error("--deb brings its own modules: give "
				       "--deb or --modules, not both");
	ret = fsp_select_cases(cli, &o);
	if (!ret)
		ret = fsp_select_profiles(cli, &profs, &nr);
	if (ret)
		return ret;
	fsp_profile_free_all(profs, nr);
	if (cli->deb && access(cli->deb, R_OK)) {
		fsp_warn("--deb %s: %s", cli->deb, strerror(errno));
		return FSP_EXIT_USAGE;
	}
	if (cli->modules && access(cli->modules, R_OK | X_OK)) {
		fsp_warn("--modules %s: %s", cli->modules, strerror(errno));
		return FSP_EXIT_USAGE;
	}
	release[0] = '\0';
	ret = cli->kernel ? bzimage_release(cli->kernel, release, len) : 0;
	if (ret) {
		fsp_warn("--kernel %s: %s", cli->kernel, ret == -ENOEXEC ?
			 "not an x86 kernel image (bzImage)" : strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	if (!qemu || !*qemu)
		qemu = QEMU;
	if (fsp_tool_find(qemu, path, sizeof(path))) {
		fsp_warn("%s not found: install qemu-system-x86 "
			 "(./bootstrap-deps --vm)", qemu);
		return FSP_EXIT_USAGE;
	}
	return 0;
}

/*
 * A config next to a bare --kernel: Debian's /boot/config-KVER beside
 * /boot/vmlinuz-KVER, or the "config" contrib/kernel-with-ro-thp.sh puts
 * beside its bzImage. The guest reads it where there is no config.gz.
 */
static void kernel_config(const char *kernel, const char *release,
			  char *buf, size_t len)
{
	char dir[PATH_MAX], *slash;

	if (fsp_strcpy(dir, sizeof(dir), kernel))
		return;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		fsp_strcpy(dir, sizeof(dir), ".");
	if (release[0] && !fsp_fmt(buf, len, "%s/config-%s", dir, release) &&
	    !access(buf, R_OK))
		return;
	if (!fsp_fmt(buf, len, "%s/config", dir) && !access(buf, R_OK))
		return;
	buf[0] = '\0';
}

static int make_nonce(char *buf, size_t len)
{
	unsigned long long v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		v = (unsigned long long)fsp_now_ms() ^
		    ((unsigned long long)getpid() << 32);
	if (fd >= 0)
		close(fd);
	return fsp_fmt(buf, len, "%016llx", v);
}

static int run_vm(struct fsp_cli *cli, struct fsp_vm_mods *m,
		  const char *release, const char *tmp)
{
	char cache[PATH_MAX], base[PATH_MAX], initrd[PATH_MAX];
	char result[PATH_MAX], nonce[32], why[512];
	struct fsp_vm_guest_in in = {
		.profile_dir = fsp_profile_dir(),
		.payload_dir = fsp_payload_dir(),
		.profiles = cli->profiles, .nr_profiles = cli->nr_profiles,
	};
	struct fsp_vm_img img, args;
	struct json_object *doc;
	struct boot *b;
	long long t0;
	int hit, ret, rc = -1;

	ret = fsp_vm_cache_dir(cache, sizeof(cache));
	if (ret) {
		fsp_warn("no cache directory for the initramfs: %s (set "
			 "FSPROBE_CACHE_DIR)", strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	fsp_vm_img_init(&img);
	fsp_vm_img_init(&args);
	t0 = fsp_now_ms();
	ret = fsp_vm_guest_base(&img, &in, m, release);
	if (!ret)
		ret = fsp_vm_img_build(&img, cache, base, sizeof(base), &hit);
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
	if (make_nonce(nonce, sizeof(nonce)) ||
	    fsp_fmt(initrd, sizeof(initrd), "%s/initrd", tmp) ||
	    fsp_fmt(result, sizeof(result), "%s/result", tmp))
		return FSP_EXIT_USAGE;
	ret = guest_args(&args, cli, nonce);
	if (!ret)
		ret = fsp_vm_guest_initrd(base, &args, initrd);
	if (ret) {
		fsp_warn("per-boot initramfs: %s", args.why[0] ? args.why :
			 ret == -EINVAL ? "an argument contains a newline" :
			 strerror(-ret));
		fsp_vm_img_free(&args);
		return FSP_EXIT_USAGE;
	}
	fsp_vm_img_free(&args);
	if (got_signal)
		return 128 + got_signal;

	b = calloc(1, sizeof(*b));
	if (!b)
		return FSP_EXIT_USAGE;
	b->kernel = cli->kernel ? cli->kernel : m->kernel;
	b->deb = cli->deb;
	b->accel = getenv("FSPROBE_VM_ACCEL");
	if (!b->accel || !*b->accel)
		b->accel = DEFAULT_ACCEL;
	b->initrd = initrd;
	b->result = result;
	b->timeout_s = cli->timeout_s ? (int)cli->timeout_s :
		       DEFAULT_TIMEOUT_S;
	b->verbose = cli->verbose;
	if (chatty(cli))
		fprintf(stderr, "fsprobe vm: booting %s (%s), -accel %s -m %s "
			"-smp 2, timeout %d s\n", b->kernel,
			release[0] ? release : m->kver[0] ? m->kver : "?",
			b->accel, GUEST_MEM, b->timeout_s);
	ret = boot(b);
	if (ret) {
		fsp_warn("cannot start qemu: %s", strerror(-ret));
		free(b);
		return FSP_EXIT_USAGE;
	}
	if (got_signal) {
		free(b);
		return 128 + got_signal;
	}
	doc = b->timed_out ? NULL :
	      extract(result, nonce, &rc, why, sizeof(why));
	if (!doc) {
		if (b->timed_out)
			fsp_warn("the guest did not finish within %d s "
				 "(--timeout); qemu stopped", b->timeout_s);
		else
			fsp_warn("%s (qemu exit %d after %.1f s)", why,
				 WIFEXITED(b->status) ?
				 WEXITSTATUS(b->status) : 128 +
				 WTERMSIG(b->status), b->ms / 1000.0);
		tail_show("guest console", &b->console);
		tail_show("qemu stderr", &b->err);
		save_console(cache, &b->console);
		free(b);
		return FSP_EXIT_USAGE;
	}
	if (chatty(cli))
		fprintf(stderr, "fsprobe vm: guest %s ran the matrix in %.1f s "
			"(qemu start to exit), guest fsprobe exit %d\n",
			fsp_json_get_str(doc, "kernel", "?"), b->ms / 1000.0,
			rc);
	add_vm_info(doc, b, base, rc);
	free(b);
	ret = fsp_render(cli, doc);
	if (!ret)
		ret = fsp_doc_exit_status(doc);
	json_object_put(doc);
	return ret;
}

int fsp_cmd_vm(struct fsp_cli *cli)
{
	char release[256], why[512], tmp[PATH_MAX];
	struct fsp_vm_mods m;
	int ret;

	ret = check_inputs(cli, release, sizeof(release));
	if (ret)
		return ret;
	fsp_set_signals(on_signal);
	memset(&m, 0, sizeof(m));
	if (cli->deb || cli->modules) {
		ret = fsp_vm_mods_prepare(cli->deb, cli->modules, cli->verbose,
					  &m, why, sizeof(why));
		if (ret) {
			fsp_vm_mods_release(&m);
			fsp_set_signals(SIG_DFL);
			if (got_signal)
				return 128 + got_signal;
			fsp_warn("%s", why[0] ? why : strerror(-ret));
			return FSP_EXIT_USAGE;
		}
		if (release[0] && strcmp(release, m.kver)) {
			fsp_warn("the modules are for %s but --kernel %s is "
				 "%s", m.kver, cli->kernel, release);
			fsp_vm_mods_release(&m);
			fsp_set_signals(SIG_DFL);
			return FSP_EXIT_USAGE;
		}
		if (!release[0])
			fsp_strcpy(release, sizeof(release), m.kver);
	}
	if (!m.config[0] && cli->kernel)
		kernel_config(cli->kernel, release, m.config,
			      sizeof(m.config));
	ret = fsp_vm_mkdtemp("fsprobe-vm", tmp, sizeof(tmp));
	if (ret) {
		fsp_warn("temporary directory: %s", strerror(-ret));
		ret = FSP_EXIT_USAGE;
	} else {
		ret = run_vm(cli, &m, release, tmp);
		fsp_rmtree(tmp);
	}
	fsp_vm_mods_release(&m);
	fsp_set_signals(SIG_DFL);
	if (got_signal)
		ret = 128 + got_signal;
	return ret;
}
