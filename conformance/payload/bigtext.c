// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bigtext.c - the executable payload: a > 4 MiB text segment linked with
 * 2 MiB max-page-size, so that exec'd from a filesystem whose page cache
 * reaches PMD-order folios its text can be mapped by PMD. All it does is
 * bt_run(): report on its own text VMA and run the work (bt-run.c).
 */
#include "bigtext.h"

int main(int argc, char **argv)
{
	return bt_run("exe", argc, argv);
}
