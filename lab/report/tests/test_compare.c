// SPDX-License-Identifier: GPL-2.0-only
/*
 * `bpfwire-lab compare` (lab/report/compare.c) on run directories made here:
 * equal runs, a flipped check, a step in one run only, counts that alone
 * differ, a TAP test that flips, hostile guest text, malformed input.
 * argv[1]: the bpfwire-lab binary. No guest boots.
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file.h"
#include "report/compare.h"
#include "tap.h"
#include "vm/util.h"

static const char *lab;
static char tmp[] = "/tmp/bpfwire-test-compare-XXXXXX";

/* What an ESC, a BEL or a newline from a guest would do on a terminal. */
#define HOSTILE "\x1b[2J\x1b]0;pwned\x07<script>alert(1)</script>\nFAKE: ok line 99"

static json_object *step(int line, const char *op, const char *what, const char *verdict)
{
	json_object *s = json_object_new_object();

	json_object_object_add(s, "line", json_object_new_int(line));
	json_object_object_add(s, "op", json_object_new_string(op));
	json_object_object_add(s, "what", json_object_new_string(what));
	json_object_object_add(s, "verdict", json_object_new_string(verdict));
	json_object_object_add(s, "seconds", json_object_new_double(0.5));
	if (!strcmp(op, "exec")) {
		json_object_object_add(s, "exit", json_object_new_int(strcmp(verdict, "ok") ? 1 : 0));
		json_object_object_add(s, "stdout_last", json_object_new_string("done"));
	}
	return s;
}

struct opts {
	const char *check_verdict;	/* line 21's */
	int valid;			/* rx.valid */
	bool extra_step;		/* line 15, this run only */
	const char *stdout_last;	/* line 12's output */
	const char *sender_key;		/* rx's wire.senders key */
	const char *tap;		/* steps/01.out */
};

/* A run dir NAME under tmp, as runner.c would leave it. */
static const char *make_run(const char *name, const struct opts *o)
{
	static char dir[PATH_MAX];
	json_object *root = json_object_new_object(), *steps = json_object_new_array();
	json_object *reports = json_object_new_object(), *rx = json_object_new_object();
	json_object *wire = json_object_new_object(), *senders = json_object_new_object();
	json_object *one = json_object_new_object(), *tx = json_object_new_object();
	json_object *txs = json_object_new_array(), *txone = json_object_new_object(), *ctr = json_object_new_object();
	json_object *s12;
	char path[PATH_MAX + 32];

	snprintf(dir, sizeof(dir), "%s/%s", tmp, name);
	mkdir(dir, 0755);
	json_object_object_add(root, "scenario", json_object_new_string("crafted"));
	json_object_object_add(root, "verdict", json_object_new_string(
		o->check_verdict && strcmp(o->check_verdict, "ok") ? "FAIL" : "PASS"));
	json_object_object_add(root, "kernel_release", json_object_new_string("6.12.118-bpfwire"));
	json_object_object_add(root, "kernel_series", json_object_new_string("seed"));
	json_object_object_add(root, "splats", json_object_new_int(0));
	json_object_array_add(steps, step(10, "exec", "sender: kernel-tests", "ok"));
	s12 = step(12, "exec", "sender: agent install", "ok");
	if (o->stdout_last)
		json_object_object_add(s12, "stdout_last", json_object_new_string(o->stdout_last));
	json_object_array_add(steps, s12);
	if (o->extra_step)
		json_object_array_add(steps, step(15, "exec", "sender: one more", "ok"));
	json_object_array_add(steps, step(20, "report", "rx from receiver:rx.json", "ok"));
	json_object_array_add(steps, step(21, "check", "rx.valid == 60",
					  o->check_verdict ? o->check_verdict : "ok"));
	json_object_object_add(root, "steps", steps);
	json_object_object_add(rx, "kind", json_object_new_string("receiver"));
	json_object_object_add(rx, "valid", json_object_new_int(o->valid ? o->valid : 60));
	json_object_object_add(rx, "invalid", json_object_new_int(0));
	json_object_object_add(one, "received", json_object_new_int(60));
	json_object_object_add(one, "lost", json_object_new_int(0));
	json_object_object_add(senders, o->sender_key ? o->sender_key : "11", one);
	json_object_object_add(wire, "senders", senders);
	json_object_object_add(wire, "lost", json_object_new_int(0));
	json_object_object_add(rx, "wire", wire);
	json_object_object_add(reports, "rx", rx);
	json_object_object_add(ctr, "sent", json_object_new_int(60));
	json_object_object_add(txone, "counters", ctr);
	json_object_array_add(txs, txone);
	json_object_object_add(tx, "kind", json_object_new_string("sender-stats"));
	json_object_object_add(tx, "senders", txs);
	json_object_object_add(reports, "tx", tx);
	json_object_object_add(root, "reports", reports);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY);
	json_object_put(root);
	snprintf(path, sizeof(path), "%s/steps", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/steps/01.out", dir);
	write_file(path, o->tap ? o->tap : "ok 1 - creates 64\nok 2 - sends # SKIP no netpoll\n");
	return dir;
}

