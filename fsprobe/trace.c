// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.c - the private tracefs instance: create it, filter the page-cache
 * event to one inode, clear and start it, drain every CPU's trace_pipe_raw
 * into an order histogram, remove it. The decoding is trace_parse.c's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "trace.h"
#include "util.h"

#define TRACEFS		"/sys/kernel/tracing"
#define ADD_EVENT	"filemap/mm_filemap_add_to_page_cache"

static const char *const col_event[2] = {
	"huge_memory/mm_khugepaged_collapse_file",
	"huge_memory/mm_khugepaged_scan_file",
};

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int valid_name(const char *name)
{
	size_t i, n = name ? strlen(name) : 0;

	if (!n || n > 63 || name[0] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i]))
			return 0;
	return 1;
}

__attribute__((format(printf, 4, 5)))
static int tpath(const struct fsp_trace *t, char *buf, size_t len,
		 const char *fmt, ...)
{
	char rel[192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	return fsp_fmt(buf, len, "%s/%s", t->dir, rel);
}

static int twrite(const struct fsp_trace *t, const char *rel, const char *val)
{
	char path[512];
	int ret = tpath(t, path, sizeof(path), "%s", rel);

	return ret ? ret : fsp_write_text(path, val);
}

static int read_format(const char *path, struct fsp_trace_format *f,
		       char **text)
{
	size_t len;
	char *buf;
	int ret;

	ret = fsp_slurp(path, &buf, &len);
	if (ret)
		return ret == -ENOENT ? -ENODEV : ret;
	ret = fsp_trace_format_parse(buf, len, f);
	if (text && !ret)
		*text = buf;
	else
		free(buf);
	return ret;
}

int fsp_trace_find_root(char *root, size_t len, int *mounted)
{
	*mounted = 0;
	if (access(TRACEFS "/events", F_OK)) {
		if (mount("tracefs", TRACEFS, "tracefs",
			  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
			return errno == ENOENT ? -ENODEV : -errno;
		*mounted = 1;
		if (access(TRACEFS "/events", F_OK)) {
			umount2(TRACEFS, MNT_DETACH);
			*mounted = 0;
			return -ENODEV;
		}
	}
	return fsp_strcpy(root, len, TRACEFS);
}

static int remove_dir(const char *dir)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int i;

	for (i = 0; i < 10; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&ts, NULL);
	}
	return -EBUSY;
}

int fsp_trace_remove_instance(const char *root, const char *name)
{
	char dir[256], path[320];

	if (!valid_name(name) ||
	    fsp_fmt(dir, sizeof(dir), "%s/instances/%s", root, name))
		return -EINVAL;
	if (access(dir, F_OK))
		return -errno;	/* -ENOENT: nothing to remove */
	snprintf(path, sizeof(path), "%s/tracing_on", dir);
	fsp_write_text(path, "0");
	snprintf(path, sizeof(path), "%s/events/enable", dir);
	fsp_write_text(path, "0");
	return remove_dir(dir);
}

static int set_buffer(struct fsp_trace *t, unsigned long want)
{
	char path[512], buf[64];
	int ret;

	ret = tpath(t, path, sizeof(path), "buffer_size_kb");
	if (!ret)
		ret = fsp_read_text(path, buf, sizeof(buf)) < 0 ? -EIO : 0;
	if (ret)
		return ret;
	t->buffer_kb = strtoul(buf, NULL, 10);
	if (t->buffer_kb >= want)
		return 0;
	snprintf(buf, sizeof(buf), "%lu", want);
	/* Not fatal: a short buffer shows up as t->lost. */
	if (!fsp_write_text(path, buf))
		t->buffer_kb = want;
	return 0;
}

static int trace_open(struct fsp_trace *t, const char *name,
		      unsigned long buffer_kb, int attach)
{
	struct fsp_trace_format hp;
	struct fsp_order_hist h;
	char path[512];
	int ret, existed = 0;

	memset(t, 0, sizeof(*t));
	if (!valid_name(name))
		return -EINVAL;
	ret = fsp_trace_find_root(t->root, sizeof(t->root), &t->mounted);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/events/header_page", t->root);
	ret = read_format(path, &hp, NULL);
	if (!ret)
		ret = fsp_trace_layout_from_format(&hp, &t->layout);
	if (ret)
		goto fail;
	ret = fsp_fmt(t->dir, sizeof(t->dir), "%s/instances/%s", t->root, name);
	if (ret)
		goto fail;
	if (mkdir(t->dir, 0700)) {
		ret = -errno;
		if (ret != -EEXIST || !attach)
			goto fail;
		existed = 1;
	}
	t->created = 1;
	t->keep = attach;
	/*
	 * A new instance has no event enabled, so its buffers are empty:
	 * nothing to clear (clearing costs 15-25 ms of RCU waits). One we
	 * take over is drained below instead.
	 */
	t->cleared = 1;
	ret = twrite(t, "tracing_on", "0");
	if (!ret)
		ret = set_buffer(t, buffer_kb ? buffer_kb : 4096);
	if (!ret)
		ret = tpath(t, path, sizeof(path), "events/%s/format",
			    ADD_EVENT);
	if (!ret)
		ret = read_format(path, &t->add, NULL);
	/*
	 * Whatever a previous user left unread (its events may still be
	 * enabled, tracing is off): none of our events is on yet, so every
	 * record is dropped.
	 */
	if (!ret && existed)
		ret = fsp_trace_collect(t, &h);
	if (ret)
		goto fail;
	t->nr_ev = t->nr_col = 0;
	t->lost = t->foreign = 0;
	return 0;
fail:
	fsp_trace_close(t);
	return ret;
}

int fsp_trace_open(struct fsp_trace *t, const char *name,
		   unsigned long buffer_kb)
{
	return trace_open(t, name, buffer_kb, 0);
}

int fsp_trace_attach(struct fsp_trace *t, const char *name,
		     unsigned long buffer_kb)
{
	return trace_open(t, name, buffer_kb, 1);
}

int fsp_trace_watch_inode(struct fsp_trace *t, dev_t dev, ino_t ino)
{
	static const char *const need[] = { "common_type", "s_dev", "i_ino",
					    "index" };
	char filter[96], rel[128];
	size_t i;
	int ret;

	for (i = 0; i < FSP_ARRAY_SIZE(need); i++)
		if (!fsp_trace_format_field(&t->add, need[i]))
			return -EINVAL;
	if (!fsp_trace_format_field(&t->add, "order"))
		return -EOPNOTSUPP;
	t->kdev = fsp_trace_kdev(dev);
	t->ino = ino;
	snprintf(filter, sizeof(filter), "s_dev == %u && i_ino == %llu",
		 (unsigned int)t->kdev, (unsigned long long)ino);
	snprintf(rel, sizeof(rel), "events/%s/filter", ADD_EVENT);
	ret = twrite(t, rel, filter);
	if (ret)
		return ret;
	snprintf(rel, sizeof(rel), "events/%s/enable", ADD_EVENT);
	ret = twrite(t, rel, "1");
	if (!ret)
		t->add_on = 1;
	return ret;
}

#ifdef STATX_MNT_ID
/* MAJ:MIN of the mount with this ID in mountinfo (the superblock's). */
static int mount_dev(unsigned long long mnt_id, dev_t *dev)
{
	unsigned int maj, min;
	unsigned long long id;
	char *text, *line, *save;
	int ret;

	ret = fsp_slurp("/proc/self/mountinfo", &text, NULL);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (line = strtok_r(text, "\n", &save); line && ret;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llu %*u %u:%u", &id, &maj, &min) == 3 &&
		    id == mnt_id) {
			*dev = makedev(maj, min);
			ret = 0;
		}
	}
	free(text);
	return ret;
}
#endif

