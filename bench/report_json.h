/* SPDX-License-Identifier: GPL-2.0-only */
/* bench.json, the report's figures (report_json.c). */
#ifndef BPFWIRE_BENCH_REPORT_JSON_H
#define BPFWIRE_BENCH_REPORT_JSON_H

#include <json-c/json.h>
#include "report_int.h"

json_object *build_json(const struct report *rp);

#endif
