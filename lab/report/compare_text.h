/* SPDX-License-Identifier: GPL-2.0-only */
/* Two runs compared, as text (compare_text.c). */
#ifndef BPFWIRE_LAB_REPORT_COMPARE_TEXT_H
#define BPFWIRE_LAB_REPORT_COMPARE_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"

/*
 * aligned ASCII tables, guest text escaped. outputs: also
 * the output of steps whose verdict held but whose output differs.
 */
void cmp_write_text(FILE *f, const struct cmp_result *r, bool outputs);

#endif
