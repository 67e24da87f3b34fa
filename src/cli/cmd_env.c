// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_env.c - `fsprobe env`: the facts a report depends on, gathered
 * into one JSON object and printed as a table or as JSON: kernel, THP
 * sysfs, the CONFIG_* options that change answers, tools, loop support,
 * where the profiles and payloads were found, and the system-wide knobs
 * a run may change (their values, a killed run's change pending).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "knob.h"
#include "proc.h"
#include "mnt.h"
#include "util.h"

static const char *const configs[] = {
	"CONFIG_TRANSPARENT_HUGEPAGE", "CONFIG_READ_ONLY_THP_FOR_FS",
	"CONFIG_BLK_DEV_LOOP", "CONFIG_FS_VERITY", "CONFIG_BTRFS_EXPERIMENTAL",
	"CONFIG_IO_URING", "CONFIG_TMPFS", "CONFIG_FTRACE",
	"CONFIG_SECURITY_LOCKDOWN_LSM",
};

static const char *const tools[] = {
	"mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mksquashfs", "mkfs.erofs",
	"fsverity",
};

static const char *const filesystems[] = {
	"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "squashfs", "erofs",
	"overlay", "tracefs",
};

static struct json_object *per_size_thp(void)
{
	struct json_object *o = json_object_new_object();
	struct dirent *de;
	DIR *d = opendir(FSP_THP_DIR);

	if (!d)
		return o;
	while ((de = readdir(d))) {
		char path[512], buf[128], word[32];

		if (strncmp(de->d_name, "hugepages-", 10))
			continue;
		snprintf(path, sizeof(path), FSP_THP_DIR "/%s/enabled",
			 de->d_name);
		if (fsp_read_text(path, buf, sizeof(buf)) <= 0 ||
		    fsp_sysfs_selected(buf, word, sizeof(word)))
			continue;
		json_object_object_add(o, de->d_name + 10,
				       json_object_new_string(word));
	}
	closedir(d);
	return o;
}

/* {"path", "from": environment|build-tree|installed, "exists"} */
static struct json_object *dir_obj(const char *path, const char *from)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "from", json_object_new_string(from));
	json_object_object_add(o, "exists", json_object_new_boolean(
				       !access(path, R_OK | X_OK)));
	return o;
}

/*
 * The system-wide knobs a run may change (the workqueue scope with
 * --tune-workqueue, khugepaged's with the khugepaged probe): each one's
 * value now (null: not in this kernel), and "pending": whether a killed
 * run's record of its original waits in FSP_KNOB_DIR for `fsprobe
 * cleanup` (null: unknown, it needs root; a live run's is not pending).
 */
static struct json_object *knobs_obj(void)
{
	static const char *const paths[] = {
		FSP_KNOB_WQ_SCOPE,
		FSP_KNOB_KHUGEPAGED "/scan_sleep_millisecs",
		FSP_KNOB_KHUGEPAGED "/alloc_sleep_millisecs",
		FSP_KNOB_KHUGEPAGED "/pages_to_scan",
	};
	struct json_object *o = json_object_new_object(), *k;
	char buf[128];
	size_t i;
	int r;

	for (i = 0; i < FSP_ARRAY_SIZE(paths); i++) {
		k = json_object_new_object();
		json_object_object_add(k, "value",
			fsp_read_text(paths[i], buf, sizeof(buf)) < 0 ? NULL :
			json_object_new_string(fsp_rstrip(buf)));
		r = fsp_knob_pending(paths[i], buf, sizeof(buf));
		json_object_object_add(k, "pending", r < 0 ? NULL :
				       json_object_new_boolean(r == 1));
		json_object_object_add(o, paths[i], k);
	}
	return o;
}

static void print_knobs(FILE *out, struct json_object *o)
{
	fprintf(out, "system-wide knobs fsprobe may change:\n");
	json_object_object_foreach(o, key, val) {
		struct json_object *v = json_object_object_get(val, "value");
		struct json_object *p = json_object_object_get(val, "pending");

		fprintf(out, "  %s %s%s\n", key,
			v ? json_object_get_string(v) : "(none)",
			!p ? " (killed run's record: unknown, needs root)" :
			json_object_get_boolean(p) ? " (a killed run's change: "
			"'fsprobe cleanup' restores it)" : "");
	}
}

static struct json_object *env_doc(void)
{
	struct json_object *doc, *cfg, *tl, *fs, *thp;
	struct fsp_sysinfo si;
	const char *dir, *from;
	char path[4096], v;
	size_t i;

