// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c's reading of a run: each host's JSON into struct report, the
 * medians and spreads, and the ratios between methods.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include "errnames.h"
#include "gen.h"
#include "report_int.h"
#include "report_read.h"

static json_object *load(const char *run, const char *host, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/hosts/%s/%s.json", run, host, name);
	return json_object_from_file(path);
}

/* (max - min) / median: the spread the issue bounds (15% wall, 1% icount). */
double bench_spread(const double *v, int n)
{
	double lo = INFINITY, hi = -INFINITY, med, tmp[64];
	int k = 0;

	for (int i = 0; i < n && k < 64; i++)
		if (!isnan(v[i]))
			tmp[k++] = v[i];
	if (!k)
		return NAN;
	med = bench_median(tmp, k);
	for (int i = 0; i < k; i++) {
		lo = tmp[i] < lo ? tmp[i] : lo;
		hi = tmp[i] > hi ? tmp[i] : hi;
	}
	return med != 0 ? (hi - lo) / fabs(med) : NAN;
}

json_object *bench_json_at(json_object *o, const char *path)
{
	char buf[256], *save, *tok;
	json_object *v = o;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && v; tok = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(v, json_type_array)) {
			char *end;
			long i = strtol(tok, &end, 10);

			v = *end ? NULL : json_object_array_get_idx(v, i);
		} else if (!json_object_object_get_ex(v, tok, &v)) {
			v = NULL;
		}
	}
	return v;
}

/* The number at a dotted path ("socket.senders.7201.received"); NAN when absent. */
double bench_json_num(json_object *o, const char *path)
{
	json_object *v = bench_json_at(o, path);

	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return NAN;
	return json_object_get_double(v);
}

static long jlong(json_object *o, const char *path)
{
	double d = bench_json_num(o, path);

	return isnan(d) ? 0 : (long)d;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v in place; the mean of the middle two when n is even. */
double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), dcmp);
	return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : NAN;
}

/* RUN/NAME's first line, which bpfwire-bench wrote; dflt when there is none. */
void read_run_file(const char *run, const char *name, const char *dflt, char *buf,
		   size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", run, name);
	snprintf(buf, len, "%s", dflt);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* RUN/hosts/sender/NAME's first line, or "" when there is none. */
void read_text(const char *run, const char *name, char *buf, size_t len)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "hosts/sender/%s", name);
	read_run_file(run, rel, "", buf, len);
}

/* The sender's counters for one run, from `bpfwire-agent status --json`. */
static json_object *sender_counters(json_object *st, int id)
{
	json_object *arr, *s, *c;

	if (!st || !json_object_object_get_ex(st, "senders", &arr))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		s = json_object_array_get_idx(arr, i);
		if (jlong(s, "sender_id") == id && json_object_object_get_ex(s, "counters", &c))
			return c;
	}
	return NULL;
}

/*
 * A BPF sender's run, in events. With --batch the agent counts
 * events (events_failed) and datagrams (sent, failed, EAGAIN); the
 * receiver counts a sender's events beside its datagrams. Without those
 * counters one datagram is one event.
 */
static void bpf_counts(struct rate_run *rr, json_object *c, json_object *rx, const char *snd,
		       int batch)
{
	char key[128];
	double fe, fd, ev, dg;

	rr->events = jlong(c, "events");
	rr->eagain = jlong(c, "errors.EAGAIN");
	rr->errors = jlong(c, "failed") - rr->eagain;
	snprintf(key, sizeof(key), "%s.received", snd);
	dg = bench_json_num(rx, key);
	snprintf(key, sizeof(key), "%s.events", snd);
	ev = bench_json_num(rx, key);
	rr->delivered = isnan(dg) ? 0 : (long)dg;
	if (batch <= 1 && isnan(bench_json_num(c, "events_failed")))
		return;
	fe = bench_json_num(c, "events_failed");
	fd = bench_json_num(c, "failed");		/* with --batch, failed datagrams */
	if (!isnan(fe)) {
		double per = fd > 0 ? fe / fd : 1;

		rr->eagain = lround(rr->eagain * per);
		rr->errors = (long)fe - rr->eagain;
	}
	if (!isnan(ev)) {
		rr->delivered = (long)ev;
		rr->epd = dg > 0 ? ev / dg : batch;
	} else if (batch > 1) {
		rr->epd = batch;	/* a receiver without event counts: the nominal size */
		rr->delivered = lround(rr->delivered * rr->epd);
	}
}

