// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - the command, option and environment tables and everything
 * derived from them: getopt_long's table, where each option's value goes
 * and whether it was given, per-command option checks, the run options
 * vm forwards to its guest, --help and the man page's OPTIONS and
 * ENVIRONMENT (--help-man, at build time), in the style of xfs_io's
 * command table: one place, never written twice.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "util.h"
#include "vm.h"
#include "watchdog.h"

enum {
	OPT_SIZE = 256, OPT_KEEP, OPT_MODULES, OPT_DEB,
	OPT_TIMEOUT, OPT_HELP_MAN, OPT_KCIDB_ORIGIN,
	OPT_KCIDB_CHECKOUT, OPT_TUNE_WQ, OPT_STEP_TIMEOUT, OPT_DEBIAN,
	OPT_KILL_AFTER,
};

/* How an option's value is stored in struct fsp_cli, at off. */
enum opt_type {
	OT_ACTION,	/* -h, -V, --help-man: act and exit */
	OT_COUNT,	/* int, counts the option */
	OT_FLAG,	/* int, set to 1 */
	OT_STR,		/* const char * */
	OT_LIST,	/* const char *[max], its count (int) at nr_off */
	OT_INT,		/* int from min to max */
	OT_ULONG,	/* unsigned long from min to max; given (int) at
			   nr_off if set, where 0 is a value of its own */
	OT_FORMAT,	/* enum fsp_format, and format_set */
};

#define OPT_GUEST	(1 << 0)	/* vm forwards it to the guest's run */
#define OPT_HIDDEN	(1 << 1)	/* in neither --help nor the man page */

struct fsp_option {
	const char *name;
	int val;		/* short letter, or OPT_* */
	const char *arg;	/* NULL: no argument */
	unsigned int cmds;	/* commands that take it */
	unsigned int flags;	/* OPT_GUEST, OPT_HIDDEN */
	enum opt_type type;
	size_t off, nr_off;	/* the field(s) in struct fsp_cli */
	unsigned long min, max;	/* OT_INT, OT_ULONG range; OT_LIST size */
	const char *unit;	/* OT_INT, OT_ULONG: "-j takes UNIT from" */
	const char *help;	/* --help's line */
	const char *man;	/* the man page's paragraph (roff) */
};

#define F(field)	.off = offsetof(struct fsp_cli, field)
#define LIST(field, nr)	.type = OT_LIST, F(field), \
	.nr_off = offsetof(struct fsp_cli, nr), \
	.max = FSP_ARRAY_SIZE(((struct fsp_cli *)0)->field)

