/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmsg.h - kernel log lines since a point in time, from /dev/kmsg, to
 * catch splats (WARNING:, BUG:, Oops, general protection) that a probe
 * triggered even when the probe itself saw nothing wrong (liburing's test
 * runner does the same after each test).
 */
#ifndef FSP_KMSG_H
#define FSP_KMSG_H

#include <stddef.h>

struct fsp_kmsg {
	int fd;			/* -1: /dev/kmsg not readable */
};

/* Open /dev/kmsg positioned after the newest record. */
int fsp_kmsg_open(struct fsp_kmsg *k);
/*
 * Read records since open (or the last scan); copy the splat lines into
 * buf (newline separated, truncated to len), leaving out those that name
 * a device not in ours (NULL-terminated names like "loop3", "dm-0"; NULL:
 * keep all). Returns the number of splat lines, or -errno.
 */
int fsp_kmsg_scan(struct fsp_kmsg *k, const char *const *ours, char *buf,
		  size_t len);
/*
 * The device a filesystem's message names in its prefix ("XFS (loop3):",
 * "BTRFS error (device dm-0):") into name; 1 if it names one, else 0.
 */
int fsp_kmsg_device(const char *msg, char *name, size_t len);
/* 0 if msg names a device that is not in ours (NULL: every one is). */
int fsp_kmsg_about_ours(const char *msg, const char *const *ours);
/*
 * Every record logged at or after since_us (CLOCK_MONOTONIC in
 * microseconds, the clock of the records' time stamps) into buf, one
 * "[seconds.micro] message" a line, as many as fit in len. Returns the
 * number of records, or -errno (EPERM: dmesg_restrict without
 * CAP_SYSLOG).
 */
int fsp_kmsg_since(long long since_us, char *buf, size_t len);
/*
 * The last message logged at or after since_us that names the block
 * device dev (a path: /dev/loop3; the kernel calls it "loop3", a dm
 * device "dm-0") in its prefix, without its time stamp, into buf.
 * 1 if there is one, 0 if not, -errno.
 */
int fsp_kmsg_last_about(const char *dev, long long since_us, char *buf,
			size_t len);
/* The same for the last message starting with one of prefixes (NULL-
 * terminated): "NFSD:", "svc:". */
int fsp_kmsg_last_prefixed(const char *const *prefixes, long long since_us,
			   char *buf, size_t len);
/* Is this one kernel log message a splat? */
int fsp_kmsg_is_splat(const char *msg);
void fsp_kmsg_close(struct fsp_kmsg *k);

#endif
