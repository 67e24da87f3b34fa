// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-apt-sources.c - the private sources list debian:VERSION fetches
 * through (src/vm/vm_sources.c): every line signed-by the keyring and
 * none trusted=yes; the mirror taken from apt sources as machines have
 * them (one-line with options, deb822 with comments, disabled stanzas,
 * deb-src only, third-party suites); the security archive beside a
 * .../debian mirror; a missing keyring is NULL; and apt's output when a
 * signature or hash fails (recorded from apt 2.6) is told apart from a
 * network failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util.h"
#include "vm.h"

#define KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg"

static void text(void)
{
	char *t = NULL, *line, *save;
	int deb = 0, signed_by = 0, sec = 0;

	tap_ok(!fsp_vm_sources_text("http://mirror.example.org/debian",
				    "http://mirror.example.org/debian-security",
				    KEYRING, &t), "sources text made");
	if (!t)
		return;
	tap_ok(!strstr(t, "trusted"), "no line is trusted=yes");
	for (line = strtok_r(t, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		deb++;
		signed_by += !strncmp(line, "deb [signed-by=" KEYRING "] ",
				      strlen("deb [signed-by=" KEYRING "] "));
		sec += !!strstr(line, "/debian-security bookworm-security main");
	}
	tap_ok(deb == 6 && signed_by == deb, "every deb line (%d of %d) is "
	       "signed-by the keyring", signed_by, deb);
	tap_ok(sec == 1, "bookworm-security from the security archive");
	free(t);
	t = NULL;
	tap_ok(!fsp_vm_sources_text("file:/srv/m/debian", NULL, KEYRING, &t) &&
	       t && !strstr(t, "security") && strstr(t, " file:/srv/m/debian sid "
						       "main\n"),
	       "no security archive: no bookworm-security line");
	free(t);
}

static void one(const char *desc, const char *src, int deb822, int security,
		const char *want)
{
	char uri[256];
	int ret = fsp_vm_mirror_in(src, deb822, security, uri, sizeof(uri));

	if (!want)
		tap_ok(ret == -ENOENT, "%s: none (got %d '%s')", desc, ret,
		       ret ? "" : uri);
	else
		tap_ok(!ret && !strcmp(uri, want), "%s: %s (got '%s')", desc,
		       want, ret ? "" : uri);
}

static void mirrors(void)
{
	static const char list[] =
		"# deb http://old.example.org/debian bookworm main\n"
		"deb-src http://src.example.org/debian bookworm main\n"
		"deb https://pkg.example.com/apt cloud-sdk main\n"
		"deb [ arch=amd64 signed-by=/k.gpg ] http://m.example.org/debian/ "
		"trixie main # comment\n"
		"deb http://m.example.org/debian-security trixie-security main\n";
	static const char sources[] =
		"Types: deb\n"
		"# http://snapshot.example.org/archive/debian/20250520T000000Z\n"
		"URIs: https://tp.example.com/node_20.x\n"
		"Suites: nodistro\n"
		"Components: main\n"
		"\n"
		"Types: deb\n"
		"URIs: http://off.example.org/debian\n"
		"Suites: bookworm\n"
		"Enabled: no\n"
		"\n"
		"Types: deb-src\n"
		"URIs: http://src.example.org/debian\n"
		"Suites: bookworm\n"
		"\n"
		"types: deb deb-src\n"
		"URIs: mirror+file:/etc/apt/mirrors.txt http://d.example.org/debian\n"
		"Suites: bookworm bookworm-updates\n"
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
		"\n"
		"Types: deb\n"
		"URIs: http://d.example.org/debian-security\n"
		"Suites: bookworm-security\n";

	one("one-line: options, trailing slash, comments, deb-src skipped",
	    list, 0, 0, "http://m.example.org/debian");
	one("one-line security", list, 0, 1,
	    "http://m.example.org/debian-security");
	one("deb822: third party, disabled, deb-src, mirror+ skipped",
	    sources, 1, 0, "http://d.example.org/debian");
	one("deb822 security", sources, 1, 1,
	    "http://d.example.org/debian-security");
	one("a third-party list alone", "deb https://pkg.example.com/apt "
	    "cloud-sdk-bookworm main\n", 0, 0, NULL);
	one("a -updates suite is not the release", "deb http://u.example.org/"
	    "debian bookworm-updates main\n", 0, 0, NULL);
	one("file: mirror, sid", "deb file:/srv/mirror/debian sid main\n", 0,
	    0, "file:/srv/mirror/debian");
	one("empty", "", 1, 0, NULL);
}

static void security_and_keyring(void)
{
	static const char *const none[] = { "/nonexistent/keyring.gpg", NULL };
	static const char *const some[] = { "/nonexistent/keyring.gpg",
		"/dev/null", NULL };
	char uri[256];

	tap_ok(!fsp_vm_security_of("http://m.example.org/debian", uri,
				   sizeof(uri)) &&
	       !strcmp(uri, "http://m.example.org/debian-security"),
	       "security beside .../debian (got '%s')", uri);
	tap_ok(fsp_vm_security_of("http://m.example.org/ftp", uri,
				  sizeof(uri)) == -ENOENT,
	       "no security beside a mirror not named .../debian");
	tap_ok(fsp_vm_keyring(none) == NULL, "missing keyring: NULL");
	tap_ok(fsp_vm_keyring(some) == some[1], "the first readable keyring");
}

static void unverified(void)
{
	static const char not_signed[] =
		"Ign:3 file:/tmp/r sid Release.gpg\n"
		"Reading package lists...\n"
		"E: The repository 'file:/tmp/r sid Release' is not signed.\n"
		"N: Updating from such a repository can't be done securely, "
		"and is therefore disabled by default.\n";
	static const char no_pubkey[] =
		"W: GPG error: http://m.example.org/debian sid InRelease: The "
		"following signatures couldn't be verified because the public "
		"key is not available: NO_PUBKEY 6ED0E7B82643E131\n"
		"E: The repository 'http://m.example.org/debian sid InRelease' "
		"is not signed.\n";
	static const char hash[] =
		"E: Failed to fetch http://m.example.org/debian/pool/main/l/"
		"linux/linux-binary_7.2_amd64.deb  Hash Sum mismatch\n";
	static const char offline[] =
		"W: Failed to fetch http://m.example.org/debian/dists/sid/"
		"InRelease  Could not resolve 'm.example.org'\n"
		"E: Some index files failed to download.\n";
	const char *l;

	l = fsp_vm_apt_unverified(not_signed);
	tap_ok(l && !strncmp(l, "E: The repository 'file:/tmp/r sid Release' "
			     "is not signed.", 50),
	       "unsigned Release: its E: line");
	l = fsp_vm_apt_unverified(no_pubkey);
	tap_ok(l && !strncmp(l, "W: GPG error: ", 14) &&
	       strstr(l, "NO_PUBKEY") < strchr(l, '\n'),
	       "unknown key: the GPG error line, naming the key");
	tap_ok(fsp_vm_apt_unverified(hash) == hash, "a .deb's hash mismatch");
	tap_ok(!fsp_vm_apt_unverified(offline),
	       "a network failure is not a verification failure");
}

int main(void)
{
	text();
	mirrors();
	security_and_keyring();
	unverified();
	return tap_done();
}
