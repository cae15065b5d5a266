// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-review's command line (review.c runs it). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "errnames.h"
#include "log.h"
#include "options.h"
#include "review-config.h"

const char review_usage[] =
"usage: bpfwire-review [options] SERIES\n"
"Build the lab kernel with SERIES in build-review-NAME, run those of the kernel\n"
"suite, agent-guest and the scenarios that the series can reach (--all: each)\n"
"and that fit the kernel's ksock API, and compare each test, TAP case, scenario\n"
"check and count with the baseline.\n"
"  SERIES            an mbox (`b4 am`, `git format-patch --stdout`) or a directory\n"
"                    with a `series` file; applied with git am\n"
"  --base seed|upstream|BUILD|SERIES   the baseline: the shipped flavour (build,\n"
"                    build-up), a build directory, or another series (the v7 of a\n"
"                    v8: built in build-review-NAME-base on the same kernel). Default:\n"
"                    the flavour bpfwire ships on the series' kernel (on 6.12, the one\n"
"                    whose ksock API it has: upstream when unknown or absent). With a\n"
"                    series: git range-diff of the two, each patch unchanged (same git\n"
"                    patch-id --stable), changed or new, the base's dropped ones; when\n"
"                    both make the same tree, the base is neither built nor run again\n"
"  --name NAME       build-review-NAME and the results' name (default: SERIES's\n"
"                    file name without .mbx, .mbox, .patch or .eml)\n"
"  --source PATH     the kernel to patch: a tarball or a tree, never written to\n"
"                    (default: the newest kernel bpfwire knows that takes the series:\n"
"                    Debian's linux-source-X.Y of each kernel/source-versions line)\n"
"  --kernel X.Y      that known kernel only (default: each, newest first)\n"
"  --config FRAGMENT a config fragment merged after kernel/lab.config; repeat the\n"
"                    option or separate with commas\n"
"  --netpoll VALUE   -Dkernel_netpoll: bpfwire's netpoll series on top or not\n"
"  --tests NAME,...  only these meson tests (default: of kernel-suite, agent-guest,\n"
"                    selftests when the series carries selftests, and the suite\n"
"                    scenarios, those the series can reach: review/reach.map maps\n"
"                    its paths and kfuncs to families, a scenario's `needs` says\n"
"                    what it sees; a path no rule maps runs every test; each test\n"
"                    not run is named with why; those that do not fit are SKIP)\n"
"  --all             every one of those tests, whatever the series touches\n"
"  --build-root DIR  where build-review-NAME is made (default: the source root)\n"
"  --retries N       before a case is called worse, run the tests that hold worse\n"
"                    cases again on both builds, up to N times (default 2, at most\n"
"                    10, 0: never); a case worse in some runs only is flaky: reported\n"
"                    with its counts, not counted as worse\n"
"  --retry-budget S  start no rerun that would end later than S seconds after the\n"
"                    first (default 600); the review prints the budget and estimate\n"
"  --insns-threshold PCT  a rise of a bpfwire BPF program's instructions processed\n"
"                    (the test verifier-cost: each program of the agent loaded\n"
"                    alone, base and series) over PCT percent is changed and\n"
"                    named (default 10); one that no longer loads is worse\n"
"  --strict          static findings count as worse: checkpatch.pl --strict of the\n"
"                    series' tree on each of its patches (errors and warnings), and,\n"
"                    each patch on its parent, a patch whose touched objects do not\n"
"                    build and each W=1 or sparse warning it adds; by default they\n"
"                    are reported in their own section only\n"
"  --compare BASE_LOG  SERIES is then a review's test log: compare the two\n"
"                    (a results dir's baseline.testlog.json and review.testlog.json)\n"
"                    again, build and run nothing\n"
"  --flaky-report    SERIES is then a meson test log (a build's\n"
"                    meson-logs/testlog.json): name each failed test or case that\n"
"                    the list of known flaky cases holds, with its date and reason;\n"
"                    the failure stands (exit 0 all the same), nothing runs\n"
"  --known-flaky FILE  that list (default review/known-flaky)\n"
"  --dry-run         check the arguments, say what would run, do nothing\n"
"  -v, --help, --version\n"
"A baseline is run in the same command unless its build holds results of\n"
"those tests for the same bpfwire commit (meson-logs/*.commit).\n"
"Writes build-review-NAME/results/review-STAMP/ (review.txt, review.json, both\n"
"test logs, and review.eml: a reply to the series' first message, Tested-by when\n"
"nothing got worse). Exit status: 0 nothing got worse than the baseline, 1\n"
"something did (each named; a series that does not build is worse), 2 bad\n"
"usage or a failure that is not the series' (setup, locks), 128+N\n"
"stopped by signal N (130 Ctrl-C, 143 SIGTERM) in any phase: no verdict, every\n"
"child ended.\n";

