// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guests' consoles: where they live, the splat scan after a run, the
 * tail after a failure. A console is evidence, so it lives in RUN/consoles/,
 * outside every share a guest can write.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "log.h"
#include "model.h"
#include "remote.h"
#include "share.h"
#include "splat.h"
#include "topo/topology.h"
#include "util.h"

int lab_console_path(const struct lab_run *r, const struct lab_guest *g, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/consoles/%s.log", r->results, g->name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int lab_console_prepare(const struct lab_run *r, const struct lab_guest *g, char *buf, size_t len)
{
	char dir[PATH_MAX + 16], name[TOPO_NAME_MAX + 8];
	int e;

	snprintf(dir, sizeof(dir), "%s/consoles", r->results);
	e = mkdir_p(dir, 0755);
	if (!e)
		e = lab_console_path(r, g, buf, len);
	if (e)
		return e;
	/* made anew, never through a link, before QEMU opens it by name */
	snprintf(dir, sizeof(dir), "%s/consoles", r->results);
	snprintf(name, sizeof(name), "%s.log", g->name);
	e = share_create(dir, name);
	if (e < 0)
		return e;
	close(e);
	return 0;
}

void console_tail(const struct lab_run *r, const struct lab_guest *g, int lines)
{
	char path[PATH_MAX + 32], *text;
	size_t len = 0;
	int seen = 0;
	char *p;

	lab_console_path(r, g, path, sizeof(path));
	text = read_file_max(path, &len, LAB_DATA_MAX);
	if (!text || !len) {
		pr_warn("%s: the console (%s) is %s", g->name, path,
			text ? "empty" : errno == EFBIG ? "over 32 MiB" : errno_str(errno));
		free(text);
		lab_guest_path(r, g->name, "qemu.log", path, sizeof(path));
		text = read_file_max(path, &len, LAB_DATA_MAX);
		if (text && len) {
			fprintf(stderr, "--- %s: qemu.log ---\n", g->name);
			esc_fwrite(stderr, text, len, ESC_KEEP_NL);	/* QEMU quotes the guest */
			fputs("\n---\n", stderr);
		}
		free(text);
		return;
	}
	for (p = text + len; p > text; p--)
		if (p[-1] == '\n' && p != text + len && ++seen > lines)
			break;
	/* the guest's own words: escaped for the terminal */
	fprintf(stderr, "--- %s: last %d lines of %s ---\n", g->name, lines, path);
	esc_fwrite(stderr, p, (size_t)(text + len - p), ESC_KEEP_NL);
	fprintf(stderr, "%s---\n", text[len - 1] == '\n' ? "" : "\n");
	free(text);
}

/*
 * One guest's console. A console that is missing, empty or unreadable is
 * no evidence, not a clean run: it counts as one finding, with the reason.
 */
static int scan_console(const struct lab_run *r, const struct lab_guest *g, FILE *f)
{
	char path[PATH_MAX + 32], label[PATH_MAX + 64], *text;
	size_t len = 0;
	int found, found_proof = 0;

	if (lab_console_path(r, g, path, sizeof(path))) {
		if (f)
			fprintf(f, "%s: the console path is too long: no evidence, counted as a splat\n",
				g->name);
		return 1;
	}
	/* a clean console proves nothing unless it was live at teardown */
	if (g->console_proof == LAB_CONSOLE_UNCHECKED || g->console_proof == LAB_CONSOLE_NO_EVIDENCE) {
		if (f)
			fprintf(f, "%s (%s): console not proven live: %s: no evidence, counted as a splat\n",
				g->name, path, g->console_proof == LAB_CONSOLE_UNCHECKED ?
				"no SysRq proof was taken" : g->console_why);
		found_proof = 1;
	}
	text = read_file_max(path, &len, LAB_DATA_MAX);
	if (!text || !len) {
		if (f)
			fprintf(f, "%s (%s): console %s: no evidence, counted as a splat\n", g->name,
				path, text ? "empty" : errno == EFBIG ? "over the 32 MiB cap, not read" :
				errno_str(errno));
		free(text);
		return 1 + found_proof;
	}
	snprintf(label, sizeof(label), "%s (%s)", g->name, path);
	/* All len bytes, NULs included: a truncated console starts with NULs. */
	found = splat_scan(text, len, f, label);
	free(text);
	/* QEMU writes no byte past the cap (qemu.c): what came after is lost */
	if (len >= LAB_DATA_MAX) {
		if (f)
			fprintf(f, "%s (%s): console reached the 32 MiB cap, what the guest said after "
				"it is lost: counted as a splat\n", g->name, path);
		found++;
	}
	return found + found_proof;
}

int lab_scan_splats(const struct lab_run *r, FILE *f)
{
	int found = 0;

	for (int g = 0; g < r->nguests; g++) {
		/* a guest whose QEMU never started has no console to lose */
		if (r->guests[g].pid <= 0)
			continue;
		found += scan_console(r, &r->guests[g], f);
	}
	return found + remote_scan_splats(r, f);
}

/*
 * ttyS0 is registered once at boot. Guest root can unregister it (its
 * sysfs "console" file, or unbinding the 8250 driver), let the kernel warn
 * into the ring buffer only, read /proc/kmsg so that nothing is replayed,
 * and register it again before teardown's SysRq proof. Each registration
 * prints this line on the console itself: a second one is a gap.
 */
#define CONSOLE_ENABLED "console [ttyS0] enabled"

void lab_console_gaps(struct lab_run *r)
{
	size_t n = strlen(CONSOLE_ENABLED);

	for (int h = 0; h < r->nguests; h++) {
		struct lab_guest *g = &r->guests[h];
		char path[PATH_MAX + 32], *text;
		const char *p, *hit;
		size_t len = 0;
		int seen = 0;

		if (g->pid <= 0 || g->console_proof != LAB_CONSOLE_LIVE ||
		    lab_console_path(r, g, path, sizeof(path)))
			continue;
		text = read_file_max(path, &len, LAB_DATA_MAX);
		if (!text)
			continue;	/* the scan says why it is no evidence */
		for (p = text; (hit = memmem(p, len - (size_t)(p - text), CONSOLE_ENABLED, n));
		     p = hit + n)
			seen++;
		free(text);
		if (seen > 1) {
			g->console_proof = LAB_CONSOLE_NO_EVIDENCE;
			snprintf(g->console_why, sizeof(g->console_why),
				 "\"%s\" %d times: the console was removed and registered again, what "
				 "the kernel said meanwhile may be lost", CONSOLE_ENABLED, seen);
		}
	}
}
