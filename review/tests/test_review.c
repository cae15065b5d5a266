// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-compare: the review's comparison on crafted meson test logs
 * (base/same/worse/api-skip.testlog.json): TAP cases and subtests, a case
 * that fails, one that is lost, a test that became SKIP, a SKIP for a new
 * reason; the count directions; SERIES and NAME checks; forged text in
 * review.txt (forged.testlog.json); a v8 against its v7 (rangediff.c).
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

static const char *dir;

static bool load(const char *name, struct tl_log *log)
{
	char path[4096], err[512] = "";

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return ASSERT_OK(tl_load(path, log, err, sizeof(err)), name);
}

static const struct vd_item *find(const struct vd_report *rep, const char *test, const char *what)
{
	for (size_t i = 0; i < rep->n; i++)
		if (!strcmp(rep->items[i].test, test) && !strcmp(rep->items[i].what, what))
			return &rep->items[i];
	return NULL;
}

static void test_tap(void)
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

static void test_log(void)
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

		snprintf(path, sizeof(path), "%s/bad.testlog.json", dir);
		ASSERT_NEQ(tl_load(path, &log, err, sizeof(err)), 0, "a line that is no JSON");
		ASSERT_HAS(err, ":2:", "its line");
	}
	tl_free(&log);
	tap_case_end();
}

static void test_worse(void)
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

static void test_same_and_skip(void)
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

