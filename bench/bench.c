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
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include "bench-config.h"
#include "cli.h"
#include "compare.h"
#include "errnames.h"
#include "file.h"
#include "kapi.h"
#include "log.h"
#include "proc.h"
#include "report.h"

#define PROG "bpfwire-bench"

static const char usage[] =
"usage: " PROG " [OPTIONS]          run the benchmark, print the table\n"
"       " PROG " report RUN         remake RUN/bench.{json,txt,svg}\n"
"       " PROG " scenario [OPTIONS] print the scenario it would run\n"
"       " PROG " compare RUN...     figures of several runs side by side,\n"
"                                        with each one's median and spread\n"
"\n"
"One boot of the pair topology: for each path a burst of --count events\n"
"(open() in a loop with the sender attached; sendto() and pktgen send\n"
"datagrams of the same size), --repeats times; hook-to-wire latency at a low\n"
"rate and at half of each path's measured rate; ns per hooked open().\n"
"Paths: sendto, pktgen, ksock, ksock-sndbuf (the remedy), netpoll, ringbuf,\n"
"ksock-signed and netpoll-signed (--key-file: wire v2, SipHash-2-4 tags),\n"
"ksock-b1, ksock-b8, ksock-b32 (bpfwire-agent --batch N: N events a datagram),\n"
"ksock-enc and netpoll-enc (--encrypt: wire v3, AES-128-CTR in BPF, then signed).\n"
"Each guest's vCPU thread is pinned to a host core of its own.\n"
"\n"
"  --count N          events per rate run (default 10000)\n"
"  --repeats N        rate runs per path (default 3)\n"
"  --lat-rate N       the low latency rate, events/s (default 10)\n"
"  --lat-count N      events at the low rate (default 200)\n"
"  --lat-half-count N events at half rate (default 2000)\n"
"  --cost-count N     opens per cost round (default 2000)\n"
"  --cost-repeats N   cost rounds, of which the median is taken (default 5)\n"
"  --sndbuf BYTES     the remedy's ksock send buffer (default 8388608)\n"
"  --netem-loss PCT   netem loss on the sender's eth0, to show the loss counted\n"
"  --txqueuelen N     the sender's eth0 queue (default 1000): a larger send\n"
"                     buffer moves a burst's overflow there\n"
"  --paths LIST       comma-separated subset of the paths\n"
"  --results DIR      default BUILD/results/bench-YYYYmmdd-HHMMSS\n"
"  --accel auto|kvm|tcg\n"
"  --allow-debug      run on a kernel with lockdep (ratios are distorted)\n"
"  --icount           the sender on -icount shift=0,sleep=off (pair-icount):\n"
"                     cost and low-rate latency only, in guest instructions\n"
"  --dry-run          check the options (and report's or compare's RUNs), say\n"
"                     in one line what would be done, boot nothing\n"
"  -h, --help, --version\n"
"Options may stand anywhere on the line, before or after the command.\n"
"Exit: 0 measured, 1 could not measure, 2 usage.\n";

static int parse_int(const char *opt, const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		char name[32], accepted[64];

		snprintf(name, sizeof(name), "--%s", opt);
		snprintf(accepted, sizeof(accepted), "a number in [%ld, %ld]", min, max);
		cli_bad_value(PROG, name, s, accepted);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_int_opt(const char *opt, const char *s, long min, long max, int *out)
{
	long v;

	if (parse_int(opt, s, min, max, &v))
		return -1;
	*out = (int)v;
	return 0;
}

/* The names of the paths in mask, comma-separated. */
static void paths_str(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int m = 0; m < bench_nmethods; m++)
		if (mask & (1u << m) && n < len)
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "",
				      bench_methods[m].name);
}

static int parse_paths(const char *s, unsigned *mask)
{
	char buf[256], all[256], accepted[300], *save, *tok;

	*mask = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int m;

		for (m = 0; m < bench_nmethods; m++)
			if (!strcmp(tok, bench_methods[m].name))
				break;
		if (m == bench_nmethods)
			break;
		*mask |= 1u << m;
	}
	if (*mask && !tok)
		return 0;
	paths_str((1u << bench_nmethods) - 1, all, sizeof(all));
	snprintf(accepted, sizeof(accepted), "a comma-separated list of %s", all);
	cli_bad_value(PROG, "--paths", tok ? tok : s, accepted);
	return -1;
}

