// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-reach: what a series touches (series.c, on crafted patches) and
 * which tests it reaches (reach.c) with the repository's review/reach.map
 * and scenarios' `needs`: a ksock-only change, a netpoll-only one, a path
 * nothing maps, --all, a defined kfunc nothing maps, text only, a series
 * that cannot be read whole; the map's bad lines named PATH:LINE.
 *
 *   test_reach SOURCE_ROOT
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "reach.h"
#include "hunks.h"
#include "series.h"
#include "tap.h"

static char scn_dir[4096], map_path[4096];
static struct rc_map map;

static bool has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static const char one_ksock[] =
	"From 0 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@example.org>\n"
	"Subject: [PATCH] bpf: ksock: check data\n"
	"\n"
	"---\n"
	" net/core/bpf_ksock.c | 2 +-\n"
	"\n"
	"diff --git a/net/core/bpf_ksock.c b/net/core/bpf_ksock.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/net/core/bpf_ksock.c\n"
	"+++ b/net/core/bpf_ksock.c\n"
	"@@ -580,3 +580,3 @@ __bpf_kfunc int bpf_ksock_send(struct bpf_ksock *ks, const void *data,\n"
	" \tint err;\n"
	"-\tif (!ks)\n"
	"+\tif (!ks || !data)\n"
	" \t\treturn -EINVAL;\n";

static const char one_netpoll[] =
	"From 0 Mon Sep 17 00:00:00 2001\n"
	"Subject: [PATCH] bpf: netpoll: size\n"
	"\n"
	"diff --git a/net/core/bpf_netpoll.c b/net/core/bpf_netpoll.c\n"
	"--- a/net/core/bpf_netpoll.c\r\n"
	"+++ b/net/core/bpf_netpoll.c\r\n"
	"@@ -290,1 +290,1 @@ __bpf_kfunc int bpf_netpoll_send_udp(struct bpf_netpoll *bnp,\n"
	"-\tif (len > 1460)\n"
	"+\tif (len > 1472)\n";

/* Paths of every header kind, a wrapped kfunc, a registered one, hunk contexts. */
static void test_touches(void)
{
	static const char text[] =
		"From 0 Mon Sep 17 00:00:00 2001\n"
		"Subject: [PATCH 1/2] many\n"
		"\n"
		"--- a/not/a/header/in/the/message\n"	/* only adds: a path is never dropped */
		"diff --git a/net/core/bpf_ksock.c b/net/core/bpf_ksock.c\n"
		"new file mode 100644\n"
		"--- /dev/null\n"
		"+++ b/net/core/bpf_ksock.c\t\n"
		"@@ -0,0 +1,9 @@\n"
		"+__bpf_kfunc_start_defs();\n"
		"+__bpf_kfunc struct bpf_ksock *\n"
		"+bpf_ksock_create(struct bpf_ksock_create_opts *opts, u32 opts__sz)\n"
		"+__bpf_kfunc int bpf_ksock_bind(struct bpf_ksock *ks,\n"
		"+BTF_ID_FLAGS(func, bpf_ksock_connect, KF_SLEEPABLE)\n"
		"diff --git a/old/name.c b/new/name.c\n"
		"similarity index 90%\n"
		"rename from old/name.c\n"
		"rename to new/name.c\n"
		"diff --git \"a/odd\\tname\" \"b/odd\\tname\"\n"
		"--- \"a/odd\\tname\"\n"
		"@@ -10,3 +10,4 @@ static int helper(int x)\n"
		"+\tx++;\n"
		"@@ -20,3 +20,4 @@ BTF_ID(struct, task_struct)\n"
		"-__bpf_kfunc void bpf_ksock_release(struct bpf_ksock *ks)\n";
	struct series_touch t = { 0 };

	if (!tap_case_begin("series: paths of every diff header, kfuncs defined or registered, changed functions"))
		return;
	ASSERT_OK(series_touches_text(text, sizeof(text) - 1, "many", &t), "read");
	ASSERT_STREQ(t.unread, "", "read whole");
	ASSERT_TRUE(has(t.files, t.nfiles, "net/core/bpf_ksock.c"), "diff --git, +++ with a tab");
	ASSERT_TRUE(has(t.files, t.nfiles, "old/name.c") && has(t.files, t.nfiles, "new/name.c"), "a rename: both");
	ASSERT_TRUE(has(t.files, t.nfiles, "\"a/odd\\tname\""), "a quoted path kept quoted");
	ASSERT_TRUE(has(t.files, t.nfiles, "\"a/odd\\tname\" \"b/odd\\tname\""), "a quoted diff --git line kept whole");
	ASSERT_TRUE(has(t.files, t.nfiles, "not/a/header/in/the/message"), "a --- line anywhere counts");
	ASSERT_FALSE(has(t.files, t.nfiles, "/dev/null") || has(t.files, t.nfiles, "dev/null"), "no /dev/null");
	ASSERT_EQ(t.nfiles, 6, "paths, once each");
	ASSERT_TRUE(has(t.kfuncs, t.nkfuncs, "bpf_ksock_create"), "a wrapped __bpf_kfunc");
	ASSERT_TRUE(has(t.kfuncs, t.nkfuncs, "bpf_ksock_bind"), "__bpf_kfunc on one line");
	ASSERT_TRUE(has(t.kfuncs, t.nkfuncs, "bpf_ksock_connect"), "BTF_ID_FLAGS(func, ...)");
	ASSERT_TRUE(has(t.kfuncs, t.nkfuncs, "bpf_ksock_release"), "a removed kfunc");
	ASSERT_FALSE(has(t.kfuncs, t.nkfuncs, "__bpf_kfunc_start_defs"), "not __bpf_kfunc_start_defs");
	ASSERT_EQ(t.nkfuncs, 4, "kfuncs");
	ASSERT_TRUE(has(t.funcs, t.nfuncs, "helper"), "a hunk's function");
	series_touch_free(&t);

	ASSERT_OK(series_touches_text(one_netpoll, sizeof(one_netpoll) - 1, "np", &t), "CRLF");
	ASSERT_TRUE(t.nfiles == 1 && has(t.files, t.nfiles, "net/core/bpf_netpoll.c"), "CRLF: one path, no \\r");
	ASSERT_TRUE(has(t.kfuncs, t.nkfuncs, "bpf_netpoll_send_udp"), "a kfunc's body changed (hunk context)");
	series_touch_free(&t);
	tap_case_end();
}

