/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two runs side by side (`./run review` calls it per scenario against a
 * baseline). cmp_load reads RUN_A/summary.json and RUN_B/summary.json and
 * matches, into a struct of plain strings:
 *
 * - steps (every op but check) and checks, matched by line number, op and
 *   what; a step whose line moved is matched by op and what among those
 *   left; a step found in one run only is CMP_ONLY_A or CMP_ONLY_B;
 * - tests: the TAP lines ("ok 1 - name", "not ok 2 - name # TODO") that a
 *   step printed (RUN/steps/NN.out; the kernel suite's, say), matched by
 *   the step and the test's name; a name found on one side only is a
 *   one-sided test (quota-gone's kernel-tests case is named for what each
 *   kernel does: "seed -> ENOSPC at the third", "upstream -> all 64");
 * - counts: the run's verdict, splats, kernel release and series, then
 *   per report (by id): a receiver's valid, invalid, received, lost,
 *   duplicates, reordered, overall and per sender; a sender-stats report's
 *   counters per sender; any other report's top-level numbers.
 *
 * The exit status of a comparison (cmp_exit_status) is 1 when a step, a
 * check or a test changed its verdict (a one-sided one counts) or the
 * run's verdict changed, else 0. Counts that differ are marked CMP_CHANGED
 * but do not change it; nor does a step's output alone (output_changed).
 * Every string is as the runs wrote it, guest text included: the writers
 * make it safe (text and Markdown through common/escape.h, the page as
 * libxml2 text nodes).
 *
 * Use: struct cmp_result r; char err[4352];
 *      if (cmp_load(a, b, &r, err, sizeof(err))) -> say err, exit 2;
 *      cmp_write_text(stdout, &r, false); st = cmp_exit_status(&r); cmp_free(&r);
 */
#ifndef BPFWIRE_LAB_COMPARE_H
#define BPFWIRE_LAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A step's output, read for its TAP lines: the lab keeps at most 32 MiB. */
#define CMP_STEP_OUT_MAX (32u << 20)

enum cmp_mark {
	CMP_SAME,	/* equal on both sides */
	CMP_CHANGED,	/* both sides have it; something shown differs */
	CMP_ONLY_A,	/* in run A only */
	CMP_ONLY_B,	/* in run B only */
};

/* One run: where it is and what its summary.json says of it. */
struct cmp_run {
	char *dir;		/* as given */
	char *id;		/* the directory's last component (NAME-STAMP) */
	char *date;		/* summary.json's mtime, UTC, "2026-12-05 01:02" */
	char *scenario;
	char *verdict;		/* PASS, FAIL, ... */
	char *kernel_release;
	char *kernel_series;	/* "" when the run did not record one */
};

/* What one side has of a step or check; all NULL when it has none. */
struct cmp_side {
	char *verdict;		/* ok, FAIL, skip */
	char *detail;		/* exec/wait: "exit N"; check: its values line */
	char *output;		/* the step's stdout_last, then stderr_last */
	char *why;		/* why it failed, when it did */
	double seconds;
};

struct cmp_step {
	int line;		/* A's line (B's for CMP_ONLY_B) */
	int line_b;		/* B's line, when both have it */
	char *op;		/* exec, spawn, wait, report, stats, check, ... */
	char *what;
	struct cmp_side side[2];
	enum cmp_mark mark;
	bool verdict_changed;	/* a one-sided step counts */
	bool output_changed;	/* same verdict and detail, other output (timings, pids...) */
};

struct cmp_count {
	char *name;		/* "verdict", "rx.wire.senders.11.lost", ... */
	char *val[2];		/* NULL: that run has no such field */
	enum cmp_mark mark;
};

struct cmp_result {
	struct cmp_run run[2];
	struct cmp_step *steps;	/* in A's order, B's own after the step before them */
	int nsteps;
	struct cmp_step *checks;
	int nchecks;
	struct cmp_step *tests;	/* op "tap": TAP lines in a step's RUN/steps/NN.out */
	int ntests;
	struct cmp_count *counts;
	int ncounts;
	int verdicts_changed;	/* steps, checks, tests, plus 1 if the run's verdict changed */
	int counts_changed;
	int outputs_changed;	/* steps with the same verdict whose output differs */
};

/*
 * Load and compare RUN_A and RUN_B (run directories). 0, or -1 with one
 * line in err (a missing run, a summary.json that is not one, over the
 * cap); r is then empty and cmp_free is still safe.
 */
int cmp_load(const char *dir_a, const char *dir_b, struct cmp_result *r, char *err, size_t errlen);
void cmp_free(struct cmp_result *r);
/* 0: no step, check or run verdict changed; 1: one did. */
int cmp_exit_status(const struct cmp_result *r);
/* "=", "*", "<", ">": how a mark is shown in text and Markdown. */
const char *cmp_mark_sign(enum cmp_mark m);

#endif /* BPFWIRE_LAB_COMPARE_H */
