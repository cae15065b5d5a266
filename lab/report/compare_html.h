/* SPDX-License-Identifier: GPL-2.0-only */
/* Two runs compared, as a page (compare_html.c). */
#ifndef BPFWIRE_LAB_REPORT_COMPARE_HTML_H
#define BPFWIRE_LAB_REPORT_COMPARE_HTML_H

#include "compare.h"

/*
 * the same as a page at path, built with lab/report/html.h
 * (libxml2's HTML tree: guest text only ever a text node; no script).
 * 0 or -errno.
 */
int cmp_write_html(const struct cmp_result *r, const char *path);

#endif
