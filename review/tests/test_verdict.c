// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-compare, the comparison (verdict.c over testlog.c): TAP cases and subtests, test
 * logs, what is worse, better or changed, count directions, SERIES and NAME
 * checks, a series' selftests, the kernels a review may pick.
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

void test_tap(void)
{
	struct tl_case *c = NULL;
	size_t n = 0;

	if (!tap_case_begin("TAP: directives, subtests, repeated names"))
		return;
	ASSERT_OK(tl_parse_tap("ok 1 - a # SKIP no netpoll\nnot ok 2 - b # TODO later\n"
			       "    ok 1 - x\n    not ok 2\nnot ok 3 - p\nok 4 - a\nok 5\n"
			       "# not ok 9 - a comment\nokay\n", &c, &n), "parse");
	if (ASSERT_EQ(n, 7, "cases")) {
		ASSERT_STREQ(c[0].id, "a", "id");
		ASSERT_EQ(c[0].rank, TL_SKIP, "SKIP");
		ASSERT_STREQ(c[0].note, "no netpoll", "SKIP reason");
		ASSERT_EQ(c[1].rank, TL_TODO, "not ok # TODO");
		ASSERT_STREQ(c[2].id, "p", "parent first");
		ASSERT_EQ(c[2].rank, TL_FAIL, "parent fails");
		ASSERT_STREQ(c[3].id, "p/x", "subtest named under its parent");
		ASSERT_STREQ(c[4].id, "p/2", "a subtest without a description: its number");
		ASSERT_EQ(c[4].rank, TL_FAIL, "subtest fails");
		ASSERT_STREQ(c[5].id, "a #4", "a repeated description gets its number");
		ASSERT_STREQ(c[6].id, "5", "no description");
	}
	for (size_t i = 0; i < n; i++)
		free(c[i].id), free(c[i].note);
	free(c);
	tap_case_end();
}

void test_log(void)
{
	struct tl_log log = { 0 };
	char err[512] = "";

	if (!tap_case_begin("test log: names, results, a scenario's results dir, bad input"))
		return;
	if (load("base.testlog.json", &log)) {
		const struct tl_test *k = tl_find(&log, "kernel-suite"), *s = tl_find(&log, "netns");

		ASSERT_EQ(log.n, 4, "tests");
		if (ASSERT_OK_PTR(k, "kernel-suite by its short name"))
			ASSERT_EQ(k->ncases, 8, "its cases, subtests included");
		if (ASSERT_OK_PTR(s, "netns"))
			ASSERT_STREQ(s->results_dir ? s->results_dir : "", "/nonexistent/netns-1", "results:");
	}
	if (ASSERT_OK(tl_rename_root(&log, "wq: send"), "rename the root")) {
		const struct tl_test *k = tl_find(&log, "kernel-suite");

		if (k && k->ncases > 2)
			ASSERT_STREQ(k->cases[2].id, "BUILD from a workqueue", "a path of the build named BUILD");
	}
	tl_free(&log);
	ASSERT_NEQ(tl_load("/nonexistent/testlog.json", &log, err, sizeof(err)), 0, "a missing log");
	ASSERT_HAS(err, "nonexistent", "named");
	{
		char path[4096];

		snprintf(path, sizeof(path), "%s/bad.testlog.json", crafted_dir);
		ASSERT_NEQ(tl_load(path, &log, err, sizeof(err)), 0, "a line that is no JSON");
		ASSERT_HAS(err, ":2:", "its line");
	}
	tl_free(&log);
	tap_case_end();
}

void test_worse(void)
{
	struct tl_log b = { 0 }, r = { 0 };
	struct vd_report rep = { 0 };
	const struct vd_item *it;

	if (!tap_case_begin("worse: exactly the failed case, subtest, lost and skipped test"))
		return;
	if (load("base.testlog.json", &b) && load("worse.testlog.json", &r) &&
	    ASSERT_OK(vd_compare_logs(&b, &r, &rep), "compare")) {
		it = find(&rep, "kernel-suite", "up ksock_create: reserved 1 -> EINVAL");
		if (ASSERT_OK_PTR(it, "the reserved case"))
			ASSERT_EQ(it->mark, VD_WORSE, "is worse");
		it = find(&rep, "kernel-suite", "group/b");
		if (ASSERT_OK_PTR(it, "the subtest"))
			ASSERT_EQ(it->mark, VD_WORSE, "is worse");
		it = find(&rep, "kernel-suite", "");
		if (ASSERT_OK_PTR(it, "the test"))
			ASSERT_EQ(it->mark, VD_WORSE, "OK -> FAIL");
		it = find(&rep, "netns", "");
		if (ASSERT_OK_PTR(it, "netns"))
			ASSERT_EQ(it->mark, VD_WORSE, "OK -> SKIP");
		it = find(&rep, "kernel-suite", "new case");
		if (ASSERT_OK_PTR(it, "a case new in the review"))
			ASSERT_EQ(it->mark, VD_CHANGED, "is not worse");
		/* test, reserved, group, group/b, netns */
		ASSERT_EQ(rep.worse, 5, "worse in all");
		ASSERT_EQ(rep.same[VD_TEST], 1, "agent-guest the same");
		ASSERT_FALSE(find(&rep, "docs", ""), "a test the review did not run is not compared");
	}
	vd_free(&rep);
	tl_free(&b);
	tl_free(&r);
	tap_case_end();
}

