// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm_sources.c - the text of the private sources list debian:VERSION
 * fetches through, and the mirror it names: the first entry of the
 * system's apt sources (sources.list, then sources.list.d's *.list and
 * deb822 *.sources in apt's order) whose suite is a Debian release, so
 * that fsprobe goes where the machine's own apt goes and never to a host
 * of its own choosing. Every line is signed-by Debian's archive keyring:
 * apt checks the Release signatures and the hashes chained from them,
 * and refuses what fails. The parsing takes text, so it is tested on
 * recorded files (t-apt-sources).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util.h"
#include "vm.h"

#define APT_ETC "/etc/apt"

/* Suite names a Debian archive carries (codenames and aliases). */
static const char *const releases[] = {
	"buster", "bullseye", "bookworm", "trixie", "forky", "duke", "sid",
	"oldoldstable", "oldstable", "stable", "testing", "unstable",
};

static int is_release(const char *suite, int security)
{
	size_t i, n;

	for (i = 0; i < FSP_ARRAY_SIZE(releases); i++) {
		n = strlen(releases[i]);
		if (strncmp(suite, releases[i], n))
			continue;
		if (security ? !strcmp(suite + n, "-security") : !suite[n])
			return 1;
	}
	return 0;
}

/* uri (trailing slashes dropped) into out, if it is one apt fetches. */
static int take_uri(const char *uri, char *out, size_t len)
{
	size_t n = strlen(uri);

	if (strncmp(uri, "http://", 7) && strncmp(uri, "https://", 8) &&
	    strncmp(uri, "file:", 5))
		return 0;
	while (n > 1 && uri[n - 1] == '/')
		n--;
	if (n >= len)
		return 0;
	memcpy(out, uri, n);
	out[n] = '\0';
	return 1;
}

/* "deb [opts] URI SUITE COMP..." lines. */
static int one_line(char *text, int security, char *uri, size_t len)
{
	char *line, *save, *w, *s, *u;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, "#")] = '\0';
		w = line + strspn(line, " \t");
		if (strncmp(w, "deb", 3) || (w[3] != ' ' && w[3] != '\t'))
			continue;
		w += 3 + strspn(w + 3, " \t");
		if (*w == '[') {	/* options may hold blanks */
			w = strchr(w, ']');
			if (!w)
				continue;
			w++;
		}
		u = strtok_r(w, " \t", &s);
		w = u ? strtok_r(NULL, " \t", &s) : NULL;
		if (w && is_release(w, security) && take_uri(u, uri, len))
			return 0;
	}
	return -ENOENT;
}

struct stanza {
	int deb, disabled;
	char *uris, *suites;	/* into the text, blank-separated */
};

static int stanza_match(struct stanza *st, int security, char *uri,
			size_t len)
{
	char *u, *s, *su, *ss, suites[1024];

	if (!st->deb || st->disabled || !st->uris || !st->suites)
		return 0;
	for (u = strtok_r(st->uris, " \t", &su); u;
	     u = strtok_r(NULL, " \t", &su)) {
		fsp_strcpy(suites, sizeof(suites), st->suites);
		for (s = strtok_r(suites, " \t", &ss); s;
		     s = strtok_r(NULL, " \t", &ss))
			if (is_release(s, security) && take_uri(u, uri, len))
				return 1;
	}
	return 0;
}

/* Is word one of the blank-separated words of v? (v is cut up) */
static int has_word(char *v, const char *word)
{
	char *w, *s;

	for (w = strtok_r(v, " \t", &s); w; w = strtok_r(NULL, " \t", &s))
		if (!strcmp(w, word))
			return 1;
	return 0;
}

/* deb822 stanzas: Types, URIs, Suites, Enabled; fields on one line. */
static int deb822(char *text, int security, char *uri, size_t len)
{
	struct stanza st = { 0 };
	char *line = text, *next, *v;

	for (; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[0] == '#')
			continue;
		if (!line[strspn(line, " \t\r")]) {
			if (stanza_match(&st, security, uri, len))
				return 0;
			memset(&st, 0, sizeof(st));
			continue;
		}
		v = strchr(line, ':');
		if (!v || line[0] == ' ' || line[0] == '\t')
			continue;
		*v++ = '\0';
		v[strcspn(v, "\r")] = '\0';
		if (!strcasecmp(line, "Types"))
			st.deb = has_word(v, "deb");
		else if (!strcasecmp(line, "URIs"))
			st.uris = v;
		else if (!strcasecmp(line, "Suites"))
			st.suites = v;
		else if (!strcasecmp(line, "Enabled"))
			st.disabled = !strcasecmp(v + strspn(v, " \t"), "no");
	}
	return stanza_match(&st, security, uri, len) ? 0 : -ENOENT;
}

