// SPDX-License-Identifier: GPL-2.0-only
/* TAP: the scenario parser accepts every shipped scenario and rejects each
 * kind of bad input with "file:line: what".
 * test_scenario --steps FILE GOLDEN: FILE parses into the steps GOLDEN lists
 * (--dump FILE prints them): a file rewritten with blocks runs as it did. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "tap.h"
#include "vm/kseries.h"

/* One TAP line named by fmt with one string argument. */
static bool ok(bool cond, const char *fmt, const char *arg)
{
	char name[512];

	snprintf(name, sizeof(name), fmt, arg);
	return ASSERT_TRUE(cond, name);
}

struct bad { const char *text, *want; };

static const struct bad bads[] = {
	{ "topology pair\nexec sender -- true\n", "t:1: missing 'summary" },
	{ "summary x\nexec sender -- true\n", "t:1: missing 'topology NAME'" },
	{ "summary x\ntopology pair\n", "t:1: no steps" },
	{ "summary x\ntopology pair\nfrobnicate a\n", "t:3: unknown keyword 'frobnicate'" },
	{ "summary x\ntopology pair\nexec sender true\n", "t:3: exec needs '-- COMMAND'" },
	{ "summary x\ntopology pair\nexec sender --\n", "t:3: empty command after '--'" },
	{ "summary x\ntopology pair\nexec sender expect 300 -- true\n", "t:3: exit code '300' is not in 0..255" },
	{ "summary x\ntopology pair\nwait r1\n", "t:3: wait for 'r1', which no earlier spawn started" },
	{ "summary x\ntopology pair\nspawn r1 receiver -- a\nspawn r1 receiver -- b\n", "t:4: id 'r1' is already used" },
	{ "summary x\ntopology pair\nlink sender eth0 sideways\n", "t:3: link needs 'up' or 'down'" },
	{ "summary x\ntopology pair\nsleep soon\n", "t:3: sleep 'soon' is not a number of seconds" },
	{ "summary x\ntopology pair\nsleep 1 2\n", "t:3: unexpected '2' at end of line" },
	{ "summary x\ntopology pair\nsleep 1 until sender\n", "t:3: sleep until needs a file" },
	{ "summary x\ntopology pair\nsleep 1 until sender /tmp/x\n", "t:3: '/tmp/x' must be relative" },
	{ "summary x\ntopology pair\nsleep 1 until sender a b\n", "t:3: unexpected 'b' at end of line" },
	{ "summary x\ntopology pair\nreport r receiver /etc/passwd\n", "t:3: '/etc/passwd' must be relative" },
	{ "summary x\ntopology pair\nnetem sender eth0\n", "t:3: netem needs arguments" },
	{ "summary x\ntopology pair\ntapstats sender eth0\n", "t:3: tapstats needs one file" },
	{ "summary x\ntopology pair\ntapstats sender eth0 ../a.json\n", "t:3: '../a.json' must be relative" },
	{ "summary x\ntopology p@ir\nsleep 1\n", "t:2: topology 'p@ir' has a character" },
	{ "summary x\nsummary y\n", "t:2: a second 'summary'" },
	{ "summary x\ntopology pair\ncheck rx.valid == 3\n", "t:3: 'rx.valid' names no earlier report or stats 'rx'" },
	{ "summary x\ntopology pair\nreport rx r a.json\ncheck rx.valid =~ 3\n", "t:4: unknown comparison '=~'" },
	{ "summary x\ntopology pair\nreport rx r a.json\ncheck rx.valid ==\n", "t:4: check needs 'LEFT OP RIGHT'" },
	{ "summary x\ntopology pair\nreport rx r a.json\ncheck rx == 3\n", "t:4: 'rx' is neither an integer nor ID.path" },
	{ "summary x\ntopology pair\nspawn a r -- x\nwait a expect signal 99\n", "t:4: signal 99 is not in 1..64" },
	{ "summary x\ntopology pair\nreport rx r a.json\ncheck rx.valid == 3 +\n", "t:4: check: '3 +' ends without an operand" },
	{ "summary x\ntopology pair\nreport rx r a.json\ncheck rx.valid == 3 * 2\n", "t:4: expected + or - or the end of the line, not '*'" },
	{ "summary x\ntopology pair\nreport rx r a.json\ncheck rx.valid == 3 == 2\n", "t:4: check needs 'LEFT OP RIGHT'" },
	{ "summary x\ntopology pair\nreport rx r a.json\ncheck rx.valid == rx.lost + tx.sent\n", "t:4: 'tx.sent' names no earlier report or stats 'tx'" },
	/* each refused with file:line before anything boots */
	{ "summary x\ntopology pair\ntimeout 5\ntimeout 6\nreport rx r a.json\n", "t:4: a second 'timeout'" },
	{ "summary x\ntopology pair\nreport rx r a.json\ncheck rx.valid == 99999999999999999999\n", "t:4: '99999999999999999999' does not fit in a 64-bit integer" },
	{ "summary x\ntopology pair\nreport rx r a.json\ncheck -9223372036854775809 < rx.valid\n", "t:4: '-9223372036854775809' does not fit" },
	{ "summary x\ntopology pair\nexec sender -- true\nstats k sender k.json\n", "t:1: no 'check' or 'report'" },
	{ "summary x\ntopology pair\nexec sender -- echo ${NOPE}\nreport rx r a.json\n", "t:3: unknown variable ${NOPE}" },
	{ "summary x\ntopology pair\nspawn a r -- ${BUILD}/x ${share}/y\nreport rx r a.json\n", "t:3: unknown variable ${share}" },
	{ "summary x\ntopology pair\nreport rx r ${ID}.json\n", "t:3: unknown variable ${ID}" },
	{ "summary x\ntopology pair\nspawn rx r -- x\nexec r -- cat ${rx}\nreport rx r a.json\n", "t:4: unknown variable ${rx}" },
	{ "summary x\ntopology pair\ntapstats r eth0 ${X}.json\nreport rx r a.json\n", "t:3: unknown variable ${X}" },
	{ "summary x\ntopology pair\nnetem r eth0 delay ${D}ms\nreport rx r a.json\n", "t:3: unknown variable ${D}" },
	{ "summary x\ntopology pair\nexec r -- echo ${BUILD\nreport rx r a.json\n", "t:3: unterminated or empty ${...}" },
	/* the kernel series a scenario applies to */
	{ "summary x\ntopology pair\nseries\nreport rx r a.json\n", "t:3: 'series' needs seed, upstream or both" },
	{ "summary x\ntopology pair\nseries seed mainline\nreport rx r a.json\n", "t:3: unknown series 'mainline': seed or upstream" },
	{ "summary x\ntopology pair\nseries seed seed\nreport rx r a.json\n", "t:3: series 'seed' twice" },
	{ "summary x\ntopology pair\nseries seed\nseries upstream\nreport rx r a.json\n", "t:4: a second 'series'" },
	/* the kfunc families a scenario needs */
	{ "summary x\ntopology pair\nneeds\nreport rx r a.json\n", "t:3: 'needs' takes ksock, netpoll, both, or none alone" },
	{ "summary x\ntopology pair\nneeds ringbuf\nreport rx r a.json\n", "t:3: unknown need 'ringbuf': ksock, netpoll or none" },
	{ "summary x\ntopology pair\nneeds none ksock\nreport rx r a.json\n", "t:3: 'needs' takes ksock, netpoll, both, or none alone" },
	{ "summary x\ntopology pair\nneeds netpoll netpoll\nreport rx r a.json\n", "t:3: need 'netpoll' twice" },
	{ "summary x\ntopology pair\nneeds ksock\nneeds netpoll\nreport rx r a.json\n", "t:4: a second 'needs'" },
	/* block NAME PARAM... / end, use NAME VALUE... */
	{ "summary x\ntopology pair\nblock b\nsleep 1\nend\nblock b\nsleep 2\nend\nreport rx r a.json\n",
	  "t:6: a second block 'b' (the first is at line 3)" },
	{ "summary x\ntopology pair\nblock b Host\nsleep 1\nend\n", "t:3: parameter 'Host' of block 'b' is not a lowercase" },
	{ "summary x\ntopology pair\nblock b h h\nsleep ${h}\nend\n", "t:3: parameter 'h' twice in block 'b'" },
	{ "summary x\ntopology pair\nblock b h s\nsleep ${s}\nend\n", "t:3: parameter 'h' of block 'b' is never used in it" },
	{ "summary x\ntopology pair\nblock\n", "t:3: missing block name" },
	{ "summary x\ntopology pair\nend\n", "t:3: 'end' without a 'block'" },
	{ "summary x\ntopology pair\nblock b\nsleep 1\nend now\n", "t:5: 'end' takes nothing after it" },
	{ "summary x\ntopology pair\nblock b\n# only a comment\nend\n", "t:5: block 'b' has no steps" },
	{ "summary x\ntopology pair\nblock b\nsleep 1\nblock c\n", "t:5: 'block' inside block 'b' (line 3)" },
	{ "summary x\ntopology pair\nblock b\nsleep 1\nreport rx r a.json\n", "t:3: block 'b' has no 'end'" },
	{ "summary x\ntopology pair\nblock b s\nsleep ${s}\nexec r -- echo ${x}\nend\n", "t:5: '${x}' is no parameter of block 'b'" },
	{ "summary x\ntopology pair\nuse\n", "t:3: 'use' needs a block name" },
	{ "summary x\ntopology pair\nblock b s\nsleep ${s}\nend\nuse b 1 2\n", "t:6: block 'b' takes 1 value (s), not 2" },
	{ "summary x\ntopology pair\nblock b s\n\nsleep ${s}\nend\nuse b soon\nreport rx r a.json\n",
	  "t:7: block 'b' line 5: sleep 'soon' is not a number of seconds" },
	{ "summary x\ntopology pair\nblock b s\nexec r -- echo ${s}\nend\nuse b ${NOPE}\nreport rx r a.json\n",
	  "t:6: block 'b' line 4: unknown variable ${NOPE}" },
};