/* What cannot be read whole says so. */
static void test_unread(void)
{
	static const char b64[] = "From 0 x\nSubject: y\nContent-Transfer-Encoding: base64\n\nZGlmZg==\n";
	static const char nul[] = "From 0 x\nSubject: y\n\n+++ b/net/core/bpf_ksock.c\n\0\n+++ b/net/socket.c\n";
	char dir[] = "/tmp/test_reach.XXXXXX", p[4200], err[256];
	struct series_touch t = { 0 };

	if (!tap_case_begin("series: an encoded message, a NUL byte, a series entry with '/', no diff: said"))
		return;
	series_touches_text(b64, sizeof(b64) - 1, "b64.mbx", &t);
	ASSERT_HAS(t.unread, "b64.mbx: an encoded message", "base64");
	series_touch_free(&t);
	series_touches_text(nul, sizeof(nul) - 1, "nul.mbx", &t);
	ASSERT_STREQ(t.unread, "nul.mbx: a NUL byte in it", "NUL");
	series_touch_free(&t);
	if (ASSERT_OK_PTR(mkdtemp(dir), "mkdtemp")) {
		snprintf(p, sizeof(p), "%s/series", dir);
		write_file(p, "# c\n0001.patch\n../elsewhere.patch\n");
		snprintf(p, sizeof(p), "%s/0001.patch", dir);
		write_file(p, one_ksock);
		ASSERT_OK(series_touches(dir, &t, err, sizeof(err)), "a directory");
		ASSERT_TRUE(has(t.files, t.nfiles, "net/core/bpf_ksock.c"), "its patch read");
		ASSERT_HAS(t.unread, "../elsewhere.patch: a series entry with a '/' is not read here", "'/' said");
		series_touch_free(&t);
		snprintf(p, sizeof(p), "%s/series", dir);
		write_file(p, "0001.patch\n");
		snprintf(p, sizeof(p), "%s/0001.patch", dir);
		write_file(p, "From 0 x\nSubject: a cover letter\n\nno diff\n");
		ASSERT_OK(series_touches(dir, &t, err, sizeof(err)), "no diff");
		ASSERT_HAS(t.unread, "no diff found in it", "no diff said");
		series_touch_free(&t);
		unlink(p);
		snprintf(p, sizeof(p), "%s/series", dir);
		unlink(p);
		rmdir(dir);
	}
	tap_case_end();
}