int fsp_trace_sb_dev(int fd, dev_t *dev)
{
	struct stat st;
#ifdef STATX_MNT_ID
	struct statx sx;
	int ret;
#endif

	if (fstat(fd, &st))
		return -errno;
	*dev = st.st_dev;
#ifdef STATX_MNT_ID
	/* Before 5.8 there is no mount ID: st_dev is all we have. */
	if (!statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) &&
	    (sx.stx_mask & STATX_MNT_ID)) {
		ret = mount_dev(sx.stx_mnt_id, dev);
		if (ret && ret != -ENOENT)
			return ret;
	}
#endif
	return 0;
}

int fsp_trace_watch_fd(struct fsp_trace *t, int fd)
{
	struct stat st;
	dev_t dev;
	int ret;

	if (fstat(fd, &st))
		return -errno;
	ret = fsp_trace_sb_dev(fd, &dev);
	return ret ? ret : fsp_trace_watch_inode(t, dev, st.st_ino);
}

int fsp_trace_watch_collapse(struct fsp_trace *t, const char *basename)
{
	char path[512], rel[128], filter[320];
	char *text = NULL;
	int k, ret, found = 0, n;

	if (basename && (!*basename || strlen(basename) > 255 ||
			 strpbrk(basename, "\"\\/\n")))
		return -EINVAL;
	for (k = 0; k < 2; k++) {
		if (t->col_fmt[k])
			continue;
		t->col_fmt[k] = calloc(1, sizeof(*t->col_fmt[k]));
		t->col_sym[k] = calloc(FSP_TRACE_MAX_SYMS,
				       sizeof(*t->col_sym[k]));
		if (!t->col_fmt[k] || !t->col_sym[k])
			return -ENOMEM;
		ret = tpath(t, path, sizeof(path), "events/%s/format",
			    col_event[k]);
		if (!ret)
			ret = read_format(path, t->col_fmt[k], &text);
		if (ret == -ENODEV)
			continue;
		if (ret)
			return ret;
		n = fsp_trace_format_symbols(text, strlen(text), "result",
					     t->col_sym[k], FSP_TRACE_MAX_SYMS);
		t->nr_sym[k] = n > 0 ? n : 0;
		free(text);
		if (!fsp_trace_format_field(t->col_fmt[k], "result"))
			continue;
		if (basename) {
			snprintf(filter, sizeof(filter), "filename == \"%s\"",
				 basename);
			snprintf(rel, sizeof(rel), "events/%s/filter",
				 col_event[k]);
			ret = twrite(t, rel, filter);
			if (ret)
				return ret;
		}
		snprintf(rel, sizeof(rel), "events/%s/enable", col_event[k]);
		ret = twrite(t, rel, "1");
		if (ret)
			return ret;
		t->col_on[k] = 1;
		found = 1;
	}
	return found || t->col_on[0] || t->col_on[1] ? 0 : -ENOENT;
}

