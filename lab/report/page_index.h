/* SPDX-License-Identifier: GPL-2.0-only */
/* RESULTS/index.html, the runs of a results dir (page_index.c). */
#ifndef BPFWIRE_LAB_REPORT_PAGE_INDEX_H
#define BPFWIRE_LAB_REPORT_PAGE_INDEX_H

#include <stddef.h>

/* RESULTS/index.html: every run dir in results, newest first. -1 with err. */
int page_index_write(const char *results, char *err, size_t errlen);

#endif