/* The tests a review considers, as the source tree lists them, and two that are no scenario. */
static bool candidates(char ***names, int *n)
{
	char **v;

	if (rc_candidates(scn_dir, NULL, true, names, n))
		return false;
	v = realloc(*names, (*n + 3) * sizeof(*v));
	if (!v)
		return false;
	v[(*n)++] = strdup("page-browser");
	v[(*n)++] = strdup("unknown-test");
	*names = v;
	return true;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool select_text(const char *text, const char *forced, struct rc_sel *sel)
{
	struct series_touch t = { 0 };
	char **names = NULL;
	int n = 0, r;

	if (!ASSERT_TRUE(candidates(&names, &n), "candidates"))
		return false;
	ASSERT_OK(series_touches_text(text, strlen(text), "s.mbx", &t), "touches");
	r = rc_select(&map, &t, forced, scn_dir, names, n, sel);
	series_touch_free(&t);
	free_names(names, n);
	return ASSERT_OK(r, "select");
}

static bool runs(const struct rc_sel *sel, const char *name)
{
	const struct rc_test *t = rc_find(sel, name);

	return t && t->run;
}

static bool skipped(const struct rc_sel *sel, const char *name)
{
	const struct rc_test *t = rc_find(sel, name);

	return t && !t->run;
}

static void test_ksock_only(void)
{
	struct rc_sel sel;
	const struct rc_test *t;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!tap_case_begin("reach: net/core/bpf_ksock.c alone: the ksock scenarios and kernel-suite's ksock family, no netpoll"))
		return;
	if (!select_text(one_ksock, NULL, &sel))
		goto out;
	ASSERT_FALSE(sel.all, "not every test");
	ASSERT_TRUE(rc_reaches(&sel, "ksock"), "kernel-suite's ksock family reached");
	ASSERT_FALSE(rc_reaches(&sel, "netpoll"), "its netpoll family not");
	ASSERT_TRUE(runs(&sel, "ipv4-ksock") && runs(&sel, "bind-source") && runs(&sel, "quota-gone"),
		    "the ksock scenarios run");
	ASSERT_TRUE(runs(&sel, "agent-killed"), "a ksock+netpoll scenario runs");
	ASSERT_TRUE(skipped(&sel, "netpoll-ipv4") && skipped(&sel, "netpoll-ipv6"), "the netpoll scenarios do not");
	ASSERT_TRUE(skipped(&sel, "ringbuf-ipv4"), "`needs none` does not");
	t = rc_find(&sel, "netpoll-ipv4");
	if (ASSERT_OK_PTR(t, "netpoll-ipv4"))
		ASSERT_STREQ(t->why, "not reached: the series touches only ksock (net/core/bpf_ksock.c, kfunc "
			     "bpf_ksock_send); it needs netpoll", "why");
	t = rc_find(&sel, "kernel-suite");
	if (ASSERT_OK_PTR(t, "kernel-suite")) {
		ASSERT_TRUE(t->run, "kernel-suite runs");
		ASSERT_STREQ(t->sees, "ksock netpoll crypto", "its families (reach.map)");
		ASSERT_HAS(t->why, "reached: ksock (it also sees netpoll, crypto, not reached", "which are reached");
	}
	ASSERT_TRUE(runs(&sel, "selftests"), "selftests see ksock");
	ASSERT_TRUE(runs(&sel, "page-browser"), "a test rule of its own");
	t = rc_find(&sel, "unknown-test");
	ASSERT_TRUE(t && t->run && strstr(t->why, "says what it sees"), "a test nothing describes runs, and says why");
	f = open_memstream(&text, &len);
	if (ASSERT_OK_PTR(f, "memstream")) {
		rc_write_text(f, &sel);
		fclose(f);
		ASSERT_HAS(text, "reach: the series touches net/core/bpf_ksock.c (ksock); kfuncs bpf_ksock_send (ksock): "
			   "it reaches ksock", "the text: what it touches");
		ASSERT_HAS(text, " not reached (--all runs every one)\n", "the text: counts");
		ASSERT_HAS(text, "\n  skip netpoll-ipv4: not reached: ", "the text: a skipped test");
		ASSERT_HAS(text, "\n  run  ipv4-ksock: reached: ksock\n", "the text: a test run");
		free(text);
	}
	{
		json_object *j = rc_to_json(&sel), *v;

		ASSERT_TRUE(json_object_object_get_ex(j, "tests", &v) && json_object_array_length(v) == sel.n,
			    "json: every test");
		json_object_put(j);
	}
	{
		char *names[] = { strdup("ipv4-ksock"), strdup("netpoll-ipv4"), strdup("kernel-suite"), strdup("x") };
		int n = 4;

		rc_keep(&sel, names, &n);
		ASSERT_EQ(n, 3, "rc_keep: the skipped one dropped");
		ASSERT_TRUE(n == 3 && !strcmp(names[1], "kernel-suite") && !strcmp(names[2], "x"), "rc_keep: in order");
		for (int i = 0; i < n; i++)
			free(names[i]);
	}
	rc_sel_free(&sel);
out:
	tap_case_end();
}