void test_same_and_skip(void)
{
	struct tl_log b = { 0 }, r = { 0 }, s = { 0 };
	struct vd_report rep = { 0 }, rep2 = { 0 };
	const struct vd_item *it;

	if (!tap_case_begin("same: nothing worse; an API SKIP is worse and shows its reason"))
		return;
	if (load("base.testlog.json", &b) && load("same.testlog.json", &r) &&
	    ASSERT_OK(vd_compare_logs(&b, &r, &rep), "compare")) {
		ASSERT_EQ(rep.worse, 0, "nothing worse");
		ASSERT_EQ(rep.n, 0, "nothing differs");
		ASSERT_EQ(rep.same[VD_CASE], 9, "every case the same");
	}
	if (load("api-skip.testlog.json", &s) && ASSERT_OK(vd_compare_logs(&b, &s, &rep2), "compare")) {
		it = find(&rep2, "kernel-suite", "up ksock_create: AF_INET, UDP -> ok");
		if (ASSERT_OK_PTR(it, "a ksock case")) {
			ASSERT_EQ(it->mark, VD_WORSE, "ok -> skip");
			ASSERT_HAS(it->note, "bpf_ksock_create(struct bpf_ksock_create_opts", "the prototype shown");
		}
		ASSERT_EQ(rep2.worse, 2, "the two ksock cases");
		if (ASSERT_OK_PTR(tl_find(&s, "kernel-suite"), "kernel-suite") &&
		    ASSERT_OK_PTR(tl_find(&s, "kernel-suite")->protos, "the found prototypes kept"))
			ASSERT_STREQ(tl_find(&s, "kernel-suite")->protos,
				     "int bpf_ksock_send(struct bpf_ksock *ks, const void *data, u32 data__sz, u64 flags);\n",
				     "only the found one, not what an API expects");
	}
	{
		char buf[8192] = "";
		FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

		vd_write_text(f, &rep2);
		fclose(f);
		ASSERT_HAS(buf, "WORSE   case  kernel-suite: up ksock_create: AF_INET, UDP -> ok: ok -> skip", "text");
		ASSERT_HAS(buf, "2 worse, 0 better", "totals");
	}
	vd_free(&rep);
	vd_free(&rep2);
	tl_free(&b);
	tl_free(&r);
	tl_free(&s);
	tap_case_end();
}

