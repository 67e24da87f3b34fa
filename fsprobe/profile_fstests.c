// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile_fstests.c - a profile made of an fstests configuration section
 * (local.config, as fstests' common/config parses it): `[name]` headers,
 * `KEY=value` or `export KEY=value` lines, values bare or in single or
 * double quotes, `#` comments; lines before the first header apply to
 * every section. FSTYP, MKFS_OPTIONS and MOUNT_OPTIONS make the profile:
 * fs = FSTYP, mkfs = mkfs.FSTYP with fstests' force/quiet flags and
 * MKFS_OPTIONS, mount_options = the options of MOUNT_OPTIONS' "-o". Everything else (TEST_DEV,
 * SCRATCH_DEV, ...) is read and ignored: fsprobe formats its own image and
 * never touches the devices a section names. Shell expansion ($VAR,
 * backquotes) is refused, not guessed. The text goes through
 * fsp_profile_parse_text, so every rule of a .conf profile applies too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile.h"
#include "util.h"

/* A local.config is a page of shell; /dev/zero must not fill memory. */
#define FSTESTS_FILE_MAX	(16u << 20)

struct fst_vars {
	char fstyp[32], mkfs[512], mount[256];
	int has_fstyp, found, header_line, headers;
};

/* The value of KEY=value: unquoted, trailing comment and blanks cut. */
static int unquote(char *v, int line, struct fsp_profile_error *err)
{
	char q = *v, *end;

	if (q == '"' || q == '\'') {
		end = strchr(v + 1, q);
		if (!end)
			return fsp_profile_err(err, line, "unterminated %c quote", q);
		if (*fsp_lstrip(end + 1) && *fsp_lstrip(end + 1) != '#')
			return fsp_profile_err(err, line, "text after the closing quote");
		*end = '\0';
		memmove(v, v + 1, (size_t)(end - v));
	} else {
		end = strchr(v, '#');
		if (end)
			*end = '\0';
		fsp_rstrip(v);
	}
	if (strpbrk(v, q == '\'' ? "" : "$`\\"))
		return fsp_profile_err(err, line, "shell expansion ($, `, \\) is not "
			    "supported in fstests values");
	return 0;
}

/* MOUNT_OPTIONS is mount(8)'s "-o a,b [-o c]": the joined a,b,c. */
static int mount_opts(struct fst_vars *vars, const char *val, int line,
		      struct fsp_profile_error *err)
{
	char buf[256], *tok, *save = NULL;
	size_t n = 0;
	int want = 0;

	if (fsp_strcpy(buf, sizeof(buf), val))
		return fsp_profile_err(err, line, "MOUNT_OPTIONS too long");
	vars->mount[0] = '\0';
	for (tok = strtok_r(buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (!want && !strcmp(tok, "-o")) {
			want = 1;
			continue;
		}
		if (!want && !strncmp(tok, "-o", 2))
			tok += 2;
		else if (!want)
			return fsp_profile_err(err, line, "MOUNT_OPTIONS: only -o OPTS is "
				    "supported, not '%s'", tok);
		want = 0;
		n += snprintf(vars->mount + n, sizeof(vars->mount) - n,
			      "%s%s", n ? "," : "", tok);
		if (n >= sizeof(vars->mount))
			return fsp_profile_err(err, line, "MOUNT_OPTIONS too long");
	}
	if (want)
		return fsp_profile_err(err, line, "MOUNT_OPTIONS: -o without options");
	return 0;
}

static int set_var(struct fst_vars *vars, const char *key, const char *val,
		   int line, struct fsp_profile_error *err)
{
	if (!strcmp(key, "FSTYP")) {
		if (fsp_strcpy(vars->fstyp, sizeof(vars->fstyp), val))
			return fsp_profile_err(err, line, "FSTYP too long");
		vars->has_fstyp = 1;
	} else if (!strcmp(key, "MKFS_OPTIONS")) {
		if (fsp_strcpy(vars->mkfs, sizeof(vars->mkfs), val))
			return fsp_profile_err(err, line, "MKFS_OPTIONS too long");
	} else if (!strcmp(key, "MOUNT_OPTIONS")) {
		return mount_opts(vars, val, line, err);
	}
	return 0;	/* TEST_DEV, SCRATCH_DEV, ...: never used */
}

/* One line: a header, an assignment, a comment or blank. */
static int parse_line(char *s, int line, const char *section,
		      int *in, struct fst_vars *vars,
		      struct fsp_profile_error *err)
{
	char *eq, *key, *end;