static const struct fsp_option options[] = {
	{ "profile", 'p', "PROFILE", CMD_RUN | CMD_LIST | CMD_VM |
	  CMD_MATRIX, OPT_GUEST,
	  LIST(profiles, nr_profiles),
	  .help = "profile name or path to a .conf file (repeatable; "
	  "default: all)",
	  .man = "A profile name (see \\fBlist\\fR) or a path to a "
	  "\\fB.conf\\fR file;\n"
	  "repeatable. \\fBfstests:\\fR\\fIPATH\\fR[\\fB:\\fR\\fISECTION\\fR] makes a "
	  "profile of a section\n"
	  "of an fstests local.config (FSTYP, MKFS_OPTIONS, the \\-o options of\n"
	  "MOUNT_OPTIONS); the devices it names are never touched.\n" },
	{ "probe", 'P', "PROBE", CMD_RUN | CMD_CHECK | CMD_VM |
	  CMD_MATRIX, OPT_GUEST,
	  LIST(probes, nr_probes),
	  .help = "run only this probe (repeatable; default: all)",
	  .man = "Run only this probe; repeatable.\n" },
	{ "jobs", 'j', "N", CMD_RUN | CMD_VM | CMD_MATRIX, OPT_GUEST,
	  .type = OT_INT, F(jobs), .min = 1, .max = 256, .unit = "a number",
	  .help = "profiles run in parallel (default: number of CPUs; N > 1: "
	  "one CPU each; matrix: kernels at once)",
	  .man = "Profiles run in parallel (default: the number of CPUs). "
	  "With N > 1 and\n"
	  "at least N CPUs to run on, worker slot \\fIi\\fR is bound to the\n"
	  "\\fIi\\fR-th of them, and what it runs (mkfs, the payloads) with "
	  "it: a\n"
	  "worker woken by a loop device's kworker is otherwise often placed "
	  "on the\n"
	  "kworker's CPU, beside the other worker, while its own CPU idles\n"
	  "(\\fBbench/run\\fR measured \\-j 2 about 5% faster bound). See\n"
	  "\\fB\\-\\-tune\\-workqueue\\fR and \\fBFSPROBE_PIN_CPUS\\fR.\n"
	  "\\fBmatrix\\fR: how many kernels run at once (default: one per "
	  "CPU); each\n"
	  "guest and the host run use their own default.\n" },
	{ "tune-workqueue", OPT_TUNE_WQ, NULL, CMD_RUN | CMD_VM |
	  CMD_MATRIX, OPT_GUEST,
	  .type = OT_FLAG, F(tune_wq),
	  .help = "change a system-wide setting for the run (restored): "
	  "workqueue scope cpu",
	  .man = "Changes a system-wide setting for the run's duration: with "
	  "workers bound\n"
	  "to CPUs (\\fB\\-j\\fR > 1), the workqueues' default affinity "
	  "scope\n"
	  "(\\fI/sys/module/workqueue/parameters/default_affinity_scope\\fR, "
	  "Linux 6.6)\n"
	  "is set to \\fBcpu\\fR, so that the loop I/O a worker waits for runs "
	  "on its\n"
	  "CPU, not on the other worker's (\\fBbench/run\\fR: \\-j 2 about "
	  "10% faster).\n"
	  "Off by default: every process on the machine sees the change. "
	  "Like every\n"
	  "knob it is journalled first and restored at the end, after a "
	  "signal, and\n"
	  "by \\fBcleanup\\fR after a SIGKILL; a scope that is \\fBcpu\\fR "
	  "already is\n"
	  "left alone. The JSON lists it in \\fBresources.knobs\\fR.\n" },
	{ "format", 'f', "FMT", CMD_RUN | CMD_CHECK | CMD_ENV | CMD_VM |
	  CMD_MATRIX, 0,
	  .type = OT_FORMAT, F(format),
	  .help = "output format: table, json, ktap, junit, html, kcidb or "
	  "lava (default: table)",
	  .man = "\\fBtable\\fR (default), \\fBjson\\fR, \\fBktap\\fR, "
	  "\\fBjunit\\fR, \\fBhtml\\fR\n"
	  "(one self-contained page; \\fBrun\\fR, \\fBcheck\\fR and "
	  "\\fBvm\\fR), \\fBkcidb\\fR\n"
	  "(a KCIDB v5 document for kcidb-submit) or \\fBlava\\fR (a result "
	  "file for\n"
	  "Linaro's send-to-lava.sh); see docs/kernelci.md.\n" },
	{ "kcidb-origin", OPT_KCIDB_ORIGIN, "ORIGIN",
	  CMD_RUN | CMD_CHECK | CMD_VM | CMD_MATRIX, 0, .type = OT_STR, F(kcidb_origin),
	  .help = "-f kcidb: the submitting CI system (default: fsprobe)",
	  .man = "\\fB\\-f kcidb\\fR: the origin of every object and the "
	  "prefix of its id,\n"
	  "[a\\-z0\\-9_]+ (default \\fBfsprobe\\fR).\n" },
	{ "kcidb-checkout", OPT_KCIDB_CHECKOUT, "ID",
	  CMD_RUN | CMD_CHECK | CMD_VM | CMD_MATRIX, 0, .type = OT_STR, F(kcidb_checkout),
	  .help = "-f kcidb: checkout id after ORIGIN: (default: the kernel "
	  "release)",
	  .man = "\\fB\\-f kcidb\\fR: the checkout id after "
	  "\\fIORIGIN\\fR: (default: the kernel\n"
	  "release), e.g. the id KernelCI gave the tested tree.\n" },
	{ "output", 'o', "FILE", CMD_RUN | CMD_CHECK | CMD_ENV | CMD_VM |
	  CMD_MATRIX, 0,
	  .type = OT_STR, F(output),
	  .help = "write the report to FILE instead of stdout",
	  .man = "Write the report to \\fIFILE\\fR.\n" },
	{ "size", OPT_SIZE, "MiB", CMD_RUN | CMD_VM | CMD_MATRIX, OPT_GUEST,
	  .type = OT_ULONG, F(size_mb), .min = 16, .max = 65536,
	  .unit = "MiB",
	  .help = "image size for every profile (sparse; default: the "
	  "profile's, else 512)",
	  .man = "Image size for every profile (sparse: it costs only what is "
	  "written).\n" },
	{ "keep", OPT_KEEP, NULL, CMD_RUN, 0, .type = OT_FLAG, F(keep),
	  .help = "keep the run directory (images, results) for inspection",
	  .man = "Keep the run directory (images, per-profile results) for "
	  "inspection; the\n"
	  "next run or \\fBcleanup\\fR removes it.\n" },
	{ "debian", OPT_DEBIAN, NULL, CMD_LIST | CMD_MATRIX, 0,
	  .type = OT_FLAG, F(debian),
	  .help = "Debian's 6.1, 6.12, 6.17, 7.2, 7.3-rc (newest of each), "
	  "host, ro-thp, -k (list: print)",
	  .man = "\\fBmatrix\\fR: run on the QA set: Debian's series 6.1 "
	  "(bookworm), 6.12\n"
	  "(bookworm\\-security), 6.17 (trixie\\-backports), 7.2 (sid) and "
	  "7.3\\-rc\n"
	  "(experimental), each as \\fBdebian:\\fR\\fIRELEASE\\fR of its "
	  "newest package (apt, through\n"
	  "fsprobe's private sources list; when apt cannot reach the mirror, "
	  "the newest\n"
	  "release cached by an earlier fetch, said on stderr), then "
	  "\\fBhost\\fR, then the\n"
	  "READ_ONLY_THP_FOR_FS=y kernel of contrib/kernel\\-with\\-ro\\-thp.sh "
	  "if\n"
	  "/var/tmp/fsprobe\\-kernel/bzImage exists, then each \\fB\\-k\\fR. "
	  "A series with no\n"
	  "release is a column of \\fBerror\\fR with the reason. \\fBlist\\fR: "
	  "print the set so\n"
	  "resolved, one kernel a line, and boot nothing.\n" },
	{ "kernel", 'k', "SPEC", CMD_VM | CMD_MATRIX, 0,
	  LIST(kernels, nr_kernels),
	  .help = "guest kernel: vmlinuz, unpacked tree, .deb, debian:VERSION"
	  " (matrix: repeatable, and host)",
	  .man = "\\fBvm\\fR, \\fBmatrix\\fR: the guest kernel (\\fBmatrix\\fR: "
	  "repeatable, one column\n"
	  "each, and \\fBhost\\fR for the running kernel). \\fISPEC\\fR is an x86 bzImage "
	  "(with\n"
	  "\\fB\\-\\-modules\\fR, or the one in \\fB\\-\\-deb\\fR); a directory "
	  "holding an\n"
	  "unpacked kernel (boot/vmlinuz\\-V or usr/lib/modules/V/vmlinuz, "
	  "modules under\n"
	  "lib/modules/V or usr/lib/modules/V, config in boot/config\\-V or\n"
	  "usr/lib/modules/V/config); a .deb; or \\fBdebian:\\fR\\fIVERSION\\fR, "
	  "a release such\n"
	  "as 6.1.0\\-57\\-amd64 or 7.2.13+deb14\\-amd64 or a series such as "
	  "6.12 (its newest\n"
	  "package), fetched with apt into the cache (a private sources "
	  "list; the\n"
	  "system's apt configuration is not touched) and reused from there "
	  "offline.\n" },
	{ "modules", OPT_MODULES, "DIR", CMD_VM, 0, .type = OT_STR, F(modules),
	  .help = "the guest kernel's unpacked [usr/]lib/modules/KVER tree",
	  .man = "\\fBvm\\fR: the guest kernel's unpacked /lib/modules/KVER "
	  "or\n"
	  "/usr/lib/modules/KVER tree (never written to).\n" },
	{ "deb", OPT_DEB, "PKG.deb", CMD_VM, 0, LIST(debs, nr_debs),
	  .help = "a linux-image .deb (repeat for linux-binary, -modules, -base)",
	  .man = "\\fBvm\\fR: a linux-image package, or the linux\\-binary, "
	  "linux\\-modules\n"
	  "and linux\\-base packages sid splits a kernel into (repeat "
	  "\\fB\\-\\-deb\\fR); their\n"
	  "kernel, modules and config are used (unpacked with dpkg-deb "
	  "once, then\n"
	  "cached).\n" },
	{ "timeout", OPT_TIMEOUT, "SEC", CMD_VM | CMD_MATRIX, 0,
	  .type = OT_ULONG, F(timeout_s), .min = 1, .max = 86400,
	  .unit = "seconds",
	  .help = "stop a guest after SEC seconds (default: 1800)",
	  .man = "\\fBvm\\fR: stop the guest after \\fISEC\\fR seconds "
	  "(default 1800).\n" },
	/* For tests/v-killclean.sh: a SIGKILLed run, then cleanup. */
	{ "kill-after", OPT_KILL_AFTER, "SEC", CMD_VM, OPT_HIDDEN,
	  .type = OT_ULONG, F(kill_after_s), .min = 1, .max = 3600,
	  .unit = "seconds",
	  .help = "the guest SIGKILLs its run after SEC s, then runs cleanup" },
	{ "step-timeout", OPT_STEP_TIMEOUT, "SEC", CMD_RUN | CMD_CHECK | CMD_VM,
	  OPT_GUEST, .type = OT_ULONG, F(step_timeout_s),
	  .nr_off = offsetof(struct fsp_cli, step_timeout_set), .min = 0,
	  .max = 86400, .unit = "seconds",
	  .help = "limit on each step (mkfs, mount, a probe, umount): "
	  "error after SEC (300; 0: none)",
	  .man = "A time limit on each step of a profile: mkfs, mount, "
	  "writing the files\n"
	  "(\\fBprepare\\fR), each probe, umount (default 300 seconds; 0: "
	  "none). A step\n"
	  "over it makes the profile \\fBerror\\fR, \\fISTEP\\fR did not "
	  "finish in \\fIN\\fR s, with\n"
	  "the stuck task's state, wait channel and kernel stack and the "
	  "kernel log\n"
	  "since the step began in \\fBprofiles[].watchdog\\fR; its worker "
	  "is killed and\n"
	  "the other profiles go on. A task in D state cannot die until the "
	  "kernel\n"
	  "lets it go: what it holds is left, its run directory with it, and "
	  "the\n"
	  "journal names it; \\fBcleanup\\fR says so and exits 2 while it "
	  "lives.\n" },
	{ "verbose", 'v', NULL, CMD_ALL, OPT_GUEST, .type = OT_COUNT,
	  F(verbose),
	  .help = "progress on stderr; the table shows every probe's evidence",
	  .man = "Progress on stderr (also shown when stderr is a "
	  "terminal); the table shows\n"
	  "every probe with its evidence, not only those that failed.\n" },
	{ "help", 'h', NULL, CMD_ALL, 0, .type = OT_ACTION,
	  .help = "show this help and exit",
	  .man = "Usage, generated from the option table.\n" },
	{ "version", 'V', NULL, CMD_ALL, 0, .type = OT_ACTION,
	  .help = "show the version and exit",
	  .man = "The version.\n" },
	/* The man page's OPTIONS and ENVIRONMENT, made at build time. */
	{ "help-man", OPT_HELP_MAN, "SECTION", CMD_ALL, OPT_HIDDEN,
	  .type = OT_ACTION },
};

