// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - fsprobe's entry point: parse the command line and dispatch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "uring.h"

int main(int argc, char **argv)
{
	const struct fsp_command *c;
	struct fsp_cli cli;
	const char *uring = getenv("FSPROBE_URING");
	int ret;

	/* FSPROBE_URING=1: write test files through io_uring (uring.h). */
	fsp_uring_want(uring && *uring && strcmp(uring, "0"));
	/* Before any unshare (cli.h says why). */
	fsp_in_build_tree();
	ret = fsp_cli_parse(argc, argv, &cli);
	if (ret >= 0) {
		free(cli.args);	/* the words taken before the error */
		return ret;
	}
	for (c = fsp_commands; c->name; c++)
		if (c->id == cli.cmd)
			break;
	/* Output checked before any work: run, check, vm and matrix. */
	ret = 0;
	if (cli.cmd & (CMD_RUN | CMD_CHECK | CMD_VM | CMD_MATRIX))
		ret = fsp_output_open(&cli);
	if (!ret)
		ret = c->fn(&cli);
	fsp_output_close(&cli);
	free(cli.args);
	return ret;
}