static void test_counts_and_series(void)
{
	char path[4096], err[512], name[80];

	if (!tap_case_begin("counts' direction; SERIES and NAME"))
		return;
	ASSERT_EQ(runs_count_direction("rx.wire.lost"), 1, "more lost is worse");
	ASSERT_EQ(runs_count_direction("rx.wire.senders.11.received"), -1, "fewer received is worse");
	ASSERT_EQ(runs_count_direction("splats"), 1, "splats");
	ASSERT_EQ(runs_count_direction("rx.wire.reordered"), 0, "reordering has no direction");
	snprintf(path, sizeof(path), "%s/good.mbx", dir);
	ASSERT_OK(series_check(path, err, sizeof(err)), "an mbox");
	snprintf(path, sizeof(path), "%s/notmbox.mbx", dir);
	ASSERT_NEQ(series_check(path, err, sizeof(err)), 0, "not an mbox");
	ASSERT_HAS(err, "not an mbox", "said");
	ASSERT_NEQ(series_check("/nonexistent.mbx", err, sizeof(err)), 0, "missing");
	ASSERT_HAS(err, "ENOENT", "said");
	ASSERT_NEQ(series_check(dir, err, sizeof(err)), 0, "a directory without series");
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

static void test_page(void)
{
	struct vd_report rep = { 0 };
	char tmp[] = "/tmp/test_review.XXXXXX", path[64];
	char *html;

	if (!tap_case_begin("review.html: guest text stays text"))
		return;
	if (ASSERT_OK_PTR(mkdtemp(tmp), "mkdtemp")) {
		ASSERT_OK(vd_add(&rep, VD_CASE, VD_WORSE, "kernel-suite", "up <b>x</b>", "ok", "skip",
				 "<script>alert(1)</script>\x1b[31m"), "an item");
		ASSERT_OK(review_page(tmp, "review t", "review t: header\n", &rep), "written");
		snprintf(path, sizeof(path), "%s/review.html", tmp);
		html = read_file(path, NULL);
		if (ASSERT_OK_PTR(html, "read back")) {
			ASSERT_HAS(html, "&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[31m", "escaped, ESC shown");
			ASSERT_FALSE(strstr(html, "<script"), "no script element");
			ASSERT_HAS(html, "up &lt;b&gt;x&lt;/b&gt;", "a case name escaped");
			ASSERT_HAS(html, "verdict: WORSE: 1 worse", "the verdict");
			free(html);
		}
		unlink(path);
		rmdir(tmp);
	}
	vd_free(&rep);
	tap_case_end();
}

/* Lines of text that start with prefix. */
static int lines_starting(const char *text, const char *prefix)
{
	int n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

/*
 * review.txt and the terminal (vd_write_review) of a crafted test log
 * (forged.testlog.json): kernel-tests' "#     found     " lines that read
 * "verdict: OK" or carry escapes, a test named "evil\nverdict: OK", and a
 * series path with a newline. None starts a line; the one verdict is real.
 */
static void test_forged_text(void)
{
	struct tl_log b = { 0 }, r = { 0 };
	struct vd_report rep = { 0 };
	char header[1024], *text = NULL;
	size_t len = 0;

	if (!tap_case_begin("review.txt: a forged found line, test name or series path starts no line"))
		return;
	printf("# tried: forged.testlog.json's found lines 'verdict: OK (0 worse than the baseline)' and\n"
	       "# 'int bpf_ksock_send(void)\\x1b[2J\\x1b]0;pwned\\x07\\r;', a test 'evil\\nverdict: OK',\n"
	       "# SERIES '/tmp/s\\nverdict: OK\\x1b[2J.mbx'\n");
	if (load("base.testlog.json", &b) && load("forged.testlog.json", &r) &&
	    ASSERT_OK(vd_compare_logs(&b, &r, &rep), "compare")) {
		FILE *f = open_memstream(&text, &len);

		vd_header(header, sizeof(header), "forged", "/tmp/s\nverdict: OK\x1b[2J.mbx", "0123456789ab",
			  "unknown", "/src/build-up", 2);
		if (ASSERT_OK_PTR(f, "open_memstream")) {
			vd_write_review(f, header, &rep, &r, "time: build 1 s\n", "/res");
			fclose(f);
		}
	}
	if (ASSERT_OK_PTR(text, "the text")) {
		char *p;

		for (p = text; *p; p++)
			if (*p < 0x20 && *p != '\n')
				break;
		ASSERT_TRUE(!*p, "no control byte but newlines");
		ASSERT_EQ(lines_starting(text, "verdict: OK"), 0, "no line reads 'verdict: OK' (the real one is WORSE)");
		ASSERT_EQ(lines_starting(text, "verdict:"), 1, "one verdict line");
		ASSERT_HAS(text, "\nverdict: WORSE (", "the real verdict");
		ASSERT_HAS(text, ")\n" VD_CAVEAT "\n", "the caveat, right under the verdict");
		ASSERT_HAS(text, "\n    verdict: OK (0 worse than the baseline)\n", "the found line indented under its heading");
		ASSERT_HAS(text, "\n    int bpf_ksock_send(void)\\x1b[2J\\x1b]0;pwned\\x07\\r;\n", "and escaped");
		ASSERT_HAS(text, "\nevil\\nverdict: OK: kfuncs of an API", "a test's name escaped in its heading");
		ASSERT_HAS(text, "review forged: /tmp/s\\nverdict: OK\\x1b[2J.mbx, bpfwire", "the series path escaped");
		printf("# the text:\n");
		for (char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
			printf("#   %.*s\n", (int)strcspn(l, "\n"), l);
	}
	free(text);
	vd_free(&rep);
	tl_free(&b);
	tl_free(&r);
	tap_case_end();
}

/*
 * What bpfwire-review's children (meson setup, compile, test) print
 * reaches the terminal through proc_run: a test's or a kernel build's
 * line that reads "verdict: OK" with a screen clear and a CR, and a
 * title on stderr, arrive indented and escaped.
 */
static void test_child_output(void)
{
	char *argv[] = { "sh", "-c", "printf 'ok 1 - x\\nverdict: OK\\033[2J\\rhidden\\n'; "
			 "printf 'err\\033]0;t\\007' >&2", NULL };
	char path[] = "/tmp/test_review.out.XXXXXX", *out = NULL;
	int fd = mkstemp(path), saved = dup(1);

	if (!tap_case_begin("a child's output (meson's, a test's) reaches the terminal indented and escaped"))
		return;
	printf("# tried: sh printing 'ok 1 - x\\nverdict: OK\\x1b[2J\\rhidden\\n' and on stderr "
	       "'err\\x1b]0;t\\x07'\n");
	fflush(stdout);
	if (ASSERT_TRUE(fd >= 0 && saved >= 0 && dup2(fd, 1) == 1, "stdout to a file")) {
		int st = proc_run(argv, NULL, 0);

		fflush(stdout);
		dup2(saved, 1);
		ASSERT_EQ(st, 0, "exit 0");
		out = read_file(path, NULL);
	}
	if (ASSERT_OK_PTR(out, "the output")) {
		for (char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
			printf("# got: ");
			for (char *c = l; *c && *c != '\n'; c++)
				printf((unsigned char)*c < 0x20 ? "^%c" : "%c", (unsigned char)*c < 0x20 ? *c + '@' : *c);
			printf("\n");
		}
		ASSERT_TRUE(!strchr(out, '\x1b') && !strchr(out, '\r') && !strchr(out, '\a'), "no ESC, CR or BEL");
		ASSERT_EQ(lines_starting(out, "verdict:"), 0, "no line starts 'verdict:'");
		ASSERT_HAS(out, "  verdict: OK\\x1b[2J\\rhidden\n", "the line indented, escaped");
		ASSERT_HAS(out, "  err\\x1b]0;t\\x07\n", "stderr's too");
	}
	free(out);
	if (fd >= 0)
		close(fd);
	if (saved >= 0)
		close(saved);
	unlink(path);
	tap_case_end();
}

/*
 * issue 35: a series' own selftests. The review runs `selftests` when the
 * series carries any; there, a case only the baseline ran (its own
 * selftests) is changed, not lost; a FAIL of the series' own is worse.
 */
static void test_selftests(void)
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
	snprintf(path, sizeof(path), "%s/good.mbx", dir);
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
static void test_kernels(void)
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

/* git mailinfo -k of the mail at path: its info (Author, Email, Subject) and its body. */
static bool mailinfo(const char *path, char *info, size_t ilen, char **body)
{
	char msg[4200], patch[4200];
	char *argv[] = { "sh", "-c", "git mailinfo -k \"$1\" \"$2\" <\"$3\"", "-", msg, patch, (char *)path, NULL };
	bool ok;

	snprintf(msg, sizeof(msg), "%s.msg", path);
	snprintf(patch, sizeof(patch), "%s.patch", path);
	ok = ASSERT_OK(proc_capture(argv, info, ilen), "git mailinfo reads it");
	*body = read_file(msg, NULL);
	unlink(msg);
	unlink(patch);
	return ok && ASSERT_OK_PTR(*body, "its body");
}

/* git interpret-trailers --parse of text: the trailers git and b4 would take. */
static void trailers(const char *dir_, const char *text, char *out, size_t len)
{
	char path[4200];
	char *argv[] = { "sh", "-c", "git interpret-trailers --parse <\"$1\"", "-", path, NULL };

	snprintf(path, sizeof(path), "%s/body", dir_);
	write_file(path, text);
	proc_capture(argv, out, len);
	unlink(path);
}

/* review.eml of rep, in reply to the first message of the mbox at series; the mail's text. */
static char *reply_of(const char *tmpdir, const char *series, const struct vd_report *rep)
{
	struct reply_to t;
	struct reply_env env = { .name = "v8", .kernel = "Linux 7.3, release 7.3.4-bpfwire-v8",
				 .base = "/src/build-73", .configs = "kernel/lab.config, kernel/debug.config",
				 .compiler = "gcc (Debian 12.2.0-14) 12.2.0", .bpfwire = "0123456789ab",
				 .command = "./run review v8.mbx --kernel 7.3", .id = "review-v8-20261205-000000",
				 .date = 1764892800, .ntests = 2 };
	char err[512], path[4200];
	FILE *f;

	if (!ASSERT_OK(reply_read_series(series, &t, err, sizeof(err)), "the series' first message"))
		return NULL;
	snprintf(path, sizeof(path), "%s/review.eml", tmpdir);
	f = fopen(path, "w");
	if (ASSERT_OK_PTR(f, "review.eml")) {
		ASSERT_OK(reply_write(f, &t, &env, rep), "written");
		fclose(f);
	}
	reply_to_free(&t);
	return read_file(path, NULL);
}

/*
 * review.eml: git mailinfo reads it (Subject: Re: the cover's, from
 * bpfwire), In-Reply-To and References name the cover letter, the body
 * has its sections, and Tested-by is there only when nothing is worse,
 * as the one trailer git interpret-trailers finds. A case named
 * "...\nTested-by: Evil" stays inside its escaped line.
 */
static void test_reply(void)
{
	static const char mbox[] = "From 1234 Mon Sep 17 00:00:00 2001\nFrom: A U Thor <a@example.org>\n"
		"To: bpf@vger.kernel.org\nCc: netdev@vger.kernel.org\n"
		"Subject: [PATCH bpf-next v8 0/3] bpf: ksock\n kfuncs, folded\n"
		"Message-ID: <cover.v8@example.org>\nReferences: <cover.v7@example.org>\n"
		"\t<reply.v7@example.org> not-an-id\n\nThe cover letter.\nMessage-ID: <body@example.org>\n";
	struct tl_log b = { 0 }, w = { 0 }, same = { 0 };
	struct vd_report bad = { 0 }, good = { 0 };
	char tmpl[] = "/tmp/test_review.reply.XXXXXX", path[4200], info[4096], tr[1024];
	char *eml = NULL, *body = NULL;

	if (!tap_case_begin("review.eml: a reply git mailinfo reads, with Tested-by only when nothing is worse"))
		return;
	if (!ASSERT_OK_PTR(mkdtemp(tmpl), "tmpdir"))
		goto out;
	snprintf(path, sizeof(path), "%s/v8.mbx", tmpl);
	write_file(path, mbox);
	if (!load("base.testlog.json", &b) || !load("worse.testlog.json", &w) || !load("same.testlog.json", &same) ||
	    !ASSERT_OK(vd_compare_logs(&b, &w, &bad), "worse") || !ASSERT_OK(vd_compare_logs(&b, &same, &good), "same"))
		goto out;
	ASSERT_OK(vd_add(&bad, VD_CASE, VD_WORSE, "kernel-suite", "evil\nTested-by: Evil <e@example.org>",
			 "ok", "not ok", "\x1b[2J"), "a forged case");
	ASSERT_OK(vd_add(&good, VD_CASE, VD_CHANGED, "kernel-suite", "Tested-by: Evil <e@example.org>",
			 "skip", "ok", "\nReviewed-by: Evil <e@example.org>"), "a forged change");

	/* something worse */
	eml = reply_of(tmpl, path, &bad);
	if (ASSERT_OK_PTR(eml, "the worse review's mail")) {
		printf("# review.eml of a worse review:\n");
		for (char *l = eml; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
			printf("#   %.*s\n", (int)strcspn(l, "\n"), l);
		ASSERT_HAS(eml, "\nIn-Reply-To: <cover.v8@example.org>\n", "In-Reply-To: the cover letter");
		ASSERT_HAS(eml, "\nReferences: <cover.v7@example.org>\n <reply.v7@example.org>\n <cover.v8@example.org>\n",
			   "References: the thread's ids (folded ones too), then the cover");
		ASSERT_HAS(eml, "\nTo: A U Thor <a@example.org>\nCc: bpf@vger.kernel.org, netdev@vger.kernel.org\n",
			   "to the author, the lists in Cc");
		ASSERT_FALSE(strchr(eml, '\x1b'), "no ESC byte");
		ASSERT_EQ(lines_starting(eml, "Tested-by:"), 0, "no Tested-by line");
		snprintf(path, sizeof(path), "%s/review.eml", tmpl);
		if (mailinfo(path, info, sizeof(info), &body)) {
			ASSERT_HAS(info, "Subject: Re: [PATCH bpf-next v8 0/3] bpf: ksock kfuncs, folded", "the subject");
			ASSERT_HAS(info, "Author: bpfwire\nEmail: bpfwire@example.invalid", "from bpfwire");
			ASSERT_HAS(body, "Regressions: 6 worse than the baseline\n  test  kernel-suite: OK -> FAIL\n"
				   "  case  kernel-suite: up ksock_create: reserved 1 -> EINVAL: ok -> not ok\n",
				   "the regressions, each case");
			ASSERT_HAS(body, "\n  case  kernel-suite: evil\\nTested-by: Evil <e@example.org>: ok -> not ok "
				   "(\\x1b[2J)\n", "a forged case escaped on its line");
			ASSERT_HAS(body, "\nFixes: none\n", "no fixes");
			ASSERT_HAS(body, "\nChanges: 1 neither better nor worse\n  case  kernel-suite: new case", "the changes");
			ASSERT_HAS(body, "\nEnvironment:\n  kernel:    Linux 7.3, release 7.3.4-bpfwire-v8\n"
				   "  baseline:  /src/build-73\n  configs:   kernel/lab.config, kernel/debug.config\n"
				   "  compiler:  gcc (Debian 12.2.0-14) 12.2.0\n  bpfwire:   0123456789ab\n", "the environment");
			ASSERT_HAS(body, "\n  ./run review v8.mbx --kernel 7.3\n", "the command");
			ASSERT_HAS(body, "\nVerdict: WORSE (6 worse", "the verdict");
			trailers(tmpl, body, tr, sizeof(tr));
			ASSERT_STREQ(tr, "", "no trailer at all");
		}
		free(body);
		body = NULL;
	}
	free(eml);

	/* nothing worse */
	snprintf(path, sizeof(path), "%s/v8.mbx", tmpl);
	eml = reply_of(tmpl, path, &good);
	snprintf(path, sizeof(path), "%s/review.eml", tmpl);
	if (ASSERT_OK_PTR(eml, "the clean review's mail") && mailinfo(path, info, sizeof(info), &body)) {
		ASSERT_HAS(body, "\nRegressions: none\n", "no regressions");
		ASSERT_HAS(body, "\nVerdict: OK (0 worse", "the verdict");
		ASSERT_EQ(lines_starting(body, "Tested-by:"), 1, "one Tested-by line");
		trailers(tmpl, body, tr, sizeof(tr));
		ASSERT_STREQ(tr, REPLY_TESTED_BY, "the one trailer: bpfwire's Tested-by");
	}
	free(body);
	free(eml);
	{
		char cmd[512];
		char *args[] = { "bpfwire-review", "--base", "/x y/build", "--config", "a,b", "it's.mbx" };

		reply_command(6, args, "7.3", cmd, sizeof(cmd));
		ASSERT_STREQ(cmd, "./run review --base '/x y/build' --config a,b 'it'\\''s.mbx' --kernel 7.3",
			     "the command, quoted for a shell, the kernel pinned");
	}
out:
	if (tmpl[sizeof(tmpl) - 7] != 'X') {
		snprintf(path, sizeof(path), "%s/v8.mbx", tmpl);
		unlink(path);
		snprintf(path, sizeof(path), "%s/review.eml", tmpl);
		unlink(path);
		rmdir(tmpl);
	}
	vd_free(&bad);
	vd_free(&good);
	tl_free(&b);
	tl_free(&w);
	tl_free(&same);
	tap_case_end();
}

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
static void test_flaky(void)
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
	snprintf(path, sizeof(path), "%s/../known-flaky", dir);
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

/*
 * checkpatch's output as review/checkpatch.sh keeps it, parsed: each
 * ERROR, WARNING and CHECK with its type, message and file:line, the
 * counts; series.json's own patches; the section escaped (a forged
 * "verdict: OK" and ESC in a message); what --strict counts, and the
 * verdict and Tested-by of review.eml with and without it.
 */
static void test_static(void)
{
	static const char out2[] = "ERROR:TRAILING_WHITESPACE: trailing whitespace\n#22: FILE: net/core/x.c:4:\n"
		"+\treturn 3; $\n\nWARNING:LONG_LINE: line length of 120 exceeds 100 columns\n#30: FILE: net/core/x.c:9:\n"
		"+ ...\n\nCHECK: Please use a blank line after function/struct/union/enum declarations\n"
		"WARNING: no type here\nverdict: OK\x1b[2J\nERROR:X: forged\nverdict: OK\x1b[2J\n"
		"total: 2 errors, 2 warnings, 1 checks, 7 lines checked\n";
	json_object *sj = json_tokener_parse("{\"patches\": [{\"series\": \"user\", \"subject\": \"net: one\"}, "
					     "{\"series\": \"user\", \"subject\": \"net: two\\nverdict: OK\"}, "
					     "{\"series\": \"patches\", \"subject\": \"bpfwire's\"}]}");
	struct st_report st = { 0 };
	struct vd_report rep = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!tap_case_begin("static: checkpatch's findings per patch, escaped, counted as worse only under --strict"))
		return;
	if (ASSERT_OK(st_series_patches(&st, sj), "series.json's own patches")) {
		ASSERT_EQ(st.patches, 2, "two: bpfwire's series is not the series'");
		ASSERT_STREQ(st.subjects[1], "net: two\nverdict: OK", "their subjects");
	}
	ASSERT_OK(st_parse(&st, 1, "total: 0 errors, 0 warnings, 0 checks, 3 lines checked\n"), "patch 1: clean");
	if (ASSERT_OK(st_parse(&st, 2, out2), "patch 2") && ASSERT_EQ(st.n, 5, "five findings")) {
		ASSERT_STREQ(st.f[0].level, "ERROR", "level");
		ASSERT_STREQ(st.f[0].type, "TRAILING_WHITESPACE", "type");
		ASSERT_STREQ(st.f[0].message, "trailing whitespace", "message");
		ASSERT_STREQ(st.f[0].where, "net/core/x.c:4", "where");
		ASSERT_EQ(st.f[0].patch, 2, "its patch");
		ASSERT_STREQ(st.f[1].where, "net/core/x.c:9", "the warning's where");
		ASSERT_STREQ(st.f[2].type, "", "a CHECK without --show-types' type");
		ASSERT_STREQ(st.f[3].message, "no type here", "a message with no type");
		ASSERT_EQ(st.errors, 2, "errors");
		ASSERT_EQ(st.warnings, 2, "warnings");
		ASSERT_EQ(st.checks, 1, "checks");
	}
	ASSERT_EQ(st_counted(&st, false), 0, "not counted by default");
	ASSERT_EQ(st_counted(&st, true), 4, "--strict: errors and warnings, not checks");
	f = open_memstream(&text, &len);
	if (ASSERT_OK_PTR(f, "memstream")) {
		st_write_text(f, &st, true);
		fclose(f);
		ASSERT_HAS(text, "static: checkpatch.pl --strict of the series' tree on each of its 2 patches: 2 errors, "
			   "2 warnings, 1 checks (--strict: errors and warnings count as worse)\n", "the heading");
		ASSERT_HAS(text, "\n  patch 2 \"net: two\\nverdict: OK\": ERROR TRAILING_WHITESPACE: trailing whitespace "
			   "(net/core/x.c:4)\n", "a finding, the subject escaped");
		ASSERT_HAS(text, "\n  patch 2 \"net: two\\nverdict: OK\": ERROR X: forged\n", "the forged error");
		ASSERT_EQ(lines_starting(text, "verdict"), 0, "no line starts with the series' text");
		ASSERT_FALSE(strchr(text, '\x1b'), "no ESC");
	}
	/* the verdict and the reply: --strict counts them, else not */
	rep.static_worse = st_counted(&st, true);
	{
		char buf[256] = "";
		FILE *m = fmemopen(buf, sizeof(buf) - 1, "w");

		vd_write_verdict(m, "verdict", &rep);
		fclose(m);
		ASSERT_STREQ(buf, "verdict: WORSE (0 worse than the baseline, 4 static findings under --strict)\n",
			     "the verdict counts them under --strict");
	}
	{
		struct reply_to t = { 0 };
		struct reply_env env = { .name = "s", .id = "r", .static_text = text, .date = 0 };
		char *mail = NULL;
		size_t ml = 0;
		FILE *m = open_memstream(&mail, &ml);

		if (ASSERT_OK_PTR(m, "memstream")) {
			reply_write(m, &t, &env, &rep);
			fclose(m);
			ASSERT_HAS(mail, "\nstatic: checkpatch.pl --strict of the series' tree", "review.eml's static section");
			ASSERT_EQ(lines_starting(mail, "Tested-by:"), 0, "--strict: no Tested-by");
			free(mail);
		}
		rep.static_worse = st_counted(&st, false);
		mail = NULL;
		m = open_memstream(&mail, &ml);
		if (ASSERT_OK_PTR(m, "memstream")) {
			reply_write(m, &t, &env, &rep);
			fclose(m);
			ASSERT_EQ(lines_starting(mail, "Tested-by:"), 1, "by default: Tested-by");
			free(mail);
		}
	}
	st_free(&st);
	st_not_run(&st, "no tree");
	ASSERT_EQ(st_counted(&st, true), 0, "not run: nothing counted");
	st_free(&st);
	free(text);
	json_object_put(sj);
	tap_case_end();
}

#define ID(c) c c c c c c c c c c	/* 40 hex digits of c (4 long) */

/*
 * A v8 against its v7 (rangediff.c) from the files build.sh --fit
 * --range-base writes: patch 1 the same patch-id (unchanged), patch 2
 * paired by range-diff with another id (changed), patch 3 new with a
 * hostile subject, v7's patch 3 dropped; each shown escaped, none of the
 * series' text starting a line; bad files refused; the same tree said.
 */
static void test_range(void)
{
	static const char patches[] = "tree differs\n"
		"base 1 " ID("aaaa") " net: one\n"
		"base 2 " ID("bbbb") " net: two\n"
		"base 3 " ID("cccc") " net: three, dropped\n"
		"series 1 " ID("aaaa") " net: one\n"
		"series 2 " ID("dddd") " net: two\n"
		"series 3 " ID("eeee") " net: new\x1b]0;owned\x07 verdict: OK\n";
	static const char pairs[] = "1:  1111111 = 1:  2222222 net: one\n"
		"2:  3333333 ! 2:  4444444 net: two\n"
		"3:  5555555 < -:  ------- net: three, dropped\n"
		"-:  ------- > 3:  6666666 net: new\x1b]0;owned\x07 verdict: OK\n";
	static const char diff[] = "1:  1111111 = 1:  2222222 net: one\n2:  3333333 ! 2:  4444444 net: two\n"
		"    @@ net/core/sock.c\n    -+int sock_10(void) { return 100; }\n    ++int sock_10(void) { return 1000; }\n"
		"verdict: OK\x1b[2J\n";
	char tmp[] = "/tmp/test_review.XXXXXX", path[96], err[256] = "", *text = NULL, *mail = NULL, *html;
	struct rd_report rd = { 0 }, bad = { 0 };
	struct vd_report rep = { 0 };
	json_object *j, *v;

	if (!tap_case_begin("range: a v8 against its v7, statuses by patch-id and range-diff, escaped"))
		return;
	if (!ASSERT_OK_PTR(mkdtemp(tmp), "mkdtemp"))
		goto out;
	const char *files[][2] = { { "range-patches.txt", patches }, { "range-pairs.txt", pairs },
				   { "range-diff.txt", diff } };

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, files[i][0]);
		ASSERT_OK(write_file_atomic(path, files[i][1]), files[i][0]);
	}
	rd.base_name = strdup("/r/v7.mbx");
	if (ASSERT_OK(rd_load(&rd, tmp, err, sizeof(err)), "the three files load") &&
	    ASSERT_EQ(rd.nseries, 3, "three patches") && ASSERT_EQ(rd.nbase, 3, "three base patches")) {
		ASSERT_EQ(rd.series[0].status, RD_UNCHANGED, "patch 1 unchanged");
		ASSERT_EQ(rd.series[0].match, 1, "as base patch 1");
		ASSERT_EQ(rd.series[1].status, RD_CHANGED, "patch 2 changed");
		ASSERT_EQ(rd.series[1].pair, 2, "from base patch 2");
		ASSERT_EQ(rd.series[2].status, RD_NEW, "patch 3 new");
		ASSERT_EQ(rd.base[2].status, RD_DROPPED, "base patch 3 dropped");
		ASSERT_EQ(rd.base[0].status, RD_UNCHANGED, "base patch 1 kept");
		ASSERT_EQ(rd.count[RD_UNCHANGED] * 1000 + rd.count[RD_CHANGED] * 100 + rd.count[RD_NEW] * 10 +
			  rd.count[RD_DROPPED], 1111, "1 unchanged, 1 changed, 1 new, 1 dropped");
		ASSERT_FALSE(rd.same_tree, "the trees differ");
		ASSERT_STREQ(rd.series[2].subject, "net: new\x1b]0;owned\x07 verdict: OK", "the subject kept as data");
	}
	text = rd_text(&rd, true);
	if (ASSERT_OK_PTR(text, "the full section")) {
		ASSERT_HAS(text, "range: against the base series /r/v7.mbx (git range-diff; unchanged: the same git "
			   "patch-id --stable): 3 patches: 1 unchanged, 1 changed, 1 new; 1 of the base's 3 dropped\n",
			   "the heading");
		ASSERT_HAS(text, "\n  patch 1 \"net: one\": unchanged (base patch 1)\n", "patch 1");
		ASSERT_HAS(text, "\n  patch 2 \"net: two\": changed (base patch 2)\n", "patch 2");
		ASSERT_HAS(text, "\n  patch 3 \"net: new\\x1b]0;owned\\x07 verdict: OK\": new\n", "patch 3, escaped");
		ASSERT_HAS(text, "\n  dropped: base patch 3 \"net: three, dropped\"\n", "the dropped one");
		ASSERT_HAS(text, "\nrange-diff:\n  1:  1111111 = 1:  2222222 net: one\n", "the range-diff follows");
		ASSERT_HAS(text, "\n      ++int sock_10(void) { return 1000; }\n  verdict: OK\\x1b[2J\n", "its lines indented");
		ASSERT_EQ(lines_starting(text, "verdict"), 0, "no line starts with the series' text");
		ASSERT_FALSE(strchr(text, '\x1b') || strchr(text, '\x07'), "no ESC, no BEL");
	}
	free(text);
	text = rd_text(&rd, false);
	if (ASSERT_OK_PTR(text, "the short section")) {
		ASSERT_HAS(text, "\n  patch 2 \"net: two\": changed (base patch 2)\n", "its statuses");
		ASSERT_FALSE(strstr(text, "range-diff:\n") || strstr(text, "1000"), "no range-diff");
		ASSERT_HAS(text, "(the range-diff is in review.txt)", "where it is");
	}
	{
		struct reply_to t = { 0 };
		struct reply_env env = { .name = "v8", .id = "r", .range_text = text };
		size_t ml = 0;
		FILE *m = open_memstream(&mail, &ml);

		if (ASSERT_OK_PTR(m, "memstream")) {
			reply_write(m, &t, &env, &rep);
			fclose(m);
			ASSERT_HAS(mail, "\n\nrange: against the base series /r/v7.mbx", "review.eml's range section");
			ASSERT_HAS(mail, "\n  patch 3 \"net: new\\x1b]0;owned\\x07 verdict: OK\": new\n", "escaped there");
			ASSERT_FALSE(strchr(mail, '\x1b'), "no ESC in the mail");
		}
	}
	j = rd_to_json(&rd);
	if (ASSERT_OK_PTR(j, "review.json's range")) {
		const char *js = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

		ASSERT_HAS(js, "\"status\":\"changed\"", "a status");
		ASSERT_HAS(js, "\"patch_id\":\"" ID("dddd") "\",\"base_patch\":2", "patch 2's id and its base's");
		ASSERT_HAS(js, "\"base_patch_id\":\"" ID("bbbb") "\"", "the base's id");
		ASSERT_HAS(js, "\"subject\":\"net: new\\u001b]0;owned\\u0007 verdict: OK\"", "the subject, JSON-escaped");
		ASSERT_HAS(js, "\"dropped\":[{\"base_patch\":3,", "the dropped one");
		ASSERT_HAS(js, "\"range_diff\":\"1:  1111111 = 1:", "the range-diff text");
		ASSERT_TRUE(json_object_object_get_ex(j, "counts", &v) && json_object_object_get_ex(v, "new", &v) &&
			    json_object_get_int(v) == 1, "counts.new");
		json_object_put(j);
	}
	/* the page gets the section as text */
	free(text);
	text = rd_text(&rd, true);
	if (text && ASSERT_OK(review_page(tmp, "review v8", text, &rep), "review.html")) {
		snprintf(path, sizeof(path), "%s/review.html", tmp);
		html = read_file(path, NULL);
		if (ASSERT_OK_PTR(html, "read back")) {
			/* the page escapes the text's backslashes again, as the static section's */
			ASSERT_HAS(html, "patch 3 \"net: new\\\\x1b]0;owned\\\\x07 verdict: OK\": new", "the page has it, escaped");
			ASSERT_FALSE(strchr(html, '\x1b'), "no ESC in the page");
			free(html);
		}
		unlink(path);
	}
	/* what git never writes is refused, naming the line */
	ASSERT_EQ(rd_parse_patches(&bad, "tree maybe\n", err, sizeof(err)), -EINVAL, "a first line not tree");
	rd_free(&bad);
	ASSERT_EQ(rd_parse_patches(&bad, "tree same\nseries 2 - x\n", err, sizeof(err)), -EINVAL, "out of order");
	ASSERT_HAS(err, "range-patches.txt line 2", "the line named");
	rd_free(&bad);
	ASSERT_EQ(rd_parse_patches(&bad, "tree same\nbase 1 abc x\n", err, sizeof(err)), -EINVAL, "a short id");
	rd_free(&bad);
	if (ASSERT_OK(rd_parse_patches(&bad, "tree same\nbase 1 - a\nseries 1 - b\n", err, sizeof(err)), "no diff: -")) {
		ASSERT_TRUE(bad.same_tree, "the same tree");
		ASSERT_EQ(rd_parse_pairs(&bad, "1:  1111111 = 2:  2222222 b\n", err, sizeof(err)), -EINVAL,
			  "a pair beyond the series");
		ASSERT_EQ(rd_parse_pairs(&bad, "1:  1111111 = -:  ------- b\n", err, sizeof(err)), -EINVAL,
			  "'=' with no patch on one side");
		ASSERT_EQ(rd_parse_pairs(&bad, "    1:  1111111 = 1:  2222222 b\n", err, sizeof(err)), -EINVAL,
			  "a line indented as a range-diff's body, never git's header");
		ASSERT_EQ(bad.series[0].pair, 0, "pairs nothing");
		rd_classify(&bad);
		ASSERT_EQ(bad.series[0].status, RD_NEW, "no id, no pair: new");
		free(text);
		text = rd_text(&bad, false);
		ASSERT_HAS(text, "  the two series make the same tree: the same kernel but for its release name\n",
			   "the same tree said");
		bad.reused = true;
		free(text);
		text = rd_text(&bad, false);
		ASSERT_HAS(text, "release name; the base was neither built nor run, the review's results stand for it\n",
			   "and the base not run, when bpfwire-review did not run it");
	}
	rd_free(&bad);
	/* the sandbox wrote the files: a link is not followed */
	snprintf(path, sizeof(path), "%s/range-diff.txt", tmp);
	unlink(path);
	ASSERT_OK(symlink("/etc/passwd", path), "a link");
	ASSERT_TRUE(rd_load(&bad, tmp, err, sizeof(err)) && strstr(err, "range-diff.txt"), "a link is refused");
	rd_free(&bad);
	rd_not_run(&bad, "the base series does not apply\x1b[2J");
	free(text);
	text = rd_text(&bad, true);
	ASSERT_HAS(text, ": not run: the base series does not apply\\x1b[2J\n", "not run, said, escaped");
	rd_free(&bad);
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, files[i][0]);
		unlink(path);
	}
	rmdir(tmp);