static int copy_file(const char *from, const char *to)
{
	char *text = read_file(from, NULL);
	int err;

	if (!text)
		return -1;
	err = write_file(to, text);
	free(text);
	return err ? -1 : 0;
}

/*
 * Pins the vCPU thread ("CPU 0/TCG": the lab names QEMU's threads) of each
 * guest of this run to a host core of its own: sender 0, receiver 1. A
 * guest is this run's when its QEMU's results share is RUN/hosts/NAME.
 * Each pinning is written once to RUN/pinning.txt.
 */
struct pinner {
	char run[PATH_MAX];
	char line[256];
	pid_t done[2];
};

static void pin_guest(struct pinner *pn, const char *pid, int gi)
{
	static const char *const host[] = { "sender", "receiver" };
	char path[PATH_MAX + 64], comm[64], *cmd;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct dirent *t;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	d = opendir(path);
	while (d && (t = readdir(d))) {
		cpu_set_t set;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%s/task/%s/comm", pid, t->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		cmd = fgets(comm, sizeof(comm), f);
		fclose(f);
		/* MTTCG: "CPU 0/TCG"; one TCG thread for all (icount): "ALL CPUs/TCG". */
		if (!cmd || (strncmp(comm, "CPU 0/", 6) && strncmp(comm, "ALL CPUs/", 9)))
			continue;
		CPU_ZERO(&set);
		CPU_SET(gi % (ncpu > 0 ? ncpu : 1), &set);
		if (sched_setaffinity(atoi(t->d_name), sizeof(set), &set)) {
			pr_warn("can't pin %s's vCPU thread %s: %s", host[gi], t->d_name,
				errno_str(errno));
			continue;
		}
		pn->done[gi] = atoi(t->d_name);
		snprintf(pn->line + strlen(pn->line), sizeof(pn->line) - strlen(pn->line),
			 "%s%s vCPU thread on host core %ld", pn->line[0] ? ", " : "vCPU pinning: ",
			 host[gi], gi % (ncpu > 0 ? ncpu : 1));
		snprintf(path, sizeof(path), "%s/pinning.txt", pn->run);
		write_file(path, pn->line);
	}
	if (d)
		closedir(d);
}

static void pin_scan(struct pinner *pn)
{
	static const char *const host[] = { "sender", "receiver" };
	char path[PATH_MAX + 64], want[PATH_MAX + 64], *cmd;
	const char *base = strrchr(pn->run, '/') ? strrchr(pn->run, '/') + 1 : pn->run;
	struct dirent *e;
	DIR *d = opendir("/proc");

	while (d && (e = readdir(d))) {
		size_t len;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		cmd = read_file(path, &len);
		if (!cmd)
			continue;
		for (size_t i = 0; i + 1 < len; i++)
			if (!cmd[i])
				cmd[i] = ' ';
		for (int gi = 0; gi < 2; gi++) {
			snprintf(want, sizeof(want), "/%s/hosts/%s,", base, host[gi]);
			if (!pn->done[gi] && !strncmp(cmd, "qemu-system", 11) && strstr(cmd, want))
				pin_guest(pn, e->d_name, gi);
		}
		free(cmd);
	}
	if (d)
		closedir(d);
}

/* bpfwire-lab run; its progress lines go straight to our stdout. */
static int run_lab(const char *scenario, const char *results, const char *accel)
{
	struct pinner pn = { .line = "" };
	char lab[PATH_MAX];
	char *argv[] = { lab, "run", "--no-capture", "--results", (char *)results, "--accel",
			 (char *)accel, (char *)scenario, NULL };
	enum spawn_step step;
	struct spawn_opts so = { .inherit = true, .no_path = true, .failed = &step };
	pid_t pid;
	int st;

	snprintf(lab, sizeof(lab), "%s/lab/bpfwire-lab", BPFWIRE_BUILD_ROOT);
	pid = spawn(argv, &so);
	if (pid < 0 && step > SPAWN_FORK) {
		pr_warn("can't run %s: %s", lab, errno_text(-pid));
		return 127;
	}
	if (pid < 0)
		return -1;
	/* Ctrl-C reaches the lab too; it tears down, then we report. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	snprintf(pn.run, sizeof(pn.run), "%s", results);
	while ((st = proc_poll(pid, NULL)) == -EAGAIN) {
		if (!pn.done[0] || !pn.done[1])
			pin_scan(&pn);
		usleep(500 * 1000);
	}
	if (st < 0)
		return -1;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return st;
}

struct bench_opts {
	struct bench_params p;
	const char *results, *accel;
	const char *cmd;		/* "report", "scenario", "compare" or NULL: run */
	bool allow_debug;
	bool dry_run;
};

