/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpfwire-review's modes that read test logs and build nothing:
 * --compare (two logs of a review again) and --flaky-report (./run
 * tests' note on failures the list of known flaky cases holds).
 */
#ifndef BPFWIRE_REVIEW_READLOGS_H
#define BPFWIRE_REVIEW_READLOGS_H

#include <stdbool.h>

#include "flaky.h"

/* Each failed test or case of the meson test log that known names. 0, or 2 on a bad log. */
int review_flaky_report(const char *log, const struct fl_list *known);
/* The review's comparison of two test logs, printed: 0, 1 (worse) or 2. */
int review_compare_logs(const char *base, const char *review, bool dry, const struct fl_list *known,
			unsigned insns_threshold);

#endif
