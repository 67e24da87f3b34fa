// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-smaps.c - the smaps parser and the sysfs/config readers on recorded
 * kernel text: the VMA is found by address, its FilePmdMapped and Rss are
 * read, a missing field stays -1, and garbage never matches.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "smaps.h"
#include "sysinfo.h"
#include "tap.h"
#include "util.h"

static char *load(const char *name, size_t *len)
{
	const char *src = getenv("srcdir") ? getenv("srcdir") : ".";
	char path[4096], *text = NULL;

	snprintf(path, sizeof(path), "%s/tests/data/%s", src, name);
	if (fsp_slurp(path, &text, len))
		tap_skip_all("recorded data missing");
	return text;
}

/*
 * READ_ONLY_THP_FOR_FS through the sysinfo parser on recorded config
 * text: =y is set, "is not set" is not set, no line at all is absent
 * (the kernel removed it), and no config at all is unknown (null).
 */
static void test_ro_thp_state(void)
{
	static const struct {
		const char *file;
		enum fsp_kopt state;
		int ro;
		const char *name;
	} c[] = {
		{ "config-ro-thp-y", FSP_KOPT_SET, 1, "set" },
		{ "config-ro-thp-not-set", FSP_KOPT_NOT_SET, 0, "not set" },
		{ "config-ro-thp-absent", FSP_KOPT_ABSENT, 0, "absent" },
	};
	struct fsp_sysinfo si;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *text = load(c[i].file, NULL);

		memset(&si, 0, sizeof(si));
		fsp_sysinfo_config_text(&si, text);
		tap_ok(si.ro_thp_state == c[i].state && si.ro_thp == c[i].ro &&
		       !strcmp(fsp_kopt_name(si.ro_thp_state), c[i].name),
		       "%s: READ_ONLY_THP_FOR_FS %s (state %d, boolean %d)",
		       c[i].file, c[i].name, si.ro_thp_state, si.ro_thp);
		free(text);
	}
	fsp_sysinfo_config_text(&si, NULL);
	tap_ok(si.ro_thp_state == FSP_KOPT_UNKNOWN && si.ro_thp == -1 &&
	       !fsp_kopt_name(si.ro_thp_state),
	       "no config: unknown, boolean -1, no name");
	tap_ok(fsp_kconfig_state_parse("CONFIG_READ_ONLY_THP_FOR_FS_X=y\n"
				       "# CONFIG_READ_ONLY_THP_FOR_FSX is not "
				       "set\n", "CONFIG_READ_ONLY_THP_FOR_FS") ==
	       FSP_KOPT_ABSENT, "longer symbols do not count as the option");
}

/*
 * /proc/self/smaps read only as far as the VMA: a fresh mapping, the
 * stack (the last VMAs: read to the end), and an address nothing maps.
 */
static void test_live(void)
{
	size_t len = 4 * 4096;
	struct fsp_smaps_vma v;
	unsigned long at;
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		       MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	int local = 0, ret;

	if (a == MAP_FAILED) {
		tap_ok(0, "mmap: %m");
		return;
	}
	at = (unsigned long)a;
	ret = fsp_smaps_lookup(0, at + 4096, &v);
	tap_ok(!ret && v.start <= at && v.end >= at + len && v.rss_kb >= 16,
	       "live: a fresh mapping is found with its Rss (%d, %ld kB)",
	       ret, v.rss_kb);
	ret = fsp_smaps_lookup(0, (unsigned long)&local, &v);
	tap_ok(!ret && !strcmp(v.path, "[stack]"), "live: the stack is found "
	       "(%d, '%s')", ret, ret ? "" : v.path);
	munmap(a, len);
	/*
	 * Not the address just unmapped: the lookup's own 16 KiB buffer
	 * could be mapped into that hole (it was, under ASan, in CI on
	 * ad99ed8). Page 0 lies below vm.mmap_min_addr (4096 or more on
	 * Debian): nothing maps it.
	 */
	ret = fsp_smaps_lookup(0, 16, &v);
	tap_ok(ret == -ENOENT || v.start > 16 || v.end <= 16,
	       "live: an unmapped address (in page 0) is in no VMA (%d)", ret);
}

int main(void)
{
	struct fsp_smaps_vma v;
	size_t len;
	char *text = load("smaps-xfs-pmd.txt", &len);
	char word[32], val;
	int ret;

	ret = fsp_smaps_parse(text, len, 0x7f0000400000UL, &v);
	TAP_EQ_LONG(ret, 0, "PMD-mapped VMA found by its start");
	TAP_EQ_LONG(v.file_pmd_kb, 8192, "FilePmdMapped of the hinted VMA");
	TAP_EQ_LONG(v.rss_kb, 8192, "Rss of the hinted VMA");
	tap_ok(strstr(v.vmflags, "hg") != NULL, "VmFlags has hg (%s)",
	       v.vmflags);
	TAP_EQ_STR(v.perms, "r-xp", "perms");
	ret = fsp_smaps_parse(text, len, 0x7f0000c00000UL + 4096, &v);
	TAP_EQ_LONG(ret, 0, "unhinted VMA found by an inner address");
	TAP_EQ_LONG(v.file_pmd_kb, 0, "FilePmdMapped of the unhinted VMA");
	ret = fsp_smaps_parse(text, len, 0x10, &v);
	TAP_EQ_LONG(ret, -ENOENT, "address in no VMA");
	free(text);

	text = load("smaps-truncated.txt", &len);
	ret = fsp_smaps_parse(text, len, 0x7f0000400000UL, &v);
	TAP_EQ_LONG(ret, 0, "truncated smaps: VMA still found");
	TAP_EQ_LONG(v.file_pmd_kb, -1, "missing FilePmdMapped stays -1");
	free(text);

	ret = fsp_smaps_parse("garbage\n\x01\x02-\n", 12, 0, &v);
	TAP_EQ_LONG(ret, -ENOENT, "garbage matches nothing");
	test_live();

	ret = fsp_sysfs_selected("always [madvise] never\n", word,
				 sizeof(word));
	tap_ok(!ret && !strcmp(word, "madvise"), "sysfs selected word (%s)",
	       word);
	ret = fsp_sysfs_selected("always within_size advise [never] deny "
				 "force", word, sizeof(word));
	tap_ok(!ret && !strcmp(word, "never"), "shmem_enabled word (%s)",
	       word);
	fsp_kconfig_parse("CONFIG_A=y\n# CONFIG_READ_ONLY_THP_FOR_FS is not "
			  "set\nCONFIG_B=m\n", "CONFIG_READ_ONLY_THP_FOR_FS",
			  &val);
	tap_ok(val == 'n', "'is not set' reads as n");
	fsp_kconfig_parse("CONFIG_A=y\nCONFIG_B=m\n", "CONFIG_B", &val);
	tap_ok(val == 'm', "module reads as m");
	fsp_kconfig_parse("CONFIG_AB=y\n", "CONFIG_A", &val);
	tap_ok(val == 'n', "prefix of another symbol does not match");
	test_ro_thp_state();
	return tap_done();
}
