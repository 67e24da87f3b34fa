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
 */
#ifndef FSP_SLOTS_H
#define FSP_SLOTS_H

#include <pthread.h>

#include "journal.h"
#include "knob.h"
#include "loop.h"
#include "profile.h"
#include "runner.h"

enum { SLOTDEV_NONE, SLOTDEV_READY, SLOTDEV_RETIRED };

struct fsp_slot {
	char instance[96];	/* tracefs instance name */
	int journalled;		/* instance journalled: it may exist */
	pthread_t remover;	/* removing the instance */
	int removing;
	struct fsp_loop loop;
	struct fsp_knobs knobs;	/* the device's write_cache */
	int dev_state;		/* SLOTDEV_* */
	int dev_busy;		/* the running profile has the device */
	int wt_pending;		/* write-through still to be set */
};

/* Does the profile write to a loop device (not tmpfs, not a builder)? */
int fsp_slot_wants_device(const struct fsp_profile *p);
/*
 * Before a worker for prof starts in slot s: o->trace_instance and
 * o->lent (the device, attached and journalled on first use; NULL if it
 * cannot be had, and the profile attaches its own).
 */
void fsp_slot_lend(struct fsp_slot *s, int nr, struct fsp_journal *j,
		   const struct fsp_profile *prof, struct fsp_run_opts *o);
/* Once its worker runs: set the lent device to write-through. */
void fsp_slot_settle(struct fsp_slot *s, struct fsp_journal *j);
/* Its worker exited; ok = 0 if it died (a mount may still be going). */
void fsp_slot_returned(struct fsp_slot *s, int ok);
/* Nothing left wants a device: release it. */
void fsp_slot_release_device(struct fsp_slot *s);
/* Nothing left runs in the slot: start removing its instance. */
void fsp_slot_release_instance(struct fsp_slot *s);
/* End of run: release what is left and wait for the removals. */
void fsp_slots_finish(struct fsp_slot *slots, int nr);

#endif
