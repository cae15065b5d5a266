// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-lock kbuild|guest COMMAND [ARG...]: COMMAND run holding one of
 * the machine-wide locks (lock.h), for scripts: the lock files' place and
 * the checks of their directory are lock.c's alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "errnames.h"
#include "lock.h"
#include "log.h"

#define PROG "bpfwire-lock"

static const struct {
	const char *name, *path;
} locks[] = {
	{ "kbuild", LOCK_KBUILD },
	{ "guest", LOCK_GUEST },
};

static void usage(void)
{
	printf("usage: " PROG " [--dry-run] kbuild|guest COMMAND [ARG...]\n"
	       "Runs COMMAND holding a machine-wide lock: kbuild (" LOCK_KBUILD ", one kernel build\n"
	       "at a time) or guest (" LOCK_GUEST ", one lab at a time). Waits, saying so, while\n"
	       "another holds it. Exit: COMMAND's, or 2 for a usage error or a lock that cannot be taken.\n"
	       "  --dry-run   say which lock and command; take and run nothing\n");
}

int main(int argc, char **argv)
{
	/* '+': options end at NAME, as with env and timeout; the rest is COMMAND's */
	static const char shortopts[] = "+h";
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ 0 }
	};
	const char *path = NULL;
	bool dry = false;
	int c;

	log_init(PROG, LOG_INFO);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(); return 0;
		case 'V': cli_version(PROG); return 0;
		case 'n': dry = true; break;
		default: return cli_bad_option(PROG, argv, shortopts, longopts);
		}
	}
	if (argc - optind < 2)
		return cli_bad_args(PROG, "name a lock (kbuild or guest) and a COMMAND");
	for (size_t i = 0; i < sizeof(locks) / sizeof(locks[0]); i++)
		if (!strcmp(argv[optind], locks[i].name))
			path = locks[i].path;
	if (!path)
		return cli_bad_value(PROG, "NAME", argv[optind], "kbuild or guest");
	if (dry) {
		printf(PROG ": dry run: would run %s holding %s\n", argv[optind + 1], path);
		return 0;
	}
	int fd = lock_take(path);

	if (fd < 0)
		return CLI_EUSAGE;
	/* the lock goes with COMMAND's process: its fd stays open across exec */
	if (fcntl(fd, F_SETFD, 0)) {
		pr_warn("%s: %s", path, errno_str(errno));
		return CLI_EUSAGE;
	}
	/* exec in place, not spawn: COMMAND is this process, its signals and exit status its own */
	execvp(argv[optind + 1], &argv[optind + 1]);
	pr_warn("%s: %s", argv[optind + 1], errno_str(errno));
	return errno == ENOENT ? 127 : 126;
}
