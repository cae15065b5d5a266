/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Only what the change can reach. review/reach.map maps the paths and the
 * kfuncs a series touches (series.h's series_touch) to families: ksock,
 * netpoll, ... A test sees the families its scenario's `needs` names
 * (scenarios/README.md) and those the map's `test` rules give it. By
 * default a review runs the tests that see a family the series reaches,
 * and says of every other one why it did not run. A path no rule maps, a
 * kfunc the series defines that no rule maps, or a series that could not
 * be read whole runs every test, and says why: nothing is skipped
 * silently.
 */
#ifndef BPFWIRE_REVIEW_REACH_H
#define BPFWIRE_REVIEW_REACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "series.h"

/*
 * The map, a rule a line ('#' starts a comment line):
 *   file GLOB FAMILY...    a path the series touches (the first rule whose
 *                          fnmatch(3) GLOB matches it decides; '*' spans '/')
 *   kfunc GLOB FAMILY...   a kfunc it defines, registers or changes (the first
 *                          rule that matches decides)
 *   test GLOB FAMILY...    the tests whose name GLOB matches see these families
 *                          too (every rule that matches adds)
 *   fallback TEST...       when the series reaches no test: these run
 * FAMILY is lower-case letters, digits, '-' and '_'; in a file or kfunc
 * rule `all` (every test) or `none` (no test) stands alone.
 */
enum rc_kind { RC_FILE, RC_KFUNC, RC_TEST, RC_FALLBACK };

struct rc_rule {
	enum rc_kind kind;
	char *glob;		/* NULL for fallback */
	char **words;		/* families; fallback: test names */
	size_t nwords;
	int line;
};

struct rc_map {
	char *path;
	struct rc_rule *r;
	size_t n;
};

/* 0, or -1 with "PATH:LINE: what is wrong" (or "PATH: errno") in err. */
int rc_load(const char *path, struct rc_map *m, char *err, size_t errlen);
/* The same on text; path names it in errors. */
int rc_parse(const char *path, const char *text, size_t len, struct rc_map *m, char *err, size_t errlen);
void rc_map_free(struct rc_map *m);

/* A path or a kfunc of the series, and what the map makes of it. */
struct rc_src {
	char *name;
	char *families;		/* "ksock netpoll", "all", "none"; NULL: no rule maps it */
	int line;		/* the rule's line, 0 when none */
};

struct rc_test {
	char *name;
	bool run;
	char *sees;		/* its families, space-separated; NULL: nothing says */
	char *why;
};

struct rc_sel {
	bool all;		/* every test runs */
	char *why_all;
	char **reached;		/* the families the series reaches */
	size_t nreached;
	struct rc_src *files, *kfuncs;
	size_t nfiles, nkfuncs;
	struct rc_test *t;
	size_t n;
	char *map;		/* the map's path, for the text */
	char *shared;		/* what the hunks the baseline shares left out, or NULL */
};

/*
 * The patches beside the series (hunks.h): own, bpfwire's in the review's
 * kernel (the lab's series, the netpoll series); base, every patch of the
 * baseline's kernel, or the base series (--base SERIES; own then empty).
 * A hunk both kernels carry does not count; a hunk only the baseline's
 * has counts as the series' (the series takes it away). what names base.
 */
struct rc_base {
	char *own, *base;
	size_t own_len, base_len;
	char what[256];
};

/*
 * From two builds' kernel/patches.list (bpfwire's patches in each kernel,
 * a path a line, written by root's meson): 0, or -1 when either cannot be
 * read (b then knows nothing: every hunk of the series counts).
 */
int rc_base_builds(const char *base_build, const char *review_build, struct rc_base *b);
/* From the base series (an mbox or a patch directory): 0 or -1. */
int rc_base_series(const char *base_series, struct rc_base *b);
void rc_base_free(struct rc_base *b);

/*
 * Which of names (a review's candidate tests) run. forced: "--all" or
 * "--tests" when the command chose, else NULL. scn_dir: the scenarios'
 * folder, where a test's `needs` is read. 0, or -1 out of memory.
 */
int rc_select(const struct rc_map *m, const struct series_touch *touch, const char *forced, const char *scn_dir,
	      char *const *names, size_t n, struct rc_sel *sel);
void rc_sel_free(struct rc_sel *sel);
const struct rc_test *rc_find(const struct rc_sel *sel, const char *name);
/* Whether the series reaches family. */
bool rc_reaches(const struct rc_sel *sel, const char *family);
/* Keeps the names of the tests that run, in order; frees the others'. */
void rc_keep(const struct rc_sel *sel, char **names, int *n);
/* The section: what the series touches, and each test run or not, with why. */
void rc_write_text(FILE *f, const struct rc_sel *sel);
json_object *rc_to_json(const struct rc_sel *sel);
/* The same section through the logger (pr_info), a line each, before the tests run. */
void rc_log(const struct rc_sel *sel);
/*
 * The review's hook: what SERIES touches (series_touches; with base, only
 * the hunks its kernel and the baseline's do not share), which of names
 * run (rc_select), and names cut to those (rc_keep). 0, or -1 with err.
 */
int rc_review(const struct rc_map *m, const char *series, const struct rc_base *base, const char *forced,
	      const char *scn_dir, char **names, int *n, struct rc_sel *sel, char *err, size_t errlen);
/*
 * The tests a review would consider, from the source tree alone (a dry
 * run, before any build): only's comma-separated names (--tests), else
 * kernel-suite, agent-guest, selftests when the series carries selftests,
 * and each scenario of scn_dir. 0 or -1.
 */
int rc_candidates(const char *scn_dir, const char *only, bool selftests, char ***names, int *n);

#endif /* BPFWIRE_REVIEW_REACH_H */
