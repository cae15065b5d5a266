/* SPDX-License-Identifier: GPL-2.0-only */
/* What a reviewer names: the series (an mbox or a patch directory), its review's name. */
#ifndef BPFWIRE_REVIEW_SERIES_H
#define BPFWIRE_REVIEW_SERIES_H

#include <stddef.h>

/*
 * 0 when path is an mbox (its first line "From ", a Subject: header in
 * it) or a directory with a `series` file; else -1 with one line in err.
 */
int series_check(const char *path, char *err, size_t errlen);
/*
 * The review's default name: SERIES's last component without .mbx, .mbox,
 * .patch or .eml, every byte outside [A-Za-z0-9._-] made '_'. 0, or -1
 * when nothing is left.
 */
int series_name(const char *path, char *out, size_t len);
/*
 * How many of the series' files add or change a selftest
 * (tools/testing/selftests/bpf/prog_tests/): the review then runs the
 * kernel suite's `selftests` case, which builds and runs them. 0 when none
 * or unreadable.
 */
int series_selftests(const char *path);
/* 0 when name is usable in build-review-NAME. */
int series_name_ok(const char *name);

#endif
