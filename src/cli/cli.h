/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - the command line: one table of commands, one of options and
 * one of environment variables (options.c), from which getopt_long's
 * table, argument checks, vm's guest argv, --help and the man page's
 * lists are all generated, so none can drift from what is parsed.
 */
#ifndef FSP_CLI_H
#define FSP_CLI_H

#include <stdio.h>
#include <json-c/json.h>

#include "profile.h"
#include "report.h"
#include "runner.h"
#include "scheduler.h"
#include "sysinfo.h"

enum fsp_cmd_id {
	CMD_ENV = 1 << 0, CMD_LIST = 1 << 1, CMD_RUN = 1 << 2,
	CMD_CHECK = 1 << 3, CMD_COMPARE = 1 << 4, CMD_CLEANUP = 1 << 5,
	CMD_VM = 1 << 6, CMD_MATRIX = 1 << 7,
	CMD_ALL = 0xff,
};

enum fsp_format {
	FMT_TABLE, FMT_JSON, FMT_KTAP, FMT_JUNIT, FMT_HTML, FMT_KCIDB, FMT_LAVA,
};

struct fsp_cli {
	enum fsp_cmd_id cmd;
	const char *profiles[256];
	int nr_profiles;
	const char *probes[64];
	int nr_probes;
	int jobs;
	enum fsp_format format;
	int format_set;
	const char *output;
	const char *kcidb_origin;	/* -f kcidb: NULL means "fsprobe" */
	const char *kcidb_checkout;	/* -f kcidb: NULL: the kernel release */
	FILE *out;		/* -o opened early (fsp_output_open), or NULL */
	int out_created;	/* out's file did not exist before */
	int tune_wq;		/* --tune-workqueue */
	unsigned long size_mb;
	int keep;
	int verbose;
	const char *kernel;	/* vm: guest kernel SPEC (vm_kernel.c) */
	const char *kernels[16];	/* -k as given (matrix: several) */
	int nr_kernels;
	int debian;		/* list, matrix: --debian, the QA set */
	const char *modules;	/* vm: unpacked /lib/modules/KVER tree */
	const char *debs[8];	/* vm: linux-image (or -binary...) .debs */
	int nr_debs;
	unsigned long timeout_s;	/* vm: 0 means the default */
	unsigned long kill_after_s;	/* vm, hidden: 0, or SIGKILL the
					   guest's run after it (tests) */
	unsigned long step_timeout_s;	/* --step-timeout */
	int step_timeout_set;		/* ... given (0 is "no limit") */
	char **args;		/* positional arguments after the command */
	int nr_args;
};

struct fsp_command {
	const char *name;
	enum fsp_cmd_id id;
	const char *args;	/* synopsis of positional arguments */
	int min_args, max_args;
	const char *summary;
	int (*fn)(struct fsp_cli *cli);
};

extern const struct fsp_command fsp_commands[];

int fsp_cli_parse(int argc, char **argv, struct fsp_cli *cli);
/* --step-timeout in seconds, or its default; 0: no limit. */
int fsp_cli_step_timeout(const struct fsp_cli *cli);
/*
 * The options the option table marks for the guest's `fsprobe run`, as
 * given, in table order: add(ctx, "-p" or "--size", its value or NULL
 * for a flag, k for the k-th of a repeated option); stops at non-zero.
 */
int fsp_cli_guest_args(const struct fsp_cli *cli,
		       int (*add)(void *ctx, const char *opt,
				  const char *val, int k),
		       void *ctx);
void fsp_usage(FILE *out);
/* Print "fsprobe: MSG" and "Try 'fsprobe --help'" on stderr; returns 2. */
int fsp_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Root check + private mount namespace; 0 or the exit code. */
int fsp_enter_privileged(const char *cmd, const char *needs);

/*
 * Is this binary the build tree's src/fsprobe? Decided by the first call
 * and kept: main() asks before any command moves into its private mount
 * namespace, where a chroot's /proc/self/exe names another path.
 */
int fsp_in_build_tree(void);
/* Where profiles and payloads are (build tree, env, or installed). */
const char *fsp_profile_dir(void);
const char *fsp_payload_dir(void);
/* The same, and which: "environment", "build-tree" or "installed". */
const char *fsp_profile_dir_from(const char **from);
const char *fsp_payload_dir_from(const char **from);
/* Resolve -p arguments (names or paths) into profiles; 0 or exit code. */
int fsp_select_profiles(struct fsp_cli *cli, struct fsp_profile **out,
			int *nr);
int fsp_select_cases(struct fsp_cli *cli, struct fsp_run_opts *o);

/*
 * -o FILE opened (created, not yet truncated) before any work starts,
 * so that a path that cannot be written fails at once: 0 or the exit
 * code, with "cannot write FILE: why" on stderr (render.c).
 */
int fsp_output_open(struct fsp_cli *cli);
/* Close an output never rendered into, removing it if we created it. */
void fsp_output_close(struct fsp_cli *cli);
/* The document as -f and -o ask (render.c); 0 or the exit code. */
int fsp_render(struct fsp_cli *cli, const struct fsp_res_doc *doc);
/* A matrix as -f (table, json, html, kcidb) and -o ask. */
int fsp_render_matrix(struct fsp_cli *cli, const struct fsp_res_matrix *m);

/* --debian's kernels (debian_set.c): the set, resolved, in order. */
#define FSP_KSET_MAX 16
struct fsp_kset_entry {
	char label[16];		/* the series (6.12), host, ro-thp, -k */
	char suite[24];		/* the series' Debian suite, else "" */
	char spec[256];		/* a -k SPEC: debian:RELEASE, host, a path */
	char why[256];		/* why the series has no release, else "" */
};
struct fsp_kset {
	struct fsp_kset_entry e[FSP_KSET_MAX];
	int nr;
};
/* The set, then cli's -k: 0, or -1 when more than FSP_KSET_MAX. */
int fsp_debian_set(const struct fsp_cli *cli, struct fsp_kset *set);
void fsp_debian_set_print(const struct fsp_kset *set, FILE *out);

int fsp_cmd_env(struct fsp_cli *cli);
int fsp_cmd_list(struct fsp_cli *cli);
int fsp_cmd_run(struct fsp_cli *cli);
int fsp_cmd_check(struct fsp_cli *cli);
int fsp_cmd_compare(struct fsp_cli *cli);
int fsp_cmd_cleanup(struct fsp_cli *cli);
int fsp_cmd_vm(struct fsp_cli *cli);
int fsp_cmd_matrix(struct fsp_cli *cli);

/*
 * `run`'s document, not rendered (cmd_run.c): 0 and *doc (NULL if the
 * engine made none; fsp_sched_signal() says if a signal stopped it), or
 * the exit code. Needs root, as `run` does.
 */
int fsp_run_doc(struct fsp_cli *cli, struct fsp_res_doc **doc);

/* What one guest brought back (cmd_vm.c). */
struct fsp_vm_out {
	struct fsp_res_doc *doc;	/* NULL: no document came back */
	char release[256];	/* the guest kernel's, once known */
	char why[512];		/* why there is no document */
	char log[4096];		/* the console's splats, else its tail */
};

/*
 * `vm`'s document for cli->kernel (and --modules, --deb), not rendered:
 * 0 and out->doc, or the exit code with out->why (already on stderr)
 * and, if the guest ran, its console in out->log. A splat on the
 * console makes every profile of the document `error`.
 */
int fsp_vm_doc(struct fsp_cli *cli, struct fsp_vm_out *out);
#endif