/* Exit status of the option: -1 go on, 0 done (--help), 2 usage error. */
static int parse_opt(int c, char **argv, const char *shortopts, const struct option *lo,
		     struct bench_opts *o)
{
	struct bench_params *p = &o->p;
	long v;

	switch (c) {
	case 'c': return parse_int_opt("count", optarg, 1, 1000000, &p->count) ? 2 : -1;
	case 'r': return parse_int_opt("repeats", optarg, 1, 32, &p->repeats) ? 2 : -1;
	case 'L': return parse_int_opt("lat-rate", optarg, 1, 1000, &p->lat_low_rate) ? 2 : -1;
	case 'l': return parse_int_opt("lat-count", optarg, 1, 100000, &p->lat_low_count) ? 2 : -1;
	case 'H':
		return parse_int_opt("lat-half-count", optarg, 1, 1000000,
				     &p->lat_half_count) ? 2 : -1;
	case 'C': return parse_int_opt("cost-count", optarg, 1, 1000000, &p->cost_count) ? 2 : -1;
	case 'Y':
		return parse_int_opt("cost-repeats", optarg, 1, 99, &p->cost_repeats) ? 2 : -1;
	case 'q': return parse_int_opt("txqueuelen", optarg, 1, 1000000, &p->txqueuelen) ? 2 : -1;
	case 's':
		if (parse_int("sndbuf", optarg, 1, INT_MAX / 2, &v))
			return 2;
		p->sndbuf = v;
		return -1;
	case 'n': {
		char *end;

		p->netem_loss = strtod(optarg, &end);
		if (end == optarg || *end || !(p->netem_loss > 0 && p->netem_loss < 100))
			return cli_bad_value(PROG, "--netem-loss", optarg,
					     "a percentage in (0, 100)");
		return -1;
	}
	case 'p': return parse_paths(optarg, &p->methods) ? 2 : -1;
	case 'R':
		o->results = optarg;
		return -1;
	case 'a':
		if (strcmp(optarg, "auto") && strcmp(optarg, "kvm") && strcmp(optarg, "tcg"))
			return cli_bad_value(PROG, "--accel", optarg, "auto, kvm or tcg");
		o->accel = optarg;
		return -1;
	case 'D':
		o->allow_debug = true;
		return -1;
	case 'I':
		p->icount = 1;
		return -1;
	case 'N':
		o->dry_run = true;
		return -1;
	case 'h':
		fputs(usage, stdout);
		return 0;
	case 'V':
		cli_version(PROG);
		return 0;
	default:
		return cli_bad_option(PROG, argv, shortopts, lo);
	}
}

static int parse_args(int argc, char **argv, struct bench_opts *o)
{
	static const struct option lo[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "lat-rate", required_argument, NULL, 'L' },
		{ "lat-count", required_argument, NULL, 'l' },
		{ "lat-half-count", required_argument, NULL, 'H' },
		{ "cost-count", required_argument, NULL, 'C' },
		{ "cost-repeats", required_argument, NULL, 'Y' },
		{ "sndbuf", required_argument, NULL, 's' },
		{ "netem-loss", required_argument, NULL, 'n' },
		{ "paths", required_argument, NULL, 'p' },
		{ "txqueuelen", required_argument, NULL, 'q' },
		{ "results", required_argument, NULL, 'R' },
		{ "accel", required_argument, NULL, 'a' },
		{ "allow-debug", no_argument, NULL, 'D' },
		{ "icount", no_argument, NULL, 'I' },
		{ "dry-run", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	static const char shortopts[] = "h";
	int c, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1)
		if ((rc = parse_opt(c, argv, shortopts, lo, o)) >= 0)
			return rc;
	return -1;
}

