// SPDX-License-Identifier: GPL-2.0-only
/*
 * A PNG of a page, by Debian's chromium, headless (the README's
 * picture). No network: a fresh profile in a mktemp dir, removed after, and
 * the flags that stop chromium's background connections.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "proc.h"
#include "screenshot.h"
#include "vm/util.h"

int page_screenshot(const char *html, const char *png, int width, int height, char *err, size_t errlen)
{
	char abs[PATH_MAX], url[PATH_MAX + 16], shot[PATH_MAX + 16], prof[] = "/tmp/bpfwire-chromium-XXXXXX";
	char pdir[sizeof(prof) + 32], size[64], out[4096], chromium[PATH_MAX];
	int r;

	if (!find_program("chromium", chromium, sizeof(chromium))) {
		snprintf(err, errlen, "chromium is not installed (tools/install-deps installs it)");
		return -1;
	}
	if (!realpath(html, abs)) {
		snprintf(err, errlen, "%s: %s", html, strerror(errno));
		return -1;
	}
	if (!mkdtemp(prof)) {
		snprintf(err, errlen, "mkdtemp: %s", strerror(errno));
		return -1;
	}
	snprintf(url, sizeof(url), "file://%s", abs);
	snprintf(shot, sizeof(shot), "--screenshot=%s", png);
	snprintf(pdir, sizeof(pdir), "--user-data-dir=%s", prof);
	snprintf(size, sizeof(size), "--window-size=%d,%d", width, height);
	{
		char *argv[] = { "timeout", "120", chromium, "--headless", "--no-sandbox", "--disable-gpu",
				 "--no-first-run", "--disable-background-networking", "--disable-component-update",
				 "--disable-sync", "--disable-quic", "--hide-scrollbars", pdir, size, shot, url,
				 NULL };

		r = run_cmd(argv, NULL, out, sizeof(out));
	}
	rm_rf(prof);
	if (r) {
		snprintf(err, errlen, "chromium exited %d: %.300s", r, out);
		return -1;
	}
	if (!file_exists(png)) {
		snprintf(err, errlen, "chromium wrote no %s: %.300s", png, out);
		return -1;
	}
	return 0;
}
