// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * slots.c - a worker slot's tracefs instance and loop device (slots.h).
 * The device's image is slotN.img in the run directory, journalled
 * before it exists like a profile's; the device is held open by the
 * parent and stays bound to it after a SIGKILL (loop.h), until the
 * journal's unwind restores its write_cache, detaches it and removes
 * the image. The instance is named fsprobe-RUNID-sN and journalled too;
 * the worker makes it on first use (fsp_trace_attach), the parent or the
 * slot's last worker removes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"
#include "slots.h"
#include "util.h"

/* The lease's instance, attached or made on first use (case.h). */
static struct fsp_trace *lease_trace(struct fsp_trace_handle *h, int *err)
{
	struct fsp_slot_lease *l = (struct fsp_slot_lease *)
		((char *)h - offsetof(struct fsp_slot_lease, handle));
	char name[64], root[128];
	int mounted, ret;

	fsp_slot_lease_wait(l);	/* a closing instance has our name */
	if (!l->state && l->instance) {
		/*
		 * The slot's: made by the first profile of the slot, taken
		 * over by the next ones, removed once, journalled already.
		 */
		ret = fsp_trace_attach(&l->tr, l->instance, 256);
		l->state = ret ? ret : 1;
	}
	if (!l->state) {
		snprintf(name, sizeof(name), "fsprobe-%d", (int)getpid());
		ret = fsp_trace_find_root(root, sizeof(root), &mounted);
		if (!ret && l->j)
			ret = fsp_journal_add(l->j, "tracefs", name, NULL);
		/*
		 * A probe sees at most a few thousand events of ~40 bytes:
		 * 256 kB per CPU holds them with room, and allocating (and
		 * freeing) it is a fraction of the default's cost. Losses
		 * are counted anyway.
		 */
		if (!ret)
			ret = fsp_trace_open(&l->tr, name, 256);
		l->state = ret ? ret : 1;
	}
	*err = l->state < 0 ? l->state : 0;
	return l->state == 1 ? &l->tr : NULL;
}

void fsp_slot_lease_init(struct fsp_slot_lease *l, struct fsp_journal *j,
			 const char *instance)
{
	memset(l, 0, sizeof(*l));
	l->handle.get = lease_trace;
	l->instance = instance;
	l->j = j;
	l->last_fd = -1;
}

int fsp_slot_lease_last(const struct fsp_slot_lease *l)
{
	struct pollfd p = { .fd = l->last_fd, .events = POLLIN };

	return l->last_fd >= 0 && poll(&p, 1, 0) == 1 &&
	       (p.revents & POLLIN);
}

void fsp_slot_lease_release(struct fsp_slot_lease *l, int last)
{
	if (l->state == 2)
		return;		/* already on its way */
	if (l->state == 1) {
		if (last)
			l->tr.keep = 0;
		fsp_trace_close_async(&l->tr);
		l->state = 2;	/* removal in flight */
		return;
	}
	memset(&l->tr, 0, sizeof(l->tr));
	l->state = 0;
}

void fsp_slot_lease_wait(struct fsp_slot_lease *l)
{
	if (l->state != 2)
		return;
	fsp_trace_close_wait(&l->tr);
	memset(&l->tr, 0, sizeof(l->tr));
	l->state = 0;
}

int fsp_slot_wants_device(const struct fsp_profile *p)
{
	return p->kind != FSP_PROFILE_MEMORY &&
	       p->kind != FSP_PROFILE_IMAGE && p->kind != FSP_PROFILE_FUSE;
}

/* An almost empty image; each profile sizes it (fsp_loop_reset). */
static int make_slot_image(struct fsp_journal *j, int nr, char *path,
			   size_t len)
{
	char name[32];
	int ret;

	snprintf(name, sizeof(name), "slot%d.img", nr);
	ret = fsp_journal_path(j, path, len, name);
	return ret ? ret : fsp_loop_image_create(path, 1 << 20, j);
}

static int slot_devices_wanted(void)
{
	const char *e = getenv("FSPROBE_SLOT_DEVICES");

	return !e || strcmp(e, "0");
}

static const struct fsp_loop *get_device(struct fsp_slot *s, int nr,
					 struct fsp_journal *j)
{
	char image[PATH_MAX];