/*
 * The command, the first word that is not an option (getopt has moved the
 * words after the options), and its count of RUNs. -1 to go on, else 2.
 */
static int parse_cmd(int argc, char **argv, struct bench_opts *o)
{
	int nargs = argc - optind - 1;

	if (optind == argc)
		return -1;
	o->cmd = argv[optind];
	if (!strcmp(o->cmd, "report")) {
		if (nargs != 1)
			return cli_bad_args(PROG, "report takes one RUN directory, not %d", nargs);
	} else if (!strcmp(o->cmd, "compare")) {
		if (nargs < 1 || nargs > BENCH_COMPARE_MAXRUNS)
			return cli_bad_args(PROG, "compare takes 1 to %d RUN directories, not %d",
					    BENCH_COMPARE_MAXRUNS, nargs);
	} else if (!strcmp(o->cmd, "scenario")) {
		if (nargs)
			return cli_bad_args(PROG, "scenario takes no argument: '%s'",
					    argv[optind + 1]);
	} else {
		return cli_bad_args(PROG, "unknown command '%s': report, scenario or compare",
				    o->cmd);
	}
	return -1;
}

#define API_JSON BPFWIRE_BUILD_ROOT "/kernel/api.json"

/*
 * Whether the built kernel has bpfwire's sndbuf extension
 * (kernel/patches/sndbuf), as its api.json says (kapi/, from its BTF): 1
 * yes, 0 no, -1 with a reason in err when api.json cannot tell.
 */
static int kernel_has_sndbuf(char *err, size_t errlen)
{
	char *text = read_file(API_JSON, NULL), msg[512];
	enum kapi_netpoll np;
	enum kapi_ksock ks;
	json_object *doc;
	bool sndbuf;
	int r;

	if (!text) {
		snprintf(err, errlen, "can't read %s: %s", API_JSON, errno_text(errno));
		return -1;
	}
	doc = json_tokener_parse(text);
	free(text);
	r = kapi_from_json(doc, &ks, &np, &sndbuf, msg, sizeof(msg));
	json_object_put(doc);
	if (r) {
		snprintf(err, errlen, "%s: %s", API_JSON, msg);
		return -1;
	}
	return sndbuf;
}

/*
 * ksock-sndbuf sizes the send buffer with --sndbuf, which a kernel without
 * the extension refuses: leave the path out and say so. -1 when nothing is
 * left to measure or the kernel's API cannot be read.
 */
static int drop_sndbuf_path(struct bench_params *p)
{
	char err[1024];
	int has = kernel_has_sndbuf(err, sizeof(err));

	if (has < 0) {
		pr_warn("can't tell whether the kernel has bpfwire's sndbuf extension: %s", err);
		return -1;
	}
	if (has)
		return 0;
	if (bench_without_sndbuf(p))
		printf(PROG ": the kernel lacks bpfwire's sndbuf extension "
		       "(kernel/patches/sndbuf; " API_JSON "): the remedy path ksock-sndbuf "
		       "is left out, the rest runs without it\n");
	if (!p->methods) {
		pr_warn("nothing left to measure: --paths named only ksock-sndbuf");
		return -1;
	}
	return 0;
}

/*
 * --dry-run: what the command would do, in one line. The options are
 * checked by now; report and compare also read their RUNs' parameters.
 */
