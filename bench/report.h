/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The report of a benchmark run (report.c), made from the run directory:
 * the JSON files in RUN/hosts/sender and RUN/hosts/receiver, and
 * RUN/bench-params.json.
 */
#ifndef BPFWIRE_BENCH_REPORT_H
#define BPFWIRE_BENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "gen.h"

/* A kernel .config with CONFIG_LOCKDEP=y: the debug flavour. */
bool bench_config_has_lockdep(const char *path);

/*
 * Reads RUN, writes RUN/bench.json, bench.txt and bench.svg, and copies the
 * table to out. Returns 0, or -1 with err set when the run cannot be
 * measured (a file is missing or malformed).
 */
int bench_report(const char *run, FILE *out, char *err, size_t errlen);

#endif /* BPFWIRE_BENCH_REPORT_H */