/* Refused from a file: a NUL byte, a summary over 255 characters. */
static void bad_file_cases(struct scenario *s)
{
	char path[] = "/tmp/test_scenario-XXXXXX", err[512], want[600], text[600];
	static const char nul[] = "summary x\ntopology pair\nexec r -- true\0 rm -rf /\nreport rx r a.json\n";
	int fd = mkstemp(path), r;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!ASSERT_OK_PTR(f, "temporary scenario file"))
		return;
	fwrite(nul, 1, sizeof(nul) - 1, f);
	fclose(f);
	r = scenario_parse(path, NULL, s, err, sizeof(err));
	snprintf(want, sizeof(want), "%s:3: a NUL byte", path);
	if (r == 0 || strcmp(err, want))
		printf("# got: %s\n", r ? err : "(accepted)");
	ok(r != 0 && !strcmp(err, want), "rejects: %s", "FILE:3: a NUL byte");
	scenario_free(s);

	snprintf(text, sizeof(text), "summary %0256d\ntopology pair\nreport rx r a.json\n", 0);
	r = scenario_parse("t", text, s, err, sizeof(err));
	if (r == 0 || strncmp(err, "t:1: 'summary' is longer than 255", 33))
		printf("# got: %s\n", r ? err : "(accepted)");
	ok(r != 0 && !strncmp(err, "t:1: 'summary' is longer than 255", 33), "rejects: %s",
	   "t:1: a summary of 256 characters");
	scenario_free(s);
	unlink(path);
}