static int dry_run(const struct bench_opts *o, char **runs, int nruns)
{
	char paths[256], config[PATH_MAX], err[1024];
	struct bench_params q = o->p;	/* asks whether ksock-sndbuf is in it */
	const char *kernel = "";

	if (o->cmd && !strcmp(o->cmd, "report")) {
		struct bench_params p;

		if (bench_params_load(runs[0], &p, err, sizeof(err))) {
			pr_warn("cannot measure: %s", err);
			return 1;
		}
		paths_str(p.methods, paths, sizeof(paths));
		printf(PROG " --dry-run: would remake %s/bench.{json,txt,svg} from its %s run "
		       "of %s\n", runs[0], p.icount ? "icount" : "wall-time", paths);
		return 0;
	}
	if (o->cmd && !strcmp(o->cmd, "compare")) {
		bool icount;

		if (bench_compare_check(runs, nruns, &icount, err, sizeof(err))) {
			pr_warn("compare: %s", err);
			return 1;
		}
		printf(PROG " --dry-run: would compare the %s figures of %d run%s\n",
		       icount ? "icount" : "wall-time", nruns, nruns == 1 ? "" : "s");
		return 0;
	}
	paths_str(o->p.methods, paths, sizeof(paths));
	if (o->cmd) {
		printf(PROG " --dry-run: would print the %sscenario of %s\n",
		       o->p.icount ? "icount " : "", paths);
		return 0;
	}
	/* Said, not refused: a dry run on a host without the kernel is fine. */
	snprintf(config, sizeof(config), "%s/kernel/config", BPFWIRE_BUILD_ROOT);
	if (access(config, R_OK))
		kernel = "; no kernel built yet, the run would refuse";
	else if (bench_config_has_lockdep(config) && !o->allow_debug)
		kernel = "; the kernel is the debug flavour, the run would refuse "
			 "(--allow-debug)";
	else if (bench_without_sndbuf(&q) && kernel_has_sndbuf(err, sizeof(err)) == 0)
		kernel = "; the kernel lacks bpfwire's sndbuf extension "
			 "(kernel/patches/sndbuf): ksock-sndbuf would be left out";
	if (o->p.icount)
		printf(PROG " --dry-run: would boot pair-icount once (accel %s) and count "
		       "instructions of %s: cost %d x %d opens, %d low-rate events; results in "
		       "%s%s\n", o->accel, paths, o->p.cost_repeats, o->p.cost_count,
		       o->p.lat_low_count, o->results ? o->results :
		       BPFWIRE_BUILD_ROOT "/results/bench-DATE", kernel);
	else
		printf(PROG " --dry-run: would boot pair once (accel %s) and measure %s: "
		       "%d events x %d repeats per path, netem loss %g%%; results in %s%s\n",
		       o->accel, paths, o->p.count, o->p.repeats, o->p.netem_loss,
		       o->results ? o->results : BPFWIRE_BUILD_ROOT "/results/bench-DATE",
		       kernel);
	return 0;
}

/* The kernel must be built, and not the debug flavour unless allowed. */
static int check_kernel(const char *config, bool allow_debug)
{
	if (access(config, R_OK)) {
		pr_warn("no kernel in %s (configure with -Dkernel=enabled and build first)",
			BPFWIRE_BUILD_ROOT);
		return -1;
	}
	if (bench_config_has_lockdep(config) && !allow_debug) {
		pr_warn("%s is the debug flavour (lockdep), which distorts the ratios.\n"
			"Use ./run bench, or: meson setup build-bench -Dkernel_debug=false && "
			"ninja -C build-bench && build-bench/bench/bpfwire-bench\n(--allow-debug "
			"runs anyway)", config);
		return -1;
	}
	return 0;
}

/* RUN/NAME: the first line cmd prints (the commit, for the README's figures). */
static void save_cmd(const char *run, const char *name, const char *cmd)
{
	char path[PATH_MAX + 64], line[256] = "";
	FILE *f = popen(cmd, "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		pclose(f);
	}
	line[strcspn(line, "\n")] = 0;
	snprintf(path, sizeof(path), "%s/%s", run, name);
	write_file(path, line[0] ? line : "unknown");
}

/* The host's load average, before and after: wall-time spreads depend on it. */
static void save_load(const char *run, const char *when)
{
	char path[PATH_MAX + 64], *old, *now = read_file("/proc/loadavg", NULL), buf[512];
	double a = 0, b = 0, c = 0;

	if (!now)
		return;
	sscanf(now, "%lf %lf %lf", &a, &b, &c);
	free(now);
	snprintf(path, sizeof(path), "%s/load.txt", run);
	old = strcmp(when, "start") ? read_file(path, NULL) : NULL;
	snprintf(buf, sizeof(buf), "%s%s%s %.2f %.2f %.2f", old ? old : "", old ? "; " : "", when,
		 a, b, c);
	free(old);
	write_file(path, buf);
}