/* Every environment variable fsprobe reads, for --help and the man page. */
struct fsp_envvar {
	const char *name;
	const char *help;	/* --help's text; a \n continues it below */
	const char *man;	/* the man page's paragraph (roff) */
};

static const struct fsp_envvar envvars[] = {
	{ "FSPROBE_PROFILE_DIR", "directory of *.conf profiles",
	  "Directory of profiles (default: the build tree's, else the "
	  "installed).\n" },
	{ "FSPROBE_STATE_DIR", "run state base (default " FSP_STATE_BASE ")",
	  "Base of run directories (default " FSP_STATE_BASE "); an absolute "
	  "path\n"
	  "with no symlink in it, every directory on it root-owned and not "
	  "writable\n"
	  "by group or others (above the base, a sticky one such as /tmp "
	  "is fine).\n"
	  "\\fBrun\\fR and \\fBcleanup\\fR refuse any other with exit "
	  "status 2,\n"
	  "naming the directory at fault.\n" },
	{ "FSPROBE_PAYLOAD_DIR", "directory of the payload binaries",
	  "Where the payload binaries are (default: the build tree's, else\n"
	  "pkglibexecdir).\n" },
	{ "FSPROBE_CACHE_DIR", "vm: initramfs and .deb cache (default "
	  "/var/cache/fsprobe,\n~/.cache/fsprobe for non-root)",
	  "\\fBvm\\fR: where initramfs archives and unpacked .deb kernels are "
	  "cached\n"
	  "(default /var/cache/fsprobe for root, else $XDG_CACHE_HOME/fsprobe "
	  "or\n"
	  "~/.cache/fsprobe); entries unused for 30 days are removed.\n" },
	{ "FSPROBE_MIRROR", "vm: the Debian mirror for debian:VERSION "
	  "(default: the\nsystem's apt sources')",
	  "\\fBvm\\fR \\fB\\-k debian:\\fR\\fIVERSION\\fR: the Debian mirror "
	  "apt fetches kernels from, an http,\n"
	  "https or file URI (default: the first entry of the system's apt "
	  "sources\n"
	  "whose suite is a Debian release); its security archive is the URI "
	  "with\n"
	  "\\-security appended when it ends in /debian. Whatever the "
	  "mirror, apt\n"
	  "verifies what it fetches with Debian's archive keyring.\n" },
	{ "FSPROBE_RO_THP_KERNEL", "--debian: the READ_ONLY_THP_FOR_FS=y "
	  "kernel (default\n" FSP_RO_THP_KERNEL ")",
	  "\\fB\\-\\-debian\\fR: the READ_ONLY_THP_FOR_FS=y kernel "
	  "contrib/kernel-with-ro-thp.sh\nbuilds (default "
	  FSP_RO_THP_KERNEL "); the set has it as \\fBro-thp\\fR when it\n"
	  "exists.\n" },
	{ "FSPROBE_QEMU", "vm: the qemu binary (default " FSP_VM_QEMU ")",
	  "\\fBvm\\fR: the qemu binary (default " FSP_VM_QEMU ").\n" },
	{ "FSPROBE_VM_ACCEL", "vm: qemu's -accel (default " FSP_VM_ACCEL ")",
	  "\\fBvm\\fR: qemu's \\-accel argument (default " FSP_VM_ACCEL "; "
	  "with\n"
	  "thread=multi, Debian's 6.12 guest oopsed on a tracepoint being "
	  "patched).\n" },
	{ "FSPROBE_URING", "1: write the probe files through io_uring, "
	  "not write(2)",
	  "Set to 1 to write the probe files through io_uring instead of "
	  "write(2)\n"
	  "(falling back to write(2) where io_uring is unavailable). Off by\n"
	  "default: for these buffered writes \\fBbench/run\\fR measured no "
	  "gain\n"
	  "over write(2).\n" },
	{ "FSPROBE_SLOT_DEVICES", "0: a loop device per profile, not one per "
	  "worker slot",
	  "Set to 0 to give every profile a loop device of its own instead of "
	  "the\n"
	  "one its worker slot holds (for comparison; \\fBloop.slot_device\\fR "
	  "is\n"
	  "then false everywhere).\n" },
	{ "FSPROBE_PIN_CPUS", "0: leave the workers of -j N unbound, the "
	  "workqueue scope\nas it is",
	  "Set to 0 to leave the workers of \\fB\\-j\\fR N > 1 unbound, free to "
	  "run on\n"
	  "any CPU, and the workqueue affinity scope as it is (for comparison;\n"
	  "\\fBresources.worker_cpus\\fR is then empty, \\fBworkqueue_scope\\fR "
	  "null).\n" },
	{ "NO_COLOR", "set: no colour in the table on a terminal",
	  "Set (to anything) for a table without colour on a terminal.\n" },
	{ "TERM", "unset or dumb: progress as lines, not a status line",
	  "On a terminal, progress is one status line rewritten in place, "
	  "erased\nat the end; where \\fBTERM\\fR is unset or \\fBdumb\\fR "
	  "(a serial console)\nit is printed as lines, as with \\fB\\-v\\fR. "
	  "Off a terminal there is none.\n" },
};
const struct fsp_command fsp_commands[] = {
	{ "env", CMD_ENV, "", 0, 0,
	  "kernel, THP sysfs, relevant CONFIG_*, tools, loop support",
	  fsp_cmd_env },
	{ "list", CMD_LIST, "", 0, 0,
	  "profiles, and whether each can run here (and why not)",
	  fsp_cmd_list },
	{ "run", CMD_RUN, "", 0, 0,
	  "the main job; default: the default matrix, every probe",
	  fsp_cmd_run },
	{ "check", CMD_CHECK, "DIR", 1, 1,
	  "probe an already-mounted filesystem (no mkfs), e.g. NFS",
	  fsp_cmd_check },
	{ "compare", CMD_COMPARE, "OLD.json NEW.json", 2, 2,
	  "verdict/result changes between two runs (kernel QA)",
	  fsp_cmd_compare },
	{ "cleanup", CMD_CLEANUP, "", 0, 0,
	  "remove what a killed run left (only our own state)",
	  fsp_cmd_cleanup },
	{ "vm", CMD_VM, "", 0, 0,
	  "run the matrix on another kernel under qemu (--kernel/--deb)",
	  fsp_cmd_vm },
	{ "matrix", CMD_MATRIX, "", 0, 0,
	  "the same profiles on several kernels (-k SPEC|host ...), one grid",
	  fsp_cmd_matrix },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

int fsp_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fsp_vwarn(fmt, ap);
	va_end(ap);
	fputs("\nTry 'fsprobe --help' for more information.\n", stderr);
	return FSP_EXIT_USAGE;
}

