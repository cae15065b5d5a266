/* SPDX-License-Identifier: GPL-2.0-only */
/* A benchmark run read into struct report, and the arithmetic over it (report_read.c). */
#ifndef BPFWIRE_BENCH_REPORT_READ_H
#define BPFWIRE_BENCH_REPORT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "report_int.h"

/* The median of v (sorted in place); NAN for n == 0. */
double bench_median(double *v, int n);
/* (max - min) / median of v, NANs skipped (v is not changed); NAN if none. */
double bench_spread(const double *v, int n);
/* A dotted path into a JSON object ("rate.ksock.runs.0"; numbers index arrays):
 * the object there, or NULL; and the number there, or NAN. */
struct json_object *bench_json_at(struct json_object *o, const char *path);
double bench_json_num(struct json_object *o, const char *path);

/* The run's files, and the arithmetic the writers share. */
void read_text(const char *run, const char *name, char *buf, size_t len);
void read_run_file(const char *run, const char *name, const char *dflt, char *buf,
		   size_t len);
int read_rate(const char *run, int m, int r, struct rate_run *rr, char *err, size_t errlen);
int read_lat(const char *run, int m, int half, struct lat *l, char *err, size_t errlen);
int read_cost(const char *run, const char *name, double *med, double *call,
	      double *task);
void read_cost_failed(const char *run, const char *name, struct path_res *pr);
void summarise(struct path_res *pr);
int idx(const char *name);
bool have(const struct report *rp, int m);
double ratio(const struct report *rp, int m, const char *ref);
double sl_ratio(const struct report *rp, int m, const char *ref, double *med);
json_object *jd(double v);
void add_target(json_object *t, const char *name, double value, const char *want, int met);

#endif
