/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark as a lab scenario (gen.c): the paths it compares, its
 * parameters (RUN/bench-params.json) and each run's port. report.c reads
 * the run back with the same definitions.
 */
#ifndef BPFWIRE_BENCH_GEN_H
#define BPFWIRE_BENCH_GEN_H

#include <stdbool.h>
#include <stdio.h>

#include "params.h"

extern const struct bench_method bench_methods[];
extern const int bench_nmethods;

/* Ports and sender ids: one receiver per run, one id per run. */
int bench_rate_port(int method, int repeat);
int bench_lat_port(int method, int half);
int bench_cost_port(int method);

/*
 * For a kernel without bpfwire's sndbuf extension (kernel/patches/sndbuf:
 * kapi's ksock_sndbuf), which cannot size a ksock's send buffer: leaves
 * the remedy path ksock-sndbuf out of p->methods and marks p. true when
 * the path had been asked for.
 */
bool bench_without_sndbuf(struct bench_params *p);

/* Writes the scenario the lab runs (see bench.c). */
int bench_write_scenario(FILE *f, const struct bench_params *p, const char *path);

int bench_params_save(const char *run, const struct bench_params *p);
int bench_params_load(const char *run, struct bench_params *p, char *err, size_t errlen);

#endif /* BPFWIRE_BENCH_GEN_H */
