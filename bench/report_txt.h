/* SPDX-License-Identifier: GPL-2.0-only */
/* bench.txt, the report's table (report_txt.c). */
#ifndef BPFWIRE_BENCH_REPORT_TXT_H
#define BPFWIRE_BENCH_REPORT_TXT_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>
#include "report_int.h"

bool sign_cost(const struct report *rp, const char *sig, const char *plain,
	       struct sign_cost *c);
void write_txt(FILE *f, const struct report *rp);
void print_targets(FILE *f, json_object *root);

#endif