/* Sum of the lost-event counters of every CPU's stats file. */
static int read_lost(const struct fsp_trace *t, unsigned long *lost)
{
	static const char *const keys[] = { "overrun:", "commit overrun:",
					    "dropped events:" };
	char path[512], buf[1024], *line, *save;
	struct dirent *de;
	size_t i;
	DIR *d;

	*lost = 0;
	if (tpath(t, path, sizeof(path), "per_cpu"))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!starts(de->d_name, "cpu") ||
		    tpath(t, path, sizeof(path), "per_cpu/%.32s/stats",
			  de->d_name) ||
		    fsp_read_text(path, buf, sizeof(buf)) < 0)
			continue;
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			for (i = 0; i < FSP_ARRAY_SIZE(keys); i++)
				if (starts(line, keys[i]))
					*lost += strtoul(line + strlen(keys[i]),
							 NULL, 10);
	}
	closedir(d);
	return 0;
}

int fsp_trace_start(struct fsp_trace *t)
{
	char path[512];
	int fd, ret;

	if (!t->created)
		return -EINVAL;
	ret = twrite(t, "tracing_on", "0");
	if (ret)
		return ret;
	/*
	 * Clearing resets every CPU's buffer and waits for readers (~25 ms):
	 * once per instance is enough (none for one we created), because
	 * collect drains the buffers and counts any record of another inode
	 * as foreign, not as ours.
	 */
	if (!t->cleared) {
		ret = tpath(t, path, sizeof(path), "trace");
		if (ret)
			return ret;
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		close(fd);
		t->cleared = 1;
	}
	t->nr_ev = t->nr_col = 0;
	t->lost = t->foreign = 0;
	ret = read_lost(t, &t->stats0);
	if (ret)
		return ret;
	return twrite(t, "tracing_on", "1");
}

struct collect_ctx {
	struct fsp_trace *t;
	struct fsp_order_hist *h;
	int cpu;
};