/* What the runner reads of a scenario, one step a line; lines left out (a block moves them). */
static void dump(FILE *f, const struct scenario *s)
{
	fprintf(f, "name %s\nsummary %s\ntopology %s\ntimeout %.17g\nseries %u\nneeds %#x\nsteps %d\n",
		s->name, s->summary, s->topology, s->timeout, s->series, s->needs, s->nsteps);
	for (int i = 0; i < s->nsteps; i++) {
		const struct scn_step *st = &s->steps[i];

		fprintf(f, "%s|%s|%s|%s|expect %d %d %d|%.17g|%d %d|%s|%s|%s|%s\n", scenario_op_name(st->op),
			st->host, st->id, st->iface, st->has_expect, st->expect, st->expect_signal,
			st->seconds, st->up, st->bridge, st->cmp, st->text ? st->text : "-",
			st->lhs ? st->lhs : "-", st->rhs ? st->rhs : "-");
	}
}

static int dump_file(const char *path)
{
	struct scenario *s = calloc(1, sizeof(*s));
	char err[512];

	if (!s || scenario_parse(path, NULL, s, err, sizeof(err))) {
		fprintf(stderr, "%s\n", s ? err : "out of memory");
		return 1;
	}
	dump(stdout, s);
	scenario_free(s);
	free(s);
	return 0;
}

