// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-selftests-run: run a series' test_progs inside a lab guest, one
 * test at a time (test_progs -a NAME, in a process group of its own), with
 * a watchdog: a test that gives no result within --timeout seconds is
 * ended as FAIL with the reason, after the guest's state at the hang is
 * taken (the maps its tasks hold, via bpftool; dmesg's tail; the kernel
 * stacks of its tasks). test_progs has no watchdog of its own, and a test
 * that waits for an event the kernel dropped waits forever.
 *
 * Output: TAP, one line per subtest and per test, in test_progs' order;
 * a failed test's own output follows as '# ' lines, escaped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "escape.h"
#include "file.h"
#include "log.h"

#define PROG "bpfwire-selftests-run"
#define OUT_MAX (1 << 20)
#define MAX_TESTS 256
#define MAX_XFAIL 16

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " --test-progs PATH [--timeout S] [--evidence DIR]\n"
"       [--timeout NAME=S]... [--bpftool PATH] [--xfail NAME]... [--dry-run]\n"
"       [--vcost PATH --objects DIR] [NAME...]\n"
"\n"
"Runs each test of test_progs (NAME..., default: all that test_progs -l\n"
"lists) as 'test_progs -a NAME' and prints TAP: a line per subtest and\n"
"per test. A test with no result after S seconds (default 120) is FAIL\n"
"('watchdog: ...'); before it is killed, its tasks' kernel stacks, the\n"
"maps they hold (bpftool map dump) and dmesg's tail are printed and\n"
"written to DIR/NAME.hang.txt. --timeout NAME=S: NAME's own watchdog.\n"
"\n"
"  --xfail NAME   NAME is meant to fail (a test that hangs on purpose):\n"
"                 its line is '# TODO', so a pass of it is the failure\n"
"  --vcost PATH --objects DIR\n"
"                 after the tests, the verifier's cost of each program of\n"
"                 DIR/*.bpf.o (the series' own), as BPF CI's veristat:\n"
"                 bpfwire-vcost's lines, numbered on\n"
"\n"
"Exit: 0 every test passed (or failed as --xfail said), 1 otherwise,\n"
"2 usage error.\n");
}

struct ctx {
	const char *test_progs, *bpftool, *evidence, *vcost, *objects;
	int timeout;
	const char *xfail[MAX_XFAIL];
	int nxfail;
	char *short_name[MAX_XFAIL];	/* --timeout NAME=S: a watchdog of its own */
	int short_secs[MAX_XFAIL], nshort;
	int tap_n, failed, subtests, tests;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Fork argv with stdout and stderr into a pipe, in a new process group.
 * Not proc.h's spawn: a test_progs that cannot chdir or exec is a status
 * here (126, 127) that its TAP line reports, not a failed start.
 */
static pid_t spawn(char *const argv[], const char *dir, int *rfd)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		if (dir && chdir(dir))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	setpgid(pid, pid);
	*rfd = p[0];
	return pid;
}

