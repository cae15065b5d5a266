// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-lab's commands on scenarios and their runs: check, run,
 * scenarios and report (lab/cli/main.c has the table; the lab's own commands
 * stay there).
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmdline.h"
#include "report/pages.h"
#include "report/screenshot.h"
#include "scenario/lint.h"
#include "scenario/runner.h"
#include "scenario_cmd.h"
#include "vm/kseries.h"
#include "vm/model.h"

static const char usage_check[] = "usage: bpfwire-lab check TOPOLOGY|SCENARIO...\n"
"Check each argument without booting anything. A TOPOLOGY (a .topo file, or\n"
"a name under topology/) is parsed. A SCENARIO (a file, or a name under\n"
"scenarios/, as `run` finds it; a name that is both is checked as both) is\n"
"linted: what `run` checks before it boots (grammar, topology, hosts,\n"
"interfaces, ${...} variables), then every check's ID.path against the\n"
"fields bpfwire-recv --json (report) or bpfwire-agent status --json (stats)\n"
"can print (receiver/recv-json.fields, bpf/status-json.fields), with a\n"
"\"did you mean\" for a near miss, and every report/stats FILE against the\n"
"exec/spawn commands before it that write ${SHARE}/FILE on that host.\n"
"Every error prints as file:line: what is wrong; exit status 2 if any,\n"
"else 0, with one line per scenario: PATH: ok, N steps, M checks.\n";

int cmd_check(int argc, char **argv)
{
	COMMON(argc, argv, usage_check, NULL, NULL, NULL, NULL);
	if (argc < 1)
		return bad_args(argc, argv, "a TOPOLOGY or SCENARIO, or more");
	return lint_check(argc, argv);	/* lint.c */
}

static const char usage_run[] =
"usage: bpfwire-lab run [OPTIONS] SCENARIO\n"
"Run SCENARIO (a file, or a name under scenarios/): boot its topology, run\n"
"its steps, write RUN/summary.json and summary.txt, tear down. Exit status\n"
"is the verdict: 0 pass, 1 fail, 2 usage, 77 not for this kernel's series.\n"
"  --results DIR  --kernel PATH  --accel auto|kvm|tcg\n"
"  --kernel-series seed|upstream  (this build's kernel, else build[-up]'s)\n"
"  --keep         leave the lab up afterwards\n"
"  --append P     extra kernel parameters for every guest (ignore_loglevel\n"
"                 stays last, so `quiet` cannot hide a splat)\n"
"  --no-capture   no tcpdump on the segments (the benchmark: it competes for CPU)\n"
"  --trace        record each datagram's path through the sender's stack\n"
"                 (trace/: RUN/path.txt, RUN/path.svg, RUN/hosts/H/path.json)\n"
"  --underlay-netns NS  --ssh-config FILE   for remote hosts, as for `up`\n"
"  --share-size MIB  each guest's writable share, as for `up` (default 128)\n";

static int run_opt(int c, const char *arg, void *p)
{
	struct runner_opts *o = p;

	switch (c) {
	case 'R': o->results = arg; return 0;
	case 'k': o->kernel = arg; return 0;
	case 'Y': o->kernel_series = arg; return kseries_parse(arg) ? 0 : -1;
	case 'a': o->accel = arg; return 0;
	case 'K': o->keep = true; return 0;
	case 'C': o->no_capture = true; return 0;
	case 'T': o->trace = true; return 0;
	case 'A': o->append = arg; return 0;
	case 'U': o->underlay_netns = arg; return 0;
	case 'S': o->ssh_config = arg; return 0;
	case 'Z': return parse_share_mib(arg, &o->share_mib);
	}
	return -1;
}