static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 256;
	p = realloc(*arr, ncap * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static int on_add(struct collect_ctx *c, const void *rec, size_t len)
{
	struct fsp_trace *t = c->t;
	const struct fsp_trace_format *f = &t->add;
	uint64_t dev, ino, index, order, pfn = 0;
	struct fsp_trace_event *e;

	if (fsp_trace_field_get(fsp_trace_format_field(f, "s_dev"), rec, len,
				&dev) ||
	    fsp_trace_field_get(fsp_trace_format_field(f, "i_ino"), rec, len,
				&ino) ||
	    fsp_trace_field_get(fsp_trace_format_field(f, "index"), rec, len,
				&index) ||
	    fsp_trace_field_get(fsp_trace_format_field(f, "order"), rec, len,
				&order))
		return -EINVAL;
	fsp_trace_field_get(fsp_trace_format_field(f, "pfn"), rec, len, &pfn);
	if (dev != t->kdev || ino != t->ino || order > FSP_ORDER_MAX) {
		t->foreign++;
		return 0;
	}
	if (grow((void **)&t->ev, &t->cap_ev, t->nr_ev, sizeof(*t->ev)))
		return -ENOMEM;
	e = &t->ev[t->nr_ev++];
	e->index = index;
	e->pfn = pfn;
	e->order = (int)order;
	e->cpu = c->cpu;
	fsp_order_hist_add(c->h, e->order);
	c->h->nr_pages += 1UL << order;
	return 0;
}

static int on_collapse(struct collect_ctx *c, int k, const void *rec,
		       size_t len)
{
	const struct fsp_trace_format *f = c->t->col_fmt[k];
	struct fsp_trace *t = c->t;
	struct fsp_trace_collapse *col;
	uint64_t res, nr = 0, index = (uint64_t)-1;
	int i;

	if (fsp_trace_field_get(fsp_trace_format_field(f, "result"), rec, len,
				&res))
		return -EINVAL;
	fsp_trace_field_get(fsp_trace_format_field(f, k ? "present" : "nr"),
			    rec, len, &nr);
	if (!k)
		fsp_trace_field_get(fsp_trace_format_field(f, "index"), rec,
				    len, &index);
	if (grow((void **)&t->col, &t->cap_col, t->nr_col, sizeof(*t->col)))
		return -ENOMEM;
	col = &t->col[t->nr_col++];
	memset(col, 0, sizeof(*col));
	col->scan = k;
	col->index = (int64_t)index;
	col->nr = (int)nr;
	col->result = (int)res;
	for (i = 0; i < t->nr_sym[k]; i++)
		if (t->col_sym[k][i].value == col->result)
			memcpy(col->result_name, t->col_sym[k][i].name,
			       sizeof(col->result_name));
	return 0;
}

static int on_record(void *ctx, const void *rec, size_t len)
{
	struct collect_ctx *c = ctx;
	const struct fsp_trace_field *ct;
	uint64_t type;
	int k;

	ct = fsp_trace_format_field(&c->t->add, "common_type");
	if (fsp_trace_field_get(ct, rec, len, &type))
		return -EINVAL;
	if (c->t->add_on && type == (uint64_t)c->t->add.id)
		return on_add(c, rec, len);
	for (k = 0; k < 2; k++)
		if (c->t->col_on[k] && type == (uint64_t)c->t->col_fmt[k]->id)
			return on_collapse(c, k, rec, len);
	return 0;
}

static int drain_cpu(struct collect_ctx *c, const char *cpu, size_t psize)
{
	unsigned long max_pages;
	char path[512];
	void *page;
	ssize_t n;
	int fd, ret = 0, missed;

	if (tpath(c->t, path, sizeof(path), "per_cpu/%.32s/trace_pipe_raw",
		  cpu))
		return -ENAMETOOLONG;
	page = malloc(psize);
	if (!page)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		free(page);
		return -errno;
	}
	/* A bound, so a kernel that keeps producing cannot hold us. */
	max_pages = (c->t->buffer_kb * 1024) / 512 + 64;
	while (max_pages--) {
		n = read(fd, page, psize);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = errno == EAGAIN ? 0 : -errno;
			break;
		}
		if (n == 0)
			break;
		ret = fsp_trace_page_parse(&c->t->layout, page, n, on_record,
					   c, &missed);
		if (ret < 0)
			break;
		ret = 0;
		c->t->lost += missed;
	}
	close(fd);
	free(page);
	return ret;
}