/* TAP: path's steps are golden's, line by line. */
static int same_steps(const char *path, const char *golden)
{
	struct scenario *s = calloc(1, sizeof(*s));
	char err[512], *got = NULL, *want = NULL, *g, *w, *gl, *wl;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len), *gf = fopen(golden, "r");
	int line = 1;

	if (!ASSERT_OK_PTR(s, "memory") || !ASSERT_OK_PTR(f, "memstream") || !ASSERT_OK_PTR(gf, golden))
		return tap_done();
	if (!ASSERT_OK(scenario_parse(path, NULL, s, err, sizeof(err)), "it parses")) {
		printf("# %s\n", err);
		return tap_done();
	}
	dump(f, s);
	fclose(f);
	want = calloc(1, 1 << 20);
	if (!ASSERT_OK_PTR(want, "memory"))
		return tap_done();
	fread(want, 1, (1 << 20) - 1, gf);
	fclose(gf);
	gl = got;
	wl = want;
	for (g = got, w = want; *g && *g == *w; g++, w++)
		if (*g == '\n') {
			line++;
			gl = g + 1;
			wl = w + 1;
		}
	if (*g || *w)
		printf("# first difference at line %d of %s\n# got:  %.*s\n# want: %.*s\n", line, golden,
		       (int)strcspn(gl, "\n"), gl, (int)strcspn(wl, "\n"), wl);
	ok(!*g && !*w, "%s: the same steps, fields and order as the golden list", path);
	printf("# %d steps\n", s->nsteps);
	scenario_free(s);
	free(s);
	free(got);
	free(want);
	return tap_done();
}

static const char *lookup(const char *name, void *ctx)
{
	(void)ctx;
	return strcmp(name, "SHARE") == 0 ? "/results" : NULL;
}

