// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-lab's command line, shared by every command: the common options,
 * the messages of a usage error, --dry-run's line, --help's topology list.
 */
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmdline.h"
#include "lab-config.h"
#include "log.h"

const char *opt_run;
/* --dry-run: parse and resolve everything, say what would happen, exit 0. */
bool opt_dry_run;
/* "bpfwire-lab COMMAND", the prefix of a usage error. */
char cmd_prog[64] = "bpfwire-lab";

/* A wrong number of arguments: what was expected, what came. */
int bad_args(int argc, char **argv, const char *want)
{
	char got[256] = "";

	for (int i = 0; i < argc && i < 4; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s'%s'", i ? " " : ": ", argv[i]);
	return cli_bad_args(cmd_prog, "expects %s; got %d argument%s%s%s", want, argc, argc == 1 ? "" : "s",
			    got, argc > 4 ? " ..." : "");
}

/* Every topology under SOURCE/topology, for the usage of up and check. */
static void print_topologies(FILE *f)
{
	char dir[PATH_MAX], names[4096] = "";
	struct dirent **de;
	int n;

	snprintf(dir, sizeof(dir), "%s/topology", BPFWIRE_SOURCE_ROOT);
	n = scandir(dir, &de, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(de[i]->d_name);

		if (l > 5 && !strcmp(de[i]->d_name + l - 5, ".topo") &&
		    strlen(names) + l < sizeof(names) - 8)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), " %.*s", (int)(l - 5),
				 de[i]->d_name);
		free(de[i]);
	}
	if (n >= 0)
		free(de);
	fprintf(f, "Topologies in %s:%s\n", dir, names[0] ? names : " (none)");
}

void print_usage(FILE *f, const char *usage)
{
	fputs(usage, f);
	if (strstr(usage, "TOPOLOGY"))
		print_topologies(f);
}

/* The long name of the option with value c, for a bad value's message. */
static const char *opt_name(const struct option *opts, int c)
{
	for (int i = 0; opts[i].name; i++)
		if (opts[i].val == c)
			return opts[i].name;
	return "?";
}

/*
 * Shared options: --run ID, --help, -v, --dry-run, --version. Options may
 * stand anywhere among the arguments (getopt permutes; "--" ends them).
 * Returns optind, or -1 (help, version) / -2 (bad usage, said).
 */
int parse_common(int argc, char **argv, const char *usage, const char *extra_short,
			const struct option *extra, int (*cb)(int, const char *, void *), void *ctx)
{
	struct option opts[24] = {
		{ "run", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "version", no_argument, NULL, 'V' },
	};
	char shortopts[64];
	int n = 5, c;

	for (int i = 0; extra && extra[i].name && n < 23; i++)
		opts[n++] = extra[i];
	snprintf(shortopts, sizeof(shortopts), "r:hv%s", extra_short ? extra_short : "");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			opt_run = optarg;
			break;
		case 'h':
			print_usage(stdout, usage);
			return -1;
		case 'V':
			cli_version("bpfwire-lab");
			return -1;
		case 'v':
			log_level = LOG_DEBUG;
			break;
		case 'n':
			opt_dry_run = true;
			break;
		case '?':
		case ':':
			cli_bad_option(cmd_prog, argv, shortopts, opts);
			return -2;
		default:
			if (cb && !cb(c, optarg, ctx))
				break;
			if (optarg)
				fprintf(stderr, "%s: --%s: '%s' is not accepted\n", cmd_prog, opt_name(opts, c), optarg);
			else
				fprintf(stderr, "%s: --%s is not accepted here\n", cmd_prog, opt_name(opts, c));
			print_usage(stderr, usage);
			return -2;
		}
	}
	return optind;
}

int parse_share_mib(const char *arg, unsigned *mib)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (end == arg || *end || !v || v > 65536)
		return -1;
	*mib = (unsigned)v;
	return 0;
}

/* --dry-run's one line, after the arguments checked out: exit 0. */
int dry_run_say(const char *fmt, ...)
{
	va_list ap;

	printf("%s: dry run: would ", cmd_prog);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return 0;
}
