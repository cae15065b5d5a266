// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-lab check's scenario lint (lint.c) on the small scenarios in
 * lab/scenario/tests/lint-*, each wrong in one way, and on scenarios/TEMPLATE.
 *
 * usage: test_lint LAB-TESTS-DIR TEMPLATE
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/lint.h"
#include "scenario/scenario.h"
#include "tap.h"
#include "vm/model.h"

static const char *dir;
static char out[8192], err[8192];

/* Lint dir/name; its stdout and stderr in out and err; the error count. */
static int lint(const char *name)
{
	char path[4096];
	FILE *o = fmemopen(out, sizeof(out), "w"), *e = fmemopen(err, sizeof(err), "w");
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	memset(out, 0, sizeof(out));
	memset(err, 0, sizeof(err));
	n = lint_scenario(path, o, e);
	fclose(o);
	fclose(e);
	for (char *p = err, *nl; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		printf("# %.*s\n", (int)(nl - p), p);
		if (!*nl)
			break;
	}
	return n;
}

/* `check PATH`'s exit status, its output out of the TAP stream. */
static int check_exit(const char *name)
{
	char path[4096], *argv[] = { path, NULL };
	int saved[2], null = open("/dev/null", O_WRONLY), r;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fflush(stdout);
	saved[0] = dup(1);
	saved[1] = dup(2);
	dup2(null, 1);
	dup2(null, 2);
	r = lint_check(1, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved[0], 1);
	dup2(saved[1], 2);
	close(saved[0]);
	close(saved[1]);
	close(null);
	return r;
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_typo(void)
{
	tap_case_begin("rx.vaild: did you mean rx.valid, exit 2");
	ASSERT_EQ(lint("lint-typo"), 1, "one error");
	ASSERT_HAS(err, "lint-typo:8: 'rx.vaild'", "file:line names the operand");
	ASSERT_HAS(err, "did you mean rx.valid?", "the near miss");
	ASSERT_EQ(check_exit("lint-typo"), LAB_EUSAGE, "check exits 2");
	tap_case_end();
}

static void test_bad(const char *name, const char *want)
{
	char title[128];

	snprintf(title, sizeof(title), "%s: %s", name, want);
	tap_case_begin(title);
	ASSERT_EQ(lint(name), 1, "one error");
	ASSERT_HAS(err, want, "the error");
	ASSERT_EQ(out[0], 0, "no ok line");
	ASSERT_EQ(check_exit(name), LAB_EUSAGE, "check exits 2");
	tap_case_end();
}

static void test_many(void)
{
	static const char *const want[] = {
		":6: unknown variable ${NOPE}", ":7: host 'nohost'", ":13: report tx reads tx.json",
		":15: 'rx.elapsed_s' is a double", ":16: 'rx.wire' holds fields",
		":17: 'rx.socket.senders.N.lost'", ":18: host 'sender' has no interface 'eth9'",
	};
	const char *p = err;

	tap_case_begin("every error, in the file's order, no cascade");
	ASSERT_EQ(lint("lint-many"), 7, "seven errors");
	ASSERT_EQ(lines(err), 7, "seven lines");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *q = p ? strstr(p, want[i]) : NULL;

		ASSERT_TRUE(q, want[i]);
		p = q;
	}
	tap_case_end();
}

static void test_good(void)
{
	tap_case_begin("a clean scenario: one ok line, exit 0");
	ASSERT_EQ(lint("lint-good"), 0, "no error");
	ASSERT_EQ(err[0], 0, "nothing on stderr");
	ASSERT_HAS(out, "lint-good: ok, 12 steps, 4 checks", "the ok line");
	ASSERT_HAS(out, "6 of 7 fields against a field list", "gaps.gap_ms (jq's) is not linted");
	ASSERT_EQ(check_exit("lint-good"), 0, "check exits 0");
	tap_case_end();
}

/* TEMPLATE shows every statement, and check lints it clean. */
static void test_template(const char *path)
{
	struct scenario *s = calloc(1, sizeof(*s));
	char why[1024];
	bool seen[SCN_CHECK + 1] = { false };
	FILE *o = fmemopen(out, sizeof(out), "w"), *e = fmemopen(err, sizeof(err), "w");

	tap_case_begin("TEMPLATE: every statement, linted clean");
	ASSERT_EQ(lint_scenario(path, o, e), 0, "check accepts TEMPLATE");
	fclose(o);
	fclose(e);
	ASSERT_HAS(out, ": ok, ", "its ok line");
	if (ASSERT_OK(scenario_parse(path, NULL, s, why, sizeof(why)), "it parses")) {
		for (int i = 0; i < s->nsteps; i++)
			seen[s->steps[i].op] = true;
		for (int op = SCN_EXEC; op <= SCN_CHECK; op++)
			ASSERT_TRUE(seen[op], scenario_op_name(op));
		ASSERT_TRUE(s->summary[0] && s->topology[0], "summary, topology");
		ASSERT_TRUE(s->series, "series");
		ASSERT_TRUE(s->timeout != SCN_DEFAULT_TIMEOUT, "timeout");
		scenario_free(s);
	}
	free(s);
	tap_case_end();
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s LAB-TESTS-DIR TEMPLATE\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	test_typo();
	test_bad("lint-unknown-id", "lint-unknown-id:7: 'zz.valid' names no earlier report or stats 'zz'");
	test_bad("lint-twice", "lint-twice:7: id 'rx' is already used");
	test_bad("lint-wait", "lint-wait:6: wait for 'rx2', which no earlier spawn started");
	test_bad("lint-needs", "lint-needs:6: installs a netpoll sender, but 'needs' does not list netpoll");
	test_bad("lint-no-writer", "lint-no-writer:8: report rx2 reads rx2.json, which no earlier exec or spawn on receiver writes");
	/* block and use: a bad use, or a bad block, names its line */
	test_bad("lint-block-values", "lint-block-values:10: block 'flap' takes 2 values (host iface), not 1");
	test_bad("lint-block-unknown", "lint-block-unknown:5: no block 'flap' before this line");
	test_bad("lint-block-param", "lint-block-param:7: '${ifcae}' is no parameter of block 'flap'");
	test_bad("lint-block-host", "lint-block-host:9: host 'sendr' is not in topology");
	test_bad("lint-block-twice", "lint-block-twice:10: block 'run' line 6: id 'tx' is already used");
	test_bad("lint-block-end", "lint-block-end:5: block 'flap' has no 'end'");
	test_many();
	test_good();
	test_template(argv[2]);
	return tap_done();
}