static void cmd_names(unsigned int cmds, char *buf, size_t len)
{
	const struct fsp_command *c;
	size_t used = 0;

	buf[0] = '\0';
	if (cmds == CMD_ALL) {
		snprintf(buf, len, "all");
		return;
	}
	for (c = fsp_commands; c->name; c++) {
		if (!(cmds & c->id))
			continue;
		used += snprintf(buf + used, len - used, "%s%s",
				 used ? ", " : "", c->name);
		if (used >= len)
			break;
	}
}

static void usage_options(FILE *out)
{
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(options); i++) {
		const struct fsp_option *o = &options[i];
		char syn[64], cmds[64];

		if (o->flags & OPT_HIDDEN)
			continue;
		if (o->val < 128)
			snprintf(syn, sizeof(syn), "-%c, --%s%s%s", o->val,
				 o->name, o->arg ? "=" : "",
				 o->arg ? o->arg : "");
		else
			snprintf(syn, sizeof(syn), "    --%s%s%s", o->name,
				 o->arg ? "=" : "", o->arg ? o->arg : "");
		cmd_names(o->cmds, cmds, sizeof(cmds));
		/*
		 * A synopsis too wide for the column gets a line of its own;
		 * one that fills it would touch its help text.
		 */
		if (strlen(syn) >= 22)
			fprintf(out, "  %s\n  %-22s %s [%s]\n", syn, "",
				o->help, cmds);
		else
			fprintf(out, "  %-22s %s [%s]\n", syn, o->help, cmds);
	}
}