int fsp_vm_mirror_in(const char *text, int is_deb822, int security,
		     char *uri, size_t len)
{
	char *copy = strdup(text);
	int ret;

	if (!copy)
		return -ENOMEM;
	uri[0] = '\0';
	ret = is_deb822 ? deb822(copy, security, uri, len) :
	      one_line(copy, security, uri, len);
	free(copy);
	return ret;
}

static int sources_file(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return de->d_name[0] != '.' &&
	       ((n > 5 && !strcmp(de->d_name + n - 5, ".list")) ||
		(n > 8 && !strcmp(de->d_name + n - 8, ".sources")));
}

/* One file of the system's sources; 0 and uri when it names one. */
static int mirror_in_file(const char *path, int security, char *uri,
			  size_t len)
{
	size_t n = strlen(path), tl;
	int deb822 = n > 8 && !strcmp(path + n - 8, ".sources"), ret;
	char *text;

	if (fsp_slurp(path, &text, &tl))
		return -ENOENT;
	ret = fsp_vm_mirror_in(text, deb822, security, uri, len);
	free(text);
	return ret;
}

int fsp_vm_system_mirror(int security, char *uri, size_t len)
{
	struct dirent **de = NULL;
	char p[PATH_MAX];
	int i, n, ret;

	ret = mirror_in_file(APT_ETC "/sources.list", security, uri, len);
	if (!ret)
		return 0;
	n = scandir(APT_ETC "/sources.list.d", &de, sources_file, alphasort);
	for (i = 0; i < n; i++) {
		if (ret && !fsp_fmt(p, sizeof(p), APT_ETC "/sources.list.d/%s",
				    de[i]->d_name))
			ret = mirror_in_file(p, security, uri, len);
		free(de[i]);
	}
	free(de);
	return ret;
}

int fsp_vm_security_of(const char *mirror, char *uri, size_t len)
{
	size_t n = strlen(mirror);

	if (n < 7 || strcmp(mirror + n - 7, "/debian"))
		return -ENOENT;
	return fsp_fmt(uri, len, "%s-security", mirror) ? -ENAMETOOLONG : 0;
}

const char *fsp_vm_keyring(const char *const *candidates)
{
	for (; *candidates; candidates++)
		if (!access(*candidates, R_OK))
			return *candidates;
	return NULL;
}

int fsp_vm_sources_text(const char *mirror, const char *security,
			const char *keyring, char **out)
{
	static const char *const suites[] = { "bookworm", "bookworm-updates",
		"bookworm-security", "trixie-backports", "sid",
		"experimental" };
	size_t i, len = 0, cap;
	char *buf;
	int n;

	cap = 128 + FSP_ARRAY_SIZE(suites) *
	      (64 + strlen(keyring) + strlen(mirror) +
	       (security ? strlen(security) : 0));
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	len = snprintf(buf, cap, "# fsprobe's own list: the system's apt "
		       "config is untouched; apt verifies\n# every Release "
		       "with Debian's archive keyring\n");
	for (i = 0; i < FSP_ARRAY_SIZE(suites); i++) {
		int sec = !strcmp(suites[i], "bookworm-security");

		if (sec && !security)
			continue;
		n = snprintf(buf + len, cap - len, "deb [signed-by=%s] %s %s "
			     "main\n", keyring, sec ? security : mirror,
			     suites[i]);
		if (n < 0 || (size_t)n >= cap - len) {
			free(buf);
			return -ENAMETOOLONG;
		}
		len += n;
	}
	*out = buf;
	return 0;
}

/* What apt prints when a signature or a hash chained from it fails. */
static const char *const unverified[] = {
	"is not signed", "NO_PUBKEY", "BADSIG", "EXPKEYSIG", "REVKEYSIG",
	"signatures were invalid", "signatures couldn't be verified",
	"GPG error", "Hash Sum mismatch", "Signed file isn't valid",
	"is no longer signed",
};

const char *fsp_vm_apt_unverified(const char *text)
{
	const char *best = NULL, *e;
	size_t i;

	/* The first line that says so: apt's E: line comes after W:. */
	for (i = 0; i < FSP_ARRAY_SIZE(unverified); i++) {
		e = strstr(text, unverified[i]);
		if (e && (!best || e < best))
			best = e;
	}
	if (!best)
		return NULL;
	while (best > text && best[-1] != '\n')
		best--;
	return best;
}
