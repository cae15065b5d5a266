// SPDX-License-Identifier: GPL-2.0-only
/*
 * TAP: what a guest writes into its share cannot abort the runner
 * nor forge its summary, and dir_empty clears a share without following a
 * link in it. The steps run without a guest: a lab_run with one
 * guest 'r' whose share is a temp dir, the runner's step loop and summary
 * writer called directly, each case in a child so an abort is a failure
 * and not the end of the test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file.h"
#include "scenario/runner.h"
#include "scenario/scenario.h"
#include "scenario/steps.h"
#include "scenario/summary_write.h"
#include "splat.h"
#include "tap.h"
#include "timeutil.h"
#include "vm/kseries.h"
#include "vm/model.h"
#include "vm/util.h"

static char top[] = "/tmp/test_steps-XXXXXX";

/* The release a crafted series' bzImage carries: a newline, a title, a clear. */
static const char forged_release[] = "6.12.0\nverdict:OK\x1b]0;pwned\x07\x1b[2J";

/* A bzImage setup header (HdrS at 0x202, version at 0x200 + 0x100) saying forged_release. */
static int forged_bzimage(const char *path)
{
	char img[1024] = { 0 };
	FILE *f = fopen(path, "w");

	memcpy(img + 0x202, "HdrS", 4);
	img[0x20f] = 0x01;
	snprintf(img + 0x300, sizeof(img) - 0x300, "%s (a@b) #1 SMP", forged_release);
	if (!f)
		return -1;
	if (fwrite(img, sizeof(img), 1, f) != 1) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/*
 * One run of `report rx r rx.json` (and a check when a report holds)
 * over RUN=top/NAME with rx.json holding json, and a console whose splats
 * splat_scan quotes, as finish_lab has it; in a child, which exits 0 once
 * both summaries are written.
 */
static void run_case(const char *name, const char *json, const char *console)
{
	static const char text[] = "summary reports from a guest\ntopology pair\n"
				   "report rx r rx.json\ncheck rx.n == 1\n";
	struct scenario *s = calloc(1, sizeof(*s));
	struct lab_run *lab = calloc(1, sizeof(*lab));
	struct runner rn = { .s = s, .lab = lab };
	char err[512], reason[1024] = "", path[PATH_MAX + 64], *splat_text = NULL;
	size_t splat_len = 0;
	int failed, splats = 0;

	if (!s || !lab || scenario_parse("t", text, s, err, sizeof(err))) {
		fprintf(stderr, "scenario: %s\n", err);
		_exit(3);
	}
	snprintf(rn.results, sizeof(rn.results), "%s/%s", top, name);
	lab->nguests = 1;
	snprintf(lab->guests[0].name, sizeof(lab->guests[0].name), "r");
	snprintf(lab->guests[0].dir, sizeof(lab->guests[0].dir), "%.4000s/hosts/r", rn.results);
	snprintf(path, sizeof(path), "%s/steps", rn.results);
	if (mkdir_p(lab->guests[0].dir, 0755) || mkdir_p(path, 0755))
		_exit(3);
	snprintf(path, sizeof(path), "%s/rx.json", lab->guests[0].dir);
	if (json && write_file(path, json))
		_exit(3);
	/* the runner's terminal lines, to look at for escapes */
	snprintf(path, sizeof(path), "%s/stdout", rn.results);
	if (!freopen(path, "w", stdout))
		_exit(3);
	rn.steps = json_object_new_array();
	rn.reports = json_object_new_object();
	rn.t0 = now_s();
	failed = runner_steps(&rn, 0, reason, sizeof(reason));
	if (console) {
		FILE *mf = open_memstream(&splat_text, &splat_len);

		if (!mf)
			_exit(3);
		splats = splat_scan(console, strlen(console), mf, "r (console)");
		fclose(mf);
	}
	/* series.json beside the kernel reaches summary.json:
	 * the "array" case has a good one, "int" a malformed one. */
	snprintf(rn.kernel, sizeof(rn.kernel), "%.3000s/bzImage", rn.results);
	snprintf(path, sizeof(path), "%s/series.json", rn.results);
	if (!strcmp(name, "array") &&
	    write_file(path, "{\"flavour\": \"review\", \"patches\": []}\n"))
		_exit(3);
	if (!strcmp(name, "int") && write_file(path, "{\"flavour\": "))
		_exit(3);
	/* the series' bzImage says its release; the runner reads it so (runner_kernel) */
	if (!strcmp(name, "release") &&
	    (forged_bzimage(rn.kernel) ||
	     kseries_bzimage_release(rn.kernel, rn.release, sizeof(rn.release), err, sizeof(err))))
		_exit(3);
	runner_write_summary(&rn, failed ? "FAIL" : "PASS", reason, splats, splat_text);
	printf("%s: %s%s%s\n", s->name, failed ? "FAIL" : "PASS", reason[0] ? ": " : "", reason);
	fflush(stdout);
	_exit(0);
}

/* Runs the case in a child; true when it ended by exit 0. */
static bool fork_case(const char *name, const char *json, const char *console)
{
	int st = 0;
	pid_t pid = fork();

	if (pid == 0)
		run_case(name, json, console);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return false;
	if (WIFSIGNALED(st))
		printf("# case %s: the runner died of signal %d (%s)\n", name, WTERMSIG(st),
		       strsignal(WTERMSIG(st)));
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static char *case_file(const char *name, const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", top, name, file);
	return read_file(path, NULL);
}

struct bad_report { const char *name, *json, *why; };

static const struct bad_report bads[] = {
	{ "array", "[]", "is a JSON array, not an object" },
	{ "int", "42", "is a JSON int, not an object" },
	{ "string", "\"x\"", "is a JSON string, not an object" },
	{ "null", "null", "is a JSON null, not an object" },
	{ "invalid", "{\"n\": 1", "is not JSON" },
	{ "missing", NULL, "can't read" },
};

/* A report that is no JSON object is a failed step with a reason. */
static void test_bad_reports(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		const struct bad_report *b = &bads[i];
		char name[64], *sum, *txt;
		json_object *o = NULL, *step, *why;

		snprintf(name, sizeof(name), "report %s", b->name);
		tap_case_begin(name);
		ASSERT_TRUE(fork_case(b->name, b->json, NULL), "the runner ends by itself");
		sum = case_file(b->name, "summary.json");
		txt = case_file(b->name, "summary.txt");
		ASSERT_OK_PTR(sum, "summary.json is written");
		ASSERT_OK_PTR(txt, "summary.txt is written");
		if (sum)
			o = json_tokener_parse(sum);
		if (ASSERT_OK_PTR(o, "summary.json parses")) {
			ASSERT_STREQ(json_object_get_string(json_object_object_get(o, "verdict")),
				     "FAIL", "the verdict is FAIL");
			step = json_object_array_get_idx(json_object_object_get(o, "steps"), 0);
			ASSERT_STREQ(json_object_get_string(json_object_object_get(step, "verdict")),
				     "FAIL", "the report step failed");
			why = json_object_object_get(step, "why");
			ASSERT_HAS(json_object_get_string(why), b->why, "with the reason");
			step = json_object_array_get_idx(json_object_object_get(o, "steps"), 1);
			ASSERT_STREQ(json_object_get_string(json_object_object_get(step, "verdict")),
				     "skip", "the check after it is skipped");
		}
		if (txt)
			ASSERT_HAS(txt, b->why, "summary.txt gives the reason");
		if (o && !strcmp(b->name, "array")) {
			json_object *ser = json_object_object_get(o, "series");

			ASSERT_STREQ(json_object_get_string(json_object_object_get(ser, "flavour")),
				     "review", "series.json beside the kernel is summary.json's series");
			ASSERT_TRUE(json_object_object_get_ex(o, "kernel_series", NULL),
				    "kernel_series is still there");
		}
		if (o && !strcmp(b->name, "int")) {
			ASSERT_TRUE(json_object_object_get_ex(o, "series", NULL) &&
				    !json_object_object_get(o, "series"),
				    "a malformed series.json: series is null");
			ASSERT_HAS(json_object_get_string(json_object_object_get(o, "series_error")),
				   "series.json: not JSON", "and series_error says why");
		}
		json_object_put(o);
		free(sum);
		free(txt);
		tap_case_end();
	}
}

/* true when text has a line that starts with prefix */
static bool has_line(const char *text, const char *prefix)
{
	for (const char *p = text; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, prefix, strlen(prefix)))
			return true;
	}
	return false;
}

