// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - the command and option tables and everything derived from
 * them: getopt_long's table, per-command option checks, and --help (in
 * the style of xfs_io's command table: one place, never written twice).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

enum {
	OPT_SIZE = 256, OPT_KEEP, OPT_KERNEL, OPT_MODULES, OPT_DEB,
	OPT_TIMEOUT,
};

struct fsp_option {
	const char *name;
	int val;		/* short letter, or OPT_* */
	const char *arg;	/* NULL: no argument */
	unsigned int cmds;	/* commands that take it */
	const char *help;
};

static const struct fsp_option options[] = {
	{ "profile", 'p', "PROFILE", CMD_RUN | CMD_LIST | CMD_VM,
	  "profile name or path to a .conf file (repeatable; default: all)" },
	{ "probe", 'P', "PROBE", CMD_RUN | CMD_CHECK | CMD_VM,
	  "run only this probe (repeatable; default: all)" },
	{ "jobs", 'j', "N", CMD_RUN | CMD_VM,
	  "profiles run in parallel (default: number of CPUs; N > 1: one CPU "
	  "each)" },
	{ "format", 'f', "FMT", CMD_RUN | CMD_CHECK | CMD_ENV | CMD_VM,
	  "output format: table, json, ktap or junit (default: table)" },
	{ "output", 'o', "FILE", CMD_RUN | CMD_CHECK | CMD_ENV | CMD_VM,
	  "write the report to FILE instead of stdout" },
	{ "size", OPT_SIZE, "MiB", CMD_RUN | CMD_VM,
	  "image size for every profile (sparse; default: the profile's, "
	  "else 512)" },
	{ "keep", OPT_KEEP, NULL, CMD_RUN,
	  "keep the run directory (images, results) for inspection" },
	{ "kernel", OPT_KERNEL, "VMLINUZ", CMD_VM,
	  "guest kernel image (bzImage; default: the one in --deb)" },
	{ "modules", OPT_MODULES, "DIR", CMD_VM,
	  "the guest kernel's unpacked /lib/modules/KVER tree" },
	{ "deb", OPT_DEB, "PKG.deb", CMD_VM,
	  "a linux-image .deb: its kernel and modules" },
	{ "timeout", OPT_TIMEOUT, "SEC", CMD_VM,
	  "stop the guest after SEC seconds (default: 1800)" },
	{ "verbose", 'v', NULL, CMD_ALL, "progress and details on stderr" },
	{ "help", 'h', NULL, CMD_ALL, "show this help and exit" },
	{ "version", 'V', NULL, CMD_ALL, "show the version and exit" },
};

