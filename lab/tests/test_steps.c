// SPDX-License-Identifier: GPL-2.0-only
/*
 * TAP, issue 32: what a guest writes into its share cannot abort the runner
 * nor forge its summary. The steps run without a guest: a lab_run with one
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

#include "steps.h"
#include "tap.h"
#include "util.h"

static char top[] = "/tmp/test_steps-XXXXXX";

/*
 * One run of `report rx r rx.json` (and a check when a report holds)
 * over RUN=top/NAME with rx.json holding json; in a child, which exits 0
 * once both summaries are written.
 */
static void run_case(const char *name, const char *json, int splats, const char *splat_text)
{
	static const char text[] = "summary reports from a guest\ntopology pair\n"
				   "report rx r rx.json\ncheck rx.n == 1\n";
	struct scenario *s = calloc(1, sizeof(*s));
	struct lab_run *lab = calloc(1, sizeof(*lab));
	struct runner rn = { .s = s, .lab = lab };
	char err[512], reason[1024] = "", path[PATH_MAX + 64];
	int failed;

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
	runner_write_summary(&rn, failed ? "FAIL" : "PASS", reason, splats, splat_text);
	printf("%s: %s%s%s\n", s->name, failed ? "FAIL" : "PASS", reason[0] ? ": " : "", reason);
	fflush(stdout);
	_exit(0);
}

/* Runs the case in a child; true when it ended by exit 0. */
static bool fork_case(const char *name, const char *json, int splats, const char *splat_text)
{
	int st = 0;
	pid_t pid = fork();

	if (pid == 0)
		run_case(name, json, splats, splat_text);
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

/* item 9: a report that is no JSON object is a failed step with a reason. */
static void test_bad_reports(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		const struct bad_report *b = &bads[i];
		char name[64], *sum, *txt;
		json_object *o = NULL, *step, *why;

		snprintf(name, sizeof(name), "report %s", b->name);
		tap_case_begin(name);
		ASSERT_TRUE(fork_case(b->name, b->json, 0, NULL), "the runner ends by itself");
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
		json_object_put(o);
		free(sum);
		free(txt);
		tap_case_end();
	}
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(top))
		return tap_skip_all("no temp dir");
	test_bad_reports();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd))
		printf("# couldn't remove %s\n", top);
	return tap_done();
}
