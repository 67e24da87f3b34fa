// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * progress.c - progress on stderr (progress.h): the status line of a
 * terminal, cut to its width so that it never wraps (a wrapped line
 * cannot be rewritten with \r), or plain lines.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "progress.h"
#include "util.h"

#define ERASE "\r\033[K"

static enum fsp_progress_mode this_mode;

enum fsp_progress_mode fsp_progress_mode(int verbose)
{
	const char *term = getenv("TERM");

	if (verbose || (isatty(STDERR_FILENO) && (!term || !*term ||
						     !strcmp(term, "dumb"))))
		this_mode = FSP_PROGRESS_LINES;
	else if (isatty(STDERR_FILENO))
		this_mode = FSP_PROGRESS_STATUS;
	else
		this_mode = FSP_PROGRESS_OFF;
	return this_mode;
}

static size_t columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || ws.ws_col < 20)
		return 80;
	return ws.ws_col;
}

void fsp_progress(enum fsp_progress_mode mode, const char *fmt, ...)
{
	char buf[512];
	size_t pre, len, max;
	va_list ap;

	if (mode == FSP_PROGRESS_OFF)
		return;
	pre = mode == FSP_PROGRESS_STATUS ? strlen(ERASE) : 0;
	memcpy(buf, ERASE, pre);
	len = snprintf(buf + pre, sizeof(buf) - pre - 1, "fsprobe: ");
	va_start(ap, fmt);
	vsnprintf(buf + pre + len, sizeof(buf) - pre - len - 1, fmt, ap);
	va_end(ap);
	len = strlen(buf);
	if (mode == FSP_PROGRESS_STATUS) {
		/* One column short of the edge: no wrap, no auto-margin. */
		max = pre + columns() - 1;
		if (len > max)
			len = max;
	} else {
		buf[len++] = '\n';
	}
	fsp_write_all(STDERR_FILENO, buf, len);
}

void fsp_progress_clear(void)
{
	if (this_mode == FSP_PROGRESS_STATUS)
		fsp_write_all(STDERR_FILENO, ERASE, strlen(ERASE));
}

void fsp_vwarn(const char *fmt, va_list ap)
{
	fsp_progress_clear();
	fputs("fsprobe: ", stderr);
	vfprintf(stderr, fmt, ap);
}

void fsp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fsp_vwarn(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
