// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-compare, flakes (flaky.c): reruns' counts and the known-flaky list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "file.h"
#include "flaky.h"
#include "kernels.h"
#include "page.h"
#include "perpatch.h"
#include "proc.h"
#include "rangediff.h"
#include "reply.h"
#include "runs.h"
#include "series.h"
#include "static.h"
#include "tap.h"
#include "testlog.h"
#include "verdict.h"
#include "test_review.h"

/* A log of one test from TAP text, result OK or FAIL. */
static bool one_log(struct tl_log *log, const char *name, const char *result, const char *tap)
{
	char line[2048], err[256];
	size_t o;

	o = snprintf(line, sizeof(line), "{\"name\": \"bpfwire:kernel / %s\", \"result\": \"%s\", \"stdout\": \"",
		     name, result);
	for (const char *p = tap; *p && o + 4 < sizeof(line); p++)
		o += snprintf(line + o, sizeof(line) - o, *p == '\n' ? "\\n" : "%c", *p);
	snprintf(line + o, sizeof(line) - o, "\"}");
	return ASSERT_OK(tl_add_line(log, line, err, sizeof(err)), name);
}

/*
 * Flakes on crafted logs: the first run base vs worse.testlog.json (five
 * worse: kernel-suite, its reserved case, group, group/b, netns), then
 * rounds of reruns. Worse in 1 of 3 runs is flaky, in 3 of 3 worse, in 2
 * of 3 flaky; a case worse only in a rerun is added as flaky; a round
 * that lacks the test does not count; a known-flaky pattern marks its
 * cases at once; the repository's list parses, and a bad line is named.
 */
