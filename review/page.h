/* SPDX-License-Identifier: GPL-2.0-only */
/* The review as a page for people (lab/report/html.h): RESULTS/review.html. */
#ifndef BPFWIRE_REVIEW_PAGE_H
#define BPFWIRE_REVIEW_PAGE_H

#include "verdict.h"

/* title: "review NAME"; lines: the text's header lines. -errno. */
int review_page(const char *dir, const char *title, const char *header, const struct vd_report *rep);

#endif
