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

#include "cli.h"
#include "errnames.h"
#include "file.h"
#include "log.h"
#include "splat.h"

#define PROG "bpfwire-splat"

static void usage(void)
{
	printf("usage: " PROG " CONSOLE...\n"
	       "Scans each console for kernel splats (%zu patterns).\n"
	       "Exit 0 clean, 1 splats found (quoted), 2 a console missing, empty or over 32 MiB,\n"
	       "or a usage error.\n", splat_npatterns);
}

int main(int argc, char **argv)
{
	static const char shortopts[] = "h";
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	int found = 0, bad = 0, c;

	log_init(PROG, LOG_INFO);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, shortopts, longopts);
		}
	}
	if (optind == argc)
		return cli_bad_args(PROG, "name at least one CONSOLE");
	for (int i = optind; i < argc; i++) {
		size_t len = 0;
		char *text = read_file_max(argv[i], &len, SPLAT_CONSOLE_MAX);

		if (!text && errno == EFBIG) {
			pr_warn("%s: over the 32 MiB cap, not scanned", argv[i]);
			bad++;
			continue;
		}
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
