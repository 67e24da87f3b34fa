// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - fsprobe's entry point: parse the command line and dispatch.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int main(int argc, char **argv)
{
	const struct fsp_command *c;
	struct fsp_cli cli;
	int ret;

	ret = fsp_cli_parse(argc, argv, &cli);
	if (ret >= 0)
		return ret;
	for (c = fsp_commands; c->name; c++)
		if (c->id == cli.cmd)
			break;
	ret = c->fn(&cli);
	free(cli.args);
	return ret;
}