static void usage_environment(FILE *out)
{
	const char *s;
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(envvars); i++) {
		fprintf(out, "  %-22s ", envvars[i].name);
		for (s = envvars[i].help; *s; s++) {
			fputc(*s, out);
			if (*s == '\n')
				fprintf(out, "%25s", "");
		}
		fputc('\n', out);
	}
}

void fsp_usage(FILE *out)
{
	const struct fsp_command *c;

	fprintf(out, "Usage: fsprobe COMMAND [OPTIONS] [ARGS]\n\n"
		"Tells whether each filesystem's page cache reaches PMD-order "
		"folios on the\nrunning kernel, by which route, and whether "
		"the kernel behaves correctly then.\n\nCommands:\n");
	for (c = fsp_commands; c->name; c++) {
		char syn[64];

		snprintf(syn, sizeof(syn), "%s %s", c->name, c->args);
		fprintf(out, "  %-26s %s\n", syn, c->summary);
	}
	fprintf(out, "\nOptions:\n");
	usage_options(out);
	fprintf(out, "\nEnvironment:\n");
	usage_environment(out);
	fprintf(out, "\nExit status: 0 all checks passed (skips allowed), 1 a "
		"check failed\nor a profile could not be measured (verdict "
		"error), 2 usage or environment\nerror. A run stopped by "
		"a signal exits 128+signal.\n"
		"\nSee fsprobe(8) for the probes, verdicts and JSON keys.\n");
}

