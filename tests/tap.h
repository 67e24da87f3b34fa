/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tap.h - a tiny TAP producer for the C unit tests run by automake's
 * tap-driver: plan, ok, skip, and a whole-file skip ("1..0 # SKIP why",
 * exit 0: under tap-driver exit 77 would count as an ERROR).
 */
#ifndef FSP_TAP_H
#define FSP_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline void tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

__attribute__((format(printf, 2, 3)))
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

__attribute__((format(printf, 1, 2)))
static inline void tap_skip(const char *fmt, ...)
{
	va_list ap;

	printf("ok %d # SKIP ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Plan at the end ("done testing"), exit status 0: failures are in the TAP. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return 0;
}

/* Functions, not macros: each argument is evaluated exactly once. */
static inline int TAP_EQ_LONG(long got, long want, const char *name)
{
	return tap_ok(got == want, "%s (got %ld, want %ld)", name, got, want);
}

static inline int TAP_EQ_STR(const char *got, const char *want,
			     const char *name)
{
	return tap_ok(got && want && !strcmp(got, want),
		      "%s (got '%s', want '%s')", name, got ? got : "(null)",
		      want ? want : "(null)");
}

/* Is line (a whole line) in text? */
static inline int tap_has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while (p && (p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0'))
			return 1;
		p += 1;
	}
	return 0;
}

#endif
