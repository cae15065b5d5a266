// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest's options: each subcommand lists its options in one
 * table, and guest_opts_parse() runs common/cli.h's getopt_long loop over
 * it. The options several subcommands take (--dev, --json, --count,
 * --path, --rate, --port) are written here once, with their ranges.
 */
#ifndef BPFWIRE_BENCH_GUEST_OPTS_H
#define BPFWIRE_BENCH_GUEST_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct out;

enum gopt_kind { GOPT_STRING, GOPT_UINT, GOPT_FLAG };

struct gopt {
	const char *name;	/* the long option, without "--" */
	int val;		/* getopt_long's: cli_bad_option names it */
	enum gopt_kind kind;
	void *dst;		/* const char **, uint64_t * or int * (set to 1) */
	uint64_t min, max;	/* GOPT_UINT's range */
	int *seen;		/* optional: set to 1 once the option is given */
};

#define GOPT_STR(n, v, p)	{ .name = (n), .val = (v), .kind = GOPT_STRING, .dst = (p) }
#define GOPT_U64(n, v, p, lo, hi) \
	{ .name = (n), .val = (v), .kind = GOPT_UINT, .dst = (p), .min = (lo), .max = (hi) }
#define GOPT_BOOL(n, v, p)	{ .name = (n), .val = (v), .kind = GOPT_FLAG, .dst = (p) }

/* The shared ones: the device of the drop counters, and the JSON result. */
#define GOPT_DEV(o)		GOPT_STR("dev", 'd', &(o)->dev)
#define GOPT_JSON(o)		GOPT_STR("json", 'j', &(o)->json_path)
#define GOPT_COUNT(p)		GOPT_U64("count", 'n', (p), 1, UINT32_MAX)
#define GOPT_PATH(p)		GOPT_STR("path", 'p', (p))
#define GOPT_RATE(p)		GOPT_U64("rate", 'r', (p), 1, 100000000)
#define GOPT_PORT(p)		GOPT_U64("port", 'P', (p), 1, 65535)

#define GOPT_MAX 16

/*
 * Parses argv (the subcommand's name first) with opts, n of them, and
 * --help, last. Each value is stored as it comes. -1: go on; else the exit
 * status: 0 after --help (usage on stdout), 2 for a bad option or value or
 * an argument left over.
 */
int guest_opts_parse(int argc, char **argv, const struct gopt *opts, size_t n,
		     void (*usage)(FILE *f));

/* Common checks once options are parsed: --json given, --dev exists. */
int opt_common(struct out *out);

#endif
