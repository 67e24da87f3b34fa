// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * render.c - the document to the output the command line asked for:
 * -f picks the renderer, -o the file, -v how much the table shows; the
 * table is in colour on a terminal unless NO_COLOR is set. The -o file is
 * opened before the command's work starts (main.c), so that a path that
 * cannot be written fails at once, and emptied only when rendered into.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"

/* https://no-color.org: present and not empty turns colour off. */
static int want_colour(const struct fsp_cli *cli, FILE *out)
{
	const char *nc = getenv("NO_COLOR");

	if (nc && *nc)
		return 0;
	return out == stdout && !cli->output && isatty(STDOUT_FILENO);
}

int fsp_output_open(struct fsp_cli *cli)
{
	struct stat st;
	int fd;

	if (!cli->output || cli->out)
		return 0;
	cli->out_created = stat(cli->output, &st) != 0;
	/* Not truncated yet: a run that stops early leaves the file be. */
	fd = open(cli->output, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd >= 0)
		cli->out = fdopen(fd, "w");
	if (!cli->out) {
		fsp_warn("cannot write %s: %s", cli->output, strerror(errno));
		if (fd >= 0)
			close(fd);
		return FSP_EXIT_USAGE;
	}
	return 0;
}

void fsp_output_close(struct fsp_cli *cli)
{
	if (!cli->out)
		return;
	fclose(cli->out);
	cli->out = NULL;
	if (cli->out_created)
		unlink(cli->output);
}

/* A device (-o /dev/null, /dev/stderr) has nothing to empty. */
static int is_regular(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode);
}

/* The stream to render into: stdout, or -o's file emptied now. */
static int begin(struct fsp_cli *cli, FILE **outp)
{
	FILE *out = stdout;
	int ret = 0;

	if (cli->output) {
		ret = fsp_output_open(cli);
		if (ret)
			return ret;
		out = cli->out;
		cli->out = NULL;	/* rendered into: closed here */
		if (is_regular(fileno(out)) && ftruncate(fileno(out), 0))
			ret = -errno;
		if (ret) {
			fclose(out);
			fsp_warn("cannot write %s: %s", cli->output,
				 strerror(-ret));
			return FSP_EXIT_USAGE;
		}
	}
	*outp = out;
	return 0;
}

/* Flush and close what begin() gave; 0 or the exit code. */
static int finish(FILE *out, int ret)
{
	if (fflush(out) || ferror(out))
		ret = -EIO;
	if (out != stdout && fclose(out))
		ret = -EIO;
	if (ret) {
		fsp_warn("writing the report: %s", strerror(-ret));
		return FSP_EXIT_USAGE;
	}
	return 0;
}

static struct fsp_kcidb_opts kcidb_opts(const struct fsp_cli *cli)
{
	return (struct fsp_kcidb_opts){
		.origin = cli->kcidb_origin ? cli->kcidb_origin : "fsprobe",
		.checkout = cli->kcidb_checkout,
	};
}

/* The checks every renderer shares, then the output opened. */
static int open_output(struct fsp_cli *cli,
		       const struct fsp_kcidb_opts *kopts,
		       struct fsp_render_opts *o, FILE **out)
{
	int ret;

	if (cli->format == FMT_KCIDB && !fsp_kcidb_origin_valid(kopts->origin))
		return fsp_usage_error("--kcidb-origin takes [a-z0-9_]+, not "
				       "'%s'", kopts->origin);
	ret = begin(cli, out);
	if (ret)
		return ret;
	o->colour = want_colour(cli, *out);
	return 0;
}

/* What a writer needs besides the stream and what it writes. */
struct render_ctx {
	enum fsp_format format;
	struct fsp_render_opts o;
	struct fsp_kcidb_opts kopts;
};

/* One report, or one matrix of them, in the format asked for. */
typedef int (*render_fn)(FILE *out, const void *what,
			 const struct render_ctx *c);

static int render_with(struct fsp_cli *cli, render_fn write, const void *what)
{
	struct render_ctx c = {
		.format = cli->format,
		.o = { .verbose = cli->verbose },
		.kopts = kcidb_opts(cli),
	};
	FILE *out = NULL;
	int ret;

	ret = open_output(cli, &c.kopts, &c.o, &out);
	if (ret)
		return ret;
	return finish(out, write(out, what, &c));
}

static int write_doc(FILE *out, const void *what, const struct render_ctx *c)
{
	const struct fsp_res_doc *doc = what;

	switch (c->format) {
	case FMT_TABLE:
		return fsp_report_table(out, doc, &c->o);
	case FMT_JSON:
		return fsp_report_json(out, doc);
	case FMT_KTAP:
		return fsp_report_ktap(out, doc);
	case FMT_JUNIT:
		return fsp_report_junit(out, doc);
	case FMT_HTML:
		return fsp_report_html(out, doc);
	case FMT_KCIDB:
		return fsp_report_kcidb(out, &doc, 1, &c->kopts);
	case FMT_LAVA:
		return fsp_report_lava(out, doc);
	}
	return -EINVAL;
}

/* A matrix has JSON, HTML and KCIDB of its own; any other is the table. */
static int write_matrix(FILE *out, const void *what,
			const struct render_ctx *c)
{
	const struct fsp_res_matrix *m = what;

	if (c->format == FMT_JSON)
		return fsp_report_matrix_json(out, m);
	if (c->format == FMT_HTML)
		return fsp_report_matrix_html(out, m);
	if (c->format == FMT_KCIDB)
		return fsp_report_kcidb(out, (const struct fsp_res_doc *const *)
					m->kernels, m->nr, &c->kopts);
	return fsp_report_matrix_table(out, m, &c->o);
}

int fsp_render(struct fsp_cli *cli, const struct fsp_res_doc *doc)
{
	return render_with(cli, write_doc, doc);
}

int fsp_render_matrix(struct fsp_cli *cli, const struct fsp_res_matrix *m)
{
	return render_with(cli, write_matrix, m);
}
