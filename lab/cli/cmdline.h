/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-lab's command line: what every command of lab/cli/main.c shares. */
#ifndef BPFWIRE_LAB_CMDLINE_H
#define BPFWIRE_LAB_CMDLINE_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "vm/model.h"

extern const char *opt_run;	/* --run ID */
extern bool opt_dry_run;	/* --dry-run: parse and resolve, say what would happen, exit 0 */
extern char cmd_prog[64];	/* "bpfwire-lab COMMAND", the prefix of a usage error */

/* A wrong number of arguments: what was expected, what came. LAB_EUSAGE. */
int bad_args(int argc, char **argv, const char *want);
/* The usage, and for a command on a TOPOLOGY the topologies under topology/. */
void print_usage(FILE *f, const char *usage);
/*
 * The common options (--run, --help, -v, --dry-run, --version) and extra's,
 * anywhere among the arguments; cb takes the extra ones (0: taken).
 * Returns optind, or -1 (help, version) / -2 (bad usage, said).
 */
int parse_common(int argc, char **argv, const char *usage, const char *extra_short,
		 const struct option *extra, int (*cb)(int, const char *, void *), void *ctx);
/* --share-size MIB: 1..65536 into *mib; 0, or -1 when it is no such number. */
int parse_share_mib(const char *arg, unsigned *mib);
/* --dry-run's one line, after the arguments checked out; returns 0. */
int dry_run_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define COMMON(argc, argv, usage, s, e, cb, ctx) do {			\
	int i_ = parse_common(argc, argv, usage, s, e, cb, ctx);	\
	if (i_ == -1)							\
		return 0;						\
	if (i_ == -2)							\
		return LAB_EUSAGE;					\
	argc -= i_;							\
	argv += i_;							\
} while (0)

#endif