/*
 * Report keys and values, and console quotes, reach summary.txt
 * and the terminal escaped: no ESC, no line of a guest's making.
 */
static void test_forged_summary(void)
{
	static const char json[] =
		"{ \"n\": 1, \"\\u001b[2J\\u001b[H\": 7,"
		" \"x\\nconsole splats: 0\\nverdict\": 2,"
		" \"title\": \"\\u001b]0;pwned\\u0007\\r\\u009b31m\" }";
	static const char console[] = "[ 0.5] booting\n[ 1.0] BUG: \x1b[8mhidden\x1b[0m\r\n"
				      "console splats: 0\n";
	char *sum, *txt, *out;

	tap_case_begin("a report's keys and values and a console quote forge nothing");
	ASSERT_TRUE(fork_case("forged", json, console), "the runner ends by itself");
	sum = case_file("forged", "summary.json");
	txt = case_file("forged", "summary.txt");
	out = case_file("forged", "stdout");
	if (ASSERT_OK_PTR(txt, "summary.txt is written")) {
		ASSERT_TRUE(!strchr(txt, '\x1b'), "summary.txt holds no ESC");
		ASSERT_TRUE(!strchr(txt, '\r') && !strchr(txt, '\a'), "nor CR nor BEL");
		ASSERT_TRUE(!strstr(txt, "\xc2\x9b"), "nor a C1 CSI");
		ASSERT_FALSE(has_line(txt, "console splats: 0"), "no forged 'console splats: 0' line");
		ASSERT_TRUE(has_line(txt, "console splats: 1"), "the true 'console splats: 1' line");
		ASSERT_HAS(txt, "x\\nconsole splats: 0\\nverdict=2", "the key is quoted on its line, escaped");
		ASSERT_HAS(txt, "    console splats: 0\n", "the console's own line is quoted, indented");
		ASSERT_HAS(txt, "\\x1b[2J", "ESC written as \\x1b");
		ASSERT_HAS(txt, "BUG: \\x1b[8mhidden", "the console quote escaped too");
	}
	if (ASSERT_OK_PTR(sum, "summary.json is written"))
		ASSERT_TRUE(!strchr(sum, '\x1b') && !strchr(sum, '\a'),
			    "summary.json holds no raw ESC or BEL (JSON's \\u001b)");
	if (ASSERT_OK_PTR(out, "the runner printed its lines"))
		ASSERT_TRUE(!strchr(out, '\x1b'), "the terminal gets no ESC");
	free(sum);
	free(txt);
	free(out);
	tap_case_end();
}