void test_counts_and_series(void)
{
	char path[4096], err[512], name[80];

	if (!tap_case_begin("counts' direction; SERIES and NAME"))
		return;
	ASSERT_EQ(runs_count_direction("rx.wire.lost"), 1, "more lost is worse");
	ASSERT_EQ(runs_count_direction("rx.wire.senders.11.received"), -1, "fewer received is worse");
	ASSERT_EQ(runs_count_direction("splats"), 1, "splats");
	ASSERT_EQ(runs_count_direction("rx.wire.reordered"), 0, "reordering has no direction");
	snprintf(path, sizeof(path), "%s/good.mbx", crafted_dir);
	ASSERT_OK(series_check(path, err, sizeof(err)), "an mbox");
	snprintf(path, sizeof(path), "%s/notmbox.mbx", crafted_dir);
	ASSERT_NEQ(series_check(path, err, sizeof(err)), 0, "not an mbox");
	ASSERT_HAS(err, "not an mbox", "said");
	ASSERT_NEQ(series_check("/nonexistent.mbx", err, sizeof(err)), 0, "missing");
	ASSERT_HAS(err, "ENOENT", "said");
	ASSERT_NEQ(series_check(crafted_dir, err, sizeof(err)), 0, "a directory without series");
	ASSERT_HAS(err, "series file", "said");
	ASSERT_OK(series_name("/x/20261205_ksock_v8.mbx", name, sizeof(name)), "name");
	ASSERT_STREQ(name, "20261205_ksock_v8", "without .mbx");
	ASSERT_OK(series_name("/x/my series dir/", name, sizeof(name)), "name of a dir");
	ASSERT_STREQ(name, "my_series_dir", "made safe");
	ASSERT_NEQ(series_name_ok("../x"), 0, "no slash in a name");
	{
		char a[256], b[256];

		vd_case_shape("guest: boots none 6.12.118-bpfwire-up (net.core.bpf_ksock_max, release)", a, sizeof(a));
		vd_case_shape("guest: boots none 6.12.118-bpfwire-bench (net.core.bpf_ksock_max, release)", b, sizeof(b));
		ASSERT_STREQ(a, b, "another release is the same case");
		ASSERT_STREQ(a, "guest: boots none #-bpfwire*", "its shape");
		vd_case_shape("ksig: a reinstall draws a new epoch (0x2a1d, 0x4723)", a, sizeof(a));
		ASSERT_STREQ(a, "ksig: a reinstall draws a new epoch", "values in parentheses go");
		vd_case_shape("guest: kernel-tests exited 1", a, sizeof(a));
		vd_case_shape("guest: kernel-tests exited 0", b, sizeof(b));
		ASSERT_STREQ(a, b, "an exit status is a value");
	}
	tap_case_end();
}

/*
 * A series' own selftests. The review runs `selftests` when the
 * series carries any; there, a case only the baseline ran (its own
 * selftests) is changed, not lost; a FAIL of the series' own is worse.
 */
void test_selftests(void)
{
	struct tl_log b = { 0 }, r = { 0 };
	struct vd_report rep = { 0 };
	const struct vd_item *it;
	char err[256], tmpl[] = "/tmp/test-review.XXXXXX", path[4096];
	static const char diff[] = "From 1 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] t\n\n"
		"--- /dev/null\n+++ b/tools/testing/selftests/bpf/prog_tests/ksock_lsm.c\n"
		"--- /dev/null\n+++ b/tools/testing/selftests/bpf/progs/ksock_lsm.c\n";

	if (!tap_case_begin("selftests: the series' own counted; the baseline's own not lost"))
		return;
	snprintf(path, sizeof(path), "%s/good.mbx", crafted_dir);
	ASSERT_EQ(series_selftests(path), 0, "good.mbx carries none");
	if (ASSERT_OK_PTR(mkdtemp(tmpl), "tmpdir")) {
		snprintf(path, sizeof(path), "%s/0001.patch", tmpl);
		ASSERT_OK(write_file(path, diff), "patch");
		ASSERT_EQ(series_selftests(path), 1, "an mbox with one prog_tests file");
		snprintf(path, sizeof(path), "%s/series", tmpl);
		ASSERT_OK(write_file(path, "# a comment\n0001.patch\n../escape\n"), "series");
		ASSERT_EQ(series_selftests(tmpl), 1, "a patch directory");
		unlink(path);
		snprintf(path, sizeof(path), "%s/0001.patch", tmpl);
		unlink(path);
		rmdir(tmpl);
	}
	if (ASSERT_OK(tl_add_line(&b, "{\"name\": \"bpfwire:kernel / selftests\", \"result\": \"OK\", "
				   "\"stdout\": \"ok 1 - netpoll\\nok 2 - ksock\\n1..2\\n\"}", err, sizeof(err)), "base") &&
	    ASSERT_OK(tl_add_line(&r, "{\"name\": \"bpfwire:kernel / selftests\", \"result\": \"FAIL\", "
				   "\"stdout\": \"ok 1 - netpoll\\nnot ok 2 - ksock_lsm\\n1..2\\n\"}", err, sizeof(err)), "review") &&
	    ASSERT_OK(vd_compare_logs(&b, &r, &rep), "compare")) {
		it = find(&rep, "selftests", "ksock");
		if (ASSERT_OK_PTR(it, "the baseline's own test"))
			ASSERT_EQ(it->mark, VD_CHANGED, "is not lost");
		it = find(&rep, "selftests", "");
		if (ASSERT_OK_PTR(it, "the test"))
			ASSERT_EQ(it->mark, VD_WORSE, "OK -> FAIL is worse");
		it = find(&rep, "selftests", "ksock_lsm");
		ASSERT_OK_PTR(it, "the series' own test is shown");
	}
	vd_free(&rep);
	tl_free(&b);
	tl_free(&r);
	tap_case_end();
}

