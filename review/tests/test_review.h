/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * review-compare: the review's parts on crafted logs, patches and files,
 * a file for each part; test_review.c holds main() and the helpers here.
 */
#ifndef BPFWIRE_REVIEW_TEST_REVIEW_H
#define BPFWIRE_REVIEW_TEST_REVIEW_H

#include <stdbool.h>

#include "testlog.h"
#include "verdict.h"

/* review/tests, where the crafted *.testlog.json and mboxes are */
extern const char *crafted_dir;

/* crafted_dir/name into log, as an assertion */
bool load(const char *name, struct tl_log *log);
/* rep's item of test about what, or NULL */
const struct vd_item *find(const struct vd_report *rep, const char *test, const char *what);
/* how many lines of text start with prefix */
int lines_starting(const char *text, const char *prefix);

void test_tap(void);
void test_log(void);
void test_worse(void);
void test_same_and_skip(void);
void test_counts_and_series(void);
void test_selftests(void);
void test_kernels(void);
void test_page(void);
void test_forged_text(void);
void test_child_output(void);
void test_reply(void);
void test_flaky(void);
void test_static(void);
void test_range(void);
void test_perpatch(void);

#endif
