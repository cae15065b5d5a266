/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A meson test log (meson-logs/NAME.json: one JSON object per line, each test's
 * name, result and stdout) and the TAP cases in each test's stdout, for the
 * review's comparison with a baseline. The text comes from test output,
 * which quotes guests: it is data, escaped wherever it is printed.
 */
#ifndef BPFWIRE_REVIEW_TESTLOG_H
#define BPFWIRE_REVIEW_TESTLOG_H

#include <stdbool.h>
#include <stddef.h>

/* Ordered worst to best: a lower rank in the review than in the base is worse. */
enum tl_rank { TL_FAIL = 0, TL_SKIP = 1, TL_TODO = 2, TL_PASS = 3 };

/* One TAP line; a subtest's id is "PARENT/DESC". */
struct tl_case {
	char *id;
	enum tl_rank rank;
	char *note;	/* the directive's text (a SKIP's reason), or "" */
};

struct tl_test {
	char *name;	/* "kernel-suite", without meson's "project:suite / " */
	char *result;	/* meson's: OK, FAIL, SKIP, EXPECTEDFAIL, TIMEOUT, ... */
	enum tl_rank rank;
	double duration;	/* meson's, seconds; 0 when the line has none */
	char *results_dir;	/* a scenario's "results: DIR" line, or NULL */
	struct tl_case *cases;
	size_t ncases;
	char *raw;	/* the log's line, kept with the review's results */
	/*
	 * kernel-tests' "#     found     PROTOTYPE" comment lines (a kfunc of an
	 * API it does not know, as the kernel's BTF has it), one a line; or NULL
	 */
	char *protos;
};

struct tl_log {
	struct tl_test *tests;
	size_t n;
};

/* Meson's result string to a rank. */
enum tl_rank tl_result_rank(const char *result);
const char *tl_rank_name(enum tl_rank r);
/*
 * Parse TAP text into cases (appended to *cases). Indented lines are a
 * subtest's, named after the parent line that follows them (TAP 14).
 * A description used twice gets " #N" (its TAP number). Returns 0 or -ENOMEM.
 */
int tl_parse_tap(const char *text, struct tl_case **cases, size_t *n);
/*
 * Load PATH (a meson test log); when a test appears more than once, the
 * last line wins. Returns 0, or -errno with err said.
 */
int tl_load(const char *path, struct tl_log *log, char *err, size_t errlen);
/* Add one test from a testlog line's JSON text (for tl_load and merges). */
int tl_add_line(struct tl_log *log, const char *line, char *err, size_t errlen);
/*
 * Each case id that names the build directory root (a test's argument
 * path) names "BUILD" instead, so two builds' cases match. 0 or -ENOMEM.
 */
int tl_rename_root(struct tl_log *log, const char *root);
struct tl_test *tl_find(const struct tl_log *log, const char *name);
/* t's case named id, or NULL (t NULL: none). */
const struct tl_case *tl_find_case(const struct tl_test *t, const char *id);
void tl_free(struct tl_log *log);

#endif /* BPFWIRE_REVIEW_TESTLOG_H */