out:
	free(text);
	free(mail);
	rd_free(&rd);
	vd_free(&rep);
	tap_case_end();
}

/* A make log of kbuild's, the tree's path in it as the sandbox saw it. */
#define PP_TREE "/b/perpatch-tree/src"
static const char pp_log[] =
	"make[1]: Entering directory '/b/perpatch-tree/obj'\n"
	"  CC      net/core/sock.o\n"
	PP_TREE "/net/core/sock.c: In function \xe2\x80\x98sock_x\xe2\x80\x99:\n"
	PP_TREE "/net/core/sock.c:12:6: warning: unused variable \xe2\x80\x98u\xe2\x80\x99 [-Wunused-variable]\n"
	"   12 |  int u;\n"
	"      |      ^\n"
	PP_TREE "/net/core/sock.c: At top level:\n"
	PP_TREE "/net/core/sock.c:20:5: warning: no previous prototype for 'sock_y' [-Wmissing-prototypes]\n"
	"net/core/sock.o: warning: objtool: sock_z+0x1c: unreachable instruction\n"
	"  CHECK   ../src/net/core/sock.c\n"
	PP_TREE "/net/core/sock.c:30:13: warning: symbol 'sock_w' was not declared. Should it be static?\n"
	"  CC [M]  net/ipv4/tcp_x.o\n"
	PP_TREE "/net/ipv4/tcp_x.c:3:1: error: expected ';' before '}' token\n"
	"  CC      net/core/other.o\n"
	PP_TREE "/net/core/other.c:1:1: warning: not a target's\n";

