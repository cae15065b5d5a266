// SPDX-License-Identifier: GPL-2.0-only
/* The guests' consoles: the splat scan after a run, the tail after a failure. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "lab.h"
#include "log.h"
#include "splat.h"

void console_tail(const struct lab_guest *g, int lines)
{
	char path[PATH_MAX + 16], *text;
	size_t len;
	int seen = 0;
	char *p;

	snprintf(path, sizeof(path), "%s/console.log", g->dir);
	text = read_file(path, &len);
	if (!text || !len) {
		pr_warn("%s: the console (%s) is empty", g->name, path);
		free(text);
		snprintf(path, sizeof(path), "%s/qemu.log", g->dir);
		text = read_file(path, &len);
		if (text && len)
			fprintf(stderr, "--- %s: qemu.log ---\n%s\n---\n", g->name, text);
		free(text);
		return;
	}
	for (p = text + len; p > text; p--)
		if (p[-1] == '\n' && p != text + len && ++seen > lines)
			break;
	fprintf(stderr, "--- %s: last %d lines of %s ---\n%s%s---\n", g->name, lines, path, p,
		text[len - 1] == '\n' ? "" : "\n");
	free(text);
}

/*
 * The whole console, NUL bytes included: a console that QEMU truncated
 * starts with NULs, and a scan that stopped at the first would miss it all.
 */
int lab_scan_splats(const struct lab_run *r, FILE *f)
{
	int found = 0;

	for (int g = 0; g < r->nguests; g++) {
		char path[PATH_MAX + 16], label[PATH_MAX + 64], *text;
		size_t len;

		snprintf(path, sizeof(path), "%s/console.log", r->guests[g].dir);
		text = read_file(path, &len);
		if (!text)
			continue;
		snprintf(label, sizeof(label), "%s (%s)", r->guests[g].name, path);
		found += splat_scan(text, len, f, label);
		free(text);
	}
	return found;
}
