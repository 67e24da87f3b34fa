// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfsd.c - the kernel NFS server of one NFS profile (nfsd.h): a network
 * namespace with its loopback up, nfsd's control files written in the
 * order rpc.nfsd writes them, and the three export cache entries
 * rpc.mountd would write for "PATH 127.0.0.1(rw,no_root_squash,fsid=0,
 * insecure,async,no_subtree_check)", written once with no expiry. The
 * formats are the kernel's (fs/nfsd/export.c svc_export_parse and
 * expkey_parse, net/sunrpc/svcauth_unix.c ip_map_parse).
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nfsd.h"
#include "util.h"

#define NFSD_THREADS	2
#define NFSD_DOMAIN	"fsprobe"	/* the auth domain of our one client */
#define NFSD_CLIENT	"127.0.0.1"
#define NEVER		"2147483647"	/* mountd's expiry for "no expiry" */

/* include/uapi/linux/nfsd/export.h */
#define NFSEXP_INSECURE_PORT	0x0002
#define NFSEXP_ASYNC		0x0010
#define NFSEXP_NOSUBTREECHECK	0x0400
#define NFSEXP_FSID		0x2000
#define EXPORT_FLAGS	(NFSEXP_INSECURE_PORT | NFSEXP_ASYNC | \
			 NFSEXP_NOSUBTREECHECK | NFSEXP_FSID)
#define RPC_AUTH_UNIX	1
#define FSID_NUM	1		/* fs/nfsd/nfsfh.h: a 4-byte fsid */

int fsp_nfsd_netns(void)
{
	struct ifreq ifr;
	int fd, ret = 0;

	if (unshare(CLONE_NEWNET))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	fsp_strcpy(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		ret = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!ret && ioctl(fd, SIOCSIFFLAGS, &ifr))
		ret = -errno;
	close(fd);
	return ret;
}

/* One of nfsd's control files, in the control fs at n->ctl. */
static int ctl_write(struct fsp_nfsd *n, const char *file,
		     const char *text)
{
	char path[PATH_MAX + 32];
	int ret = fsp_fmt(path, sizeof(path), "%s/%s", n->ctl, file);

	n->file = file;
	return ret ? ret : fsp_write_text(path, text);
}

int fsp_nfsd_start(struct fsp_nfsd *n, const char *ctl)
{
	char threads[16];
	int ret;

	ret = fsp_strcpy(n->ctl, sizeof(n->ctl), ctl);
	if (ret)
		return ret;
	/* Before the first thread: v4 needs no rpcbind, v3 does. */
	ret = ctl_write(n, "versions", "-3 +4 +4.1 +4.2\n");
	if (!ret)
		ret = ctl_write(n, "nfsv4leasetime", "10\n");
	if (!ret)
		ret = ctl_write(n, "nfsv4gracetime", "10\n");
	/* A listener of our own: nfsd may make none itself. */
	if (!ret)
		ret = ctl_write(n, "portlist", "tcp 2049\n");
	snprintf(threads, sizeof(threads), "%d\n", NFSD_THREADS);
	if (!ret)
		ret = ctl_write(n, "threads", threads);
	if (ret)
		return ret;
	n->threads = NFSD_THREADS;
	/*
	 * No client can have state to reclaim from a server this new: the
	 * grace period may end now. Where the kernel refuses (EBUSY), it
	 * ends after the 10 s written above.
	 */
	ctl_write(n, "v4_end_grace", "Y\n");
	n->file = NULL;
	return 0;
}

static int cache_write(struct fsp_nfsd *n, const char *cache,
		       const char *text)
{
	char path[128];

	n->file = cache;
	snprintf(path, sizeof(path), "/proc/net/rpc/%s/channel", cache);
	return fsp_write_text(path, text);
}

/* A path as one word of the cache protocol: octal escapes (qword_add). */
static void put_word(char *out, size_t len, const char *s)
{
	size_t used = 0;

	for (; *s && used + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == '\\' || c >= 0x7f)
			used += snprintf(out + used, len - used, "\\%03o", c);
		else
			out[used++] = (char)c;
	}
	out[used] = '\0';
}

int fsp_nfsd_export(struct fsp_nfsd *n, const char *path)
{
	char word[PATH_MAX * 4 + 1], line[sizeof(word) + 128];
	int ret;

	put_word(word, sizeof(word), path);
	ret = cache_write(n, "auth.unix.ip", "nfsd " NFSD_CLIENT " " NEVER " "
			  NFSD_DOMAIN "\n");
	if (!ret)
		ret = fsp_fmt(line, sizeof(line), NFSD_DOMAIN " %d \\x00000000 "
			      NEVER " %s\n", FSID_NUM, word);
	if (!ret)
		ret = cache_write(n, "nfsd.fh", line);
	/* The flavor's flags may differ only in what secinfo governs. */
	if (!ret)
		ret = fsp_fmt(line, sizeof(line), NFSD_DOMAIN " %s " NEVER
			      " %d 65534 65534 0 secinfo 1 %d %d\n", word,
			      EXPORT_FLAGS, RPC_AUTH_UNIX, EXPORT_FLAGS);
	return ret ? ret : cache_write(n, "nfsd.export", line);
}

/* Every entry of the caches goes ("exportfs -f"), with its references. */
static void flush_caches(void)
{
	static const char *const caches[] = {
		"nfsd.export", "nfsd.fh", "auth.unix.ip",
	};
	char path[128];
	size_t i;

	for (i = 0; i < FSP_ARRAY_SIZE(caches); i++) {
		snprintf(path, sizeof(path), "/proc/net/rpc/%s/flush",
			 caches[i]);
		fsp_write_text(path, "1\n");
	}
}

int fsp_nfsd_stop(struct fsp_nfsd *n)
{
	int ret = 0;

	if (n->threads)
		ret = ctl_write(n, "threads", "0\n");
	n->threads = 0;
	flush_caches();
	return ret;
}
