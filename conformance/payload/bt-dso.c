// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bt-dso.c - the entry point of libbigtext.so, the DSO twin of bigtext:
 * same generated text, same report, but its text VMA is the one ld.so
 * maps at dlopen(), which is what a shared library's huge text depends
 * on. Built with -fvisibility=hidden; only this symbol is exported.
 */
#include "bigtext.h"

__attribute__((visibility("default"))) bt_entry_fn bigtext_entry;

int bigtext_entry(int argc, char **argv)
{
	return bt_run("dso", argc, argv);
}