/* roff: '-' as "\-" (a minus, not a hyphen). */
static void roff_dashes(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputc('\\', out);
		fputc(*s, out);
	}
}

/*
 * The man page's OPTIONS or ENVIRONMENT section, without its .SH line:
 * man/fsprobe.8 is made from man/fsprobe.8.in with these at build time.
 */
static int help_man(FILE *out, const char *section)
{
	size_t i;

	if (!strcmp(section, "environment")) {
		for (i = 0; i < FSP_ARRAY_SIZE(envvars); i++)
			fprintf(out, ".TP\n.B %s\n%s", envvars[i].name,
				envvars[i].man);
		return 0;
	}
	if (strcmp(section, "options"))
		return fsp_usage_error("--help-man takes options or "
				       "environment, not '%s'", section);
	for (i = 0; i < FSP_ARRAY_SIZE(options); i++) {
		const struct fsp_option *o = &options[i];

		if (o->flags & OPT_HIDDEN)
			continue;
		fputs(".TP\n", out);
		fputs(o->val < 128 || o->arg ? ".BR " : ".B ", out);
		if (o->val < 128)
			fprintf(out, "\\-%c \", \" ", o->val);
		fputs("\\-\\-", out);
		roff_dashes(out, o->name);
		if (o->arg)
			fprintf(out, " =\\fI%s\\fR", o->arg);
		fprintf(out, "\n%s", o->man);
	}
	return 0;
}

static const struct fsp_option *find_option(int val)
{
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(options); i++)
		if (options[i].val == val)
			return &options[i];
	return NULL;
}

