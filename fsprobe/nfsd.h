/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfsd.h - a kernel NFS server of the run's own, for an NFS profile: in
 * a network namespace the profile's worker makes (so no other nfsd,
 * export, address or port of the machine is seen or touched), nfsd is
 * started through its control filesystem and one directory, the
 * profile's own mount, is exported as the NFSv4 root by writing the
 * kernel's export caches directly, as rpc.mountd would answer them. No
 * daemon, no /etc/exports, no rpcbind (docs/safety.md).
 */
#ifndef FSP_NFSD_H
#define FSP_NFSD_H

#include <limits.h>

struct fsp_nfsd {
	char ctl[PATH_MAX];	/* where nfsd's control fs is mounted */
	int threads;		/* started with this many; 0: not started */
	const char *file;	/* the control or cache file written last */
};

/*
 * A network namespace of our own for the calling process, its loopback
 * interface up (the client reaches the server at 127.0.0.1).
 */
int fsp_nfsd_netns(void);
/*
 * Start nfsd through its control fs, which the caller mounted on ctl in
 * the namespace: NFSv4 only (v3 would need rpcbind), the shortest
 * lease, the grace period ended at once.
 */
int fsp_nfsd_start(struct fsp_nfsd *n, const char *ctl);
/* Export path (a mount of ours) read-write, no root squash, fsid=0. */
int fsp_nfsd_export(struct fsp_nfsd *n, const char *path);
/*
 * Stop nfsd and forget the export (its references on the exported
 * mount go with it). Unmounting the control fs, the caller's part, stops
 * nfsd too (nfsd_umount), also when a killed run's namespace goes.
 */
int fsp_nfsd_stop(struct fsp_nfsd *n);

#endif