	fsp_sysinfo_read(&si);
	doc = fsp_doc_new(&si);
	json_object_object_del(doc, "profiles");
	json_object_object_get_ex(doc, "thp", &thp);
	json_object_object_add(thp, "per_size_enabled", per_size_thp());
	json_object_object_add(doc, "pmd_size_kb",
			       json_object_new_int64(si.pmd_size >> 10));
	cfg = json_object_new_object();
	for (i = 0; i < FSP_ARRAY_SIZE(configs); i++) {
		char val[2] = "";

		if (!fsp_kconfig_get(configs[i], &v, NULL, 0))
			val[0] = v;
		json_object_object_add(cfg, configs[i], val[0] ?
				       json_object_new_string(val) : NULL);
	}
	json_object_object_add(doc, "config", cfg);
	tl = json_object_new_object();
	for (i = 0; i < FSP_ARRAY_SIZE(tools); i++)
		json_object_object_add(tl, tools[i],
			fsp_proc_find(tools[i], path, sizeof(path)) ? NULL :
			json_object_new_string(path));
	json_object_object_add(doc, "tools", tl);
	fs = json_object_new_object();
	for (i = 0; i < FSP_ARRAY_SIZE(filesystems); i++)
		json_object_object_add(fs, filesystems[i],
			json_object_new_boolean(
				fsp_mnt_fs_supported(filesystems[i])));
	json_object_object_add(doc, "filesystems", fs);
	json_object_object_add(doc, "loop_control", json_object_new_boolean(
				       !access("/dev/loop-control", W_OK)));
	json_object_object_add(doc, "kpageflags", json_object_new_boolean(
				       !access("/proc/kpageflags", R_OK)));
	json_object_object_add(doc, "root",
			       json_object_new_boolean(geteuid() == 0));
	json_object_object_add(doc, "knobs", knobs_obj());
	dir = fsp_profile_dir_from(&from);
	json_object_object_add(doc, "profile_dir", dir_obj(dir, from));
	dir = fsp_payload_dir_from(&from);
	json_object_object_add(doc, "payload_dir", dir_obj(dir, from));
	return doc;
}

static void print_obj(FILE *out, const char *title, struct json_object *o)
{
	fprintf(out, "%s:\n", title);
	json_object_object_foreach(o, key, val)
		fprintf(out, "  %-30s %s\n", key,
			val ? json_object_get_string(val) : "(none)");
}

static void print_dir(FILE *out, const char *title, struct json_object *o)
{
	fprintf(out, "%s %s (%s%s)\n", title,
		json_object_get_string(json_object_object_get(o, "path")),
		json_object_get_string(json_object_object_get(o, "from")),
		json_object_get_boolean(json_object_object_get(o, "exists")) ?
		"" : ", missing");
}

int fsp_cmd_env(struct fsp_cli *cli)
{
	struct json_object *doc = env_doc(), *thp, *o;
	FILE *out = stdout;

	if (cli->output && !(out = fopen(cli->output, "we"))) {
		fsp_warn("cannot write %s", cli->output);
		json_object_put(doc);
		return FSP_EXIT_USAGE;
	}
	if (cli->format == FMT_JSON) {
		fprintf(out, "%s\n", json_object_to_json_string_ext(doc,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
	} else if (cli->format != FMT_TABLE) {
		fsp_warn("env prints a table or json");
		json_object_put(doc);
		return FSP_EXIT_USAGE;
	} else {
		json_object_object_get_ex(doc, "thp", &thp);
		fprintf(out, "kernel:  %s %s\n",
			json_object_get_string(json_object_object_get(doc,
								      "kernel")),
			json_object_get_string(json_object_object_get(doc,
								      "arch")));
		fprintf(out, "page:    %s bytes, PMD %s kB, PMD order %s\n",
			json_object_get_string(json_object_object_get(doc,
							"page_size")),
			json_object_get_string(json_object_object_get(doc,
							"pmd_size_kb")),
			json_object_get_string(json_object_object_get(doc,
							"pmd_order")));
		o = json_object_object_get(thp, "per_size_enabled");
		json_object_get(o);
		json_object_object_del(thp, "per_size_enabled");
		print_obj(out, "THP sysfs", thp);
		print_obj(out, "THP per size (hugepages-*/enabled)", o);
		json_object_put(o);
		print_obj(out, "kernel config",
			  json_object_object_get(doc, "config"));
		print_obj(out, "tools", json_object_object_get(doc, "tools"));
		print_obj(out, "filesystems in the kernel",
			  json_object_object_get(doc, "filesystems"));
		fprintf(out, "loop-control: %s, kpageflags: %s, root: %s\n",
			json_object_get_string(json_object_object_get(doc,
							"loop_control")),
			json_object_get_string(json_object_object_get(doc,
							"kpageflags")),
			json_object_get_string(json_object_object_get(doc,
							"root")));
		print_dir(out, "profiles:",
			  json_object_object_get(doc, "profile_dir"));
		print_dir(out, "payloads:",
			  json_object_object_get(doc, "payload_dir"));
		print_knobs(out, json_object_object_get(doc, "knobs"));
	}
	if (out != stdout)
		fclose(out);
	json_object_put(doc);
	return FSP_EXIT_OK;
}