/* Read fd until EOF or the deadline; true on EOF. */
static bool collect(int fd, char *buf, size_t *len, double deadline)
{
	for (;;) {
		struct pollfd pf = { fd, POLLIN, 0 };
		double left = deadline - now();
		ssize_t n;
		char tmp[4096];

		if (left <= 0)
			return false;
		if (poll(&pf, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (!pf.revents)
			continue;
		n = read(fd, tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return true;
		if (*len + (size_t)n < OUT_MAX) {
			memcpy(buf + *len, tmp, (size_t)n);
			*len += (size_t)n;
		}
	}
}

/* Run argv to the end (bounded by secs), its output into a new string. */
static char *run_capture(char *const argv[], int secs, int *status)
{
	char *buf = calloc(1, OUT_MAX);
	size_t len = 0;
	int fd;
	pid_t pid;

	*status = -1;
	if (!buf)
		return NULL;
	pid = spawn(argv, NULL, &fd);
	if (pid < 0)
		return buf;
	if (!collect(fd, buf, &len, now() + secs))
		kill(-pid, SIGKILL);
	close(fd);
	waitpid(pid, status, 0);
	buf[len] = 0;
	return buf;
}

/* The guest at a hang: every task of process group pgid, its stacks, its maps, dmesg. */
static int timeout_of(const struct ctx *c, const char *name)
{
	for (int i = 0; i < c->nshort; i++)
		if (!strcmp(c->short_name[i], name))
			return c->short_secs[i];
	return c->timeout;
}

static char *hang_evidence(const struct ctx *c, const char *name, pid_t pgid)
{
	char *doc = NULL, path[320];
	size_t len = 0;
	FILE *m = open_memstream(&doc, &len);
	DIR *proc = opendir("/proc");
	struct dirent *de;
	int map_ids[64], nmaps = 0;

	fprintf(m, "watchdog: %s gave no result in %d s; the guest at the hang:\n",
	       name, timeout_of(c, name));
	while (proc && (de = readdir(proc))) {
		char *stat, *cl, *fdinfo;
		pid_t pid = atoi(de->d_name);
		int pg = 0;
		char state = '?';
		DIR *tasks, *fds;
		struct dirent *te;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		stat = read_file(path, NULL);
		if (!stat)
			continue;
		cl = strrchr(stat, ')');
		if (!cl || sscanf(cl + 1, " %c %*d %d", &state, &pg) != 2 || pg != pgid) {
			free(stat);
			continue;
		}
		*cl = 0;
		fprintf(m, "task %d (%s) state %c\n", pid, strchr(stat, '(') + 1, state);
		free(stat);
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		tasks = opendir(path);
		while (tasks && (te = readdir(tasks))) {
			char *stack;

			if (te->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%s/stack", pid, te->d_name);
			stack = read_file(path, NULL);
			fprintf(m, " thread %s kernel stack:\n%s", te->d_name,
			       stack ? stack : "  (unreadable)\n");
			free(stack);
		}
		if (tasks)
			closedir(tasks);
		snprintf(path, sizeof(path), "/proc/%d/fdinfo", pid);
		fds = opendir(path);
		while (fds && (te = readdir(fds))) {
			char *id;

			if (te->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, te->d_name);
			fdinfo = read_file(path, NULL);
			id = fdinfo ? strstr(fdinfo, "map_id:") : NULL;
			if (id && nmaps < 64) {
				int v = atoi(id + 7);
				bool seen = false;

				for (int i = 0; i < nmaps; i++)
					seen |= map_ids[i] == v;
				if (!seen)
					map_ids[nmaps++] = v;
			}
			free(fdinfo);
		}
		if (fds)
			closedir(fds);
	}
	if (proc)
		closedir(proc);
	for (int i = 0; i < nmaps; i++) {
		char id[16], *out;
		char *argv[] = { (char *)c->bpftool, "map", "dump", "id", id, NULL };
		char *argv2[] = { (char *)c->bpftool, "map", "show", "id", id, NULL };
		int st;

		snprintf(id, sizeof(id), "%d", map_ids[i]);
		out = run_capture(argv2, 10, &st);
		fprintf(m, "map id %s: %s", id, out ? out : "(bpftool failed)\n");
		free(out);
		out = run_capture(argv, 10, &st);
		fprintf(m, "%s", out ? out : "");
		free(out);
	}
	if (!nmaps)
		fprintf(m, "maps: none held by the test's tasks\n");
	{
		char *argv[] = { "/bin/sh", "-c", "dmesg | tail -n 30", NULL };
		int st;
		char *out = run_capture(argv, 10, &st);

		fprintf(m, "dmesg (last 30 lines):\n%s", out ? out : "");
		free(out);
	}
	fclose(m);
	return doc;
}

static void diag(const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		fputs("# ", stdout);
		esc_fwrite(stdout, p, n, 0);
		fputc('\n', stdout);
		p = e ? e + 1 : NULL;
	}
}

static bool is_xfail(const struct ctx *c, const char *name)
{
	for (int i = 0; i < c->nxfail; i++)
		if (!strcmp(c->xfail[i], name))
			return true;
	return false;
}

/* One TAP line; a --xfail test's lines are TODO. */
static void tap(struct ctx *c, bool ok, bool skip, const char *name, const char *reason,
		bool xfail)
{
	printf("%sok %d - ", ok ? "" : "not ", ++c->tap_n);
	esc_fputs(stdout, name, 0);
	if (reason) {
		fputs(": ", stdout);
		esc_fputs(stdout, reason, 0);
	}
	if (xfail)
		printf(" # TODO meant to fail (--xfail)");
	else if (skip)
		printf(" # SKIP");
	printf("\n");
	if (!ok && !xfail)
		c->failed++;
	else if (ok && xfail)
		c->failed++;	/* it was meant to fail */
}

/* test_progs' result lines: "#N/M test/sub:RES" and "#N test:RES". */
static int relay_results(struct ctx *c, const char *name, const char *out, bool xfail,
			 bool *test_line)
{
	const char *p = out;
	int fails = 0;

	*test_line = false;
	while (p && *p) {
		const char *e = strchr(p, '\n');
		char line[512], num[32], tname[400], res[16];
		size_t n = e ? (size_t)(e - p) : strlen(p);

		snprintf(line, sizeof(line), "%.*s", (int)(n < 511 ? n : 511), p);
		p = e ? e + 1 : NULL;
		if (sscanf(line, "#%31s %399[^:]:%15[A-Z]", num, tname, res) != 3)
			continue;
		bool sub = strchr(num, '/') != NULL;
		bool ok = strcmp(res, "FAIL") != 0;

		if (!sub && strcmp(tname, name))
			continue;
		if (sub)
			c->subtests++;
		else
			*test_line = true;
		fails += !ok;
		/* --xfail is about the test's result; its subtests count as ever */
		tap(c, ok, !strcmp(res, "SKIP"), tname, NULL, xfail && !sub);
	}
	return fails;
}

static void run_one(struct ctx *c, const char *name)
{
	char *buf = calloc(1, OUT_MAX), dir[PATH_MAX];
	char *argv[] = { (char *)c->test_progs, "-a", (char *)name, NULL };
	bool xfail = is_xfail(c, name), done, test_line;
	size_t len = 0;
	double t0 = now();
	int fd, status = 0, fails;
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s", c->test_progs);
	c->tests++;
	pid = buf ? spawn(argv, dirname(dir), &fd) : -1;
	if (pid < 0) {
		tap(c, false, false, name, "could not start test_progs", xfail);
		free(buf);
		return;
	}
	done = collect(fd, buf, &len, t0 + timeout_of(c, name));
	buf[len] = 0;
	if (!done) {
		char *ev = hang_evidence(c, name, pid), why[160];

		kill(-pid, SIGKILL);
		close(fd);
		waitpid(pid, &status, 0);
		relay_results(c, name, buf, xfail, &test_line);
		snprintf(why, sizeof(why), "watchdog: no result in %d s, killed", timeout_of(c, name));
		tap(c, false, false, name, why, xfail);
		diag(buf);
		diag(ev);
		if (c->evidence && ev) {
			char path[PATH_MAX];

			snprintf(path, sizeof(path), "%s/%s.hang.txt", c->evidence, name);
			if (write_file_atomic(path, ev))
				printf("# could not write %s\n", path);
			else
				printf("# evidence in %s\n", path);
		}
		free(ev);
		free(buf);
		return;
	}
	close(fd);
	waitpid(pid, &status, 0);
	fails = relay_results(c, name, buf, xfail, &test_line);
	if (!test_line) {
		char why[96];

		snprintf(why, sizeof(why), "test_progs ended (status %#x) without a result", status);
		tap(c, false, false, name, why, xfail);
		fails++;
	}
	if (fails || !WIFEXITED(status) || WEXITSTATUS(status))
		diag(buf);
	printf("# %s: %.1f s\n", name, now() - t0);
	free(buf);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_bpf_o(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 6 && !strcmp(d->d_name + n - 6, ".bpf.o");
}

/* bpfwire-vcost on each object of --objects, its TAP lines numbered on. */
static void verifier_cost(struct ctx *c)
{
	struct dirent **ents;
	char **argv, *out, *save = NULL;
	int n = scandir(c->objects, &ents, is_bpf_o, by_name), st = 0, a = 0;

	if (n <= 0) {
		printf("# verifier cost: no *.bpf.o in %s\n", c->objects);
		return;
	}
	argv = calloc((size_t)n * 2 + 2, sizeof(*argv));
	if (!argv) {
		tap(c, false, false, "verifier cost", "out of memory", false);
		return;
	}
	argv[a++] = (char *)c->vcost;
	for (int i = 0; i < n; i++) {
		argv[a++] = "--object";
		if (asprintf(&argv[a++], "%s/%s", c->objects, ents[i]->d_name) < 0)
			argv[--a] = NULL;
	}
	out = run_capture(argv, 300, &st);
	for (char *l = out ? strtok_r(out, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char *dash = strstr(l, " - ");
		bool ok = !strncmp(l, "ok ", 3);

		if ((ok || !strncmp(l, "not ok ", 7)) && dash) {
			printf("%sok %d%s\n", ok ? "" : "not ", ++c->tap_n, dash);
			c->failed += !ok && !strstr(dash, "# TODO");
		} else if (strncmp(l, "1..", 3)) {
			fputs(l[0] == '#' ? "" : "# ", stdout);
			esc_fputs(stdout, l, 0);
			putchar('\n');
		}
	}
	if (!out || !WIFEXITED(st) || WEXITSTATUS(st)) {
		char why[64];

		snprintf(why, sizeof(why), "bpfwire-vcost exited with status %#x", st);
		tap(c, false, false, "verifier cost", why, false);
	}
	for (int i = 1; i < a; i += 2)
		free(argv[i + 1]);
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	free(argv);
	free(out);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "test-progs", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "evidence", required_argument, NULL, 'e' },
		{ "bpftool", required_argument, NULL, 'b' },
		{ "xfail", required_argument, NULL, 'x' },
		{ "vcost", required_argument, NULL, 'c' },
		{ "objects", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	struct ctx c = { .bpftool = "/usr/sbin/bpftool", .timeout = 120 };
	char *names[MAX_TESTS], *list = NULL;
	int n = 0, ch;
	bool dry = false;
	double t0 = now();

	log_init(PROG, LOG_WARN);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (ch) {
		case 't': c.test_progs = optarg; break;
		case 'T': {
			const char *eq = strchr(optarg, '=');
			char *e;
			long v = strtol(eq ? eq + 1 : optarg, &e, 10);

			if (*e || v < 1 || v > 86400 || (eq && c.nshort == MAX_XFAIL))
				return cli_bad_value(PROG, "--timeout", optarg,
						     "seconds (1 to 86400), or NAME=SECONDS (16 at most)");
			if (eq) {
				c.short_name[c.nshort] = strndup(optarg, (size_t)(eq - optarg));
				c.short_secs[c.nshort++] = (int)v;
			} else {
				c.timeout = (int)v;
			}
			break;
		}
		case 'e': c.evidence = optarg; break;
		case 'b': c.bpftool = optarg; break;
		case 'c': c.vcost = optarg; break;
		case 'o': c.objects = optarg; break;
		case 'x':
			if (c.nxfail == MAX_XFAIL)
				return cli_bad_args(PROG, "at most %d --xfail", MAX_XFAIL);
			c.xfail[c.nxfail++] = optarg;
			break;
		case 'n': dry = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, ":h", opts);
		}
	}
	if (!c.test_progs)
		return cli_bad_args(PROG, "--test-progs is required");
	if (!c.vcost != !c.objects)
		return cli_bad_args(PROG, "--vcost and --objects go together");
	if (dry) {
		printf(PROG ": dry run: would run %s, watchdog %d s\n", c.test_progs, c.timeout);
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (c.evidence)
		mkdir_p(c.evidence, 0755);
	if (optind < argc) {
		for (int i = optind; i < argc && n < MAX_TESTS; i++)
			names[n++] = argv[i];
	} else {
		char *la[] = { (char *)c.test_progs, "-l", NULL };
		int st;
		char *save = NULL;

		list = run_capture(la, 60, &st);
		if (!list || !WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("Bail out! %s -l failed (status %#x)\n", c.test_progs, st);
			diag(list);
			return 1;
		}
		for (char *t = strtok_r(list, "\n", &save); t && n < MAX_TESTS;
		     t = strtok_r(NULL, "\n", &save))
			if (*t)
				names[n++] = t;
	}
	printf("# %d tests, watchdog %d s each\n", n, c.timeout);
	for (int i = 0; i < n; i++)
		run_one(&c, names[i]);
	printf("# selftests: ran %d tests and %d subtests, %d failed, in %.0f s\n", c.tests,
	       c.subtests, c.failed, now() - t0);
	if (c.vcost)
		verifier_cost(&c);
	printf("1..%d\n", c.tap_n);
	free(list);
	return c.failed || !c.tests ? 1 : 0;
}
