// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-compare, what the review writes keeps guest text as text: review.html,
 * review.txt from forged logs, a child's output.
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

void test_page(void)
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

/*
 * review.txt and the terminal (vd_write_review) of a crafted test log
 * (forged.testlog.json): kernel-tests' "#     found     " lines that read
 * "verdict: OK" or carry escapes, a test named "evil\nverdict: OK", and a
 * series path with a newline. None starts a line; the one verdict is real.
 */
void test_forged_text(void)
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
void test_child_output(void)
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