static void test_netpoll_only(void)
{
	struct rc_sel sel;
	const struct rc_test *t;

	if (!tap_case_begin("reach: net/core/bpf_netpoll.c alone: the netpoll scenarios and kernel-suite's netpoll family"))
		return;
	if (!select_text(one_netpoll, NULL, &sel))
		goto out;
	ASSERT_FALSE(sel.all, "not every test");
	ASSERT_TRUE(rc_reaches(&sel, "netpoll") && !rc_reaches(&sel, "ksock"), "netpoll only");
	ASSERT_TRUE(runs(&sel, "netpoll-ipv4") && runs(&sel, "netpoll-ipv6"), "the netpoll scenarios run");
	ASSERT_TRUE(runs(&sel, "agent-killed") && runs(&sel, "agent-guest"), "ksock+netpoll ones run");
	ASSERT_TRUE(skipped(&sel, "ipv4-ksock") && skipped(&sel, "bind-source") && skipped(&sel, "quota-gone"),
		    "the ksock-only scenarios do not");
	t = rc_find(&sel, "kernel-suite");
	ASSERT_TRUE(t && t->run && strstr(t->why, "reached: netpoll (it also sees ksock, crypto"), "kernel-suite: netpoll");
	rc_sel_free(&sel);
out:
	tap_case_end();
}

static void test_everything(void)
{
	static const char socket_c[] =
		"From 0 x\nSubject: y\n\ndiff --git a/net/core/bpf_ksock.c b/net/core/bpf_ksock.c\n"
		"diff --git a/net/socket.c b/net/socket.c\n--- a/net/socket.c\n+++ b/net/socket.c\n";
	static const char new_kfunc[] =
		"From 0 x\nSubject: y\n\n+++ b/net/core/bpf_ksock.c\n@@ -1 +1 @@\n+__bpf_kfunc int bpf_sock_peek(void *p)\n";
	static const char b64[] = "From 0 x\nSubject: y\nContent-Transfer-Encoding: base64\n\n+++ b/Documentation/x\n";
	struct rc_sel sel;
	size_t nrun = 0;

	if (!tap_case_begin("reach: a path nothing maps, --all, a kfunc nothing maps, an encoded series: every test, with why"))
		return;
	if (select_text(socket_c, NULL, &sel)) {
		ASSERT_TRUE(sel.all, "net/socket.c: every test");
		ASSERT_TRUE(sel.why_all && strstr(sel.why_all, "net/socket.c: no rule of ") &&
			    strstr(sel.why_all, "reach.map maps this path"), "the reason names the path and the map");
		for (size_t i = 0; i < sel.n; i++)
			nrun += sel.t[i].run;
		ASSERT_EQ(nrun, sel.n, "each runs");
		ASSERT_TRUE(runs(&sel, "netpoll-ipv4") && runs(&sel, "ringbuf-ipv4"), "those ksock could not reach too");
		rc_sel_free(&sel);
	}
	if (select_text(one_ksock, "--all", &sel)) {
		ASSERT_TRUE(sel.all && !strcmp(sel.why_all, "--all"), "--all");
		ASSERT_STREQ(rc_find(&sel, "ringbuf-ipv4")->why, "--all", "--all: each says so");
		ASSERT_TRUE(runs(&sel, "netpoll-ipv4") && runs(&sel, "ringbuf-ipv6"), "--all: netpoll and ringbuf run");
		rc_sel_free(&sel);
	}
	if (select_text(new_kfunc, NULL, &sel)) {
		ASSERT_TRUE(sel.all && strstr(sel.why_all, "kfunc bpf_sock_peek: no rule of "), "a new kfunc no rule maps");
		rc_sel_free(&sel);
	}
	if (select_text(b64, NULL, &sel)) {
		ASSERT_TRUE(sel.all && strstr(sel.why_all, "could not be read whole: s.mbx: an encoded message"),
			    "an encoded series");
		rc_sel_free(&sel);
	}
	tap_case_end();
}