static int cmp_event(const void *a, const void *b)
{
	const struct fsp_trace_event *x = a, *y = b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->order - y->order;
}

int fsp_trace_collect(struct fsp_trace *t, struct fsp_order_hist *h)
{
	struct collect_ctx c = { t, h, 0 };
	unsigned long lost, sub_kb = 0;
	char path[512], buf[32];
	struct dirent *de;
	size_t psize;
	DIR *d;
	int ret = 0;

	fsp_order_hist_init(h);
	if (!t->created)
		return -EINVAL;
	t->nr_ev = t->nr_col = 0;
	t->lost = t->foreign = 0;
	ret = twrite(t, "tracing_on", "0");
	if (ret)
		return ret;
	psize = t->layout.page_size;
	if (!tpath(t, path, sizeof(path), "buffer_subbuf_size_kb") &&
	    fsp_read_text(path, buf, sizeof(buf)) > 0)
		sub_kb = strtoul(buf, NULL, 10);
	if (sub_kb && sub_kb <= 1024 && sub_kb * 1024 > psize)
		psize = sub_kb * 1024;
	if (tpath(t, path, sizeof(path), "per_cpu"))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		if (!starts(de->d_name, "cpu"))
			continue;
		c.cpu = atoi(de->d_name + 3);
		ret = drain_cpu(&c, de->d_name, psize);
	}
	closedir(d);
	if (ret)
		return ret;
	if (!read_lost(t, &lost) && lost > t->stats0)
		t->lost += lost - t->stats0;
	if (t->nr_ev > 1)
		qsort(t->ev, t->nr_ev, sizeof(*t->ev), cmp_event);
	return 0;
}

/*
 * Stop tracing and disable our events; the instance stays. An attached
 * instance keeps its events enabled for the next user: with tracing_on 0
 * nothing is recorded, and disabling an event patches the kernel text
 * and waits for it (6-22 ms each, measured with two runs in parallel).
 * Its owner's rmdir disables them once at the end.
 */
static void trace_stop(struct fsp_trace *t)
{
	char rel[128];
	int k;

	twrite(t, "tracing_on", "0");
	if (t->keep)
		return;
	if (t->add_on) {
		snprintf(rel, sizeof(rel), "events/%s/enable", ADD_EVENT);
		twrite(t, rel, "0");
	}
	for (k = 0; k < 2; k++) {
		if (!t->col_on[k])
			continue;
		snprintf(rel, sizeof(rel), "events/%s/enable", col_event[k]);
		twrite(t, rel, "0");
	}
}

/* After the instance is gone: unmount what open mounted, free. */
static void trace_finish(struct fsp_trace *t)
{
	int k;

	if (t->mounted)
		umount2(t->root, MNT_DETACH);
	for (k = 0; k < 2; k++) {
		free(t->col_fmt[k]);
		free(t->col_sym[k]);
		t->col_fmt[k] = NULL;
		t->col_sym[k] = NULL;
	}
	free(t->ev);
	free(t->col);
	t->ev = NULL;
	t->col = NULL;
	t->nr_ev = t->nr_col = t->cap_ev = t->cap_col = 0;
	t->created = t->mounted = t->add_on = t->keep = 0;
	t->col_on[0] = t->col_on[1] = 0;
}

static void *remover(void *arg)
{
	struct fsp_trace *t = arg;

	remove_dir(t->dir);
	return NULL;
}

void fsp_trace_close_async(struct fsp_trace *t)
{
	if (t->removing)
		return;
	if (!t->created) {
		trace_finish(t);
		return;
	}
	trace_stop(t);
	if (t->keep) {
		trace_finish(t);
		return;
	}
	if (!pthread_create(&t->remover, NULL, remover, t)) {
		t->removing = 1;
		return;
	}
	remove_dir(t->dir);	/* no thread: wait here */
	trace_finish(t);
}

void fsp_trace_close_wait(struct fsp_trace *t)
{
	if (!t->removing)
		return;
	pthread_join(t->remover, NULL);
	t->removing = 0;
	trace_finish(t);
}

void fsp_trace_close(struct fsp_trace *t)
{
	fsp_trace_close_async(t);
	fsp_trace_close_wait(t);
}
