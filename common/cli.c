// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "cli.h"

void cli_version(const char *prog)
{
	printf("%s %s\n", prog, bpfwire_version);
}

static bool takes_value(int c, const char *shortopts, const struct option *longopts)
{
	const char *p = c > 0 && c < 256 ? strchr(shortopts, c) : NULL;

	if (p && p[1] == ':')
		return true;
	for (int i = 0; longopts && longopts[i].name; i++)
		if (!longopts[i].flag && longopts[i].val == c && longopts[i].has_arg == required_argument)
			return true;
	return false;
}

static void list_accepted(const char *shortopts, const struct option *longopts)
{
	fputs("accepted:", stderr);
	for (int i = 0; longopts && longopts[i].name; i++)
		fprintf(stderr, " --%s%s", longopts[i].name,
			longopts[i].has_arg == required_argument ? "=V" : "");
	for (const char *p = shortopts; *p; p++) {
		bool has_long = false;

		if (*p == ':' || *p == '+' || *p == '-')
			continue;
		for (int i = 0; longopts && longopts[i].name; i++)
			has_long |= !longopts[i].flag && longopts[i].val == *p;
		if (!has_long)
			fprintf(stderr, " -%c", *p);
	}
	fputc('\n', stderr);
}

int cli_bad_option(const char *prog, char **argv, const char *shortopts,
		   const struct option *longopts)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";

	if (optopt && takes_value(optopt, shortopts, longopts))
		fprintf(stderr, "%s: option '%s' needs a value\n", prog,
			word[0] == '-' && word[1] == '-' ? word : (char[]){ '-', (char)optopt, 0 });
	else if (optopt)
		fprintf(stderr, "%s: unknown option '-%c'\n", prog, optopt);
	else
		fprintf(stderr, "%s: unknown option '%s'\n", prog, word);
	list_accepted(shortopts, longopts);
	fprintf(stderr, "(%s --help for details)\n", prog);
	return CLI_EUSAGE;
}

int cli_bad_value(const char *prog, const char *option, const char *value,
		  const char *accepted)
{
	fprintf(stderr, "%s: %s: '%s' is not %s\n", prog, option, value, accepted);
	return CLI_EUSAGE;
}

int cli_bad_args(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s --help for details)\n", prog);
	return CLI_EUSAGE;
}