static void test_text_only(void)
{
	static const char docs[] = "From 0 x\nSubject: y\n\n+++ b/Documentation/admin-guide/sysctl/net.rst\n";
	static const char escape_why[] =
		"From 0 x\nSubject: y\n\n+++ b/net/core/bpf_ksock.c\n+++ b/Documentation/\x1b]0;t\x07\n";
	static const char escape[] = "From 0 x\nSubject: y\n\n+++ b/net/\x1b[2Jx.c\n";
	struct rc_sel sel;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	size_t nrun = 0;

	if (!tap_case_begin("reach: text only runs the map's fallback; a path's bytes are escaped"))
		return;
	if (select_text(docs, NULL, &sel)) {
		for (size_t i = 0; i < sel.n; i++)
			nrun += sel.t[i].run;
		ASSERT_FALSE(sel.all, "not every test");
		ASSERT_EQ(nrun, 2, "two tests: the fallback and the one nothing describes");
		ASSERT_TRUE(runs(&sel, "kernel-suite") && strstr(rc_find(&sel, "kernel-suite")->why, "the fallback of"),
			    "kernel-suite, as the fallback");
		rc_sel_free(&sel);
	}
	{
		/* no fallback: every test, and why */
		static const char nofb[] = "file Documentation/* none\ntest kernel-suite ksock\n";
		struct rc_map keep = map;
		char err[256];

		if (ASSERT_OK(rc_parse("nofb.map", nofb, sizeof(nofb) - 1, &map, err, sizeof(err)), "a map without fallback")) {
			if (select_text(docs, NULL, &sel)) {
				ASSERT_TRUE(sel.all && strstr(sel.why_all, "reaches no test") &&
					    strstr(sel.why_all, "nofb.map names no fallback"), "no fallback: every test");
				rc_sel_free(&sel);
			}
			rc_map_free(&map);
		}
		map = keep;
	}
	if (select_text(escape_why, NULL, &sel)) {
		f = open_memstream(&text, &len);
		if (ASSERT_OK_PTR(f, "memstream")) {
			rc_write_text(f, &sel);
			fclose(f);
			ASSERT_FALSE(strchr(text, '\x1b'), "no raw escape in a why");
			ASSERT_HAS(text, "\n  skip netpoll-ipv4: not reached: the series touches only ksock "
				   "(net/core/bpf_ksock.c, Documentation/\\x1b]0;t\\x07); it needs netpoll\n",
				   "a skipped test's why: escaped once");
			free(text);
		}
		rc_sel_free(&sel);
	}
	if (select_text(escape, NULL, &sel)) {
		f = open_memstream(&text, &len);
		if (ASSERT_OK_PTR(f, "memstream")) {
			rc_write_text(f, &sel);
			fclose(f);
			ASSERT_FALSE(strchr(text, '\x1b'), "no raw escape");
			ASSERT_HAS(text, "net/\\x1b[2Jx.c (no rule)", "escaped");
			ASSERT_HAS(text, "): net/\\x1b[2Jx.c: no rule", "escaped once in the why");
			free(text);
		}
		rc_sel_free(&sel);
	}
	tap_case_end();
}