	if (s->dev_state == SLOTDEV_READY)
		return &s->loop;
	if (s->dev_state == SLOTDEV_RETIRED)
		return NULL;
	/* One try: a failure leaves the slot's profiles their own devices. */
	s->dev_state = SLOTDEV_RETIRED;
	s->loop.fd = -1;
	if (make_slot_image(j, nr, image, sizeof(image)) ||
	    fsp_loop_attach(&s->loop, image, false, j))
		return NULL;
	s->dev_state = SLOTDEV_READY;
	s->wt_pending = 1;
	return &s->loop;
}

/*
 * Without write-through the run is slower, not wrong: the queue freeze
 * it costs (~20 ms) is paid after the worker has started, not before.
 * Freezing the queue while the worker resets or uses the device only
 * holds its I/O back for that long.
 */
void fsp_slot_settle(struct fsp_slot *s, struct fsp_journal *j)
{
	if (!s->wt_pending)
		return;
	s->wt_pending = 0;
	if (s->dev_state == SLOTDEV_READY)
		fsp_loop_write_through(&s->loop, &s->knobs, j);
}

void fsp_slot_lend(struct fsp_slot *s, int nr, struct fsp_journal *j,
		   const struct fsp_profile *prof, struct fsp_slot_lease *l)
{
	char why[512];

	if (!s->instance[0]) {
		snprintf(s->instance, sizeof(s->instance), "fsprobe-%s-s%d",
			 j->id, nr);
		s->journalled = !fsp_journal_add(j, "tracefs", s->instance,
						 NULL);
		/* Without it the slot's last profile just leaves it to us. */
		s->has_pipe = !pipe2(s->last, O_CLOEXEC | O_NONBLOCK);
	}
	fsp_slot_lease_init(l, j, s->journalled ? s->instance : NULL);
	l->last_fd = s->has_pipe ? s->last[0] : -1;
	/*
	 * No device for a profile that will only report why it cannot run,
	 * nor with FSPROBE_SLOT_DEVICES=0 (each profile its own, to compare).
	 */
	if (fsp_slot_wants_device(prof) && slot_devices_wanted() &&
	    !fsp_profile_unrunnable(prof, why, sizeof(why)))
		l->loop = get_device(s, nr, j);
	s->dev_busy = l->loop != NULL;
}

void fsp_slots_nothing_left(struct fsp_slot *slots, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (!slots[i].has_pipe || slots[i].told)
			continue;
		slots[i].told = write(slots[i].last[1], "", 1) == 1;
	}
}

void fsp_slot_returned(struct fsp_slot *s, int ok)
{
	if (s->dev_busy && !ok && s->dev_state == SLOTDEV_READY)
		s->dev_state = SLOTDEV_RETIRED;
	s->dev_busy = 0;
}

void fsp_slot_release_device(struct fsp_slot *s)
{
	if (s->dev_busy || s->dev_state == SLOTDEV_NONE || s->loop.fd < 0)
		return;
	/* Ours until the detach: still backed by slotN.img. */
	if (!fsp_loop_verify(&s->loop))
		fsp_knob_restore_all(&s->knobs);
	fsp_loop_detach(&s->loop);
	s->dev_state = SLOTDEV_RETIRED;
}

static void *remove_instance(void *name)
{
	char root[128];
	int mounted;

	if (!fsp_trace_find_root(root, sizeof(root), &mounted))
		fsp_trace_remove_instance(root, name);
	return NULL;
}

/* In a thread: a removal is mostly RCU waits, which overlap. */
void fsp_slot_release_instance(struct fsp_slot *s)
{
	if (!s->journalled || s->removing)
		return;
	s->removing = 1;
	if (pthread_create(&s->remover, NULL, remove_instance, s->instance)) {
		s->removing = 0;
		remove_instance(s->instance);
		s->journalled = 0;
	}
}

void fsp_slots_finish(struct fsp_slot *slots, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		fsp_slot_release_instance(&slots[i]);
	for (i = 0; i < nr; i++) {
		slots[i].dev_busy = 0;
		fsp_slot_release_device(&slots[i]);
	}
	for (i = 0; i < nr; i++)
		if (slots[i].removing) {
			pthread_join(slots[i].remover, NULL);
			slots[i].removing = 0;
			slots[i].journalled = 0;
		}
	for (i = 0; i < nr; i++)
		if (slots[i].has_pipe) {
			close(slots[i].last[0]);
			close(slots[i].last[1]);
			slots[i].has_pipe = 0;
		}
}
