// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * utf8.c - one UTF-8 decoder for the renderers that write markup: a
 * document's strings come from a kernel, a guest or a file and may hold
 * any bytes.
 */
#include "utf8.h"

/* The lead byte: sequence length and its payload bits, 0 if invalid. */
static size_t lead(unsigned char c, unsigned int *cp)
{
	if (c >= 0xc2 && c <= 0xdf) {
		*cp = c & 0x1f;
		return 2;
	}
	if (c >= 0xe0 && c <= 0xef) {
		*cp = c & 0x0f;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		*cp = c & 0x07;
		return 4;
	}
	return 0;
}

size_t fsp_utf8_seq(const unsigned char *s, size_t left, unsigned int *cp)
{
	size_t n, i;

	*cp = s[0];
	if (s[0] < 0x80)
		return 1;
	n = lead(s[0], cp);
	if (!n || n > left)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms and beyond U+10FFFF are not UTF-8 at all. */
	if ((n == 3 && *cp < 0x800) || (n == 4 && *cp < 0x10000) ||
	    *cp > 0x10ffff)
		return 0;
	return n;
}
