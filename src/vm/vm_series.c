// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_series.c - which Debian kernel release is the newest of a series:
 * the release names (6.12.118+deb12-amd64, 6.1.0-57-amd64, sid's
 * 7.3-amd64 for 7.3-rc7) ordered as dpkg orders versions, the generic
 * amd64 flavour only (no -rt, -cloud, -dbg, -unsigned). Pure text in,
 * answer out: apt-cache's search output or a list of releases, so that
 * the choice is tested on recorded output without apt or a network.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "util.h"
#include "vm.h"

#define FLAVOUR "-amd64"
#define DIGIT(c) isdigit((unsigned char)(c))

/* dpkg's order of one character: ~ first, then the end, letters, rest. */
static int order(int c)
{
	if (DIGIT(c))
		return 0;
	if (isalpha((unsigned char)c))
		return c;
	if (c == '~')
		return -1;
	return c ? c + 256 : 0;
}

/* dpkg's verrevcmp: non-digit runs by order(), digit runs by value. */
int fsp_vm_vercmp(const char *a, const char *b)
{
	while (*a || *b) {
		int first = 0;

		while ((*a && !DIGIT(*a)) || (*b && !DIGIT(*b))) {
			int d = order(*a) - order(*b);

			if (d)
				return d;
			a++;
			b++;
		}
		while (*a == '0')
			a++;
		while (*b == '0')
			b++;
		while (DIGIT(*a) && DIGIT(*b)) {
			if (!first)
				first = *a - *b;
			a++;
			b++;
		}
		if (DIGIT(*a))
			return 1;
		if (DIGIT(*b))
			return -1;
		if (first)
			return first;
	}
	return 0;
}

static int ends_with(const char *s, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	return n >= t && !strncmp(s + n - t, tail, t);
}

/*
 * Is release kver of series: "6.12" takes 6.12.N... and 6.12.0-N-amd64
 * (never 6.120 nor the -rc); "7.3-rc" takes 7.3-amd64, 7.3.0-rcN...
 * and 7.3~rcN...; the generic amd64 flavour only.
 */
int fsp_vm_series_match(const char *kver, const char *series)
{
	size_t n = strlen(kver), sl = strlen(series), base = sl;
	int rc = ends_with(series, sl, "-rc");
	const char *r;

	if (!ends_with(kver, n, FLAVOUR))
		return 0;
	n -= strlen(FLAVOUR);
	if (ends_with(kver, n, "-rt") || ends_with(kver, n, "-cloud"))
		return 0;
	if (rc)
		base -= 3;
	if (!base || strncmp(kver, series, base))
		return 0;
	r = kver + base;
	if (rc)
		return *r == '-' || *r == '~' || !strncmp(r, ".0-rc", 5);
	return *r == '.' && DIGIT(r[1]);
}

/*
 * The newest release of series among text's lines, each "RELEASE",
 * "linux-image-RELEASE ..." or "linux-binary-RELEASE ..." (apt-cache
 * search's "NAME - DESCRIPTION"): 0 and kver, or -ENOENT.
 */
int fsp_vm_series_pick(const char *text, const char *series, char *kver,
		       size_t len)
{
	static const char *const prefix[] = { "linux-image-", "linux-binary-" };
	char name[192], best[192] = "";
	const char *line, *end, *s;
	size_t n, i;

	for (line = text; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		n = strcspn(line, " \t\n");
		s = line;
		for (i = 0; i < FSP_ARRAY_SIZE(prefix); i++)
			if (!strncmp(s, prefix[i], strlen(prefix[i]))) {
				n -= strlen(prefix[i]);
				s += strlen(prefix[i]);
				break;
			}
		if (!n || n >= sizeof(name))
			continue;
		memcpy(name, s, n);
		name[n] = '\0';
		if (fsp_vm_series_match(name, series) &&
		    (!best[0] || fsp_vm_vercmp(name, best) > 0))
			fsp_strcpy(best, sizeof(best), name);
	}
	if (!best[0])
		return -ENOENT;
	return fsp_strcpy(kver, len, best);
}