int main(int argc, char **argv)
{
	struct scenario *s = calloc(1, sizeof(*s));
	char err[512];
	char *x;

	int parsed = 0;

	if (argc == 3 && !strcmp(argv[1], "--dump"))
		return dump_file(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "--steps"))
		return same_steps(argv[2], argv[3]);
	for (int i = 1; i < argc; i++) {
		int r = scenario_parse(argv[i], NULL, s, err, sizeof(err));

		if (r)
			printf("# %s\n", err);
		parsed += ok(r == 0 && s->summary[0] && s->nsteps > 0, "shipped scenario %s parses", argv[i]);
		/* every shipped scenario says which kernels it is for */
		ok(r == 0 && s->series != 0, "shipped scenario %s states its series", argv[i]);
		/* and which kfunc families it needs */
		ok(r == 0 && (s->needs & SCN_NEEDS_STATED), "shipped scenario %s states its needs", argv[i]);
		scenario_free(s);
	}
	/* meson passes every shipped scenario: none means the list broke */
	printf("# parsed %d shipped scenarios\n", parsed);
	ASSERT_GE(parsed, 1, "at least one shipped scenario parsed");
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		int r = scenario_parse("t", bads[i].text, s, err, sizeof(err));

		if (r == 0 || strncmp(err, bads[i].want, strlen(bads[i].want)))
			printf("# got: %s\n", r ? err : "(accepted)");
		ok(r != 0 && strncmp(err, bads[i].want, strlen(bads[i].want)) == 0,
		   "rejects: %s", bads[i].want);
		scenario_free(s);
	}

	bad_file_cases(s);
	/* The structure of a good file, step by step. */
	int r = scenario_parse("good", "# c\nsummary teaches x\ntopology pair\ntimeout 60\n"
			       "spawn r1 receiver -- recv --port 7 -- x\n"
			       "exec sender expect 3 -- sh -c 'exit 3'\n"
			       "link sender eth0 down bridge\nwait r1 expect 1 timeout 5\n"
			       "report rx receiver rx.json\n", s, err, sizeof(err));
	ok(r == 0 && s->nsteps == 5 && s->steps[3].expect_signal == 0 && s->timeout == 60 && !strcmp(s->name, "good"),
	   "good file: %s", "5 steps, timeout, name from the file");
	ok(r == 0 && s->steps[0].op == SCN_SPAWN && !strcmp(s->steps[0].text, "recv --port 7 -- x") &&
	   s->steps[1].has_expect && s->steps[1].expect == 3,
	   "good file: %s", "spawn command keeps a later '--', exec expect 3");
	ok(r == 0 && s->steps[2].op == SCN_LINK && !s->steps[2].up && s->steps[2].bridge &&
	   s->steps[3].seconds == 5 && s->steps[3].expect == 1 && !strcmp(s->steps[4].text, "rx.json"),
	   "good file: %s", "link bridge down, wait timeout/expect, report file");
	scenario_free(s);
	r = scenario_parse("sig", "summary s\ntopology pair\nspawn a r -- x\nwait a expect signal 9\n"
			   "report rx r a.json\n",
			   s, err, sizeof(err));
	ok(r == 0 && s->steps[1].has_expect && s->steps[1].expect_signal == 9,
	   "good file: %s", "wait expect signal 9");
	scenario_free(s);
	r = scenario_parse("chk", "summary s\ntopology pair\nreport rx r a.json\ncheck rx.wire.valid >= 7\n",
			   s, err, sizeof(err));
	ok(r == 0 && s->steps[1].op == SCN_CHECK && !strcmp(s->steps[1].lhs, "rx.wire.valid") &&
	   !strcmp(s->steps[1].cmp, ">=") && !strcmp(s->steps[1].rhs, "7"),
	   "good file: %s", "check rx.wire.valid >= 7");
	scenario_free(s);
	r = scenario_parse("sum", "summary s\ntopology pair\nreport rx r a.json\ncheck rx.a - 2 <= rx.b + rx.c - 10\n",
			   s, err, sizeof(err));
	ok(r == 0 && !strcmp(s->steps[1].lhs, "rx.a - 2") && !strcmp(s->steps[1].cmp, "<=") &&
	   !strcmp(s->steps[1].rhs, "rx.b + rx.c - 10"),
	   "good file: %s", "check with sums on both sides");
	scenario_free(s);

	r = scenario_parse("tap", "summary s\ntopology pair\ntapstats receiver eth0 tap-1.json\n"
			   "check 1 == 1\n",
			   s, err, sizeof(err));
	ok(r == 0 && s->steps[0].op == SCN_TAPSTATS && !strcmp(s->steps[0].host, "receiver") &&
	   !strcmp(s->steps[0].iface, "eth0") && !strcmp(s->steps[0].text, "tap-1.json"),
	   "good file: %s", "tapstats receiver eth0 tap-1.json");
	scenario_free(s);

	r = scenario_parse("until", "summary s\ntopology pair\nsleep 40 until sender c-${HOST}.json\n"
			   "check 1 == 1\n", s, err, sizeof(err));
	ok(r == 0 && s->steps[0].op == SCN_SLEEP && s->steps[0].seconds == 40 &&
	   !strcmp(s->steps[0].host, "sender") && !strcmp(s->steps[0].text, "c-${HOST}.json"),
	   "good file: %s", "sleep 40 until sender c-${HOST}.json");
	scenario_free(s);

	r = scenario_parse("vars", "summary s\ntopology pair\ntimeout 5\n"
			   "exec r -- ${BUILD}/a ${SRC}/b ${SHARE}/c ${HOST} ${RUN} $HOME $(x)\n"
			   "report rx r ${HOST}.json\n", s, err, sizeof(err));
	if (r)
		printf("# got: %s\n", err);
	ok(r == 0 && s->nsteps == 2, "good file: %s", "every documented ${VAR}, and shell's $X and $(x)");
	scenario_free(s);

	/* a block's steps at each use, its parameters replaced, ${BUILD} left for the runner */
	r = scenario_parse("blk", "summary s\ntopology pair\nblock b id secs\n  spawn ${id} r -- ${BUILD}/x ${secs}\n"
			   "  # a comment\n  wait ${id} timeout ${secs}\nend\nuse b one 5\nuse b two 7\nreport rx r a.json\n",
			   s, err, sizeof(err));
	if (r)
		printf("# got: %s\n", err);
	ok(r == 0 && s->nsteps == 5 && !strcmp(s->steps[0].id, "one") && !strcmp(s->steps[0].text, "${BUILD}/x 5") &&
	   s->steps[0].line == 8 && !strcmp(s->steps[3].id, "two") && s->steps[3].seconds == 7 && s->steps[3].line == 9,
	   "good file: %s", "two uses of a block: its steps, values in, at the use's line");
	scenario_free(s);

	r = scenario_parse("ser", "summary s\ntopology pair\nseries upstream seed\nreport rx r a.json\n",
			   s, err, sizeof(err));
	ok(r == 0 && s->series == KSERIES_ALL, "good file: %s", "series upstream seed");
	scenario_free(s);
	r = scenario_parse("ser1", "summary s\ntopology pair\nseries seed\nreport rx r a.json\n",
			   s, err, sizeof(err));
	ok(r == 0 && s->series == KSERIES_SEED, "good file: %s", "series seed");
	scenario_free(s);
	r = scenario_parse("ser0", "summary s\ntopology pair\nreport rx r a.json\n", s, err, sizeof(err));
	ok(r == 0 && s->series == 0, "good file: %s", "no series statement: 0 (any kernel)");
	scenario_free(s);
	r = scenario_parse("nd", "summary s\ntopology pair\nneeds netpoll ksock\nreport rx r a.json\n", s, err, sizeof(err));
	ok(r == 0 && s->needs == (SCN_NEEDS_STATED | SCN_NEEDS_KSOCK | SCN_NEEDS_NETPOLL), "good file: %s", "needs netpoll ksock");
	scenario_free(s);
	r = scenario_parse("nd0", "summary s\ntopology pair\nneeds none\nreport rx r a.json\n", s, err, sizeof(err));
	ok(r == 0 && s->needs == SCN_NEEDS_STATED, "good file: %s", "needs none");
	scenario_free(s);
	ok(kseries_of_release("6.12.118-bpfwire-up") == KSERIES_UPSTREAM &&
	   kseries_of_release("6.12.118-bpfwire") == KSERIES_SEED &&
	   kseries_of_release("6.12.118-bpfwire-seed") == KSERIES_SEED &&
	   kseries_of_release("6.12.118-amd64") == 0, "release: %s",
	   "-bpfwire-up upstream, -bpfwire and -bpfwire-seed seed, others none");
	ok(kseries_of_release("6.12.118-kasan-bpfwire") == KSERIES_SEED &&
	   kseries_of_release("6.12.118-kasan-bpfwire-up") == KSERIES_UPSTREAM, "release: %s",
	   "the KASAN flavour's -kasan- leaves the series to the suffix");
	ok(kseries_boot_timeout("6.12.118-kasan-bpfwire-seed", 60) == KSERIES_KASAN_BOOT_S &&
	   kseries_boot_timeout("6.12.118-kasan-bpfwire", 900) == 900 &&
	   kseries_boot_timeout("6.12.118-bpfwire", 60) == 60 &&
	   kseries_boot_timeout("6.12.118-kasan", 60) == 60, "boot deadline: %s",
	   "at least 300 s for a -kasan-bpfwire release, as given otherwise");

	x = scenario_expand("a ${SHARE}/b ${SHARE}", lookup, NULL, err, sizeof(err));
	ok(x && !strcmp(x, "a /results/b /results"), "expand: %s", "${SHARE} twice");
	free(x);
	x = scenario_expand("${NOPE}", lookup, NULL, err, sizeof(err));
	ok(!x && strstr(err, "unknown variable ${NOPE}"), "expand: %s", "unknown variable is an error");
	free(x);
	free(s);
	return tap_done();
}