int read_rate(const char *run, int m, int r, struct rate_run *rr, char *err, size_t errlen)
{
	const struct bench_method *bm = &bench_methods[m];
	int port = bench_rate_port(m, r);
	char id[64], stats[80], rxn[80], key[96];

	memset(rr, 0, sizeof(*rr));
	json_object *g, *rx, *st = NULL, *c = NULL, *tap[2], *stap[2];
	double span;

	snprintf(id, sizeof(id), "rate-%s-%d", bm->name, r);
	snprintf(rxn, sizeof(rxn), "rx-%s", id);
	g = load(run, "sender", id);
	rx = load(run, "receiver", rxn);
	if (bench_is_bpf(bm)) {
		snprintf(stats, sizeof(stats), "stats-%s", id);
		st = load(run, "sender", stats);
		c = sender_counters(st, port);
	}
	for (int i = 0; i < 2; i++) {
		char name[96];

		snprintf(name, sizeof(name), "tap-%s-%d", id, i);
		tap[i] = load(run, "receiver", name);
		stap[i] = load(run, "sender", name);
	}
	if (!g || !rx || (bench_is_bpf(bm) && !c) || !tap[0] || !tap[1] || !stap[0] || !stap[1]) {
		snprintf(err, errlen, "%s: missing %s", id, !g ? "the sender's JSON" :
			 !rx ? "the receiver's JSON" : !tap[0] || !tap[1] || !stap[0] || !stap[1] ?
			 "a tap's counters" : "the agent's status");
		goto fail;
	}
	memset(rr, 0, sizeof(*rr));
	rr->offered = bench_json_num(g, "rate_offered");
	rr->queue = jlong(g, "qdisc_drops") + jlong(g, "tx_dropped");
	rr->rx_drop = jlong(rx, "socket.drops");
	rr->wire = jlong(tap[1], "0.stats64.tx.dropped") - jlong(tap[0], "0.stats64.tx.dropped") +
		   jlong(stap[1], "0.stats64.rx.dropped") - jlong(stap[0], "0.stats64.rx.dropped");
	rr->tap_frames = jlong(stap[1], "0.stats64.rx.packets") - jlong(stap[0], "0.stats64.rx.packets");
	/* pktgen times itself; the others from the loop's start to the last frame out. */
	rr->span_s = bench_json_num(g, bm->kind == BENCH_PKTGEN ? "elapsed_ns" : "tx_span_ns") / 1e9;
	rr->epd = 1;
	switch (bm->kind) {
	case BENCH_SENDTO:
		rr->events = jlong(g, "count");
		rr->errors = jlong(g, "failed");
		snprintf(key, sizeof(key), "socket.senders.%d.received", port);
		rr->delivered = jlong(rx, key);
		break;
	case BENCH_PKTGEN:
		/* Not bpfwire datagrams: every one on the port counts. pktgen
		 * checks its count between bursts, so it may send a few more. */
		rr->events = jlong(g, "sent");
		rr->errors = jlong(g, "errors");
		rr->delivered = jlong(rx, "socket.datagrams");
		break;
	default:
		snprintf(key, sizeof(key), "socket.senders.%d", port);
		bpf_counts(rr, c, rx, key, bm->batch);
	}
	if (isnan(rr->offered)) {
		snprintf(err, errlen, "%s: the sender's JSON has no rate_offered", id);
		rr->ok = false;
		goto fail;
	}
	span = bench_json_num(rx, "arrival_span_s");
	rr->delivered_dps = span > 0 ? rr->delivered / rr->epd / span : NAN;
	/* Drops counted in frames are events times events per datagram. */
	rr->unaccounted = rr->events - rr->delivered - rr->eagain - rr->errors -
			  lround((rr->queue + rr->wire + rr->rx_drop) * rr->epd);
	rr->sl_eps = rr->span_s > 0 ? rr->tap_frames * rr->epd / rr->span_s : NAN;
	rr->ok = true;
fail:
	json_object_put(g);
	json_object_put(rx);
	json_object_put(st);
	for (int i = 0; i < 2; i++) {
		json_object_put(tap[i]);
		json_object_put(stap[i]);
	}
	return rr->ok ? 0 : -1;
}

int read_lat(const char *run, int m, int half, struct lat *l, char *err, size_t errlen)
{
	char id[64];
	json_object *g, *lo, *ns;

	snprintf(id, sizeof(id), "lat-%s-%s", half ? "half" : "low", bench_methods[m].name);
	g = load(run, "sender", id);
	if (!g || !json_object_object_get_ex(g, "latency", &lo)) {
		snprintf(err, errlen, "%s: missing the sender's JSON or its latency", id);
		json_object_put(g);
		return -1;
	}
	l->rate = bench_json_num(g, "rate_offered");
	l->samples = jlong(lo, "samples");
	l->expected = jlong(lo, "expected");
	l->p50 = bench_json_num(lo, "p50_ns");
	l->p99 = bench_json_num(lo, "p99_ns");
	l->max = bench_json_num(lo, "max_ns");
	if (json_object_object_get_ex(lo, "ns", &ns) && json_object_is_type(ns, json_type_array)) {
		l->nns = (int)json_object_array_length(ns);
		l->ns = calloc(l->nns ? l->nns : 1, sizeof(double));
		for (int i = 0; l->ns && i < l->nns; i++)
			l->ns[i] = json_object_get_double(json_object_array_get_idx(ns, i));
		if (l->ns)
			qsort(l->ns, l->nns, sizeof(double), dcmp);
	}
	l->ok = l->samples > 0 && !isnan(l->p99);
	json_object_put(g);
	if (!l->ok)
		snprintf(err, errlen, "%s: no latency samples", id);
	return l->ok ? 0 : -1;
}