static void test_map(void)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "# c\n\nfile x ksock\nfil y ksock\n", "m.map:4: unknown rule: 'file', 'kfunc', 'test' or 'fallback'" },
		{ "file x\n", "m.map:1: a rule needs a GLOB and a FAMILY (e.g. 'file net/core/bpf_ksock.c ksock')" },
		{ "kfunc\n", "m.map:1: a rule needs a GLOB and a FAMILY (e.g. 'file net/core/bpf_ksock.c ksock')" },
		{ "file x Ksock\n", "m.map:1: a family is lower-case letters, digits, '-' and '_'" },
		{ "file x ksock ksock\n", "m.map:1: a word twice" },
		{ "file x ksock none\n", "m.map:1: 'all' and 'none' stand alone" },
		{ "test t all\n", "m.map:1: a test sees families, never 'all' or 'none'" },
		{ "\r\n  fallback\n", "m.map:2: 'fallback' needs the tests it runs" },
		{ "file x ksock\n\0file y z\n", "m.map: a NUL byte in it" },
	};
	struct rc_map m;
	char err[512];

	if (!tap_case_begin("reach.map: the repository's loads; each bad line named PATH:LINE"))
		return;
	ASSERT_OK(rc_load(map_path, &m, err, sizeof(err)), "review/reach.map");
	rc_map_free(&m);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		/* the NUL one: its bytes past the NUL too */
		size_t len = strlen(bad[i].text) + (strstr(bad[i].err, "NUL") ? 10 : 0);
		char name[32];

		snprintf(name, sizeof(name), "bad map %zu", i);
		err[0] = '\0';
		ASSERT_EQ(rc_parse("m.map", bad[i].text, len, &m, err, sizeof(err)), -1, name);
		ASSERT_STREQ(err, bad[i].err, name);
	}
	{
		static const char good[] = "file a/* all\nkfunc b none\ntest t x y\nfallback t u\n";

		ASSERT_OK(rc_parse("m.map", good, sizeof(good) - 1, &m, err, sizeof(err)), "every kind");
	}
	ASSERT_EQ(m.n, 4, "four rules");
	rc_map_free(&m);
	err[0] = '\0';
	ASSERT_EQ(rc_load("/nonexistent/reach.map", &m, err, sizeof(err)), -1, "missing");
	ASSERT_STREQ(err, "/nonexistent/reach.map: No such file or directory (ENOENT, -2)", "missing: said");
	tap_case_end();
}

/* rc_review of series (a text) beside base and own (texts): what runs. */
static bool review_beside(const char *series, const char *base, const char *own, struct rc_sel *sel)
{
	char path[] = "/tmp/test_reach_series.XXXXXX", err[512] = "", **names = NULL;
	struct rc_base b = { 0 };
	int n = 0, fd = mkstemp(path), r = -1;

	if (!ASSERT_TRUE(fd >= 0 && candidates(&names, &n), "series file and candidates"))
		return false;
	close(fd);
	write_file(path, series);
	b.base = strdup(base);
	b.base_len = strlen(base);
	b.own = strdup(own);
	b.own_len = strlen(own);
	snprintf(b.what, sizeof(b.what), "the base");
	r = rc_review(&map, path, &b, NULL, scn_dir, names, &n, sel, err, sizeof(err));
	ASSERT_STREQ(err, "", "no error");
	rc_base_free(&b);
	free_names(names, n);
	unlink(path);
	return ASSERT_OK(r, "rc_review");
}

