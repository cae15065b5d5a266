/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-bench compare: several runs' bench.json side by side (compare.c). */
#ifndef BPFWIRE_BENCH_COMPARE_H
#define BPFWIRE_BENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

#endif
