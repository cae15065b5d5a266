// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench compare RUN...: the figures of several runs side by side,
 * each with its median and spread ((max - min) / median), so that three
 * back-to-back runs show whether they agree (within 1% for the
 * instruction counts of --icount, within 15% for the wall-time ratios).
 */
#include <math.h>
#include <string.h>
#include <json-c/json.h>
#include "compare.h"
#include "report_read.h"

#define MAXRUNS BENCH_COMPARE_MAXRUNS

/* Leaves compared under each path of a section; absent ones are skipped. */
static const char *const icount_cost[] = { "ns_per_open", "added_ns", "call_mean_ns",
					   "call_added_ns", "task_per_open", "task_added", NULL };
static const char *const icount_lat[] = { "low.p50_ns", "low.p99_ns", NULL };
static const char *const wall_rate[] = { "sl_eps_median", "sl_ratio_sendto", "sl_ratio_pktgen",
					 "delivered_dps_median", "ratio_sendto", NULL };
static const char *const wall_cost[] = { "added_ns", "x_ringbuf", NULL };

struct cmp {
	json_object *j[MAXRUNS];
	int n;
	FILE *out;
	double worst;
	char worst_name[160];
};

/* One figure across the runs: the values, the median, the spread. */
static void row(struct cmp *c, const char *name)
{
	double v[MAXRUNS], w[MAXRUNS], med, spread;
	int k = 0;

	for (int i = 0; i < c->n; i++) {
		v[i] = bench_json_num(c->j[i], name);
		if (!isnan(v[i]))
			w[k++] = v[i];
	}
	if (!k)
		return;
	spread = bench_spread(v, c->n);
	med = bench_median(w, k);
	fprintf(c->out, "%-44s", name);
	for (int i = 0; i < c->n; i++)
		fprintf(c->out, " %12.2f", v[i]);
	fprintf(c->out, " %12.2f %7.2f%%\n", med, 100 * spread);
	if (!isnan(spread) && spread > c->worst) {
		c->worst = spread;
		snprintf(c->worst_name, sizeof(c->worst_name), "%s", name);
	}
}

/* Every PATH under section in the first run, each leaf of it. */
static void section(struct cmp *c, const char *sec, const char *const *leaves)
{
	json_object *s = bench_json_at(c->j[0], sec);
	char name[160];

	if (!s || !json_object_is_type(s, json_type_object))
		return;
	json_object_object_foreach(s, path, v) {
		(void)v;
		for (int l = 0; leaves[l]; l++) {
			snprintf(name, sizeof(name), "%s.%s.%s", sec, path, leaves[l]);
			row(c, name);
		}
	}
}

static void targets(struct cmp *c)
{
	json_object *t = bench_json_at(c->j[0], "targets");
	char name[160];

	if (!t)
		return;
	json_object_object_foreach(t, key, v) {
		(void)v;
		snprintf(name, sizeof(name), "targets.%s.value", key);
		row(c, name);
	}
}

static int load(struct cmp *c, char *const runs[], int n, char *err, size_t errlen)
{
	char path[4096];

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/bench.json", runs[i]);
		c->j[i] = json_object_from_file(path);
		c->n = i + 1;
		if (!c->j[i]) {
			snprintf(err, errlen, "%s: missing or not JSON (bpfwire-bench report RUN "
				 "remakes it)", path);
			return -1;
		}
		if (json_object_get_boolean(bench_json_at(c->j[i], "icount")) !=
		    json_object_get_boolean(bench_json_at(c->j[0], "icount"))) {
			snprintf(err, errlen, "%s and %s: one ran under icount, the other not",
				 runs[0], runs[i]);
			return -1;
		}
	}
	return 0;
}

int bench_compare_check(char *const runs[], int n, bool *icount, char *err, size_t errlen)
{
	struct cmp c = { 0 };
	int ret = -1;

	if (n < 1 || n > MAXRUNS) {
		snprintf(err, errlen, "compare takes 1 to %d runs", MAXRUNS);
		return -1;
	}
	if (!load(&c, runs, n, err, errlen)) {
		*icount = json_object_get_boolean(bench_json_at(c.j[0], "icount"));
		ret = 0;
	}
	for (int i = 0; i < c.n; i++)
		json_object_put(c.j[i]);
	return ret;
}

int bench_compare(char *const runs[], int n, FILE *out, char *err, size_t errlen)
{
	struct cmp c = { .out = out, .worst = -1 };
	bool ic;
	int ret = -1;

	if (n < 1 || n > MAXRUNS) {
		snprintf(err, errlen, "compare takes 1 to %d runs", MAXRUNS);
		return -1;
	}
	if (load(&c, runs, n, err, errlen))
		goto out;
	ic = json_object_get_boolean(bench_json_at(c.j[0], "icount"));
	fprintf(out, "%d run%s, %s\n", n, n == 1 ? "" : "s", ic ?
		"icount: every figure is a count of guest instructions" :
		"wall time: events/s and ratios");
	for (int i = 0; i < n; i++)
		fprintf(out, "  run %d: %s (%s, commit %s, host load %s)\n", i + 1, runs[i],
			json_object_get_string(bench_json_at(c.j[i], "date")),
			json_object_get_string(bench_json_at(c.j[i], "commit")),
			json_object_get_string(bench_json_at(c.j[i], "load")));
	fprintf(out, "%-44s", "figure");
	for (int i = 0; i < n; i++)
		fprintf(out, "  %5s %-5d", "run", i + 1);
	fprintf(out, " %12s %8s\n", "median", "spread");
	if (ic) {
		section(&c, "cost", icount_cost);
		section(&c, "latency", icount_lat);
	} else {
		section(&c, "rate", wall_rate);
		section(&c, "cost", wall_cost);
	}
	targets(&c);
	if (c.worst >= 0)
		fprintf(out, "largest spread: %.2f%% (%s); target %s\n", 100 * c.worst, c.worst_name,
			ic ? "<= 1% for instruction figures" : "<= 15% for the wall-time ratios");
	ret = 0;
out:
	for (int i = 0; i < c.n; i++)
		json_object_put(c.j[i]);
	return ret;
}
