// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-trigger: cause exactly N security events at a steady pace, so a
 * scenario knows how many datagrams a sender must produce. A shell loop
 * cannot do this under TCG: each sleep(1) process costs more than the
 * interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "errnames.h"
#include "proc.h"
#include "timeutil.h"

#define PROG "bpfwire-trigger"

static const char usage[] =
"usage: " PROG " (--open PATH | --exec PATH) [--count N] [--interval-ms MS]\n"
"Open (read-only) or execute PATH N times (default 1), MS apart (default 0),\n"
"then print how many succeeded and how long it took. Exit 1 if any failed,\n"
"2 a usage error.\n";

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end || *out < min || *out > max ? -1 : 0;
}

static int do_exec(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	struct spawn_opts so = { .inherit = true, .no_path = true };
	pid_t pid = spawn(argv, &so);
	int status;

	if (pid < 0 || proc_wait(pid, -1, &status) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) != 127 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "open", required_argument, NULL, 'o' },
		{ "exec", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'n' },
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	static const char shortopts[] = "o:e:n:i:h";
	const char *path = NULL;
	long count = 1, interval = 0, done = 0;
	int c, exec_mode = 0;
	double t0, next;

	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'o': path = optarg; exec_mode = 0; break;
		case 'e': path = optarg; exec_mode = 1; break;
		case 'n':
			if (parse_long(optarg, 0, 10000000, &count))
				return cli_bad_value(PROG, "--count", optarg, "a number in [0, 10000000]");
			break;
		case 'i':
			if (parse_long(optarg, 0, 3600000, &interval))
				return cli_bad_value(PROG, "--interval-ms", optarg,
						     "a number in [0, 3600000]");
			break;
		case 'h': fputs(usage, stdout); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, shortopts, opts);
		}
	}
	if (optind != argc)
		return cli_bad_args(PROG, "unexpected argument '%s'", argv[optind]);
	if (!path)
		return cli_bad_args(PROG, "missing --open PATH or --exec PATH");

	t0 = next = now_s();
	for (long i = 0; i < count; i++) {
		int r;

		if (exec_mode) {
			r = do_exec(path);
		} else {
			int fd = open(path, O_RDONLY | O_CLOEXEC);

			r = fd < 0 ? -1 : close(fd);
		}
		if (r == 0)
			done++;
		else
			fprintf(stderr, PROG ": %s %s: %s\n", exec_mode ? "exec" : "open",
				path, errno_str(errno));
		next += interval / 1000.0;
		if (interval && i + 1 < count) {
			double d = next - now_s();

			if (d > 0) {
				struct timespec ts = { (time_t)d, (long)((d - (time_t)d) * 1e9) };

				nanosleep(&ts, NULL);
			}
		}
	}
	printf(PROG ": %ld of %ld %s of %s in %.2f s\n", done, count,
	       exec_mode ? "execs" : "opens", path, now_s() - t0);
	return done == count ? 0 : 1;
}
