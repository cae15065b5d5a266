// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host-side test of bpfwire-bench-guest's option tables (guest_opts.c):
 * values stored, the shared options' ranges, --help, a bad option, a
 * left-over argument. The tool itself needs the lab kernel (its skeleton),
 * so this is the check of its parser that runs everywhere.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "guest.h"
#include "guest_opts.h"
#include "guest_out.h"
#include "tap.h"

/* guest_out.c's, which needs the skeleton: the message is kept instead. */
const char *cur_cmd = "test";
char log_prog[64] = "test_opts";
static char last_error[512];

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return CLI_EUSAGE;
}

static int usage_calls;

static void usage(FILE *f)
{
	usage_calls += f == stdout;
}

struct vals {
	struct out out;
	const char *path;
	uint64_t count, rate, port, n;
	int flag, seen;
};

/* Parses the words (the subcommand's name first) with every kind of option. */
static int parse(struct vals *v, char *words)
{
	char *argv[32], *save = NULL;
	int argc = 0;
	const struct gopt opts[] = {
		GOPT_PATH(&v->path),
		GOPT_COUNT(&v->count),
		GOPT_RATE(&v->rate),
		GOPT_PORT(&v->port),
		GOPT_BOOL("flag", 'f', &v->flag),
		{ .name = "n", .val = 'N', .kind = GOPT_UINT, .dst = &v->n, .min = 0, .max = 9,
		  .seen = &v->seen },
		GOPT_DEV(&v->out),
		GOPT_JSON(&v->out),
	};

	memset(v, 0, sizeof(*v));
	last_error[0] = 0;
	for (char *w = strtok_r(words, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	optind = 0;
	opterr = 0;
	return guest_opts_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), usage);
}

static void test_values(void)
{
	char w[] = "sub --path /p --count 7 --rate 3 --port 7100 --flag --n 0 --dev lo --json o";
	struct vals v;

	ASSERT_EQ(parse(&v, w), -1, "all options: go on");
	ASSERT_STREQ(v.path, "/p", "--path stored");
	ASSERT_EQ(v.count, 7, "--count stored");
	ASSERT_EQ(v.rate, 3, "--rate stored");
	ASSERT_EQ(v.port, 7100, "--port stored");
	ASSERT_EQ(v.flag, 1, "flag set");
	ASSERT_EQ(v.seen, 1, "seen set, even for 0");
	ASSERT_STREQ(v.out.dev, "lo", "--dev stored");
	ASSERT_STREQ(v.out.json_path, "o", "--json stored");

	char w2[] = "sub --count=9";
	ASSERT_EQ(parse(&v, w2), -1, "--count=9: go on");
	ASSERT_EQ(v.count, 9, "--count=9 stored");
	ASSERT_EQ(v.seen, 0, "seen not set when not given");
	ASSERT_EQ(v.flag, 0, "flag not set when not given");
}

/* words must be refused (exit 2) with message msg ("" for cli_bad_option's). */
static void refused(const char *words, const char *msg)
{
	char w[256], name[300];
	struct vals v;

	snprintf(w, sizeof(w), "%s", words);
	snprintf(name, sizeof(name), "'%s' refused", words);
	ASSERT_EQ(parse(&v, w), 2, name);
	if (*msg) {
		snprintf(name, sizeof(name), "'%s': %s", words, msg);
		ASSERT_STREQ(last_error, msg, name);
	}
}

static void test_ranges(void)
{
	struct vals v;
	char w[] = "sub --count 4294967295 --rate 100000000 --port 65535 --n 9";

	ASSERT_EQ(parse(&v, w), -1, "the top of each range: go on");
	refused("sub --count 0", "bad --count '0': need an integer 1..4294967295");
	refused("sub --count 4294967296", "bad --count '4294967296': need an integer 1..4294967295");
	refused("sub --rate 0", "bad --rate '0': need an integer 1..100000000");
	refused("sub --rate 100000001", "bad --rate '100000001': need an integer 1..100000000");
	refused("sub --port 0", "bad --port '0': need an integer 1..65535");
	refused("sub --port 65536", "bad --port '65536': need an integer 1..65535");
	refused("sub --n 10", "bad --n '10': need an integer 0..9");
	refused("sub --count x", "bad --count 'x': need an integer 1..4294967295");
}

static void test_usage(void)
{
	struct vals v;
	char w[] = "sub --count 5 --help --nosuch";
	char w2[] = "sub --count 0 --help";

	usage_calls = 0;
	ASSERT_EQ(parse(&v, w), 0, "--help: exit 0 before a later bad option");
	ASSERT_EQ(usage_calls, 1, "--help: the usage on stdout");
	ASSERT_EQ(parse(&v, w2), 2, "a bad value before --help: exit 2");
	refused("sub --nosuch", "");
	refused("sub --count", "");
	refused("sub --flag=1", "");
	refused("sub left --count 5", "unexpected argument 'left'");
	refused("sub --count 5 -- --port 1", "unexpected argument '--port'");
	ASSERT_EQ(usage_calls, 1, "usage printed only for --help");
}

static void test_too_many(void)
{
	struct gopt opts[GOPT_MAX + 1];
	char *argv[] = { "sub", NULL };
	uint64_t x;

	for (int i = 0; i <= GOPT_MAX; i++)
		opts[i] = (struct gopt)GOPT_U64("x", 'a' + i, &x, 0, 1);
	optind = 0;
	ASSERT_EQ(guest_opts_parse(1, argv, opts, GOPT_MAX + 1, usage), 2,
		  "a table over GOPT_MAX refused");
}

int main(void)
{
	test_values();
	test_ranges();
	test_usage();
	test_too_many();
	return tap_done();
}
