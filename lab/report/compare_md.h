/* SPDX-License-Identifier: GPL-2.0-only */
/* Two runs compared, as Markdown (compare_md.c). */
#ifndef BPFWIRE_LAB_REPORT_COMPARE_MD_H
#define BPFWIRE_LAB_REPORT_COMPARE_MD_H

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"

/*
 * Markdown tables (GitHub's), for a README or a reply on
 * a list: what differs, then every check; guest text escaped, | and `
 * made harmless. all: also the steps and counts that are equal.
 */
void cmp_write_markdown(FILE *f, const struct cmp_result *r, bool all);

#endif
