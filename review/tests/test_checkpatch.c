// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-compare, checkpatch's output as the static section (static.c).
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

/*
 * checkpatch's output as review/checkpatch.sh keeps it, parsed: each
 * ERROR, WARNING and CHECK with its type, message and file:line, the
 * counts; series.json's own patches; the section escaped (a forged
 * "verdict: OK" and ESC in a message); what --strict counts, and the
 * verdict and Tested-by of review.eml with and without it.
 */
void test_static(void)
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
