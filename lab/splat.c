// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guests' consoles: where they live, the splat scan after a run, the
 * tail after a failure. A console is evidence, so it lives in RUN/consoles/,
 * outside every share a guest can write.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "errnames.h"
#include "escape.h"
#include "lab.h"
#include "log.h"
#include "splat.h"

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
	int found;

	if (lab_console_path(r, g, path, sizeof(path))) {
		if (f)
			fprintf(f, "%s: the console path is too long: no evidence, counted as a splat\n",
				g->name);
		return 1;
	}
	text = read_file_max(path, &len, LAB_DATA_MAX);
	if (!text || !len) {
		if (f)
			fprintf(f, "%s (%s): console %s: no evidence, counted as a splat\n", g->name,
				path, text ? "empty" : errno == EFBIG ? "over the 32 MiB cap, not read" :
				errno_str(errno));
		free(text);
		return 1;
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
	return found;
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
