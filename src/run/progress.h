/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.h - progress on stderr for people watching a run: on a
 * terminal one status line, rewritten in place and erased at the end;
 * plain lines that stay with -v or on a terminal that cannot move the
 * cursor (TERM unset or dumb: a serial console); otherwise nothing. Workers and the parent write it alike: each message is one
 * write(2), so messages of parallel workers never mix within a line.
 */
#ifndef FSP_PROGRESS_H
#define FSP_PROGRESS_H

#include <stdarg.h>

enum fsp_progress_mode {
	FSP_PROGRESS_OFF,
	FSP_PROGRESS_LINES,	/* "fsprobe: ...\n" */
	FSP_PROGRESS_STATUS,	/* "\r\033[K" + a line cut to the terminal */
};

/* The mode for stderr: lines if verbose or on a dumb terminal, status
 * on another terminal, else off. Also this process's (and its
 * workers') mode for fsp_progress_clear. */
enum fsp_progress_mode fsp_progress_mode(int verbose);

void fsp_progress(enum fsp_progress_mode mode, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Erase the status line, if any: before a warning and at the end. */
void fsp_progress_clear(void);

/* "fsprobe: MESSAGE" on stderr, on a line of its own (no newline: the
 * caller ends it); the one way the program's messages start. */
void fsp_vwarn(const char *fmt, va_list ap);
/* fsp_vwarn and a newline. */
void fsp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
