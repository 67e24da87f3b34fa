// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qemu.c - booting `fsprobe vm`'s guest: the kernel image's release and
 * config, qemu's command line (TCG: this host's /dev/kvm is PVM and
 * cannot run stock kernels), the console and qemu's stderr kept as tails
 * for the user, and the document the guest writes between this boot's
 * markers on its second serial port, so kernel messages on the console
 * can never corrupt it. qemu dies with us (PR_SET_PDEATHSIG), at the
 * deadline and when the caller's stop flag is set. Library style: the
 * caller (cli/cmd_vm.c) talks to the user.
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
#include <json-c/json.h>

#include "proc.h"
#include "result.h"
#include "util.h"
#include "vm.h"

/*
 * The release from a bzImage's setup header (boot protocol 2.00+:
 * "HdrS" at 0x202, kernel_version at 0x200 + the u16 at 0x20e). Also
 * tells a kernel image from a mistyped path.
 */
int fsp_vm_bzimage_release(const char *path, char *rel, size_t len)
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


/*
 * A config next to a bare --kernel: Debian's /boot/config-KVER beside
 * /boot/vmlinuz-KVER, or the "config" contrib/kernel-with-ro-thp.sh puts
 * beside its bzImage. The guest reads it where there is no config.gz.
 */
void fsp_vm_kernel_config(const char *kernel, const char *release,
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

int fsp_vm_nonce(char *buf, size_t len)
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

static void tail_add(struct fsp_vm_tail *t, const char *s, size_t n)
{
	if (n > FSP_VM_TAIL_MAX) {
		s += n - FSP_VM_TAIL_MAX;
		n = FSP_VM_TAIL_MAX;
	}
	if (t->len + n > FSP_VM_TAIL_MAX) {
		size_t drop = t->len + n - FSP_VM_TAIL_MAX;

		memmove(t->buf, t->buf + drop, t->len - drop);
		t->len -= drop;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

const char *fsp_vm_tail_last(struct fsp_vm_tail *t, int lines)
{
	char *s = t->buf, *p;
	int n = 0;

	for (p = s; *p; p++)
		if (*p == '\r')
			*p = ' ';
	for (p = s + t->len; p > s; p--)
		if (p[-1] == '\n' && p != s + t->len && ++n == lines)
			break;
	return *p ? p : NULL;
}

int fsp_vm_save_console(const char *cache, const struct fsp_vm_tail *t,
			char *path, size_t len)
{
	int fd, ret;

	if (fsp_fmt(path, len, "%s/last-console.log", cache))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = fsp_write_all(fd, t->buf, t->len);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

const char *fsp_vm_qemu(void)
{
	const char *qemu = getenv("FSPROBE_QEMU");

	return qemu && *qemu ? qemu : FSP_VM_QEMU;
}

const char *fsp_vm_accel(void)
{
	const char *accel = getenv("FSPROBE_VM_ACCEL");

	return accel && *accel ? accel : FSP_VM_ACCEL;
}

/* qemu's command line: no NIC, the console on stdio, the result file. */
static int qemu_argv(const struct fsp_vm_boot *b, char *chardev, size_t len,
		     char **argv, size_t max)
{
	const char *v[] = {
		fsp_vm_qemu(), "-accel", b->accel, "-cpu", "max",
		"-m", FSP_VM_MEM, "-smp", "2", "-nographic", "-no-reboot",
		"-nic", "none",	/* no NIC: no iPXE ROM to load either */
		"-monitor", "none", "-serial", "stdio",
		"-chardev", chardev, "-serial", "chardev:fspres",
		"-kernel", b->kernel, "-initrd", b->initrd,
		"-append", "console=ttyS0 panic=-1 quiet", NULL,
	};
	int ret;

	ret = qemu_escape(chardev, len, "file,id=fspres,path=", b->result);
	if (ret)
		return ret;
	if (FSP_ARRAY_SIZE(v) > max)
		return -E2BIG;
	memcpy(argv, v, sizeof(v));
	return 0;
}

/* qemu with its stdout and stderr on pipes: fd[0], fd[1] read them. */
static int start(char **argv, int fd[2], pid_t *pid)
{
	int out[2], err[2], ret;

	if (pipe2(out, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		ret = -errno;
		close(out[0]);
		close(out[1]);
		return ret;
	}
	ret = fsp_proc_start(argv, -1, out[1], err[1], pid);
	close(out[1]);
	close(err[1]);
	if (ret) {
		close(out[0]);
		close(err[0]);
		return ret;
	}
	fd[0] = out[0];
	fd[1] = err[0];
	return 0;
}

/* Whole console lines to b->on_line; longer ones are cut. */
static void lines_add(struct fsp_vm_boot *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; b->on_line && i < n; i++) {
		if (s[i] == '\n') {
			b->line[b->line_len] = '\0';
			b->on_line(b->line_arg, b->line);
			b->line_len = 0;
		} else if (s[i] != '\r' && b->line_len < sizeof(b->line) - 1) {
			b->line[b->line_len++] = s[i];
		}
	}
}

/*
 * Read the console and qemu's stderr into their tails until both end,
 * the deadline passes (b->timed_out) or *b->stop is set; the fds still
 * open are left at >= 0.
 */
static void pump(struct fsp_vm_boot *b, int fd[2], long long deadline)
{
	while (fd[0] >= 0 || fd[1] >= 0) {
		struct pollfd pf[2] = { { .fd = fd[0], .events = POLLIN },
					{ .fd = fd[1], .events = POLLIN } };
		long long left = deadline - fsp_now_ms();
		char buf[8192];
		int i;

		if (b->stop && *b->stop)
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
				fd[i] = -1;
				continue;
			}
			tail_add(i ? &b->err : &b->console, buf, r);
			if (!i)
				lines_add(b, buf, r);
			if (b->echo_fd >= 0)
				fsp_write_all(b->echo_fd, buf, r);
		}
	}
}

int fsp_vm_boot(struct fsp_vm_boot *b)
{
	char chardev[PATH_MAX + 64], *argv[40];
	long long t0 = fsp_now_ms();
	int fd[2] = { -1, -1 }, ret;
	pid_t pid;

	ret = qemu_argv(b, chardev, sizeof(chardev), argv,
			FSP_ARRAY_SIZE(argv));
	if (!ret)
		ret = start(argv, fd, &pid);
	if (ret)
		return ret;
	b->status = -1;
	pump(b, fd, t0 + (long long)b->timeout_s * 1000);
	if (fd[0] >= 0 || fd[1] >= 0)
		stop(pid, &b->status);
	else
		while (waitpid(pid, &b->status, 0) < 0 && errno == EINTR)
			;
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	b->ms = fsp_now_ms() - t0;
	return 0;
}

/* The document between this boot's markers; *rc the guest's exit. */
struct fsp_res_doc *fsp_vm_extract(const char *path, const char *nonce,
				   int *rc, char *why, size_t len)
{
	char begin[128], end[128], *text, *s, *e, *p;
	struct fsp_res_doc *res = NULL;
	struct json_object *doc;
	enum json_tokener_error jerr;
	struct stat st;
	size_t n;

	snprintf(begin, sizeof(begin), FSP_VM_MARK "-BEGIN %s\n", nonce);
	snprintf(end, sizeof(end), "\n" FSP_VM_MARK "-END %s rc=", nonce);
	/* Untrusted: the size is checked before anything is read. */
	if (!stat(path, &st) && st.st_size > FSP_RES_DOC_MAX + 4096) {
		snprintf(why, len, "the guest's result %s is larger than "
			 "64 MiB", path);
		return NULL;
	}
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
	/* Through the decoder: a document we cannot read is no result. */
	if (doc)
		fsp_res_doc_decode(doc, "the guest's result", &res, why, len);
	json_object_put(doc);
	return res;
}

void fsp_vm_add_info(struct fsp_res_doc *doc, const struct fsp_vm_boot *b,
		     const char *initrd, int rc)
{
	struct fsp_res_vm *vm = calloc(1, sizeof(*vm));

	if (!vm)
		return;
	vm->kernel_image = strdup(b->kernel);
	vm->deb = b->deb ? strdup(b->deb) : NULL;
	vm->initramfs = strdup(initrd);
	vm->accel = strdup(b->accel);
	vm->memory = strdup(FSP_VM_MEM);
	vm->qemu_ms = b->ms;
	vm->guest_exit = rc;
	fsp_res_vm_free(doc->vm);
	doc->vm = vm;
}