/* Which kernel: known versions newest first, the version of a fit's output, why one did not fit. */
void test_kernels(void)
{
	char vers[KERNELS_MAX][KERNELS_VLEN], path[4096], xy[KERNELS_VLEN], why[640], base[4096];
	FILE *f;

	if (!tap_case_begin("kernels: known newest first, a fit's version and failure, the baseline per version"))
		return;
	snprintf(path, sizeof(path), "/tmp/test_review_versions.%d", (int)getpid());
	f = fopen(path, "w");
	if (!ASSERT_OK(!f, "write a versions file"))
		goto end;
	fputs("# linux-source-9.9 in a comment\nlinux-source-6.12 6.12.118-1~deb12u1 6.12.118\n"
	      "linux-source-7.3 7.3.4-1~bpo13+1 7.3.4\n  linux-source-6.12 6.12.119-1 6.12.119\n"
	      "# linux-source-7.2 7.2.12-1~bpo13+1 7.2.12\nlinux-source-7.10 7.10.1-1 7.10.1\n"
	      "linux-source-7.2 7.2.12-1~bpo13+1 7.2.12\nlinux-source-x y z\n", f);
	fclose(f);
	ASSERT_EQ(kernels_known(path, vers, KERNELS_MAX), 4, "four versions, each once, comments skipped");
	ASSERT_STREQ(vers[0], "7.10", "7.10 is newer than 7.3");
	ASSERT_STREQ(vers[1], "7.3", "then 7.3");
	ASSERT_STREQ(vers[2], "7.2", "then 7.2");
	ASSERT_STREQ(vers[3], "6.12", "6.12 last");
	unlink(path);
	ASSERT_EQ(kernels_known("/nonexistent/source-versions", vers, KERNELS_MAX), -1, "no file");
	ASSERT_OK(kernels_linux_xy("kernel: [1s] fit: /x is an unpacked tree of Linux 7.4.0-rc2 (the build tries)",
				   xy, sizeof(xy)), "a version in a fit's line");
	ASSERT_STREQ(xy, "7.4", "X.Y of 7.4.0-rc2");
	ASSERT_NEQ(kernels_linux_xy("kernel: error: no Makefile", xy, sizeof(xy)), 0, "no version");
	ASSERT_STREQ(kernels_at_most(vers, 4, "7.4"), "7.3", "a bpf-next 7.4 tree: 7.3's configs");
	ASSERT_STREQ(kernels_at_most(vers, 4, "6.12"), "6.12", "exactly 6.12");
	ASSERT_EQ(kernels_at_most(vers, 4, "6.1") == NULL, 1, "older than every known kernel: none");
	kernels_failure("kernel: [17s] patch: applying 5 messages\n"
			"kernel: error: patch 1 \"net: x\" (mbox message 1) does not apply to linux-source-7.3\n"
			"kernel:   git apply: error: patch failed: net/socket.c:2115\n"
			"kernel:   hunk: include/linux/socket.h hunk #1, lines 461-466: @@ -461,6 +461,8 @@\n"
			"kernel:   hunk: net/socket.c hunk #1, lines 2115-2141: @@\n", why, sizeof(why));
	ASSERT_STREQ(why, "error: patch 1 \"net: x\" (mbox message 1) does not apply to linux-source-7.3; "
		     "hunk: include/linux/socket.h hunk #1, lines 461-466: @@ -461,6 +461,8 @@",
		     "the patch and its first hunk");
	kernels_failure("kernel: error: /x is not an mbox\n", why, sizeof(why));
	ASSERT_STREQ(why, "error: /x is not an mbox", "another error: its line");
	kernels_base("/r", "6.12", "seed", base, sizeof(base));
	ASSERT_STREQ(base, "/r/build", "6.12 seed: build");
	kernels_base("/r", "6.12", "upstream", base, sizeof(base));
	ASSERT_STREQ(base, "/r/build-up", "6.12 otherwise: build-up");
	kernels_base("/r", "7.2", "seed", base, sizeof(base));
	ASSERT_STREQ(base, "/r/build-72", "7.2: build-72");
	kernels_base("/r", "7.3", "seed", base, sizeof(base));
	ASSERT_STREQ(base, "/r/build-73", "7.3: build-73 whatever the API");
end:
	tap_case_end();
}
