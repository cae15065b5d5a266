/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The review's comparison with its baseline: each test the review ran,
 * each TAP case (subtests included), each scenario check and count, marked
 * worse, better, changed or the same. The verdict is the count of worse.
 */
#ifndef BPFWIRE_REVIEW_VERDICT_H
#define BPFWIRE_REVIEW_VERDICT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "testlog.h"

enum vd_kind { VD_TEST, VD_CASE, VD_CHECK, VD_COUNT };

enum vd_mark {
	VD_SAME,
	VD_CHANGED,	/* differs, neither better nor worse (a count with no direction) */
	VD_BETTER,
	VD_WORSE,
	VD_FLAKY,	/* worse in some runs only (flaky.c): reported, not counted as worse */
	VD_KNOWN_FLAKY,	/* worse, and on review/known-flaky's list: reported, not counted */
};

struct vd_item {
	enum vd_kind kind;
	enum vd_mark mark;
	char *test;	/* meson's test name */
	char *what;	/* the case, check or count; "" for the test itself */
	char *base;	/* the baseline's result, or "(none)" */
	char *review;
	char *note;	/* the review's SKIP reason or a failure's text, "" if none */
	int worse_runs, runs;	/* when run again (flaky.c): worse in worse_runs of runs; 0 of 0 if not */
	char *known;	/* VD_KNOWN_FLAKY: the list's "DATE: REASON"; NULL otherwise */
};

struct vd_report {
	struct vd_item *items;	/* everything that differs, in test order */
	size_t n;
	size_t same[4];		/* per vd_kind, the ones that match */
	size_t worse, better, changed, flaky, known_flaky;
	/* static findings that --strict counts (static.h): listed in their section, not as items */
	size_t static_worse;
};

/* Everything that makes the verdict WORSE. */
static inline size_t vd_worse(const struct vd_report *rep)
{
	return rep->worse + rep->static_worse;
}

/* Compare every test of review with the same test of base. 0 or -ENOMEM. */
int vd_compare_logs(const struct tl_log *base, const struct tl_log *review, struct vd_report *rep);
/* One finding; strings are copied. 0 or -ENOMEM. */
int vd_add(struct vd_report *rep, enum vd_kind kind, enum vd_mark mark, const char *test,
	   const char *what, const char *base, const char *review, const char *note);
void vd_free(struct vd_report *rep);
/* Item i takes mark (a flake's), the counts following; known is copied. 0 or -ENOMEM. */
int vd_remark(struct vd_report *rep, size_t i, enum vd_mark mark, const char *known);
/* A case's name without its run-to-run values, for matching a renamed twin. */
void vd_case_shape(const char *id, char *out, size_t len);
const char *vd_kind_name(enum vd_kind k);
const char *vd_mark_name(enum vd_mark m);

/*
 * One finding, a line: "  [MARK] KIND TEST: WHAT: BASE -> REVIEW (NOTE)",
 * then " [worse in W of N runs]" or " [known flaky since DATE: REASON]",
 * escaped.
 */
void vd_write_item(FILE *f, const struct vd_item *it, bool mark);
/* The findings as text (escaped: test output quotes guests), worse first. */
void vd_write_text(FILE *f, const struct vd_report *rep);
/*
 * The review's header, two lines: "review NAME: SERIES, bpfwire COMMIT,
 * ksock API API" and "baseline: BASE; N tests compared", each part
 * escaped (a series' path is the series'). Returns what snprintf does,
 * -1 out of memory.
 */
int vd_header(char *out, size_t len, const char *name, const char *series, const char *commit,
	      const char *api, const char *base, int ntests);
/* Printed under every verdict: what the sandbox can and cannot promise. */
#define VD_CAVEAT "caveat: the series was built and booted with no power over this host, " \
	"but its own kernel decides what its tests report: against a hostile series the verdict is advisory"
/*
 * review.txt, as the terminal shows it too: the header (vd_header's, or
 * NULL), the findings, the prototypes kernel-tests found in rlog's tests
 * (each indented and escaped under its test's name: no text of a test's
 * output starts a line), extra (lines of ours, escaped already: the
 * static section, the times; or NULL), the verdict, the caveat and
 * results (or NULL).
 */
void vd_write_review(FILE *f, const char *header, const struct vd_report *rep,
		     const struct tl_log *rlog, const char *extra, const char *results);
/* "verdict: WORSE (N worse than the baseline[, M static findings under --strict])" and a newline. */
void vd_write_verdict(FILE *f, const char *word, const struct vd_report *rep);
/* {"worse": N, ..., "items": [...]} */
json_object *vd_to_json(const struct vd_report *rep);

#endif /* BPFWIRE_REVIEW_VERDICT_H */
