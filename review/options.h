/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-review's command line: its options, usage text and checks. */
#ifndef REVIEW_OPTIONS_H
#define REVIEW_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#define PROG "bpfwire-review"

/* The verdict's statuses: 0 nothing worse, 1 something worse. */
#define REVIEW_WORSE 1
#define REVIEW_NOBUILD 2
/* pick_kernel's: a signal stopped it (main says so: interrupted()) */
#define REVIEW_STOPPED (-2)

struct opts {
	const char *series, *base, *name, *source, *netpoll, *tests, *build_root, *compare, *kernel;
	const char *known_flaky;	/* the list of known flaky cases (default review/known-flaky) */
	char config[4096];
	int retries, retry_budget;
	unsigned insns_threshold;	/* percent: a verifier cost rise over it is changed */
	bool dry, strict, all, flaky_report;
};

/* --retries' bound, and its default and --retry-budget's (seconds) */
#define RETRIES_MAX 10
#define RETRIES_DEFAULT 2
#define RETRY_BUDGET_DEFAULT 600

extern const char review_usage[];

/* 0, -1 after --help or --version, else an exit status (2). */
int review_parse(int argc, char **argv, struct opts *o);
/* PATH made absolute in out (PATH_MAX): 0, or 2 with one line. */
int review_absolute(const char *what, const char *path, char *out, size_t len);
/* --config's fragments, each a regular file, absolute and comma-separated. */
int review_fragments(const char *list, char *out, size_t len);

#endif