	s = fsp_lstrip(s);
	fsp_rstrip(s);
	if (!*s || *s == '#')
		return 0;
	if (*s == '[') {
		end = strchr(s, ']');
		if (!end || end == s + 1 || *fsp_lstrip(end + 1))
			return fsp_profile_err(err, line, "bad section header '%s'", s);
		*end = '\0';
		vars->headers = 1;
		*in = !section || !strcmp(s + 1, section);
		if (*in && vars->found)	/* the next section: done */
			*in = -1;
		else if (*in) {
			vars->found = 1;
			vars->header_line = line;
		}
		return 0;
	}
	if (*in < 0)
		return 0;
	if (!strncmp(s, "export", 6) && (s[6] == ' ' || s[6] == '\t'))
		s = fsp_lstrip(s + 6);
	eq = strchr(s, '=');
	if (!eq || eq == s)
		return fsp_profile_err(err, line, "not KEY=value: '%s'", s);
	*eq = '\0';
	key = s;
	for (s = key; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return fsp_profile_err(err, line, "bad variable name '%s'", key);
	/* Lines before the first header are global; others only count in
	 * the section asked for (fstests never evaluates the rest). */
	if (!*in && vars->headers)
		return 0;
	if (unquote(eq + 1, line, err))
		return -EINVAL;
	return set_var(vars, key, eq + 1, line, err);
}

/* fstests' _scratch_mkfs: -f for xfs and btrfs, -F for ext2/3/4. */
static const char *mkfs_flags(const char *fs)
{
	if (!strcmp(fs, "xfs"))
		return "-f -q";
	if (!strcmp(fs, "btrfs"))
		return "-f -q";
	if (!strcmp(fs, "ext2") || !strcmp(fs, "ext3") || !strcmp(fs, "ext4"))
		return "-F -q";
	return "";
}

/* A name (file, section) with a control character in it: the first. */
static const char *control_char(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return s;
	return NULL;
}

/*
 * The profile text holds the section's values only: a name reaches it
 * never, so a newline in one cannot add keys. The names go into the
 * parsed profile's description afterwards, checked to have no control
 * characters.
 */
static int make_profile(const struct fst_vars *v, const char *file,
			const char *section, struct fsp_profile *p,
			struct fsp_profile_error *err)
{
	char name[64], text[2048];
	int n, ret;

	snprintf(name, sizeof(name), "fstests-%s", section ? section : "0");
	n = snprintf(text, sizeof(text),
		     "fs = %s\nmkfs = mkfs.%s %s %s\nmount_options = %s\n",
		     v->fstyp, v->fstyp, mkfs_flags(v->fstyp), v->mkfs,
		     v->mount);
	if (n < 0 || (size_t)n >= sizeof(text))
		return fsp_profile_err(err, v->header_line, "section too long");
	ret = fsp_profile_parse_text(name, text, (size_t)n, p, err);
	if (ret) {
		/* The rule broken, at the section's header line. */
		err->line = v->header_line;
		return ret;
	}
	snprintf(p->description, sizeof(p->description), "fstests %.60s "
		 "[%.40s]: its devices are never touched, fsprobe formats "
		 "its own image", file, section ? section : "");
	fsp_strcpy(p->path, sizeof(p->path), file);
	return 0;
}

/* Names are refused, not escaped: a config so named is not an accident. */
static int check_names(const char *file, const char *section,
		       struct fsp_profile_error *err)
{
	if (control_char(file))
		return fsp_profile_err(err, 0, "the config's file name has a "
				       "control character (0x%02x): rename it",
				       (unsigned char)*control_char(file));
	if (control_char(section))
		return fsp_profile_err(err, 0, "the section name has a control "
				       "character (0x%02x): name a section "
				       "of printable characters",
				       (unsigned char)*control_char(section));
	return 0;
}

int fsp_profile_parse_fstests(const char *file, const char *text,
			      size_t len, const char *section,
			      struct fsp_profile *p,
			      struct fsp_profile_error *err)
{
	struct fst_vars vars = { .fstyp = "" };
	char line[FSP_PROFILE_LINE_MAX];
	size_t pos = 0, n;
	int lineno = 0, in = 0;
	const char *nl;

	memset(p, 0, sizeof(*p));
	memset(err, 0, sizeof(*err));
	if (check_names(file, section, err))
		return -EINVAL;
	if (memchr(text, '\0', len))
		return fsp_profile_err(err, 0, "binary data (NUL byte)");
	while (pos < len) {
		nl = memchr(text + pos, '\n', len - pos);
		n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		lineno++;
		if (n >= sizeof(line))
			return fsp_profile_err(err, lineno, "line too long");
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		if (parse_line(line, lineno, section, &in, &vars, err))
			return -EINVAL;
	}
	if (section && !vars.found)
		return fsp_profile_err(err, 0, "no section [%s]", section);
	if (!vars.has_fstyp)
		return fsp_profile_err(err, vars.header_line, "no FSTYP in section [%s]",
			    section ? section : "(global)");
	return make_profile(&vars, file, section, p, err);
}

int fsp_profile_load_fstests(const char *path, const char *section,
			     struct fsp_profile *p,
			     struct fsp_profile_error *err)
{
	char *text = NULL;
	size_t len;
	int ret;

	memset(err, 0, sizeof(*err));
	ret = fsp_slurp_regular(path, FSTESTS_FILE_MAX, &text, &len);
	if (ret)
		return fsp_profile_load_error(ret, FSTESTS_FILE_MAX, err);
	ret = fsp_profile_parse_fstests(path, text, len, section, p, err);
	free(text);
	return ret;
}