const struct fsp_command fsp_commands[] = {
	{ "env", CMD_ENV, "", 0, 0,
	  "kernel, THP sysfs, relevant CONFIG_*, tools, loop support",
	  fsp_cmd_env },
	{ "list", CMD_LIST, "", 0, 0,
	  "profiles, and whether each can run here (and why not)",
	  fsp_cmd_list },
	{ "run", CMD_RUN, "", 0, 0,
	  "the main job; default: every runnable profile, every probe",
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
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

void fsp_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("fsprobe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int fsp_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("fsprobe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
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

void fsp_usage(FILE *out)
{
	const struct fsp_command *c;
	size_t i;

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
	for (i = 0; i < FSP_ARRAY_SIZE(options); i++) {
		const struct fsp_option *o = &options[i];
		char syn[64], cmds[64];

		if (o->val < 128)
			snprintf(syn, sizeof(syn), "-%c, --%s%s%s", o->val,
				 o->name, o->arg ? "=" : "",
				 o->arg ? o->arg : "");
		else
			snprintf(syn, sizeof(syn), "    --%s%s%s", o->name,
				 o->arg ? "=" : "", o->arg ? o->arg : "");
		cmd_names(o->cmds, cmds, sizeof(cmds));
		fprintf(out, "  %-22s %s [%s]\n", syn, o->help, cmds);
	}
	fprintf(out, "\nEnvironment:\n"
		"  FSPROBE_PROFILE_DIR    directory of *.conf profiles\n"
		"  FSPROBE_STATE_DIR      run state base (default "
		FSP_STATE_BASE ")\n"
		"  FSPROBE_CACHE_DIR      vm: initramfs and .deb cache "
		"(default /var/cache/fsprobe,\n"
		"                         ~/.cache/fsprobe for non-root)\n"
		"  FSPROBE_QEMU           vm: the qemu binary (default "
		"qemu-system-x86_64)\n"
		"  FSPROBE_VM_ACCEL       vm: qemu's -accel (default "
		"tcg,thread=single)\n"
		"\nExit status: 0 all checks passed (skips allowed), 1 a check "
		"failed,\n2 usage or environment error. A run stopped by a "
		"signal exits 128+signal.\n"
		"\nSee fsprobe(8) for the probes, verdicts and JSON keys.\n");
}

static const struct fsp_option *find_option(int val)
{
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(options); i++)
		if (options[i].val == val)
			return &options[i];
	return NULL;
}

static int parse_format(const char *s, enum fsp_format *f)
{
	static const char *const names[] = { "table", "json", "ktap", "junit" };
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

int fsp_cli_parse(int argc, char **argv, struct fsp_cli *cli)
{
	struct option lopts[FSP_ARRAY_SIZE(options) + 1];
	char sopts[3 * FSP_ARRAY_SIZE(options) + 2];
	const struct fsp_command *cmd = NULL, *c;
	size_t i, n = 0;
	unsigned long v;
	int opt;

	memset(cli, 0, sizeof(*cli));
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

	/* Options may come before or after the command word. */
	opterr = 0;
	for (;;) {
		const struct fsp_option *o;

		opt = getopt_long(argc, argv, sopts, lopts, NULL);
		if (opt == -1) {
			if (optind >= argc)
				break;
			if (!cmd) {
				for (c = fsp_commands; c->name; c++)
					if (!strcmp(c->name, argv[optind]))
						break;
				if (!c->name)
					return fsp_usage_error(
						"unknown command '%s'",
						argv[optind]);
				cmd = c;
				cli->cmd = c->id;
			} else {
				cli->args = realloc(cli->args,
					(cli->nr_args + 1) * sizeof(char *));
				if (!cli->args)
					return fsp_usage_error("out of memory");
				cli->args[cli->nr_args++] = argv[optind];
			}
			optind++;
			continue;
		}
		if (opt == '?' || opt == ':') {
			if (optopt && find_option(optopt) &&
			    find_option(optopt)->arg)
				return fsp_usage_error("option -%c needs %s",
					optopt, find_option(optopt)->arg);
			return fsp_usage_error("unknown option '%s'",
					       argv[optind - 1]);
		}
		o = find_option(opt);
		if (opt == 'h') {
			fsp_usage(stdout);
			exit(0);
		}
		if (opt == 'V') {
			printf("fsprobe %s\n", PACKAGE_VERSION);
			exit(0);
		}
		if (cmd && o && !(o->cmds & cmd->id))
			return fsp_usage_error("--%s does not apply to '%s'",
					       o->name, cmd->name);
		switch (opt) {
		case 'p':
			if (cli->nr_profiles == (int)FSP_ARRAY_SIZE(cli->profiles))
				return fsp_usage_error("too many -p");
			cli->profiles[cli->nr_profiles++] = optarg;
			break;
		case 'P':
			if (cli->nr_probes == (int)FSP_ARRAY_SIZE(cli->probes))
				return fsp_usage_error("too many -P");
			cli->probes[cli->nr_probes++] = optarg;
			break;
		case 'j':
			if (parse_ulong(optarg, 1, 256, &v))
				return fsp_usage_error("-j takes a number "
					"from 1 to 256, not '%s'", optarg);
			cli->jobs = v;
			break;
		case 'f':
			if (parse_format(optarg, &cli->format))
				return fsp_usage_error("unknown format '%s' "
					"(table, json, ktap, junit)", optarg);
			cli->format_set = 1;
			break;
		case 'o':
			cli->output = optarg;
			break;
		case OPT_SIZE:
			if (parse_ulong(optarg, 16, 65536, &v))
				return fsp_usage_error("--size takes MiB from "
					"16 to 65536, not '%s'", optarg);
			cli->size_mb = v;
			break;
		case OPT_KEEP:
			cli->keep = 1;
			break;
		case OPT_KERNEL:
			cli->kernel = optarg;
			break;
		case OPT_MODULES:
			cli->modules = optarg;
			break;
		case OPT_DEB:
			cli->deb = optarg;
			break;
		case OPT_TIMEOUT:
			if (parse_ulong(optarg, 1, 86400, &v))
				return fsp_usage_error("--timeout takes "
					"seconds from 1 to 86400, not '%s'",
					optarg);
			cli->timeout_s = v;
			break;
		case 'v':
			cli->verbose++;
			break;
		}
	}
	if (!cmd)
		return fsp_usage_error("no command given");
	/* Options given before the command word: check them now. */
	for (i = 0; i < FSP_ARRAY_SIZE(options); i++) {
		const struct fsp_option *o = &options[i];
		int given = (o->val == 'p' && cli->nr_profiles) ||
			    (o->val == 'P' && cli->nr_probes) ||
			    (o->val == 'j' && cli->jobs) ||
			    (o->val == 'f' && cli->format_set) ||
			    (o->val == 'o' && cli->output) ||
			    (o->val == OPT_SIZE && cli->size_mb) ||
			    (o->val == OPT_KEEP && cli->keep) ||
			    (o->val == OPT_KERNEL && cli->kernel) ||
			    (o->val == OPT_MODULES && cli->modules) ||
			    (o->val == OPT_DEB && cli->deb) ||
			    (o->val == OPT_TIMEOUT && cli->timeout_s);

		if (given && !(o->cmds & cmd->id))
			return fsp_usage_error("--%s does not apply to '%s'",
					       o->name, cmd->name);
	}
	if (cli->nr_args < cmd->min_args || cli->nr_args > cmd->max_args)
		return fsp_usage_error("'%s' takes %s%s", cmd->name,
				       cmd->max_args ? "arguments " :
				       "no arguments", cmd->args);
	return -1;	/* parsed: no exit */
}