/* The hunks the review's kernel and the baseline's share do not count. */
static void test_shared(void)
{
	/* one_ksock again as another version writes it: other index, other line numbers, trailing spaces */
	static const char ksock_again[] =
		"From 1 Mon Sep 17 00:00:00 2001\n"
		"From: A <a@example.org>\n"
		"Subject: [PATCH v8] bpf: ksock: check data\n"
		"\n"
		"diff --git a/net/core/bpf_ksock.c b/net/core/bpf_ksock.c\n"
		"index 3333333..4444444 100644\n"
		"--- a/net/core/bpf_ksock.c\n"
		"+++ b/net/core/bpf_ksock.c\n"
		"@@ -590,3 +590,3 @@ __bpf_kfunc int bpf_ksock_send(struct bpf_ksock *ks, const void *data,\n"
		" \tint err;\n"
		"-\tif (!ks)   \n"
		"+\tif (!ks || !data)\t\r\n"
		" \t\treturn -EINVAL;\n"
		"-- \n2.39.5\n\n";
	static const char netpoll_v8[] =
		"From 0 Mon Sep 17 00:00:00 2001\n"
		"Subject: [PATCH] bpf: netpoll: size\n"
		"\n"
		"diff --git a/net/core/bpf_netpoll.c b/net/core/bpf_netpoll.c\n"
		"--- a/net/core/bpf_netpoll.c\n"
		"+++ b/net/core/bpf_netpoll.c\n"
		"@@ -290,1 +290,1 @@ __bpf_kfunc int bpf_netpoll_send_udp(struct bpf_netpoll *bnp,\n"
		"-\tif (len > 1460)\n"
		"+\tif (len > 1480)\n";
	static const char b64[] = "From 0 x\nSubject: y\nContent-Transfer-Encoding: base64\n\nZGlmZg==\n";
	char base[2048], series[2048], *text = NULL;
	size_t len = 0;
	struct rc_sel sel;
	FILE *f;

	if (!tap_case_begin("reach: the hunks the baseline shares do not count; the ones it has alone do"))
		return;
	snprintf(base, sizeof(base), "%s%s", one_ksock, one_netpoll);
	/* the same two patches: nothing counts, the fallback runs */
	snprintf(series, sizeof(series), "%s%s", ksock_again, one_netpoll);
	if (review_beside(series, base, "", &sel)) {
		ASSERT_FALSE(sel.all, "the same hunks: not every test");
		ASSERT_EQ(sel.nreached, 0, "no family reached");
		ASSERT_TRUE(runs(&sel, "kernel-suite") && skipped(&sel, "ipv4-ksock") && skipped(&sel, "netpoll-ipv4"),
			    "only the fallback, kernel-suite, runs");
		ASSERT_STREQ(sel.shared, "2 of the series' 2 hunks are in the base too and do not count; "
			     "0 of its hunks are not in the review's kernel and count", "said");
		f = open_memstream(&text, &len);
		if (ASSERT_OK_PTR(f, "memstream")) {
			rc_write_text(f, &sel);
			fclose(f);
			ASSERT_HAS(text, "\nreach: 2 of the series' 2 hunks are in the base too", "in the text");
			free(text);
		}
		rc_sel_free(&sel);
	}
	/* a space inside a line is other code: the hunk counts */
	snprintf(series, sizeof(series), "%s%s", one_ksock, one_netpoll);
	{
		char *sp = strstr(series, "(!ks || !data)");

		if (ASSERT_OK_PTR(sp, "fixture"))
			memcpy(sp, "(!ks ||!data) ", 14);
	}
	if (review_beside(series, base, "", &sel)) {
		ASSERT_TRUE(rc_reaches(&sel, "ksock") && !rc_reaches(&sel, "netpoll"),
			    "a space moved inside a line: the ksock hunk counts");
		rc_sel_free(&sel);
	}
	/* v8 changes the netpoll hunk: netpoll is reached, ksock is not */
	snprintf(series, sizeof(series), "%s%s", ksock_again, netpoll_v8);
	if (review_beside(series, base, "", &sel)) {
		ASSERT_TRUE(rc_reaches(&sel, "netpoll") && !rc_reaches(&sel, "ksock"),
			    "a changed netpoll hunk: netpoll reached, ksock not");
		ASSERT_TRUE(runs(&sel, "netpoll-ipv4") && skipped(&sel, "ipv4-ksock"), "netpoll-ipv4 runs, ipv4-ksock not");
		ASSERT_HAS(sel.shared, "1 of the series' 2 hunks are in the base too", "said");
		rc_sel_free(&sel);
	}
	/* the netpoll patch dropped: the baseline's hunk counts */
	if (review_beside(ksock_again, base, "", &sel)) {
		ASSERT_TRUE(rc_reaches(&sel, "netpoll") && !rc_reaches(&sel, "ksock"),
			    "a hunk only the baseline has: netpoll reached");
		ASSERT_HAS(sel.shared, "1 of its hunks are not in the review's kernel and count", "said");
		rc_sel_free(&sel);
	}
	/* ... unless bpfwire puts it in the review's kernel too */
	if (review_beside(ksock_again, base, one_netpoll, &sel)) {
		ASSERT_EQ(sel.nreached, 0, "the same hunk in the review's own patches: nothing reached");
		rc_sel_free(&sel);
	}
	/* the lists two builds write: each file they name, one after another */
	{
		char d[] = "/tmp/test_reach_builds.XXXXXX", f[4300], l[4300];
		struct rc_base b;

		if (ASSERT_OK_PTR(mkdtemp(d), "mkdtemp")) {
			snprintf(f, sizeof(f), "%s/base/kernel", d);
			mkdir_p(f, 0755);
			snprintf(f, sizeof(f), "%s/review/kernel", d);
			mkdir_p(f, 0755);
			snprintf(f, sizeof(f), "%s/a.patch", d);
			write_file(f, one_ksock);
			snprintf(f, sizeof(f), "%s/b.patch", d);
			write_file(f, one_netpoll);
			snprintf(f, sizeof(f), "%s/base/kernel/patches.list", d);
			snprintf(l, sizeof(l), "%s/a.patch\n%s/b.patch\n", d, d);
			write_file(f, l);
			snprintf(f, sizeof(f), "%s/review/kernel/patches.list", d);
			write_file(f, "");
			snprintf(f, sizeof(f), "%s/base", d);
			snprintf(l, sizeof(l), "%s/review", d);
			if (ASSERT_OK(rc_base_builds(f, l, &b), "two lists")) {
				ASSERT_TRUE(b.base_len == strlen(one_ksock) + strlen(one_netpoll) + 2 &&
					    strstr(b.base, "bpf_ksock.c") && strstr(b.base, "bpf_netpoll.c"),
					    "the base: both patches, one after another");
				ASSERT_TRUE(b.own && b.own_len == 0, "an empty list: no patch, not an error");
				rc_base_free(&b);
			}
			snprintf(f, sizeof(f), "%s/base/kernel/patches.list", d);
			snprintf(l, sizeof(l), "%s/a.patch\n%s/gone.patch\n", d, d);
			write_file(f, l);
			snprintf(f, sizeof(f), "%s/base", d);
			snprintf(l, sizeof(l), "%s/review", d);
			ASSERT_EQ(rc_base_builds(f, l, &b), -1, "a file the list names is gone: not known");
			snprintf(f, sizeof(f), "rm -rf '%s'", d);
			ASSERT_OK(system(f), "cleanup");
		}
	}
	/* an encoded message is still not read whole: every test */
	snprintf(series, sizeof(series), "%s%s", b64, one_ksock);
	if (review_beside(series, base, "", &sel)) {
		ASSERT_TRUE(sel.all && strstr(sel.why_all, "an encoded message"), "an encoded message: every test runs");
		rc_sel_free(&sel);
	}
	tap_case_end();
}

