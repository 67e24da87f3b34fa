// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-filedata.c - the test-file data pattern: the word-at-a-time fill and
 * check agree with the byte-wise definition at every alignment, a single
 * flipped byte is found at its exact offset, the pattern never contains
 * a zero byte (so zeroed pages are always visible), and the zero check
 * reports the first non-zero byte. Files are created both through
 * io_uring and through the write(2) fallback, and read back whole.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "filedata.h"
#include "uring.h"
#include "tap.h"

static unsigned char ref_byte(uint64_t pos, uint32_t seed)
{
	return (unsigned char)(fsp_pattern_word(pos & ~7ULL, seed) >>
			       (8 * (pos & 7)));
}

/* fsp_file_create through one path; read back, check every byte. */
static void test_create(const char *uring)
{
	char path[] = "/tmp/fsprobe-t-filedata.XXXXXX";
	size_t size = (9UL << 20) + 4097, got = 0;
	unsigned char *buf = malloc(size + 1);
	uint64_t bad = 0;
	ssize_t n;
	int fd, ret;

	fsp_uring_want(*uring != '0');
	fd = mkstemp(path);
	if (fd < 0 || !buf) {
		tap_ok(0, "temp file: %m");
		free(buf);
		return;
	}
	close(fd);
	unlink(path);
	ret = fsp_file_create(path, size, 0x5a, 0600);
	TAP_EQ_LONG(ret, 0, *uring == '0' ? "create with write(2)" :
		    "create with io_uring (or its fallback)");
	fd = open(path, O_RDONLY);
	while (fd >= 0 && (n = read(fd, buf + got, size + 1 - got)) > 0)
		got += n;
	TAP_EQ_LONG(got, size, "file has exactly the size asked for");
	tap_ok(got == size && !fsp_pattern_check(buf, 0, size, 0x5a, &bad),
	       "every byte is the pattern (first bad %llu)",
	       (unsigned long long)bad);
	if (fd >= 0)
		close(fd);
	unlink(path);
	free(buf);
	fsp_uring_want(0);
}

/*
 * Across page boundaries, where the per-page mix changes: fill and check
 * agree with the byte-wise definition, a flipped byte in any page is
 * found at its offset, and a page's data at another page's offset (a
 * stale or misplaced page) does not match.
 */
static void test_pages(void)
{
	static const unsigned int offs[] = { 0, 1, 4088, 4093, 4096, 8191 };
	size_t len = 3 * 4096 + 13, i, k, flip;
	unsigned char *a = malloc(len), *b = malloc(len);
	int mism = 0, missed = 0, wrong_at = 0;
	uint64_t bad;

	for (k = 0; a && b && k < sizeof(offs) / sizeof(offs[0]); k++) {
		fsp_pattern_fill(a, offs[k], len, 9);
		for (i = 0; i < len; i++)
			mism += a[i] != ref_byte(offs[k] + i, 9);
		mism += fsp_pattern_check(a, offs[k], len, 9, NULL) != 0;
		for (flip = 5; flip < len; flip += 2047) {
			a[flip] ^= 0x40;
			bad = 0;
			if (fsp_pattern_check(a, offs[k], len, 9, &bad) == 0)
				missed++;
			else if (bad != offs[k] + flip)
				wrong_at++;
			a[flip] ^= 0x40;
		}
	}
	TAP_EQ_LONG(mism, 0, "across pages: fill and check agree with the "
		    "byte-wise pattern");
	TAP_EQ_LONG(missed, 0, "across pages: a flipped byte is always caught");
	TAP_EQ_LONG(wrong_at, 0, "across pages: and reported at its offset");
	if (a && b) {
		fsp_pattern_fill(b, 4096, 4096, 9);
		tap_ok(fsp_pattern_check(b, 8192, 4096, 9, NULL) != 0 &&
		       fsp_pattern_check(b, 0, 4096, 9, NULL) != 0,
		       "a page does not match at another page's offset");
		memset(b, 0, len);
		b[len - 1] = 2;
		i = 0;
		mism = fsp_zero_check(b, len, &i);
		tap_ok(mism != 0 && i == len - 1, "a non-zero last byte after "
		       "12 KiB of zeros is found (%zu)", i);
	}
	free(a);
	free(b);
}

int main(void)
{
	unsigned char a[300], z[64];
	int mism = 0, missed = 0, wrong_at = 0, zeros = 0;
	unsigned int off, len, i;
	uint64_t bad;
	size_t zb = 0;
	int ret;

	for (off = 0; off < 17; off++) {
		for (len = 0; len < 280; len += 7) {
			fsp_pattern_fill(a, off, len, 7);
			for (i = 0; i < len; i++) {
				mism += a[i] != ref_byte(off + i, 7);
				zeros += !a[i];
			}
			mism += fsp_pattern_check(a, off, len, 7, NULL) != 0;
			if (len < 4)
				continue;
			a[len - 2] ^= 0x10;
			bad = 0;
			if (fsp_pattern_check(a, off, len, 7, &bad) == 0)
				missed++;
			else if (bad != off + len - 2)
				wrong_at++;
		}
	}
	TAP_EQ_LONG(mism, 0, "fill and check agree with the byte-wise pattern");
	TAP_EQ_LONG(missed, 0, "a flipped byte is always caught");
	TAP_EQ_LONG(wrong_at, 0, "and reported at its exact offset");
	TAP_EQ_LONG(zeros, 0, "the pattern has no zero byte");
	test_pages();
	fsp_pattern_fill(a, 0, 64, 1);
	tap_ok(fsp_pattern_check(a, 0, 64, 2, NULL) != 0,
	       "another seed does not match");
	memset(z, 0, sizeof(z));
	TAP_EQ_LONG(fsp_zero_check(z, sizeof(z), NULL), 0, "zeros are zero");
	z[37] = 1;
	ret = fsp_zero_check(z, sizeof(z), &zb);
	tap_ok(ret != 0 && zb == 37, "first non-zero byte found at 37 (%zu)",
	       zb);
	tap_ok(!fsp_uring_wanted(), "io_uring is off until asked for, "
	       "whatever the environment says");
	test_create("0");	/* write(2): the default */
	test_create("1");	/* io_uring where the kernel allows it */
	return tap_done();
}
