// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * watchdog.c - the step board shared by the workers and the parent
 * (watchdog.h): a seqcount per slot so the parent never reads a step
 * name half written, and what the parent records when a step overruns.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "kmsg.h"
#include "task.h"
#include "watchdog.h"

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct fsp_wd_slot *fsp_wd_board_new(int n)
{
	void *b = mmap(NULL, (n ? n : 1) * sizeof(struct fsp_wd_slot),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);

	return b == MAP_FAILED ? NULL : b;
}

void fsp_wd_board_free(struct fsp_wd_slot *b, int n)
{
	if (b)
		munmap(b, (n ? n : 1) * sizeof(*b));
}

static void write_begin(struct fsp_wd_slot *w)
{
	__atomic_store_n(&w->seq, w->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void write_end(struct fsp_wd_slot *w)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&w->seq, w->seq + 1, __ATOMIC_RELAXED);
}

void fsp_wd_begin(struct fsp_wd_slot *w, const char *fmt, ...)
{
	va_list ap;

	if (!w)
		return;
	write_begin(w);
	va_start(ap, fmt);
	vsnprintf(w->step, sizeof(w->step), fmt, ap);
	va_end(ap);
	w->start_us = now_us();
	write_end(w);
}

void fsp_wd_end(struct fsp_wd_slot *w)
{
	if (!w)
		return;
	write_begin(w);
	w->start_us = 0;
	write_end(w);
}

/* A consistent copy of w; 0, or -EAGAIN while the worker writes. */
static int snapshot(const struct fsp_wd_slot *w, struct fsp_wd_step *st)
{
	unsigned int s1 = __atomic_load_n(&w->seq, __ATOMIC_ACQUIRE), s2;

	if (s1 & 1)
		return -EAGAIN;
	memcpy(st->step, w->step, sizeof(st->step));
	st->step[sizeof(st->step) - 1] = '\0';
	st->start_us = w->start_us;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	s2 = __atomic_load_n(&w->seq, __ATOMIC_RELAXED);
	return s1 == s2 ? 0 : -EAGAIN;
}

int fsp_wd_expired(const struct fsp_wd_slot *w, int timeout_s,
		   struct fsp_wd_step *st)
{
	int tries;

	if (timeout_s <= 0)
		return 0;
	for (tries = 0; tries < 100; tries++)
		if (!snapshot(w, st))
			return st->start_us && now_us() - st->start_us >=
			       (long long)timeout_s * 1000000;
	return 0;	/* busy writing: it is not stuck */
}

long long fsp_wd_next(const struct fsp_wd_slot *b, int n, int timeout_s)
{
	long long best = -1, left;
	int i;

	if (timeout_s <= 0)
		return -1;
	for (i = 0; i < n; i++) {
		long long s = __atomic_load_n(&b[i].start_us,
					      __ATOMIC_RELAXED);

		if (!s)
			continue;
		left = s + (long long)timeout_s * 1000000 - now_us();
		if (left < 0)
			left = 0;
		if (best < 0 || left < best)
			best = left;
	}
	return best;
}

static void add_str(struct json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, s && *s ? json_object_new_string(s) :
			       NULL);
}

/* The `watchdog` object: the step, the stuck task, its stack, dmesg. */
static struct json_object *evidence(const struct fsp_wd_step *st,
				    int timeout_s, const struct fsp_task *t)
{
	struct json_object *o = json_object_new_object();
	char state[2] = { t->state, '\0' }, buf[8192];
	int nr;

	add_str(o, "step", st->step);
	json_object_object_add(o, "timeout_s", json_object_new_int(timeout_s));
	json_object_object_add(o, "pid", json_object_new_int(t->pid));
	add_str(o, "comm", t->comm);
	add_str(o, "state", state);
	add_str(o, "wchan", t->wchan);
	add_str(o, "stack", fsp_task_stack(t->pid, buf, sizeof(buf)) ? NULL :
		buf);
	/* "": readable, nothing new; null: not readable. */
	nr = fsp_kmsg_since(st->start_us, buf, sizeof(buf));
	json_object_object_add(o, "dmesg", nr < 0 ? NULL :
			       json_object_new_string(buf));
	return o;
}

void fsp_wd_fire(pid_t pid, const struct fsp_wd_step *st, int timeout_s,
		 struct fsp_res_profile *out, struct fsp_task *stuck)
{
	char why[160];

	fsp_task_read(fsp_task_stuck(pid), stuck);
	snprintf(why, sizeof(why), "%s did not finish in %d s", st->step,
		 timeout_s);
	fsp_res_set_verdict(out, FSP_V_ERROR, why);
	json_object_put(out->watchdog);
	out->watchdog = evidence(st, timeout_s, stuck);
}

void fsp_wd_kill(pid_t pid)
{
	kill(pid, SIGKILL);
}
