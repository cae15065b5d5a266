/* SPDX-License-Identifier: GPL-2.0-only */
/* bench.svg, the report's chart (report_svg.c). */
#ifndef BPFWIRE_BENCH_REPORT_SVG_H
#define BPFWIRE_BENCH_REPORT_SVG_H

#include <stdio.h>
#include "report_int.h"

void write_svg(FILE *f, const struct report *rp);

#endif
