/* SPDX-License-Identifier: GPL-2.0-only */
/* A scenario test's run beside the baseline's: its checks and counts (lab/report/compare.h). */
#ifndef BPFWIRE_REVIEW_RUNS_H
#define BPFWIRE_REVIEW_RUNS_H

#include "testlog.h"
#include "verdict.h"

/*
 * For each test of review with a results dir, and the same test of base
 * with one: every check (ok -> FAIL is worse) and count (more lost,
 * invalid or splats, fewer valid or received is worse; any other
 * difference changed) into rep. boots: the review's guest boot seconds.
 * 0 or -ENOMEM.
 */
int runs_compare(const struct tl_log *base, const struct tl_log *review, struct vd_report *rep,
		 double *boots);
/* A count's direction: -1 fewer is worse, 1 more is worse, 0 neither. */
int runs_count_direction(const char *name);

#endif