/* A series' bzImage whose release is no release: summary.txt gets a marker, not its bytes. */
static void test_forged_release(void)
{
	char *sum, *txt;

	printf("# bzImage release: \"");
	for (const char *p = forged_release; *p; p++)
		printf((unsigned char)*p < 0x20 ? "\\x%02x" : "%c", (unsigned char)*p);
	printf("\"\n");
	fflush(stdout);	/* before the fork */
	tap_case_begin("a bzImage's release with a newline and ANSI escapes forges no summary line");
	ASSERT_TRUE(fork_case("release", "{\"n\": 1}", NULL), "the runner ends by itself");
	sum = case_file("release", "summary.json");
	txt = case_file("release", "summary.txt");
	if (ASSERT_OK_PTR(txt, "summary.txt is written")) {
		ASSERT_TRUE(!strchr(txt, '\x1b') && !strchr(txt, '\a'), "summary.txt holds no ESC or BEL");
		ASSERT_FALSE(has_line(txt, "verdict:"), "no line of the release's making");
		ASSERT_HAS(txt, "release invalid (31 bytes)", "the release is said to be invalid, with its size");
	}
	if (ASSERT_OK_PTR(sum, "summary.json is written")) {
		json_object *o = json_tokener_parse(sum);

		ASSERT_STREQ(json_object_get_string(json_object_object_get(o, "kernel_release")),
			     "invalid (31 bytes)", "summary.json's kernel_release too");
		json_object_put(o);
	}
	free(sum);
	free(txt);
	tap_case_end();
}

/* What util.c's dir_empty (at each up) does to links a guest left in its share. */
static void test_share_empty(void)
{
	char share[PATH_MAX], out[PATH_MAX], p[PATH_MAX + 32], q[PATH_MAX + 32];
	char *keep;

	tap_case_begin("dir_empty empties a share without following a link in it");
	snprintf(share, sizeof(share), "%s/share", top);
	snprintf(out, sizeof(out), "%s/outside", top);
	snprintf(p, sizeof(p), "%s/sub/deeper", share);
	mkdir_p(p, 0755);
	snprintf(p, sizeof(p), "%s/dir", out);
	mkdir_p(p, 0755);
	snprintf(p, sizeof(p), "%s/dir/keep", out);
	write_file(p, "keep");
	snprintf(p, sizeof(p), "%s/rx.json", share);
	write_file(p, "{\"valid\": 999}");
	snprintf(p, sizeof(p), "%s/dir", out);
	snprintf(q, sizeof(q), "%s/dir-link", share);
	ASSERT_OK(symlink(p, q), "a link to a host dir");
	snprintf(q, sizeof(q), "%s/sub/deeper/dir-link", share);
	ASSERT_OK(symlink(p, q), "one deeper down");
	snprintf(p, sizeof(p), "%s/dir/keep", out);
	snprintf(q, sizeof(q), "%s/file-link", share);
	ASSERT_OK(symlink(p, q), "a link to a host file");
	ASSERT_OK(dir_empty(share), "dir_empty");
	ASSERT_OK(rmdir(share), "the share is left, and empty");
	keep = read_file(p, NULL);
	ASSERT_STREQ(keep ? keep : "(gone)", "keep", "what the links pointed to is untouched");
	free(keep);
	/* the share itself a link: refused, not followed */
	snprintf(p, sizeof(p), "%s/dir", out);
	ASSERT_OK(symlink(p, share), "a share that is a link");
	ASSERT_EQ(dir_empty(share), -ENOTDIR, "dir_empty refuses it (O_NOFOLLOW | O_DIRECTORY)");
	snprintf(p, sizeof(p), "%s/dir/keep", out);
	ASSERT_TRUE(file_exists(p), "and its target keeps its file");
	ASSERT_OK(rm_rf(share), "rm_rf removes the link");
	ASSERT_TRUE(file_exists(p), "not what it points to");
	tap_case_end();
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(top))
		return tap_skip_all("no temp dir");
	test_bad_reports();
	test_forged_summary();
	test_forged_release();
	test_share_empty();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd))
		printf("# couldn't remove %s\n", top);
	return tap_done();
}