/* Absolute, so meson (run in another directory) finds it. */
int review_absolute(const char *what, const char *path, char *out, size_t len)
{
	if (!realpath(path, out)) {
		fprintf(stderr, PROG ": %s %s: %s\n", what, path, errno_str(errno));
		return CLI_EUSAGE;
	}
	(void)len;
	return 0;
}

int review_parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "name", required_argument, NULL, 'N' },
		{ "source", required_argument, NULL, 's' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "config", required_argument, NULL, 'c' },
		{ "netpoll", required_argument, NULL, 'p' },
		{ "tests", required_argument, NULL, 't' },
		{ "build-root", required_argument, NULL, 'B' },
		{ "compare", required_argument, NULL, 'C' },
		{ "flaky-report", no_argument, NULL, 'F' },
		{ "known-flaky", required_argument, NULL, 'K' },
		{ "retries", required_argument, NULL, 'r' },
		{ "retry-budget", required_argument, NULL, 'R' },
		{ "insns-threshold", required_argument, NULL, 'I' },
		{ "strict", no_argument, NULL, 'S' },
		{ "all", no_argument, NULL, 'A' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "verbose", no_argument, NULL, 'v' },
		{ 0 },
	};
	static const char so[] = "hv";
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		switch (c) {
		case 'b': o->base = optarg; break;
		case 'N': o->name = optarg; break;
		case 's': o->source = optarg; break;
		case 'k': o->kernel = optarg; break;
		case 'p': o->netpoll = optarg; break;
		case 't': o->tests = optarg; break;
		case 'B': o->build_root = optarg; break;
		case 'C': o->compare = optarg; break;
		case 'F': o->flaky_report = true; break;
		case 'K': o->known_flaky = optarg; break;
		case 'r':
		case 'R': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || end == optarg || v < (c == 'r' ? 0 : 1) || v > (c == 'r' ? RETRIES_MAX : 86400))
				return cli_bad_value(PROG, c == 'r' ? "--retries" : "--retry-budget", optarg,
						     c == 'r' ? "a count from 0 to 10" : "seconds, 1 to 86400");
			*(c == 'r' ? &o->retries : &o->retry_budget) = (int)v;
			break;
		}
		case 'I': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || end == optarg || v < 0 || v > 1000)
				return cli_bad_value(PROG, "--insns-threshold", optarg, "a percentage from 0 to 1000");
			o->insns_threshold = (unsigned)v;
			break;
		}
		case 'n': o->dry = true; break;
		case 'S': o->strict = true; break;
		case 'A': o->all = true; break;
		case 'v': log_level = LOG_DEBUG; break;
		case 'c':
			if (strlen(o->config) + strlen(optarg) + 2 > sizeof(o->config))
				return cli_bad_value(PROG, "--config", optarg, "a shorter list of fragments");
			snprintf(o->config + strlen(o->config), sizeof(o->config) - strlen(o->config),
				 "%s%s", o->config[0] ? "," : "", optarg);
			break;
		case 'h': fputs(review_usage, stdout); return -1;
		case 'V': cli_version(PROG); return -1;
		default: return cli_bad_option(PROG, argv, so, lo);
		}
	}
	if (argc - optind != 1)
		return cli_bad_args(PROG, "expects one SERIES (an mbox or a patch directory); got %d arguments",
				    argc - optind);
	o->series = argv[optind];
	return 0;
}

/* Each --config fragment must exist: absolute paths, comma-separated. */
int review_fragments(const char *list, char *out, size_t len)
{
	char tmp[4096], *save = NULL;

	out[0] = '\0';
	snprintf(tmp, sizeof(tmp), "%s", list);
	for (char *f = strtok_r(tmp, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		char abs[PATH_MAX];
		struct stat st;

		if (stat(f, &st) || !S_ISREG(st.st_mode)) {
			fprintf(stderr, PROG ": --config %s: %s\n", f,
				errno ? errno_str(errno) : "not a regular file");
			return CLI_EUSAGE;
		}
		if (review_absolute("--config", f, abs, sizeof(abs)))
			return CLI_EUSAGE;
		if (snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? "," : "", abs) >=
		    (int)(len - strlen(out)))
			return cli_bad_value(PROG, "--config", list, "a shorter list of fragments");
	}
	return 0;
}

