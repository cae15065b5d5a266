// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-splat FILE...: the one splat scan, for scripts (the agent test,
 * the kernel suite). Exit 0 clean, 1 splats (quoted on stdout), 2 when a
 * console is missing, empty or unreadable: no evidence is not a clean run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errnames.h"
#include "file.h"
#include "log.h"
#include "splat.h"

int main(int argc, char **argv)
{
	int found = 0, bad = 0;

	log_init("bpfwire-splat", LOG_INFO);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: bpfwire-splat CONSOLE...\n"
			"Scans each console for kernel splats (%zu patterns).\n"
			"Exit 0 clean, 1 splats found (quoted), 2 a console missing or empty.\n",
			splat_npatterns);
		return argc < 2 ? 2 : 0;
	}
	for (int i = 1; i < argc; i++) {
		size_t len = 0;
		char *text = read_file(argv[i], &len);

		if (!text) {
			pr_warn("%s: %s", argv[i], errno_str(errno));
			bad++;
			continue;
		}
		if (!len) {
			pr_warn("%s: empty console, nothing to scan", argv[i]);
			bad++;
		}
		found += splat_scan(text, len, stdout, argv[i]);
		free(text);
	}
	return bad ? 2 : found ? 1 : 0;
}