/* Run `bpfwire-lab compare ARGS`; its stdout, stderr and exit status. */
static int compare(const char *args, char **out, char **err)
{
	char cmd[PATH_MAX * 3], o[PATH_MAX], e[PATH_MAX];
	int st;

	snprintf(o, sizeof(o), "%s/out", tmp);
	snprintf(e, sizeof(e), "%s/err", tmp);
	snprintf(cmd, sizeof(cmd), "'%s' compare %s > %s 2> %s", lab, args, o, e);
	st = system(cmd);
	*out = read_file(o, NULL);
	*err = read_file(e, NULL);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* The row of out that starts with prefix, or NULL. */
static const char *row(const char *out, const char *prefix)
{
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, strlen(prefix)))
			return p;
	return NULL;
}

static void two(const char *a, const struct opts *oa, const char *b, const struct opts *ob, char *args, size_t len)
{
	char da[PATH_MAX];

	snprintf(da, sizeof(da), "%s", make_run(a, oa));
	snprintf(args, len, "%s %s", da, make_run(b, ob));
}

int main(int argc, char **argv)
{
	struct opts base = { 0 };
	char args[PATH_MAX * 2], *out, *err;
	int st;

	if (argc != 2) {
		fprintf(stderr, "usage: %s BPFWIRE-LAB\n", argv[0]);
		return 2;
	}
	lab = argv[1];
	if (!mkdtemp(tmp))
		return tap_skip_all("no temporary directory");

	if (tap_case_begin("equal runs: exit 0, nothing marked")) {
		two("eq-a", &base, "eq-b", &base, args, sizeof(args));
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 0, "exit status");
		ASSERT_HAS(out, "SAME VERDICTS: 0 verdicts changed, 0 counts", "summary line");
		ASSERT_TRUE(!row(out, "*") && !row(out, "<") && !row(out, ">"), "no row marked");
		ASSERT_TRUE(row(out, "  21    check   rx.valid == 60") != NULL, "the check is listed");
		ASSERT_STREQ(err, "", "nothing on stderr");
		free(out);
		free(err);
		tap_case_end();
	}
	if (tap_case_begin("a check that flips: exit 1, marked with both verdicts")) {
		struct opts fail = { .check_verdict = "FAIL" };
		const char *r;

		two("flip-a", &base, "flip-b", &fail, args, sizeof(args));
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 1, "exit status");
		r = row(out, "* 21    check   rx.valid == 60");
		ASSERT_TRUE(r != NULL, "the check's row is marked *");
		ASSERT_TRUE(r && strstr(r, " ok ") && strstr(r, "FAIL") && strstr(r, "FAIL") < strchr(r, '\n'),
			    "its row shows ok and FAIL");
		ASSERT_TRUE(row(out, "* verdict") != NULL, "the run's verdict marked");
		ASSERT_HAS(out, "DIFFERENT: 2 verdicts changed", "summary line");
		free(out);
		free(err);
		tap_case_end();
	}
	if (tap_case_begin("a step in one run only: shown as such, exit 1")) {
		struct opts extra = { .extra_step = true };

		two("only-a", &base, "only-b", &extra, args, sizeof(args));
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 1, "exit status");
		ASSERT_TRUE(row(out, "> 15    exec    sender: one more") != NULL, "B's step marked >");
		ASSERT_HAS(out, "(only in B)", "said in words");
		ASSERT_TRUE(row(out, "  12    exec") != NULL, "the steps around it matched");
		ASSERT_TRUE(row(out, "  20    report") != NULL, "the step after it matched");
		free(out);
		free(err);
		/* the other way round: the step is A's alone */
		snprintf(args, sizeof(args), "%s/only-b %s/only-a", tmp, tmp);
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 1, "exit status, B and A swapped");
		ASSERT_TRUE(row(out, "< 15    exec") != NULL, "A's step marked <");
		free(out);
		free(err);
		tap_case_end();
	}
	if (tap_case_begin("counts that alone differ: exit 0, shown and marked")) {
		struct opts fewer = { .valid = 59, .sender_key = "12" };

		two("cnt-a", &base, "cnt-b", &fewer, args, sizeof(args));
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 0, "exit status");
		ASSERT_TRUE(row(out, "* rx.valid") != NULL, "rx.valid marked");
		ASSERT_TRUE(row(out, "* rx.valid") && strstr(row(out, "* rx.valid"), "59"), "with B's 59");
		ASSERT_TRUE(row(out, "< rx.wire.senders.11.received") != NULL, "A's sender 11");
		ASSERT_TRUE(row(out, "> rx.wire.senders.12.received") != NULL, "B's sender 12");
		ASSERT_TRUE(row(out, "  tx.senders.0.counters.sent") != NULL, "the sender's counters");
		ASSERT_HAS(out, "SAME VERDICTS: 0 verdicts changed, 5 counts with other values", "summary line");
		free(out);
		free(err);
		tap_case_end();
	}
	if (tap_case_begin("a TAP test in a step's output that flips or goes: exit 1")) {
		struct opts flip = { .tap = "not ok 1 - creates 64\nok 2 - sends # SKIP no netpoll\nok 3 - new\n" };

		two("tap-a", &base, "tap-b", &flip, args, sizeof(args));
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 1, "exit status");
		ASSERT_TRUE(row(out, "* 10    tap     creates 64") != NULL, "the flipped test marked");
		ASSERT_TRUE(row(out, "  10    tap     sends") && strstr(row(out, "  10    tap     sends"), "ok # SKIP"),
			    "the skipped one equal, its directive kept");
		ASSERT_TRUE(row(out, "> 10    tap     new") != NULL, "B's new test");
		free(out);
		free(err);
		tap_case_end();
	}
	if (tap_case_begin("hostile guest text stays escaped, on one line, cut")) {
		char longv[9000], key[64];
		struct opts hostile = { .stdout_last = HOSTILE, .sender_key = key, .check_verdict = "FAIL",
					.tap = "ok 1 - " HOSTILE "\nok 2 - a `tick` and | pipe\n" };
		const char *p;
		int longest = 0, cur = 0;

		memset(longv, 'x', sizeof(longv) - 1);
		longv[sizeof(longv) - 1] = 0;
		snprintf(key, sizeof(key), "\x1b[31mred|x\nFAKE: key");
		two("host-a", &(struct opts){ .stdout_last = longv }, "host-b", &hostile, args, sizeof(args));
		snprintf(args + strlen(args), sizeof(args) - strlen(args), " --outputs");
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 1, "exit status");
		ASSERT_TRUE(out && !strchr(out, '\x1b') && !strchr(out, '\x07'), "no ESC or BEL reaches stdout");
		ASSERT_TRUE(!row(out, "FAKE"), "no line of the guest's own");
		ASSERT_HAS(out, "\\x1b[2J", "ESC shown as \\x1b");
		ASSERT_HAS(out, "rx.wire.senders.\\x1b[31mred|x\\nFAKE", "the report key escaped");
		for (p = out; p && *p; p++) {
			cur = *p == '\n' ? 0 : cur + 1;
			if (cur > longest)
				longest = cur;
		}
		ASSERT_LE(longest, 200, "the 9000-byte output cut: longest line");
		free(out);
		free(err);
		st = compare("--markdown --all", &out, &err);	/* no runs: a usage error */
		ASSERT_EQ(st, 2, "--markdown without runs");
		free(out);
		free(err);
		snprintf(args, sizeof(args), "%s/host-a %s/host-b --markdown --all", tmp, tmp);
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 1, "--markdown: exit status");
		ASSERT_TRUE(out && !strchr(out, '\x1b'), "Markdown: no ESC");
		ASSERT_HAS(out, "` \\x1b[2J\\x1b]0;pwned\\x07<script>alert(1)</script> `",
			   "Markdown: the tag inside a code span, as text");
		ASSERT_HAS(out, "| ` rx.wire.senders.\\x1b[31mred\\|x\\nFAKE", "Markdown: | escaped in a cell");
		ASSERT_HAS(out, "`` a `tick` and \\| pipe ``", "Markdown: a ` inside, a longer fence");
		ASSERT_TRUE(!row(out, "FAKE"), "Markdown: no line of the guest's own");
		free(out);
		free(err);
		snprintf(args, sizeof(args), "%s/host-a %s/host-b --html %s/page.html", tmp, tmp, tmp);
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 1, "--html: exit status");
		free(out);
		free(err);
		snprintf(args, sizeof(args), "%s/page.html", tmp);
		out = read_file(args, NULL);
		ASSERT_TRUE(out && !strstr(out, "<script"), "the page: no script element");
		ASSERT_HAS(out, "&lt;script&gt;alert(1)&lt;/script&gt;", "the page: the tag as text");
		ASSERT_TRUE(out && !strchr(out, '\x1b'), "the page: no ESC");
		ASSERT_HAS(out, "default-src 'none'", "the page: its CSP");
		ASSERT_HAS(out, "<td class=\"fail\">* changed</td>", "the page: the flipped check marked");
		free(out);
		snprintf(args, sizeof(args), "%s/host-a %s/host-b --html %s/no/such/dir/page.html", tmp, tmp, tmp);
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 2, "--html into a missing dir");
		ASSERT_EQ(lines(err), 1, "one line");
		free(out);
		free(err);
		tap_case_end();
	}
	if (tap_case_begin("a malformed summary.json, a missing run, bad usage: exit 2, one line")) {
		char path[PATH_MAX + 32];
		static const char *const bad[] = { "{\"verdict\": \"PASS\", \"steps\": [", "[1, 2]", "{\"verdict\": \"PASS\"}" };
		static const char nul[] = "{\"steps\": [], \"verdict\": \"PASS\"}\0{}";

		make_run("good", &base);
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char name[32];

			snprintf(name, sizeof(name), "bad%zu", i);
			make_run(name, &base);
			snprintf(path, sizeof(path), "%s/%s/summary.json", tmp, name);
			write_file(path, bad[i]);
			snprintf(args, sizeof(args), "%s/good %s/%s", tmp, tmp, name);
			st = compare(args, &out, &err);
			ASSERT_EQ(st, 2, name);
			ASSERT_EQ(lines(err), 1, "one line on stderr");
			ASSERT_HAS(err, "summary.json", "names the file");
			ASSERT_STREQ(out, "", "nothing on stdout");
			free(out);
			free(err);
		}
		/* a NUL inside: json-c would stop at it; refused instead */
		make_run("bad3", &base);
		snprintf(path, sizeof(path), "%s/bad3/summary.json", tmp);
		{
			FILE *f = fopen(path, "w");

			if (f) {
				fwrite(nul, 1, sizeof(nul) - 1, f);
				fclose(f);
			}
		}
		snprintf(args, sizeof(args), "%s/good %s/bad3", tmp, tmp);
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 2, "a NUL in summary.json");
		free(out);
		free(err);
		snprintf(args, sizeof(args), "%s/good %s/no-such-run", tmp, tmp);
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 2, "a missing run");
		ASSERT_EQ(lines(err), 1, "one line");
		ASSERT_HAS(err, "no-such-run", "names it");
		free(out);
		free(err);
		snprintf(args, sizeof(args), "%s/good", tmp);
		st = compare(args, &out, &err);
		ASSERT_EQ(st, 2, "one run only");
		ASSERT_EQ(lines(err), 1, "one line");
		free(out);
		free(err);
		st = compare("--no-such-option a b", &out, &err);
		ASSERT_EQ(st, 2, "an unknown option");
		ASSERT_HAS(err, "--no-such-option", "named");
		free(out);
		free(err);
		st = compare("--help", &out, &err);
		ASSERT_EQ(st, 0, "--help");
		ASSERT_HAS(out, "usage: bpfwire-lab compare", "its usage");
		free(out);
		free(err);
		tap_case_end();
	}
	if (tap_case_begin("the API: cmp_load on two runs, cmp_free, an error in err")) {
		struct cmp_result r;
		char e[512], a[PATH_MAX], b[PATH_MAX];

		snprintf(a, sizeof(a), "%s/flip-a", tmp);
		snprintf(b, sizeof(b), "%s/flip-b", tmp);
		ASSERT_OK(cmp_load(a, b, &r, e, sizeof(e)), "cmp_load");
		ASSERT_EQ(r.nchecks, 1, "one check");
		ASSERT_TRUE(r.nchecks == 1 && r.checks[0].verdict_changed, "its verdict changed");
		ASSERT_EQ(cmp_exit_status(&r), 1, "cmp_exit_status");
		ASSERT_STREQ(r.run[1].id, "flip-b", "the run's id");
		cmp_free(&r);
		snprintf(b, sizeof(b), "%s/bad0", tmp);
		ASSERT_EQ(cmp_load(a, b, &r, e, sizeof(e)), -1, "a malformed run");
		ASSERT_HAS(e, "not JSON", "err says why");
		cmp_free(&r);
		tap_case_end();
	}
	if (!getenv("KEEP"))
		rm_rf(tmp);
	return tap_done();
}