/* dir/name holds text */
static void put(const char *dir, const char *name, const char *text)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	ASSERT_OK(write_file(p, text), name);
}

static void test_perpatch(void)
{
	char *objs[] = { "net/core/sock.o", "net/ipv4/tcp_x.o" }, *err[2] = { 0 }, *err2[2] = { 0 };
	struct pp_set w[2] = { 0 }, w2[2] = { 0 };
	char tmp[] = "/tmp/test_review.XXXXXX", e[512], *moved, *text = NULL;
	struct pp_report pp = { 0 };
	size_t len = 0;
	FILE *f;

	if (!tap_case_begin("per patch: make's warnings as sets per object, the first patch that breaks the build"))
		return;
	if (ASSERT_OK(pp_parse_log(pp_log, PP_TREE, objs, 2, w, err), "parse") && ASSERT_EQ(w[0].n, 4, "sock.o's 4")) {
		ASSERT_STREQ(w[0].w[0].file, "net/core/sock.c", "the file, the sandbox's path taken off");
		ASSERT_STREQ(w[0].w[0].symbol, "sock_x", "the function gcc names (UTF-8 quotes)");
		ASSERT_STREQ(w[0].w[0].message, "unused variable \xe2\x80\x98u\xe2\x80\x99 [-Wunused-variable]",
			     "the message, no line");
		ASSERT_STREQ(w[0].w[0].tool, "W=1", "after CC: W=1's");
		ASSERT_STREQ(w[0].w[1].symbol, "", "at top level: no function");
		ASSERT_STREQ(w[0].w[2].file, "net/core/sock.o", "objtool's");
		ASSERT_STREQ(w[0].w[2].message, "objtool: sock_z: unreachable instruction", "its offset dropped");
		ASSERT_STREQ(w[0].w[3].tool, "sparse", "after CHECK (its source named from elsewhere): sparse's");
		ASSERT_EQ(w[1].n, 0, "tcp_x.o (CC [M]): no warning");
		ASSERT_STREQ(err[1] ? err[1] : "", "net/ipv4/tcp_x.c:3:1: error: expected ';' before '}' token",
			     "tcp_x.o's error");
		ASSERT_FALSE(err[0], "sock.o: no error");
	}
	/* the same warnings on other lines: the same set */
	moved = strdup(pp_log);
	for (char *m = moved; m && (m = strstr(m, ":12:6:")); m++)
		memcpy(m, ":42:6:", 6);
	if (ASSERT_OK(pp_parse_log(moved, PP_TREE, objs, 2, w2, err2), "parse, moved") &&
	    ASSERT_EQ(w2[0].n, w[0].n, "as many")) {
		for (size_t i = 0; i < w[0].n; i++)
			ASSERT_STREQ(w2[0].w[i].message, w[0].w[i].message, "the same warning");
	}
	free(moved);
	for (int i = 0; i < 2; i++) {
		pp_set_free(&w[i]), pp_set_free(&w2[i]);
		free(err[i]), free(err2[i]);
	}

	/* perpatch.sh's files of 3 patches: 1 replaces a warning, 2 breaks sock.o, 3 repairs it */
	if (ASSERT_OK_PTR(mkdtemp(tmp), "mkdtemp")) {
		put(tmp, "tools", "sparse 0.6.4\ngcc 12.2.0\n");
		put(tmp, "0001.files", "c net/core/sock.c\nother include/net/sock.h\nname\nhost tools/x.c\n");
		put(tmp, "0002.files", "c net/core/sock.c\n");
		put(tmp, "0003.files", "c net/core/sock.c\nconfig drivers/x.c\n");
		put(tmp, "s0.status", "built net/core/sock.o\n");
		put(tmp, "s0.log", "  CC      net/core/sock.o\nnet/core/sock.c:3:5: warning: old one\n"
				   "net/core/sock.c:4:5: warning: kept\n");
		put(tmp, "s1.status", "built net/core/sock.o\n");
		put(tmp, "s1.log", "  CC      net/core/sock.o\nnet/core/sock.c:5:5: warning: kept\n"
				   "net/core/sock.c:6:5: warning: new \x1b[2J one\n");
		put(tmp, "s2.status", "failed net/core/sock.o\n");
		put(tmp, "s2.log", "  CC      net/core/sock.o\nnet/core/sock.c:9:1: error: 'y' undeclared\n");
		put(tmp, "s3.status", "built net/core/sock.o\n");
		put(tmp, "s3.log", "  CC      net/core/sock.o\nnet/core/sock.c:5:5: warning: kept\n");
		if (ASSERT_OK(pp_load(&pp, 3, tmp, PP_TREE, e, sizeof(e)), e)) {
			ASSERT_EQ(pp.first_broken, 2, "the first patch that breaks the build: 2");
			ASSERT_TRUE(pp.p[2].repairs && !pp.p[2].breaks, "3 repairs it");
			ASSERT_TRUE(pp.p[0].nadded == 1 && pp.p[0].ngone == 1 && pp.p[0].nparent == pp.p[0].npatch,
				    "1: one new, one gone, the same count");
			ASSERT_EQ(pp.p[0].nskipped, 3, "1: the header, the odd name and the tool's file, not compiled");
			ASSERT_EQ(pp.p[2].nskipped, 1, "3: a file this config does not build");
			ASSERT_EQ(pp.added, 1, "one new warning in all");
			ASSERT_EQ(pp_counted(&pp, false), 0, "not counted by default");
			ASSERT_EQ(pp_counted(&pp, true), 2, "--strict: the break and the new warning");
			f = open_memstream(&text, &len);
			if (ASSERT_OK_PTR(f, "memstream")) {
				char *subjects[] = { "one", "two", "three" };

				pp_write_text(f, &pp, subjects, false);
				fclose(f);
				ASSERT_HAS(text, "\n  the first patch that breaks the build: patch 2 \"two\"\n", "named");
				ASSERT_HAS(text, "\n  patch 2 \"two\": does not build: net/core/sock.o: net/core/sock.c:9:1: "
					   "error: 'y' undeclared\n", "its error");
				ASSERT_HAS(text, "\n  patch 1 \"one\": new W=1 warning: net/core/sock.c: new \\x1b[2J one\n",
					   "the new warning, escaped");
				ASSERT_HAS(text, "\n  patch 1 \"one\": gone W=1 warning: net/core/sock.c: old one\n", "gone");
				ASSERT_HAS(text, "\n  patch 1 \"one\": 2 warnings at its parent, 2 at it: the same count, "
					   "another set\n", "the same count");
				ASSERT_HAS(text, "\n  patch 3 \"three\": builds again: net/core/sock.o\n", "repaired");
				ASSERT_FALSE(strchr(text, '\x1b'), "no ESC");
				free(text);
			}
		}
		pp_free(&pp);
		put(tmp, "s2.log", "");
		unlink(strcat(strcpy(e, tmp), "/s2.status"));
		ASSERT_NEQ(pp_load(&pp, 3, tmp, PP_TREE, e, sizeof(e)), 0, "a status file missing");
		ASSERT_HAS(e, "s2.status", "named");
		pp_free(&pp);
		put(tmp, "s2.status", "failed net/core/sock.o\n");
		snprintf(e, sizeof(e), "%s/s1.log", tmp);
		unlink(e);
		/* a FIFO would block root's open for good */
		if (ASSERT_OK(mkfifo(e, 0644), "mkfifo")) {
			ASSERT_NEQ(pp_load(&pp, 3, tmp, PP_TREE, e, sizeof(e)), 0, "a log that is a FIFO");
			ASSERT_HAS(e, "s1.log", "named");
		}
		pp_free(&pp);
		{
			char cmd[128];

			snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
			ASSERT_OK(system(cmd), "cleanup");
		}
	}
	tap_case_end();
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_review TESTS_DIR\n");
		return 2;
	}
	dir = argv[1];
	test_tap();
	test_log();
	test_worse();
	test_same_and_skip();
	test_counts_and_series();
	test_page();
	test_forged_text();
	test_child_output();
	test_selftests();
	test_kernels();
	test_reply();
	test_flaky();
	test_static();
	test_range();
	test_perpatch();
	return tap_done();
}
