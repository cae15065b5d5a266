// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench: rate, loss, hook-to-wire latency and per-open cost of the
 * three senders against sendto() and pktgen, in one boot of the lab.
 *
 * It writes the benchmark as a scenario (gen.c), runs it with
 * `bpfwire-lab run`, and makes bench.json, bench.txt and bench.svg from the
 * guests' shares (report.c). It is not a test: it exits non-zero only when
 * it cannot measure.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "bench.h"
#include "bench-config.h"
#include "util.h"	/* lab/: mkdir_p */

static const char usage[] =
"usage: bpfwire-bench [OPTIONS]          run the benchmark, print the table\n"
"       bpfwire-bench report RUN         remake RUN/bench.{json,txt,svg}\n"
"       bpfwire-bench scenario [OPTIONS] print the scenario it would run\n"
"\n"
"One boot of the pair topology: for each path a burst of --count events\n"
"(open() in a loop with the sender attached; sendto() and pktgen send\n"
"datagrams of the same size), --repeats times; hook-to-wire latency at a low\n"
"rate and at half of each path's measured rate; ns per hooked open().\n"
"Paths: sendto, pktgen, ksock, ksock-sndbuf (the remedy), netpoll, ringbuf.\n"
"\n"
"  --count N          events per rate run (default 10000)\n"
"  --repeats N        rate runs per path (default 3)\n"
"  --lat-rate N       the low latency rate, events/s (default 10)\n"
"  --lat-count N      events at the low rate (default 200)\n"
"  --lat-half-count N events at half rate (default 2000)\n"
"  --cost-count N     opens per cost round (default 2000; 5 rounds)\n"
"  --sndbuf BYTES     the remedy's ksock send buffer (default 8388608)\n"
"  --netem-loss PCT   netem loss on the sender's eth0, to show the loss counted\n"
"  --txqueuelen N     the sender's eth0 queue (default 1000): a larger send\n"
"                     buffer moves a burst's overflow there\n"
"  --paths LIST       comma-separated subset of the paths\n"
"  --results DIR      default BUILD/results/bench-YYYYmmdd-HHMMSS\n"
"  --accel auto|kvm|tcg\n"
"  --allow-debug      run on a kernel with lockdep (ratios are distorted)\n"
"Exit: 0 measured, 1 could not measure, 2 usage.\n";

static int parse_int(const char *opt, const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max) {
		fprintf(stderr, "bpfwire-bench: --%s: '%s' is not a number in [%ld, %ld]\n", opt, s,
			min, max);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_paths(const char *s, unsigned *mask)
{
	char buf[256], *save, *tok;

	*mask = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int m;

		for (m = 0; m < bench_nmethods; m++)
			if (!strcmp(tok, bench_methods[m].name))
				break;
		if (m == bench_nmethods) {
			fprintf(stderr, "bpfwire-bench: --paths: unknown path '%s'\n", tok);
			return -1;
		}
		*mask |= 1u << m;
	}
	return *mask ? 0 : -1;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	size_t n;
	FILE *in = fopen(from, "r"), *out;

	if (!in)
		return -1;
	out = fopen(to, "w");
	if (!out) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	return fclose(out);
}

