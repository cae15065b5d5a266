// SPDX-License-Identifier: GPL-2.0-only
/*
 * review-compare, review.eml (reply.c), read back by git mailinfo and git
 * interpret-trailers.
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
void test_reply(void)
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
