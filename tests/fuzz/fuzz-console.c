// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-console.c - libFuzzer target for the readers of kernel text that
 * fsprobe does not control: a vm guest's console (src/vm/vm_console.c,
 * the splat scan and its excerpt) and kernel log lines (fsprobe/kmsg.c,
 * the splat markers and the device a filesystem's line names). Checked
 * beside memory safety: the excerpt is a NUL-terminated string within
 * its buffer, a device name is non-empty, fits and is only name
 * characters, and a line naming a device is ours only when the list
 * holds that name.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg.h"
#include "vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_device(const char *line)
{
	char dev[32];
	const char *ours[2] = { "loop3", NULL };
	size_t n, i;

	if (!fsp_kmsg_device(line, dev, sizeof(dev)))
		return;
	n = strnlen(dev, sizeof(dev));
	if (!n || n >= sizeof(dev))
		abort();
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			     "0123456789-_.", dev[i]))
			abort();
	if (fsp_kmsg_about_ours(line, ours) != !strcmp(dev, "loop3"))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char excerpt[1024], *line;
	int hits;

	hits = fsp_vm_console_splats((const char *)data, size, excerpt,
				     sizeof(excerpt));
	if (hits < 0 || memchr(excerpt, '\0', sizeof(excerpt)) == NULL ||
	    (!hits && excerpt[0]))
		abort();
	line = malloc(size + 1);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	fsp_kmsg_is_splat(line);
	check_device(line);
	free(line);
	return 0;
}
