/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Flakes. A case worse in the review's run is not called worse on one
 * run: the test that holds it runs again on both builds, and a case worse
 * in only some of the runs is flaky ("worse in 1 of 3 runs"), reported in
 * a section of its own and not counted as worse. Cases on the
 * repository's list (review/known-flaky) are "known flaky" at once.
 * Nothing is dropped: every flake stays in the report with its counts.
 */
#ifndef BPFWIRE_REVIEW_FLAKY_H
#define BPFWIRE_REVIEW_FLAKY_H

#include <stddef.h>

#include "testlog.h"
#include "verdict.h"

/*
 * review/known-flaky, a line each: "PATTERN | YYYY-MM-DD | REASON", the
 * date it was added; '#' starts a comment line. PATTERN is an fnmatch(3)
 * glob over "TEST: WHAT" (WHAT: the case, "check NAME" or the count's
 * name), or "TEST" for the test's own result.
 */
struct fl_known {
	char *pattern, *date, *reason;
};

struct fl_list {
	struct fl_known *e;
	size_t n;
};

/* 0, or -1 with "PATH:LINE: what is wrong" (or PATH: errno) in err. */
int fl_load(const char *path, struct fl_list *l, char *err, size_t errlen);
void fl_free(struct fl_list *l);
/* The entry whose pattern matches the item of test and what, or NULL. */
const struct fl_known *fl_match(const struct fl_list *l, const char *test, const char *what);
/* Each worse item of rep that the list names becomes VD_KNOWN_FLAKY. 0 or -ENOMEM. */
int fl_mark_known(struct vd_report *rep, const struct fl_list *l);
/* The tests that hold a worse item, once each, in rep's order (the names are rep's). */
int fl_worse_tests(const struct vd_report *rep, char ***names, int *n);

/*
 * rep: the first run's comparison, known flakes marked. rlogs[r] and
 * blogs[r]: round r's logs of the tests run again (names), from the review
 * and the baseline, their build roots renamed (tl_rename_root) as the
 * first run's. For each test, the runs are the first and each round that
 * has it on both sides; an item worse in some but not all of them becomes
 * VD_FLAKY (or is added as one, when the first run had it not worse),
 * one worse in all stays VD_WORSE; both carry the counts. 0 or -ENOMEM.
 */
int fl_classify(struct vd_report *rep, const struct fl_list *known, const struct tl_log *rlogs,
		const struct tl_log *blogs, int nrounds, char *const *names, int ntests);

#endif /* BPFWIRE_REVIEW_FLAKY_H */