/* A hunk's identity: the file and its lines, not their numbers or spaces. */
static void test_hunks(void)
{
	static const char two[] =
		"diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n"
		"@@ -1,2 +1,2 @@ f(\n a\n-b\n+c\n"
		"@@ -9,1 +9,1 @@\n-d\n+e\n"
		"diff --git a/y.c b/z.c\nsimilarity index 100%\nrename from y.c\nrename to z.c\n"
		"diff --git a/bin b/bin\nGIT binary patch\nliteral 3\nKcmZ?d00001\n\nliteral 0\nKcmV+b00001\n\n"
		"-- \n2.39.5\n";
	static const char moved[] =
		"diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n"
		"@@ -100,1 +100,1 @@\n-d\n+e\n"
		"diff --git a/w.c b/w.c\n--- a/w.c\n+++ b/w.c\n@@ -1 +1 @@\n-b\n+c\n";
	struct hk_set set = { 0 };
	char *out = NULL;
	size_t len, kept, dropped;

	if (!tap_case_begin("hunks: a hunk is its file and its lines; a rename and a binary are one each"))
		return;
	ASSERT_OK(hk_collect(two, strlen(two), &set), "collect");
	ASSERT_EQ(set.n, 4, "two hunks, a rename, a binary");
	if (ASSERT_OK(hk_filter(moved, strlen(moved), &set, &out, &len, &kept, &dropped), "filter")) {
		ASSERT_EQ(dropped, 1, "x.c's hunk at other line numbers is the same");
		ASSERT_EQ(kept, 1, "w.c's hunk of the same lines is another (another file)");
		ASSERT_STREQ(out, "diff --git a/w.c b/w.c\n--- a/w.c\n+++ b/w.c\n@@ -1 +1 @@\n-b\n+c\n",
			     "x.c's section left out whole, w.c's kept");
		free(out);
	}
	if (ASSERT_OK(hk_filter(two, strlen(two), &set, &out, &len, &kept, &dropped), "filter itself")) {
		ASSERT_TRUE(kept == 0 && dropped == 4, "itself: every hunk shared");
		ASSERT_STREQ(out, "-- \n2.39.5\n", "only the text outside the diff is left");
		free(out);
	}
	hk_set_free(&set);
	tap_case_end();
}

int main(int argc, char **argv)
{
	char err[512];

	if (argc != 2) {
		fprintf(stderr, "usage: test_reach SOURCE_ROOT\n");
		return 2;
	}
	snprintf(scn_dir, sizeof(scn_dir), "%s/scenarios", argv[1]);
	snprintf(map_path, sizeof(map_path), "%s/review/reach.map", argv[1]);
	if (rc_load(map_path, &map, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	test_touches();
	test_unread();
	test_ksock_only();
	test_netpoll_only();
	test_everything();
	test_text_only();
	test_map();
	test_hunks();
	test_shared();
	rc_map_free(&map);
	return tap_done();
}