int cmd_run(int argc, char **argv)
{
	static const struct option o[] = {
		{ "results", required_argument, NULL, 'R' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "kernel-series", required_argument, NULL, 'Y' },
		{ "accel", required_argument, NULL, 'a' },
		{ "keep", no_argument, NULL, 'K' },
		{ "no-capture", no_argument, NULL, 'C' },
		{ "trace", no_argument, NULL, 'T' },
		{ "append", required_argument, NULL, 'A' },
		{ "underlay-netns", required_argument, NULL, 'U' },
		{ "ssh-config", required_argument, NULL, 'S' },
		{ "share-size", required_argument, NULL, 'Z' },
		{ 0 }
	};
	struct runner_opts ro = { .accel = "auto" };

	COMMON(argc, argv, usage_run, "", o, run_opt, &ro);
	if (argc != 1)
		return bad_args(argc, argv, "one SCENARIO");
	if (ro.kernel && ro.kernel_series) {
		fprintf(stderr, "%s: --kernel and --kernel-series name two kernels: give one\n", cmd_prog);
		return LAB_EUSAGE;
	}
	ro.dry_run = opt_dry_run;
	if (opt_dry_run) {	/* what `check` finds, before the kernel is resolved */
		int ret = lint_check(1, argv);

		if (ret)
			return ret;
	}
	return runner_run(argv[0], &ro);
}

int cmd_scenarios(int argc, char **argv)
{
	static const char u[] = "usage: bpfwire-lab scenarios\nThe shipped scenarios, with their summaries.\n";

	COMMON(argc, argv, u, NULL, NULL, NULL, NULL);
	if (argc)
		return bad_args(argc, argv, "no argument");
	return runner_list(stdout);
}

static const char usage_report[] =
"usage: bpfwire-lab report [--screenshot FILE] RUN...\n"
"       bpfwire-lab report [--screenshot FILE] [--results DIR] --latest SCENARIO\n"
"Write again what `run` writes at teardown for a person to read: RUN/index.html\n"
"(the run's page), RUN/summary.md (to paste in a reply), RUN/topology.svg, and\n"
"the index.html of the results dir that holds RUN (every run, newest first).\n"
"  --latest SCENARIO  the newest run of SCENARIO in DIR (default ./results, as `run`)\n"
"  --screenshot FILE  then a PNG of the (last) RUN's page, by headless chromium\n";

struct report_args {
	const char *shot, *latest, *results;
};

static int report_opt(int c, const char *arg, void *p)
{
	struct report_args *a = p;

	switch (c) {
	case 'G': a->shot = arg; return 0;
	case 'L': a->latest = arg; return 0;
	case 'R': a->results = arg; return 0;
	}
	return -1;
}

int cmd_report(int argc, char **argv)
{
	static const struct option o[] = {
		{ "screenshot", required_argument, NULL, 'G' },
		{ "latest", required_argument, NULL, 'L' },
		{ "results", required_argument, NULL, 'R' },
		{ 0 }
	};
	struct report_args ra = { .results = "results" };
	char path[PATH_MAX + 32], err[1024], latest[PATH_MAX], *one[1] = { latest };
	const char *shot;
	int failed = 0;

	COMMON(argc, argv, usage_report, "", o, report_opt, &ra);
	shot = ra.shot;
	if (ra.latest && argc)
		return bad_args(argc, argv, "no RUN with --latest");
	if (!ra.latest && argc < 1)
		return bad_args(argc, argv, "one or more RUN dirs, or --latest SCENARIO");
	if (ra.latest) {
		if (report_latest(ra.results, ra.latest, latest, sizeof(latest))) {
			fprintf(stderr, "%s: no run of %s in %s (NAME-STAMP/summary.json)\n", cmd_prog,
				ra.latest, ra.results);
			return LAB_FAIL;
		}
		argc = 1;
		argv = one;
	}
	for (int i = 0; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: %s: not a run directory\n", cmd_prog, argv[i]);
			return LAB_EUSAGE;
		}
	}
	if (opt_dry_run)
		return dry_run_say("write the pages of %s%s%s%s", argv[0], argc > 1 ? " and more runs" : "",
			       shot ? " and a screenshot to " : "", shot ? shot : "");
	for (int i = 0; i < argc; i++) {
		int f = report_run(argv[i]);

		if (!f)
			printf("%s/index.html, %s/summary.md\n", argv[i], argv[i]);
		failed += f;
	}
	if (shot && !failed) {
		snprintf(path, sizeof(path), "%s/index.html", argv[argc - 1]);
		if (page_screenshot(path, shot, 1100, 1400, err, sizeof(err))) {
			fprintf(stderr, "%s: screenshot: %s\n", cmd_prog, err);
			return LAB_FAIL;
		}
		printf("%s\n", shot);
	}
	return failed ? LAB_FAIL : 0;
}