/* "-j" or "--size": how messages and the guest's argv name an option. */
static const char *opt_flag(const struct fsp_option *o, char *buf,
			    size_t len)
{
	if (o->val < 128)
		snprintf(buf, len, "-%c", o->val);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

static int parse_format(const char *s, enum fsp_format *f)
{
	static const char *const names[] = {
		"table", "json", "ktap", "junit", "html", "kcidb", "lava",
	};
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i])) {
			*f = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_ulong(const char *s, unsigned long min, unsigned long max,
		       unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *v < min || *v > max)
		return -EINVAL;
	return 0;
}

#define FIELD(cli, o, type)	((type *)((char *)(cli) + (o)->off))

/* -h, -V, --help-man: they act at once and exit. */
static void act(const struct fsp_option *o, const char *arg)
{
	switch (o->val) {
	case 'h':
		fsp_usage(stdout);
		exit(0);
	case 'V':
		printf("fsprobe %s\n", PACKAGE_VERSION);
		exit(0);
	case OPT_HELP_MAN:
		exit(help_man(stdout, arg));
	}
}

/* Store one option's value where the table says; -1 or the exit code. */
static int set_option(struct fsp_cli *cli, const struct fsp_option *o,
		      const char *arg)
{
	int *nr = (int *)((char *)cli + o->nr_off);
	unsigned long v;
	char flag[64];

	switch (o->type) {
	case OT_ACTION:
		act(o, arg);
		break;
	case OT_COUNT:
		(*FIELD(cli, o, int))++;
		break;
	case OT_FLAG:
		*FIELD(cli, o, int) = 1;
		break;
	case OT_STR:
		*FIELD(cli, o, const char *) = arg;
		break;
	case OT_LIST:
		if (*nr == (int)o->max)
			return fsp_usage_error("too many %s",
					       opt_flag(o, flag, sizeof(flag)));
		FIELD(cli, o, const char *)[(*nr)++] = arg;
		break;
	case OT_INT:
	case OT_ULONG:
		if (parse_ulong(arg, o->min, o->max, &v))
			return fsp_usage_error("%s takes %s from %lu to %lu, "
				"not '%s'", opt_flag(o, flag, sizeof(flag)),
				o->unit, o->min, o->max, arg);
		if (o->type == OT_INT)
			*FIELD(cli, o, int) = v;
		else
			*FIELD(cli, o, unsigned long) = v;
		if (o->type == OT_ULONG && o->nr_off)
			*nr = 1;
		break;
	case OT_FORMAT:
		if (parse_format(arg, FIELD(cli, o, enum fsp_format)))
			return fsp_usage_error("unknown format '%s' "
				"(table, json, ktap, junit, html, kcidb, lava)", arg);
		cli->format_set = 1;
		break;
	}
	return -1;
}

#define CFIELD(cli, o, type) \
	((const type *)((const char *)(cli) + (o)->off))

/* How often the option was given, from what set_option stored. */
static int nr_given(const struct fsp_cli *cli, const struct fsp_option *o)
{
	switch (o->type) {
	case OT_ACTION:
		return 0;
	case OT_COUNT:
		return *CFIELD(cli, o, int);
	case OT_FLAG:
	case OT_INT:
		return *CFIELD(cli, o, int) != 0;
	case OT_STR:
		return *CFIELD(cli, o, char *) != NULL;
	case OT_LIST:
		return *(const int *)((const char *)cli + o->nr_off);
	case OT_ULONG:
		if (o->nr_off)
			return *(const int *)((const char *)cli + o->nr_off);
		return *CFIELD(cli, o, unsigned long) != 0;
	case OT_FORMAT:
		return cli->format_set;
	}
	return 0;
}

/* Its k-th value as a command line gives it (NULL: it takes none). */
static const char *opt_value(const struct fsp_cli *cli,
			     const struct fsp_option *o, int k, char *num,
			     size_t len)
{
	static const char *const formats[] = {
		[FMT_TABLE] = "table", [FMT_JSON] = "json",
		[FMT_KTAP] = "ktap", [FMT_JUNIT] = "junit", [FMT_HTML] = "html",
		[FMT_KCIDB] = "kcidb", [FMT_LAVA] = "lava",
	};

	switch (o->type) {
	case OT_STR:
		return *CFIELD(cli, o, char *);
	case OT_LIST:
		return CFIELD(cli, o, char *)[k];
	case OT_INT:
		snprintf(num, len, "%d", *CFIELD(cli, o, int));
		return num;
	case OT_ULONG:
		snprintf(num, len, "%lu", *CFIELD(cli, o, unsigned long));
		return num;
	case OT_FORMAT:
		return formats[*CFIELD(cli, o, enum fsp_format)];
	default:
		return NULL;
	}
}

