// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-compare, each patch on its own parent (perpatch.c): a kbuild log's warnings
 * per object, perpatch.sh's files.
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

void test_perpatch(void)
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