void test_flaky(void)
{
	struct tl_log b = { 0 }, w = { 0 }, r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, empty = { 0 };
	struct vd_report rep = { 0 };
	struct fl_list known = { 0 };
	const struct vd_item *it;
	char **names = NULL, err[512], path[4200], tmpl[] = "/tmp/test_review.flaky.XXXXXX";
	int n = 0;

	if (!tap_case_begin("flakes: 1 of 3 flaky, 3 of 3 worse, known flaky listed, nothing dropped"))
		return;
	if (!load("base.testlog.json", &b) || !load("worse.testlog.json", &w))
		goto out;

	/* worse in the first run only: flaky, 1 of 3 */
	if (ASSERT_OK(vd_compare_logs(&b, &w, &rep), "first run") && ASSERT_OK(fl_worse_tests(&rep, &names, &n), "tests")) {
		ASSERT_EQ(n, 2, "two tests to run again");
		ASSERT_STREQ(names[0], "kernel-suite", "kernel-suite");
		ASSERT_STREQ(names[1], "netns", "netns");
		{
			struct tl_log rl[2] = { b, b }, bl[2] = { b, b };

			ASSERT_OK(fl_classify(&rep, NULL, rl, bl, 2, names, n), "classify");
		}
		it = find(&rep, "kernel-suite", "up ksock_create: reserved 1 -> EINVAL");
		if (ASSERT_OK_PTR(it, "the reserved case")) {
			ASSERT_EQ(it->mark, VD_FLAKY, "flaky");
			ASSERT_EQ(it->worse_runs, 1, "worse in 1");
			ASSERT_EQ(it->runs, 3, "of 3 runs");
		}
		ASSERT_EQ(rep.worse, 0, "nothing worse: exit 0");
		ASSERT_EQ(rep.flaky, 5, "the five flaky, all still reported");
		{
			char buf[8192] = "";
			FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

			vd_write_text(f, &rep);
			fclose(f);
			ASSERT_HAS(buf, "  FLAKY   case  kernel-suite: up ksock_create: reserved 1 -> EINVAL: ok -> not ok "
				   "[worse in 1 of 3 runs]\n", "review.txt: the flake and its counts");
			ASSERT_HAS(buf, "\n0 worse, 0 better, 1 changed\n5 flaky (worse in some runs only)", "the totals");
		}
	}
	free(names);
	vd_free(&rep);

	/* worse in every run: worse, 3 of 3 */
	if (ASSERT_OK(vd_compare_logs(&b, &w, &rep), "first run") && ASSERT_OK(fl_worse_tests(&rep, &names, &n), "tests")) {
		struct tl_log rl[2] = { w, w }, bl[2] = { b, b };

		ASSERT_OK(fl_classify(&rep, NULL, rl, bl, 2, names, n), "classify");
		it = find(&rep, "kernel-suite", "group/b");
		if (ASSERT_OK_PTR(it, "group/b")) {
			ASSERT_EQ(it->mark, VD_WORSE, "worse");
			ASSERT_EQ(it->worse_runs, 3, "in 3");
			ASSERT_EQ(it->runs, 3, "of 3 runs");
		}
		ASSERT_EQ(rep.worse, 5, "five worse");
		ASSERT_EQ(rep.flaky, 0, "none flaky");
	}
	free(names);
	vd_free(&rep);

	/* 2 of 3 flaky; a round without the test is not a run; a case worse only in a rerun is added */
	if (one_log(&r1, "kernel-suite", "FAIL", "ok 1 - a\nnot ok 2 - b\nok 3 - c\n1..3\n") &&
	    one_log(&r2, "kernel-suite", "FAIL", "ok 1 - a\nnot ok 2 - b\nnot ok 3 - c\n1..3\n") &&
	    one_log(&r3, "kernel-suite", "OK", "ok 1 - a\nok 2 - b\nok 3 - c\n1..3\n")) {
		struct tl_log rb = { 0 };

		if (one_log(&rb, "kernel-suite", "OK", "ok 1 - a\nok 2 - b\nok 3 - c\n1..3\n") &&
		    ASSERT_OK(vd_compare_logs(&rb, &r1, &rep), "first run") &&
		    ASSERT_OK(fl_worse_tests(&rep, &names, &n), "tests")) {
			struct tl_log rl[3] = { r2, empty, r3 }, bl[3] = { rb, rb, rb };

			ASSERT_OK(fl_classify(&rep, NULL, rl, bl, 3, names, n), "classify");
			it = find(&rep, "kernel-suite", "b");
			if (ASSERT_OK_PTR(it, "b") && ASSERT_EQ(it->mark, VD_FLAKY, "b flaky"))
				ASSERT_TRUE(it->worse_runs == 2 && it->runs == 3, "b: worse in 2 of 3 (the round without the test not counted)");
			it = find(&rep, "kernel-suite", "c");
			if (ASSERT_OK_PTR(it, "c, worse only in a rerun, is reported") && ASSERT_EQ(it->mark, VD_FLAKY, "c flaky"))
				ASSERT_TRUE(it->worse_runs == 1 && it->runs == 3, "c: worse in 1 of 3");
			ASSERT_EQ(rep.worse, 0, "nothing worse");
		}
		free(names);
		vd_free(&rep);
		tl_free(&rb);
	}

	/* the known-flaky list */
	snprintf(path, sizeof(path), "%s/../known-flaky", crafted_dir);
	if (ASSERT_OK(fl_load(path, &known, err, sizeof(err)), "the repository's review/known-flaky parses"))
		fl_free(&known);
	if (ASSERT_OK_PTR(mkdtemp(tmpl), "tmpdir")) {
		snprintf(path, sizeof(path), "%s/known-flaky", tmpl);
		write_file(path, "# a comment\n\nkernel-suite: group* | 2026-12-06 | a TCG race\n");
		if (ASSERT_OK(fl_load(path, &known, err, sizeof(err)), "a list of one") &&
		    ASSERT_OK(vd_compare_logs(&b, &w, &rep), "first run") &&
		    ASSERT_OK(fl_mark_known(&rep, &known), "marked")) {
			it = find(&rep, "kernel-suite", "group/b");
			if (ASSERT_OK_PTR(it, "group/b") && ASSERT_EQ(it->mark, VD_KNOWN_FLAKY, "known flaky"))
				ASSERT_STREQ(it->known, "2026-12-06: a TCG race", "with its date and reason");
			ASSERT_EQ(rep.known_flaky, 2, "group and group/b");
			ASSERT_EQ(rep.worse, 3, "the others still worse");
			ASSERT_OK(fl_worse_tests(&rep, &names, &n), "tests");
			ASSERT_EQ(n, 2, "known flakes need no rerun; kernel-suite's other cases do");
			free(names);
		}
		vd_free(&rep);
		fl_free(&known);
		write_file(path, "# x\nkernel-suite: a | 2026-1-6 | r\n");
		ASSERT_NEQ(fl_load(path, &known, err, sizeof(err)), 0, "a bad date");
		ASSERT_HAS(err, "known-flaky:2: the date it was added is not YYYY-MM-DD", "file:line: what");
		write_file(path, "kernel-suite: a\n");
		ASSERT_NEQ(fl_load(path, &known, err, sizeof(err)), 0, "no fields");
		ASSERT_HAS(err, "known-flaky:1: not \"PATTERN | YYYY-MM-DD | REASON\"", "file:line: what");
		write_file(path, "kernel-suite: a | 2026-01-06 | \n");
		ASSERT_NEQ(fl_load(path, &known, err, sizeof(err)), 0, "no reason");
		unlink(path);
		rmdir(tmpl);
	}
out:
	tl_free(&b);
	tl_free(&w);
	tl_free(&r1);
	tl_free(&r2);
	tl_free(&r3);
	tap_case_end();
}