static int not_for(const struct fsp_option *o, const struct fsp_command *cmd)
{
	return fsp_usage_error("--%s does not apply to '%s'", o->name,
			       cmd->name);
}

/* getopt_long's tables from ours: '+' stops at the command word. */
static void getopt_tables(struct option *lopts, char *sopts)
{
	size_t i, n = 0;

	sopts[n++] = '+';
	for (i = 0; i < FSP_ARRAY_SIZE(options); i++) {
		lopts[i] = (struct option){ options[i].name,
			options[i].arg ? required_argument : no_argument,
			NULL, options[i].val };
		if (options[i].val < 128) {
			sopts[n++] = options[i].val;
			if (options[i].arg)
				sopts[n++] = ':';
		}
	}
	sopts[n] = '\0';
	memset(&lopts[i], 0, sizeof(lopts[i]));
}

/* A word that is not an option: the command, then its arguments. */
static int take_word(struct fsp_cli *cli, const struct fsp_command **cmd,
		     char *word)
{
	const struct fsp_command *c;
	char **args;

	if (!*cmd) {
		for (c = fsp_commands; c->name; c++)
			if (!strcmp(c->name, word))
				break;
		if (!c->name)
			return fsp_usage_error("unknown command '%s'", word);
		*cmd = c;
		cli->cmd = c->id;
		return -1;
	}
	args = realloc(cli->args, (cli->nr_args + 1) * sizeof(char *));
	if (!args)
		return fsp_usage_error("out of memory");
	cli->args = args;
	cli->args[cli->nr_args++] = word;
	return -1;
}

static int bad_option(char **argv)
{
	const struct fsp_option *o = optopt ? find_option(optopt) : NULL;

	if (o && o->arg)
		return fsp_usage_error("option -%c needs %s", optopt, o->arg);
	return fsp_usage_error("unknown option '%s'", argv[optind - 1]);
}

/* After the whole line: options given before the command word, args. */
static int check_command(const struct fsp_cli *cli,
			 const struct fsp_command *cmd)
{
	size_t i;

	if (!cmd)
		return fsp_usage_error("no command given");
	for (i = 0; i < FSP_ARRAY_SIZE(options); i++)
		if (nr_given(cli, &options[i]) && !(options[i].cmds & cmd->id))
			return not_for(&options[i], cmd);
	if (cli->nr_args < cmd->min_args || cli->nr_args > cmd->max_args)
		return fsp_usage_error("'%s' takes %s%s", cmd->name,
				       cmd->max_args ? "arguments " :
				       "no arguments", cmd->args);
	return -1;
}

int fsp_cli_step_timeout(const struct fsp_cli *cli)
{
	return cli->step_timeout_set ? (int)cli->step_timeout_s :
	       FSP_STEP_TIMEOUT_DEFAULT;
}

int fsp_cli_parse(int argc, char **argv, struct fsp_cli *cli)
{
	struct option lopts[FSP_ARRAY_SIZE(options) + 1];
	char sopts[3 * FSP_ARRAY_SIZE(options) + 2];
	const struct fsp_command *cmd = NULL;
	const struct fsp_option *o;
	int opt, ret;

	memset(cli, 0, sizeof(*cli));
	getopt_tables(lopts, sopts);
	/* Options may come before or after the command word. */
	opterr = 0;
	for (;;) {
		opt = getopt_long(argc, argv, sopts, lopts, NULL);
		if (opt == -1) {
			if (optind >= argc)
				break;
			ret = take_word(cli, &cmd, argv[optind++]);
		} else if (opt == '?' || opt == ':') {
			return bad_option(argv);
		} else {
			o = find_option(opt);
			if (cmd && !(o->cmds & cmd->id))
				return not_for(o, cmd);
			ret = set_option(cli, o, optarg);
		}
		if (ret >= 0)
			return ret;
	}
	return check_command(cli, cmd);	/* -1: parsed, no exit */
}

int fsp_cli_guest_args(const struct fsp_cli *cli,
		       int (*add)(void *ctx, const char *opt,
				  const char *val, int k),
		       void *ctx)
{
	char flag[64], num[32];
	size_t i;
	int k, n, ret = 0;

	for (i = 0; !ret && i < FSP_ARRAY_SIZE(options); i++) {
		const struct fsp_option *o = &options[i];

		if (!(o->flags & OPT_GUEST))
			continue;
		opt_flag(o, flag, sizeof(flag));
		n = nr_given(cli, o);
		for (k = 0; !ret && k < n; k++)
			ret = add(ctx, flag, opt_value(cli, o, k, num,
						       sizeof(num)), k);
	}
	return ret;
}