/* bpfwire-lab run; its progress lines go straight to our stdout. */
static int run_lab(const char *scenario, const char *results, const char *accel)
{
	char lab[PATH_MAX];
	pid_t pid;
	int st;

	snprintf(lab, sizeof(lab), "%s/lab/bpfwire-lab", BPFWIRE_BUILD_ROOT);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl(lab, lab, "run", "--no-capture", "--results", results, "--accel", accel,
		      scenario, (char *)NULL);
		fprintf(stderr, "bpfwire-bench: can't run %s: %s\n", lab, strerror(errno));
		_exit(127);
	}
	/* Ctrl-C reaches the lab too; it tears down, then we report. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "lat-rate", required_argument, NULL, 'L' },
		{ "lat-count", required_argument, NULL, 'l' },
		{ "lat-half-count", required_argument, NULL, 'H' },
		{ "cost-count", required_argument, NULL, 'C' },
		{ "sndbuf", required_argument, NULL, 's' },
		{ "netem-loss", required_argument, NULL, 'n' },
		{ "paths", required_argument, NULL, 'p' },
		{ "txqueuelen", required_argument, NULL, 'q' },
		{ "results", required_argument, NULL, 'R' },
		{ "accel", required_argument, NULL, 'a' },
		{ "allow-debug", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct bench_params p = {
		.count = 10000, .repeats = 3, .lat_low_rate = 10, .lat_low_count = 200,
		.lat_half_count = 2000, .cost_count = 2000, .cost_repeats = 5,
		.sndbuf = 8 << 20, .methods = (1u << bench_nmethods) - 1,
	};
	const char *results = NULL, *accel = "auto", *cmd = NULL;
	char run[PATH_MAX], path[PATH_MAX + 64], err[1024], config[PATH_MAX];
	bool allow_debug = false;
	long v;
	int c, rc;
	FILE *f;

	if (argc > 1 && (!strcmp(argv[1], "report") || !strcmp(argv[1], "scenario"))) {
		cmd = argv[1];
		argv++;
		argc--;
	}
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_int("count", optarg, 1, 1000000, &v))
				return 2;
			p.count = (int)v;
			break;
		case 'r':
			if (parse_int("repeats", optarg, 1, 32, &v))
				return 2;
			p.repeats = (int)v;
			break;
		case 'L':
			if (parse_int("lat-rate", optarg, 1, 1000, &v))
				return 2;
			p.lat_low_rate = (int)v;
			break;
		case 'l':
			if (parse_int("lat-count", optarg, 1, 100000, &v))
				return 2;
			p.lat_low_count = (int)v;
			break;
		case 'H':
			if (parse_int("lat-half-count", optarg, 1, 1000000, &v))
				return 2;
			p.lat_half_count = (int)v;
			break;
		case 'C':
			if (parse_int("cost-count", optarg, 1, 1000000, &v))
				return 2;
			p.cost_count = (int)v;
			break;
		case 's':
			if (parse_int("sndbuf", optarg, 1, INT_MAX / 2, &v))
				return 2;
			p.sndbuf = v;
			break;
		case 'n': {
			char *end;

			p.netem_loss = strtod(optarg, &end);
			if (*end || !(p.netem_loss > 0 && p.netem_loss < 100)) {
				fprintf(stderr, "bpfwire-bench: --netem-loss: '%s' is not a "
					"percentage in (0, 100)\n", optarg);
				return 2;
			}
			break;
		}
		case 'p':
			if (parse_paths(optarg, &p.methods))
				return 2;
			break;
		case 'q':
			if (parse_int("txqueuelen", optarg, 1, 1000000, &v))
				return 2;
			p.txqueuelen = (int)v;
			break;
		case 'R':
			results = optarg;
			break;
		case 'a':
			if (strcmp(optarg, "auto") && strcmp(optarg, "kvm") && strcmp(optarg, "tcg")) {
				fprintf(stderr, "bpfwire-bench: --accel: auto, kvm or tcg\n");
				return 2;
			}
			accel = optarg;
			break;
		case 'D':
			allow_debug = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}

	if (cmd && !strcmp(cmd, "report")) {
		if (optind != argc - 1) {
			fputs(usage, stderr);
			return 2;
		}
		if (bench_report(argv[optind], stdout, err, sizeof(err))) {
			fprintf(stderr, "bpfwire-bench: cannot measure: %s\n", err);
			return 1;
		}
		return 0;
	}
	if (optind != argc) {
		fputs(usage, stderr);
		return 2;
	}
	/* The half-rate latency run needs the same path's rate runs. */
	if (cmd && !strcmp(cmd, "scenario"))
		return bench_write_scenario(stdout, &p, "stdout") ? 1 : 0;

	snprintf(config, sizeof(config), "%s/kernel/config", BPFWIRE_BUILD_ROOT);
	if (access(config, R_OK)) {
		fprintf(stderr, "bpfwire-bench: no kernel in %s (configure with -Dkernel=enabled "
			"and build first)\n", BPFWIRE_BUILD_ROOT);
		return 1;
	}
	if (bench_config_has_lockdep(config) && !allow_debug) {
		fprintf(stderr, "bpfwire-bench: %s is the debug flavour (lockdep), which distorts the "
			"ratios.\nUse ./run bench, or: meson setup build-bench -Dkernel_debug=false && "
			"ninja -C build-bench && build-bench/bench/bpfwire-bench\n(--allow-debug runs "
			"anyway)\n", config);
		return 1;
	}

	if (results) {
		snprintf(run, sizeof(run), "%s", results);
	} else {
		time_t now = time(NULL);
		char stamp[32];

		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
		snprintf(run, sizeof(run), "%s/results/bench-%s", BPFWIRE_BUILD_ROOT, stamp);
	}
	if (mkdir_p(run, 0755)) {
		fprintf(stderr, "bpfwire-bench: can't create %s: %s\n", run, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/bench.scenario", run);
	f = fopen(path, "w");
	if (!f || bench_write_scenario(f, &p, path) || fclose(f)) {
		fprintf(stderr, "bpfwire-bench: can't write %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (bench_params_save(run, &p)) {
		fprintf(stderr, "bpfwire-bench: can't write %s/bench-params.json\n", run);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/kernel-config", run);
	if (copy_file(config, path)) {
		fprintf(stderr, "bpfwire-bench: can't copy %s to %s\n", config, path);
		return 1;
	}
	printf("bpfwire-bench: %d events x %d repeats per path; results in %s\n", p.count,
	       p.repeats, run);
	snprintf(path, sizeof(path), "%s/bench.scenario", run);
	rc = run_lab(path, run, accel);
	if (rc) {
		fprintf(stderr, "bpfwire-bench: cannot measure: the lab run failed (exit %d); see "
			"%s/summary.txt\n", rc, run);
		return 1;
	}
	printf("\n");
	if (bench_report(run, stdout, err, sizeof(err))) {
		fprintf(stderr, "bpfwire-bench: cannot measure: %s\n", err);
		return 1;
	}
	printf("\nbench: %s/bench.txt, bench.json, bench.svg\n", run);
	return 0;
}
