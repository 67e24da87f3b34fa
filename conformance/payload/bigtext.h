/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bigtext.h - what the payload programs share: the generated big text
 * (bt_table[] of bt_nfunc functions, from gen-text.awk) and bt_run(), the
 * report-and-work routine that the bigtext executable calls from main()
 * and libbigtext.so from its entry point. The payloads stand alone: they
 * do not link the fsprobe library, so they run from any filesystem.
 */
#ifndef FSP_BIGTEXT_H
#define FSP_BIGTEXT_H

/* Run n mixing blocks of one function (n == 0: all of them). */
typedef unsigned long bt_fn(unsigned long x, unsigned int n);

extern bt_fn *const bt_table[];
extern const unsigned int bt_nfunc, bt_nblock;

/*
 * Find the text VMA holding bt_table's functions, hint / populate /
 * collapse it as argv says, run the work, print the one-line report.
 * kind is "exe" or "dso". Returns the exit status.
 */
int bt_run(const char *kind, int argc, char **argv);

/* The DSO's entry point, looked up by dsoload with dlsym(). */
#define BT_DSO_ENTRY "bigtext_entry"
typedef int bt_entry_fn(int argc, char **argv);

#endif