/* RUN: the scenario, the parameters and the kernel's config, before the lab. */
static int prepare_run(const struct bench_opts *o, const char *config, char *run,
		       size_t len)
{
	char path[PATH_MAX + 64];
	FILE *f;
	int err;

	if (o->results) {
		snprintf(run, len, "%s", o->results);
	} else {
		time_t now = time(NULL);
		char stamp[32];

		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
		snprintf(run, len, "%s/results/bench-%s", BPFWIRE_BUILD_ROOT, stamp);
	}
	err = mkdir_p(run, 0755);
	if (err) {
		pr_warn("can't create %s: %s", run, errno_text(err));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/bench.scenario", run);
	f = fopen(path, "w");
	if (!f || bench_write_scenario(f, &o->p, path) || fclose(f)) {
		pr_warn("can't write %s: %s", path, errno_text(errno));
		return -1;
	}
	if (bench_params_save(run, &o->p)) {
		pr_warn("can't write %s/bench-params.json", run);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/kernel-config", run);
	if (copy_file(config, path)) {
		pr_warn("can't copy %s to %s", config, path);
		return -1;
	}
	save_cmd(run, "commit", "git -C '" BPFWIRE_SOURCE_ROOT "' describe --always --dirty "
		 "--abbrev=7 2>/dev/null");
	save_load(run, "start");
	return 0;
}

static int run_bench(struct bench_opts *o)
{
	char run[PATH_MAX], path[PATH_MAX + 64], err[1024], config[PATH_MAX];
	int rc;

	snprintf(config, sizeof(config), "%s/kernel/config", BPFWIRE_BUILD_ROOT);
	if (check_kernel(config, o->allow_debug) || drop_sndbuf_path(&o->p) ||
	    prepare_run(o, config, run, sizeof(run)))
		return 1;
	if (o->p.icount)
		printf("bpfwire-bench --icount: cost and low-rate latency, in guest instructions; "
		       "results in %s\n", run);
	else
		printf("bpfwire-bench: %d events x %d repeats per path; results in %s\n",
		       o->p.count, o->p.repeats, run);
	snprintf(path, sizeof(path), "%s/bench.scenario", run);
	rc = run_lab(path, run, o->accel);
	save_load(run, "end");
	if (rc) {
		pr_warn("cannot measure: the lab run failed (exit %d); see %s/summary.txt",
			rc, run);
		return 1;
	}
	printf("\n");
	if (bench_report(run, stdout, err, sizeof(err))) {
		pr_warn("cannot measure: %s", err);
		return 1;
	}
	printf("\nbench: %s/bench.txt, bench.json, bench.svg\n", run);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench_opts o = {
		.p = {
			.count = 10000, .repeats = 3, .lat_low_rate = 10, .lat_low_count = 200,
			.lat_half_count = 2000, .cost_count = 2000, .cost_repeats = 5,
			.sndbuf = 8 << 20, .methods = (1u << bench_nmethods) - 1,
		},
		.accel = "auto",
	};
	char err[1024], **runs;
	int rc, nruns;

	log_init(PROG, LOG_INFO);
	rc = parse_args(argc, argv, &o);
	if (rc < 0)
		rc = parse_cmd(argc, argv, &o);
	if (rc >= 0)
		return rc;
	runs = argv + optind + 1;
	nruns = argc - optind - 1;
	if (o.dry_run)
		return dry_run(&o, runs, nruns);

	if (o.cmd && !strcmp(o.cmd, "compare")) {
		if (bench_compare(runs, nruns, stdout, err, sizeof(err))) {
			pr_warn("compare: %s", err);
			return 1;
		}
		return 0;
	}
	if (o.cmd && !strcmp(o.cmd, "report")) {
		if (bench_report(runs[0], stdout, err, sizeof(err))) {
			pr_warn("cannot measure: %s", err);
			return 1;
		}
		return 0;
	}
	/* The half-rate latency run needs the same path's rate runs. */
	if (o.cmd)
		return bench_write_scenario(stdout, &o.p, "stdout") ? 1 : 0;
	return run_bench(&o);
}
