// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * khugepaged.c - the background route a distribution gets: PROT_EXEC
 * text faulted in small folios without a hint (as collapse-exec does),
 * then MADV_HUGEPAGE, and khugepaged made to scan quickly through its
 * sysfs knobs (saved, journalled and restored through knob.c). A bounded
 * wait polls FilePmdMapped (ShmemPmdMapped on tmpfs); it ends early once
 * khugepaged has finished two full scans since the hint without a PMD,
 * as the mm selftest waits. The result is information: pass once
 * measured, route `khugepaged` when it made PMD mappings.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "case.h"
#include "collapse_util.h"
#include "knob.h"
#include "util.h"

#define FILE_NAME "khugepaged.text"
#define SEED 0x23
#define KH_DIR FSP_KNOB_KHUGEPAGED
#define WAIT_MS 2000
/*
 * khugepaged sleeps 1 ms between its rounds of pages_to_scan here
 * (fast_scan): two full scans take a few ms, and a poll every 5 ms sees
 * the second end soon after (10 ms rounds and 20 ms polls cost ~40 ms a
 * profile, a sixth of a default run's probe time).
 */
#define POLL_NS (5 * 1000 * 1000L)

static int prepare(const struct fsp_target *t)
{
	return fsp_collapse_prepare(t, FILE_NAME, SEED);
}

/* Is a kernel thread named khugepaged in /proc? */
static int khugepaged_running(void)
{
	struct dirent *de;
	char path[300], comm[64];
	int found = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return -1;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (fsp_read_text(path, comm, sizeof(comm)) > 0 &&
		    !strcmp(fsp_rstrip(comm), "khugepaged"))
			found = 1;
	}
	closedir(d);
	return found;
}

/* Scan quickly: every knob saved and journalled before it is written. */
static int fast_scan(const struct fsp_target *t, struct fsp_knobs *ks)
{
	static const char *const knobs[][2] = {
		{ KH_DIR "/scan_sleep_millisecs", "1" },
		{ KH_DIR "/alloc_sleep_millisecs", "10" },
		{ KH_DIR "/pages_to_scan", "4096" },
	};
	size_t i;
	int ret;

	for (i = 0; i < FSP_ARRAY_SIZE(knobs); i++) {
		ret = fsp_knob_set(ks, t->journal, knobs[i][0], knobs[i][1]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Poll until all PMD-mapped, two full scans without, or WAIT_MS. */
static long long wait_pmd(const struct fsp_target *t, struct fsp_mapping *m,
			  long scans0, int *why)
{
	const struct timespec pause = { 0, POLL_NS };
	long long start = fsp_now_ms(), now = start;
	long scans;

	*why = 0;
	while (now - start < WAIT_MS) {
		nanosleep(&pause, NULL);
		now = fsp_now_ms();
		/* A collapsed range's page tables were retracted: refault. */
		madvise(m->addr, m->len, MADV_POPULATE_READ);
		if (fsp_mapping_measure(t, m))
			continue;
		if (m->pmd_kb >= (long)(m->len >> 10))
			break;
		scans = fsp_khugepaged_counter("full_scans");
		if (scans0 >= 0 && scans >= scans0 + 2) {
			*why = 1;
			break;
		}
	}
	if (now - start >= WAIT_MS)
		*why = 2;
	return now - start;
}

static void ev_counters(struct fsp_probe *p, const char *sfx)
{
	char name[64];

	snprintf(name, sizeof(name), "full_scans_%s", sfx);
	fsp_ev_int(p, name, fsp_khugepaged_counter("full_scans"));
	snprintf(name, sizeof(name), "pages_collapsed_%s", sfx);
	fsp_ev_int(p, name, fsp_khugepaged_counter("pages_collapsed"));
}

static void watch(const struct fsp_target *t, struct fsp_probe *p,
		  struct fsp_mapping *m)
{
	static const char *const ends[] = {
		"pmd-mapped", "two full scans", "timeout",
	};
	struct fsp_knobs ks = { .nr = 0 };
	long before = m->pmd_kb, scans0;
	int ret, why;

	ret = fast_scan(t, &ks);
	if (ret) {
		fsp_probe_set(p, FSP_SKIP, "khugepaged knobs not writable: %s",
			      fsp_errno_name(ret));
		goto out;
	}
	ev_counters(p, "before");
	scans0 = fsp_khugepaged_counter("full_scans");
	ret = madvise(m->addr, m->len, MADV_HUGEPAGE) ? -errno : 0;
	fsp_ev_str(p, "madv_hugepage_errno", ret ? fsp_errno_name(ret) :
		   NULL);
	if (ret) {
		fsp_probe_set(p, FSP_SKIP, "MADV_HUGEPAGE: %s",
			      fsp_errno_name(ret));
		goto out;
	}
	fsp_ev_int(p, "wait_ms", wait_pmd(t, m, scans0, &why));
	fsp_ev_str(p, "wait_end", ends[why]);
	ev_counters(p, "after");
	fsp_ev_pmd_kb(p, t, "after", m->pmd_kb);
	fsp_ev_orders(p, "orders_after", m->addr, m->len);
	fsp_ev_bool(p, "pmd_reached", m->pmd_kb > before);
	if (m->pmd_kb > before)
		p->routes |= FSP_ROUTE_KHUGEPAGED;
	/*
	 * No PMD and not one full scan since the hint (a loaded TCG guest):
	 * khugepaged never looked at the text, so nothing was measured.
	 */
	else if (why == 2 && scans0 >= 0 && fsp_khugepaged_counter("full_scans") <= scans0)
		fsp_probe_set(p, FSP_SKIP, "khugepaged finished no full scan "
			      "in %d ms: it never looked at the text",
			      WAIT_MS);
out:
	ret = fsp_knob_restore_all(&ks);
	if (ret)
		fsp_probe_set(p, FSP_ERROR, "restoring khugepaged knobs: %s",
			      fsp_errno_name(ret));
}

static void run(const struct fsp_target *t, struct fsp_probe *p)
{
	struct fsp_mapping m;
	int running = khugepaged_running(), ret;

	fsp_ev_str(p, "thp_enabled", t->si->thp_enabled);
	if (running >= 0)
		fsp_ev_bool(p, "khugepaged_running", running);
	else
		fsp_ev_str(p, "khugepaged_running", NULL);
	if (!t->si->pmd_size || !strcmp(t->si->thp_enabled, "never")) {
		fsp_probe_set(p, FSP_SKIP, "THP enabled=never: khugepaged "
			      "does not collapse");
		return;
	}
	if (!running) {
		fsp_probe_set(p, FSP_SKIP, "no khugepaged thread in /proc");
		return;
	}
	/* No hint yet: the cache is filled with small folios. */
	ret = fsp_map_file(t, FILE_NAME, PROT_READ | PROT_EXEC, 0, &m);
	if (ret) {
		fsp_probe_set(p, FSP_ERROR, "mapping %s: %s", FILE_NAME,
			      strerror(-ret));
		return;
	}
	if (m.populate_rc) {
		fsp_probe_set(p, FSP_ERROR, "MADV_POPULATE_READ on %s: %s",
			      FILE_NAME, fsp_errno_name(m.populate_rc));
		goto out;
	}
	fsp_ev_pmd_kb(p, t, "before", m.pmd_kb);
	fsp_ev_orders(p, "orders_before", m.addr, m.len);
	watch(t, p, &m);
out:
	fsp_unmap_file(&m);
}

const struct fsp_case fsp_case_khugepaged = {
	.name = "khugepaged",
	.summary = "khugepaged collapse of small-folio PROT_EXEC text",
	.prepare = prepare,
	.run = run,
};
