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

/* The median of v (sorted in place); NAN for n == 0. */
double bench_median(double *v, int n);
/* (max - min) / median of v, NANs skipped (v is not changed); NAN if none. */
double bench_spread(const double *v, int n);
/* A dotted path into a JSON object ("rate.ksock.runs.0"; numbers index arrays):
 * the object there, or NULL; and the number there, or NAN. */
struct json_object *bench_json_at(struct json_object *o, const char *path);
double bench_json_num(struct json_object *o, const char *path);

/*
 * `bpfwire-bench compare RUN...`: each figure of the runs' bench.json side
 * by side (icount: instructions per open, added, latency; wall time: the
 * sender-limited rates, their ratios, receiver capacity), with its median
 * and spread, and the largest spread. 0, or -1 with err set.
 */
#define BENCH_COMPARE_MAXRUNS 16
int bench_compare(char *const runs[], int n, FILE *out, char *err, size_t errlen);
/* compare's checks alone (each RUN/bench.json, one kind of run), for --dry-run. */
int bench_compare_check(char *const runs[], int n, bool *icount, char *err, size_t errlen);

#endif /* BPFWIRE_BENCH_REPORT_H */
