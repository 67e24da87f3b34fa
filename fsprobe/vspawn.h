/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vspawn.h - start a program (mkfs, a payload, a binary on the FS under
 * test) with vfork and execve. fork() would copy the worker's page
 * tables and write-protect every private page, which then faults once
 * more on the worker's next write to it, with TLB shootdowns to the
 * other CPU, for each of a profile's dozen children.
 */
#ifndef FSP_VSPAWN_H
#define FSP_VSPAWN_H

#include <sys/types.h>

/*
 * Run path with argv and envp (NULL: the caller's environment), stdin
 * from /dev/null, stdout and stderr on out_fd unless it is -1, in a
 * child killed when the calling thread dies (PR_SET_PDEATHSIG). 0 and
 * *pid = the child; or -errno and *pid = -1 when no child was made,
 * *pid = 0 when execve failed (that child is already reaped).
 */
int fsp_spawn(const char *path, char *const argv[], char *const envp[],
	      int out_fd, pid_t *pid);

#endif
