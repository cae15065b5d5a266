// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-compare, a v8 against its v7 (rangediff.c): the range files read as data.
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

#define ID(c) c c c c c c c c c c	/* 40 hex digits of c (4 long) */

/*
 * A v8 against its v7 (rangediff.c) from the files build.sh --fit
 * --range-base writes: patch 1 the same patch-id (unchanged), patch 2
 * paired by range-diff with another id (changed), patch 3 new with a
 * hostile subject, v7's patch 3 dropped; each shown escaped, none of the
 * series' text starting a line; bad files refused; the same tree said.
 */
void test_range(void)
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
