/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * utf8.h - the UTF-8 decoder the markup renderers (HTML, JUnit XML) share
 * to pass well-formed text through and replace the rest with U+FFFD.
 */
#ifndef FSP_REPORT_UTF8_H
#define FSP_REPORT_UTF8_H

#include <stddef.h>

#define FSP_UTF8_REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

/*
 * Length of the well-formed UTF-8 sequence at s (at most left bytes), its
 * code point in *cp; 0 if it is malformed, overlong or beyond U+10FFFF.
 * Surrogates decode: each caller decides what it refuses.
 */
size_t fsp_utf8_seq(const unsigned char *s, size_t left, unsigned int *cp);

static inline int fsp_utf8_surrogate(unsigned int cp)
{
	return cp >= 0xd800 && cp <= 0xdfff;
}

#endif