/* task_median is absent from runs made before it: NAN, not an error. */
int read_cost(const char *run, const char *name, double *med, double *call,
	      double *task)
{
	char id[64];
	json_object *g;

	snprintf(id, sizeof(id), "cost-%s", name);
	g = load(run, "sender", id);
	*med = bench_json_num(g, "median");
	*call = bench_json_num(g, "call_mean_ns");
	*task = bench_json_num(g, "task_median");
	json_object_put(g);
	return isnan(*med) || isnan(*call) ? -1 : 0;
}

/*
 * The cost run's failed sends (stats-cost-NAME.json): a send that fails
 * (EAGAIN: the host drained the TX queue late, under host load) is cheaper
 * than one that goes, and lowers the figure with its share. NAN if absent.
 */
void read_cost_failed(const char *run, const char *name, struct path_res *pr)
{
	char id[64];
	json_object *g;

	snprintf(id, sizeof(id), "stats-cost-%s", name);
	g = load(run, "sender", id);
	pr->cost_failed = bench_json_num(g, "senders.0.counters.failed");
	pr->cost_events = bench_json_num(g, "senders.0.counters.events");
	json_object_put(g);
}

void summarise(struct path_res *pr)
{
	double off[MAXREP], dps[MAXREP], sl[MAXREP];
	int n = 0;

	for (int i = 0; i < pr->nruns; i++) {
		struct rate_run *rr = &pr->runs[i];

		off[n] = rr->offered;
		dps[n] = rr->delivered_dps;
		sl[n] = rr->sl_eps;
		n++;
		pr->tot.events += rr->events;
		pr->tot.delivered += rr->delivered;
		pr->tot.eagain += rr->eagain;
		pr->tot.errors += rr->errors;
		pr->tot.queue += rr->queue;
		pr->tot.wire += rr->wire;
		pr->tot.rx_drop += rr->rx_drop;
		pr->tot.unaccounted += rr->unaccounted;
	}
	pr->offered_med = bench_median(off, n);
	pr->off_min = n ? off[0] : NAN;
	pr->off_max = n ? off[n - 1] : NAN;
	pr->dps_med = bench_median(dps, n);
	pr->dps_min = n ? dps[0] : NAN;
	pr->dps_max = n ? dps[n - 1] : NAN;
	pr->sl_med = bench_median(sl, n);
	pr->sl_min = n ? sl[0] : NAN;
	pr->sl_max = n ? sl[n - 1] : NAN;
}

int idx(const char *name)
{
	for (int m = 0; m < bench_nmethods; m++)
		if (!strcmp(bench_methods[m].name, name))
			return m;
	return -1;
}

bool have(const struct report *rp, int m)
{
	return m >= 0 && (rp->p.methods & (1u << m));
}

double ratio(const struct report *rp, int m, const char *ref)
{
	int r = idx(ref);

	if (!have(rp, m) || !have(rp, r) || !(rp->r[r].dps_med > 0))
		return NAN;
	return rp->r[m].dps_med / rp->r[r].dps_med;
}

/*
 * Sender-limited rate of m over ref's, repeat by repeat: the paths run in
 * turn, so repeat i of each saw the same host. Median into *med, spread out.
 */
double sl_ratio(const struct report *rp, int m, const char *ref, double *med)
{
	int r = idx(ref);
	double v[MAXREP], w[MAXREP];
	int n = 0;

	*med = NAN;
	if (!have(rp, m) || !have(rp, r))
		return NAN;
	for (int i = 0; i < rp->r[m].nruns && i < rp->r[r].nruns; i++)
		if (rp->r[r].runs[i].sl_eps > 0)
			v[n++] = rp->r[m].runs[i].sl_eps / rp->r[r].runs[i].sl_eps;
	if (!n)
		return NAN;
	memcpy(w, v, n * sizeof(*v));
	*med = bench_median(w, n);
	return bench_spread(v, n);
}

json_object *jd(double v)
{
	return isnan(v) ? NULL : json_object_new_double(round(v * 1000) / 1000);
}

void add_target(json_object *t, const char *name, double value, const char *want, int met)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "value", jd(value));
	json_object_object_add(o, "target", json_object_new_string(want));
	json_object_object_add(o, "met", met < 0 ? NULL : json_object_new_boolean(met));
	json_object_object_add(t, name, o);
}
