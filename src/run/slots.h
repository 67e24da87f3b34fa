/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slots.h - what a worker slot holds for the whole run, for every
 * profile it runs: a tracefs instance (a removal costs ~45 ms of RCU
 * waits) and a loop device lent to each profile that writes one.
 * Attaching a device, and setting and restoring its write_cache (a
 * queue freeze of 12-18 ms each), then happen once per slot instead of
 * once per profile; the profile empties and sizes the image again
 * (fsp_loop_reset). Both go as soon as no profile left needs them, and
 * the journal's unwind removes them after a crash.
 *
 * This module owns both for their whole life: it names and journals
 * them before they exist, makes them, lends them to each worker as a
 * lease (fsp_run_profile; the cases see the instance through
 * fsp_target.trace), takes them back, releases and removes them. The
 * parent tells a slot's worker that no profile is left to start by one
 * byte on the slot's pipe: that profile is then the slot's last, and it
 * removes the instance itself while its remaining cases run.
 */
#ifndef FSP_SLOTS_H
#define FSP_SLOTS_H

#include <pthread.h>

#include "case.h"
#include "journal.h"
#include "knob.h"
#include "loop.h"
#include "profile.h"
#include "trace.h"

enum { SLOTDEV_NONE, SLOTDEV_READY, SLOTDEV_RETIRED };

struct fsp_slot {
	char instance[96];	/* tracefs instance name */
	int journalled;		/* instance journalled: it may exist */
	pthread_t remover;	/* removing the instance */
	int removing;
	int has_pipe;		/* last[] is open */
	int last[2];		/* pipe: "no profile is left to start" */
	int told;		/* that byte is written */
	struct fsp_loop loop;
	struct fsp_knobs knobs;	/* the device's write_cache */
	int dev_state;		/* SLOTDEV_* */
	int dev_busy;		/* the running profile has the device */
	int wt_pending;		/* write-through still to be set */
};

/*
 * What one worker gets from its slot, a copy in the worker's process:
 * the tracefs instance, through the handle the cases see as
 * fsp_target.trace, the loop device, and the read end of the pipe.
 */
struct fsp_slot_lease {
	struct fsp_trace_handle handle;	/* for fsp_target.trace */
	const char *instance;	/* the slot's, or NULL: one of its own */
	struct fsp_journal *j;	/* NULL: nothing journalled (check DIR) */
	const struct fsp_loop *loop;	/* the slot's device, or NULL */
	int last_fd;		/* a byte here: the slot's last profile */
	struct fsp_trace tr;	/* the instance, attached on first use */
	int state;		/* 0: none, 1: open, 2: closing, <0: -errno */
};

/*
 * A lease with no device, never the slot's last: the tracefs instance
 * named instance (made if missing: a slot's), or if that is NULL one of
 * the profile's own, fsprobe-PID, journalled in j unless j is NULL.
 * fsp_slot_lend fills in the rest.
 */
void fsp_slot_lease_init(struct fsp_slot_lease *l, struct fsp_journal *j,
			 const char *instance);
/* In the worker: is this the slot's last profile? Never blocks. */
int fsp_slot_lease_last(const struct fsp_slot_lease *l);
/*
 * Release starts the instance's removal in the background (it sleeps for
 * RCU grace periods); wait joins it. The runner waits after unmounting.
 * A slot's instance is left to the parent, unless last says that no
 * profile will use it after this one: then it goes here, while the
 * profile unmounts, instead of after the worker has exited. A release
 * while the removal runs is a no-op; a case asking for the instance
 * after it gets one again.
 */
void fsp_slot_lease_release(struct fsp_slot_lease *l, int last);
void fsp_slot_lease_wait(struct fsp_slot_lease *l);

/* Does the profile write to a loop device (not tmpfs, not a builder)? */
int fsp_slot_wants_device(const struct fsp_profile *p);
/*
 * Before a worker for prof starts in slot s: the lease l, with the
 * slot's instance (named and journalled on first use) and device
 * (attached and journalled on first use; NULL if it cannot be had, and
 * the profile attaches its own).
 */
void fsp_slot_lend(struct fsp_slot *s, int nr, struct fsp_journal *j,
		   const struct fsp_profile *prof, struct fsp_slot_lease *l);
/* No profile is left to start: tell each slot's worker, once. */
void fsp_slots_nothing_left(struct fsp_slot *slots, int nr);
/* Once its worker runs: set the lent device to write-through. */
void fsp_slot_settle(struct fsp_slot *s, struct fsp_journal *j);
/* Its worker exited; ok = 0 if it died (a mount may still be going). */
void fsp_slot_returned(struct fsp_slot *s, int ok);
/* Nothing left wants a device: release it. */
void fsp_slot_release_device(struct fsp_slot *s);
/* Nothing left runs in the slot: start removing its instance. */
void fsp_slot_release_instance(struct fsp_slot *s);
/* End of run: release what is left, wait for the removals, close. */
void fsp_slots_finish(struct fsp_slot *slots, int nr);

#endif
