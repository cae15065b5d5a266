/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one option-parser style. Every executable parses with getopt_long,
 * lets options stand anywhere among its arguments (no '+': GNU permutes,
 * as git, ip and meson do; "--" still ends the options), and sets
 * opterr = 0 so that a bad option is reported here, by name, with what is
 * accepted. Usage errors exit 2 (CLI_EUSAGE), --help prints to stdout and
 * exits 0, --version prints "PROG VERSION".
 */
#ifndef BPFWIRE_COMMON_CLI_H
#define BPFWIRE_COMMON_CLI_H

#include <getopt.h>
#include <stdio.h>

#define CLI_EUSAGE 2

/* Meson's project version, then `git describe` of the tree it was built from. */
extern const char bpfwire_version[];

/* "PROG VERSION\n" on stdout. */
void cli_version(const char *prog);

/*
 * After getopt_long returned '?' or ':' (opterr = 0): names the option that
 * was wrong (unknown, or missing its value) and lists the accepted ones, on
 * stderr, then "(PROG --help for details)". Returns CLI_EUSAGE.
 */
int cli_bad_option(const char *prog, char **argv, const char *shortopts,
		   const struct option *longopts);

/* "PROG: OPTION: 'VALUE' is not ACCEPTED"; returns CLI_EUSAGE. */
int cli_bad_value(const char *prog, const char *option, const char *value,
		  const char *accepted);

/* "PROG: WHAT (PROG --help for details)" for a wrong count of arguments. */
int cli_bad_args(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* BPFWIRE_COMMON_CLI_H */
