// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench.json, bench.txt and bench.svg from a benchmark run's shares.
 *
 * Loss accounting for one run: every event the sender saw either reached the
 * receiver's socket or is lost for a counted cause:
 *   eagain   the send path refused it with -EAGAIN (sender counters)
 *   errors   any other send error (sender counters)
 *   queue    dropped by the sender's qdisc or driver (tc and tx_dropped
 *            deltas; an injected netem loss is a qdisc drop in the guest)
 *   wire     dropped on the host between the guests: the sender tap's RX
 *            drops and the receiver tap's TX drops (a frame the receiver
 *            guest did not take)
 *   rx       dropped by the receiver's socket buffer
 * and "unaccounted" is what is left. It is reported, never folded away.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include "errnames.h"
#include "report.h"

#define MAXREP 32

struct rate_run {
	bool ok;
	double offered;		/* events/s at the sender */
	double delivered_dps;	/* datagrams/s at the receiver, over its arrival span */
	long events, delivered, eagain, errors, queue, wire, rx_drop, unaccounted;
	/* Issue 17: what left the sender, counted where nothing caps it. */
	long tap_frames;	/* RX packets of the sender's tap on the host */
	double span_s;		/* the burst's start to its last frame out (guest clock) */
	double epd;		/* events per datagram, as the receiver counted them */
	double sl_eps;		/* sender-limited events/s: tap_frames * epd / span_s */
};

struct lat {
	bool ok;
	double rate;
	long samples, expected;
	double p50, p99, max;	/* ns */
	double *ns;
	int nns;
};

struct path_res {
	struct rate_run runs[MAXREP];
	int nruns;
	double offered_med, dps_med, dps_min, dps_max, off_min, off_max;
	struct rate_run tot;	/* the counts summed over the runs */
	struct lat lat[2];
	double sl_med, sl_min, sl_max;	/* sender-limited events/s over the runs */
	double cost_med;	/* loop: ns per open, other tasks' time included */
	double cost_call;	/* mean of singly timed opens: the syscall's own */
	double cost_task;	/* loop: the hooking task's and the agent's own CPU */
	double cost_failed;	/* sends that failed in the cost run, of cost_events */
	double cost_events;
};

struct report {
	struct bench_params p;
	char accel[32], uname[128], clocksource[64], date[64];
	bool lockdep;
	struct path_res r[16];
	double cost_none, cost_none_call, cost_none_task;
	char pinning[256];	/* RUN/pinning.txt's first line: which vCPU went where */
	char commit[64];	/* RUN/commit: git describe of the source tree */
	char load[256];		/* RUN/load.txt: the host's load average, start and end */
};

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

static void read_text(const char *run, const char *name, char *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/hosts/sender/%s", run, name);
	buf[0] = 0;
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* RUN/NAME's first line, which bpfwire-bench wrote; dflt when there is none. */
static void read_run_file(const char *run, const char *name, const char *dflt, char *buf,
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
 * A BPF sender's run, in events. With --batch (issue 17) the agent counts
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

static int read_rate(const char *run, int m, int r, struct rate_run *rr, char *err, size_t errlen)
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

static int read_lat(const char *run, int m, int half, struct lat *l, char *err, size_t errlen)
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
static int read_cost(const char *run, const char *name, double *med, double *call,
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
static void read_cost_failed(const char *run, const char *name, struct path_res *pr)
{
	char id[64];
	json_object *g;

	snprintf(id, sizeof(id), "stats-cost-%s", name);
	g = load(run, "sender", id);
	pr->cost_failed = bench_json_num(g, "senders.0.counters.failed");
	pr->cost_events = bench_json_num(g, "senders.0.counters.events");
	json_object_put(g);
}

static void summarise(struct path_res *pr)
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

static int idx(const char *name)
{
	for (int m = 0; m < bench_nmethods; m++)
		if (!strcmp(bench_methods[m].name, name))
			return m;
	return -1;
}

static bool have(const struct report *rp, int m)
{
	return m >= 0 && (rp->p.methods & (1u << m));
}

static double ratio(const struct report *rp, int m, const char *ref)
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
static double sl_ratio(const struct report *rp, int m, const char *ref, double *med)
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

static json_object *jd(double v)
{
	return isnan(v) ? NULL : json_object_new_double(round(v * 1000) / 1000);
}

static void add_target(json_object *t, const char *name, double value, const char *want, int met)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "value", jd(value));
	json_object_object_add(o, "target", json_object_new_string(want));
	json_object_object_add(o, "met", met < 0 ? NULL : json_object_new_boolean(met));
	json_object_object_add(t, name, o);
}

/* ---- text ----------------------------------------------------------------- */

static void fmt_rate(char *b, size_t n, double v)
{
	if (isnan(v))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.0f", v);
}

/* Issue 16: what signing costs, as ratios to the same sender unsigned. */
struct sign_cost {
	double dps;		/* delivered datagrams/s, signed over unsigned */
	double call_added;	/* added ns per singly timed open, signed over unsigned */
	double loop_added;	/* added ns per open in a loop, signed over unsigned */
};

static bool sign_cost(const struct report *rp, const char *sig, const char *plain,
		      struct sign_cost *c)
{
	int s = idx(sig), u = idx(plain);
	double ucall, uloop;

	if (!have(rp, s) || !have(rp, u))
		return false;
	ucall = rp->r[u].cost_call - rp->cost_none_call;
	uloop = rp->r[u].cost_med - rp->cost_none;
	c->dps = rp->r[u].dps_med > 0 ? rp->r[s].dps_med / rp->r[u].dps_med : NAN;
	c->call_added = ucall > 0 ? (rp->r[s].cost_call - rp->cost_none_call) / ucall : NAN;
	c->loop_added = uloop > 0 ? (rp->r[s].cost_med - rp->cost_none) / uloop : NAN;
	return true;
}

static void write_txt_signed(FILE *f, const struct report *rp)
{
	static const char *const pairs[][2] = {
		{ "ksock-signed", "ksock" }, { "netpoll-signed", "netpoll" },
	};
	struct sign_cost c;
	int any = 0;

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (!sign_cost(rp, pairs[i][0], pairs[i][1], &c))
			continue;
		if (!any++)
			fprintf(f, "\nSigning (SipHash-2-4, wire v2): signed over unsigned, same run\n"
				"%-15s %-8s %14s %16s %16s\n", "path", "vs", "delivered/s",
				"added ns (call)", "added ns (loop)");
		fprintf(f, "%-15s %-8s %14.2f %16.2f %16.2f\n", pairs[i][0], pairs[i][1], c.dps,
			c.call_added, c.loop_added);
	}
}

static void write_head(FILE *f, const struct report *rp)
{
	const struct bench_params *p = &rp->p;

	fprintf(f, "bpfwire benchmark, %s; accel %s; kernel %s (%s); clocksource %s\n"
		"commit %s; host load average (1, 5, 15 min): %s\n", rp->date, rp->accel, rp->uname,
		rp->lockdep ? "DEBUG flavour: lockdep on" : "no lockdep", rp->clocksource, rp->commit,
		rp->load);
	if (p->icount) {
		fprintf(f, "icount: the sender guest runs -icount shift=0,sleep=off, so its "
			"CLOCK_MONOTONIC counts one ns per guest\ninstruction: every figure below "
			"is a count of guest INSTRUCTIONS, not a time\n\n");
		return;
	}
	fprintf(f, "%d events per run, %d repeats; remedy: ksock-sndbuf = --sndbuf %ld; "
		"sender txqueuelen %d; netem loss on the sender's eth0: %s\n%s\n\n", p->count,
		p->repeats, p->sndbuf, p->txqueuelen ? p->txqueuelen : 1000,
		p->netem_loss > 0 ? "on" : "none", rp->pinning);
	if (p->netem_loss > 0)
		fprintf(f, "netem loss %g%% (a qdisc in the sender guest: its drops are the "
			"\"queue\" column)\n\n", p->netem_loss);
}

static void range(char *out, size_t n, double med, double lo, double hi)
{
	char a[32], b[32], c[32];

	fmt_rate(a, sizeof(a), med);
	fmt_rate(b, sizeof(b), lo);
	fmt_rate(c, sizeof(c), hi);
	snprintf(out, n, "%s (%s-%s)", a, b, c);
}

/* Issue 17: counted at the sender's tap, where the receiver cannot cap it. */
static void write_txt_sl(FILE *f, const struct report *rp)
{
	fprintf(f, "\nSender-limited rate, events/s: frames at the sender's tap on the host x "
		"events per datagram,\nover the burst's start to its last frame out; median "
		"(min-max) and spread of %d interleaved runs;\nratios repeat by repeat, median "
		"(spread)\n", rp->p.repeats);
	fprintf(f, "%-13s %-26s %7s %16s %16s %6s\n", "path", "events/s", "spread", "/sendto",
		"/pktgen", "ev/dg");
	for (int m = 0; m < bench_nmethods; m++) {
		const struct path_res *pr = &rp->r[m];
		double v[MAXREP], r1, r2, s1, s2, epd = 0;
		char rg[112], a[32], b[32];

		if (!have(rp, m))
			continue;
		for (int i = 0; i < pr->nruns; i++) {
			v[i] = pr->runs[i].sl_eps;
			epd += pr->runs[i].epd / pr->nruns;
		}
		range(rg, sizeof(rg), pr->sl_med, pr->sl_min, pr->sl_max);
		s1 = sl_ratio(rp, m, "sendto", &r1);
		s2 = sl_ratio(rp, m, "pktgen", &r2);
		snprintf(a, sizeof(a), "%.2f (%.0f%%)", r1, 100 * s1);
		snprintf(b, sizeof(b), "%.2f (%.0f%%)", r2, 100 * s2);
		fprintf(f, "%-13s %-26s %6.1f%% %16s %16s %6.1f\n", bench_methods[m].name, rg,
			100 * bench_spread(v, pr->nruns), a, b, epd);
	}
}

static void write_txt_rate(FILE *f, const struct report *rp)
{
	fprintf(f, "Receiver capacity: what the guest receiver took (the receiver, not the "
		"sender, caps it);\nmedian (min-max) of %d runs\n", rp->p.repeats);
	fprintf(f, "%-13s %-24s %-24s %8s %8s\n", "path", "offered events/s",
		"delivered datagrams/s", "/sendto", "/pktgen");
	for (int m = 0; m < bench_nmethods; m++) {
		const struct path_res *pr = &rp->r[m];
		char off[112], del[112];

		if (!have(rp, m))
			continue;
		range(off, sizeof(off), pr->offered_med, pr->off_min, pr->off_max);
		range(del, sizeof(del), pr->dps_med, pr->dps_min, pr->dps_max);
		fprintf(f, "%-13s %-24s %-24s %8.2f %8.2f\n", bench_methods[m].name, off, del,
			ratio(rp, m, "sendto"), ratio(rp, m, "pktgen"));
	}
	write_txt_sl(f, rp);

	fprintf(f, "\nLoss: totals over the %d runs, by cause, in events\n", rp->p.repeats);
	fprintf(f, "%-13s %9s %9s %7s %8s %7s %7s %7s %6s %11s\n", "path", "events", "delivered",
		"lost%", "EAGAIN", "errors", "queue", "wire", "rx", "unaccounted");
	for (int m = 0; m < bench_nmethods; m++) {
		const struct path_res *pr = &rp->r[m];
		long lost = pr->tot.events - pr->tot.delivered;

		if (!have(rp, m))
			continue;
		fprintf(f, "%-13s %9ld %9ld %7.2f %8ld %7ld %7ld %7ld %6ld %11ld\n",
			bench_methods[m].name, pr->tot.events, pr->tot.delivered,
			pr->tot.events ? 100.0 * lost / pr->tot.events : 0, pr->tot.eagain,
			pr->tot.errors, pr->tot.queue, pr->tot.wire, pr->tot.rx_drop, pr->tot.unaccounted);
	}
}

static void write_txt_lat(FILE *f, const struct report *rp)
{
	bool ic = rp->p.icount;

	fprintf(f, "\nHook-to-wire latency, LSM hook entry to the driver's start_xmit (%s)\n",
		ic ? "INSTRUCTIONS, at the low rate" : "us");
	fprintf(f, "%-13s %-34s %-40s\n", "path", "low rate: samples p50 p99 max",
		ic ? "" : "half its max rate: ev/s samples p50 p99 max");
	for (int m = 0; m < bench_nmethods; m++) {
		const struct lat *lo = &rp->r[m].lat[0], *hi = &rp->r[m].lat[1];

		if (!have(rp, m) || !bench_is_bpf(&bench_methods[m]))
			continue;
		if (ic) {
			fprintf(f, "%-13s %5ld/%-5ld %9.0f %9.0f %10.0f\n", bench_methods[m].name,
				lo->samples, lo->expected, lo->p50, lo->p99, lo->max);
			continue;
		}
		fprintf(f, "%-13s %5ld/%-5ld %7.1f %7.1f %8.1f    %7.0f %5ld/%-5ld %7.1f %7.1f %8.1f\n",
			bench_methods[m].name, lo->samples, lo->expected, lo->p50 / 1e3, lo->p99 / 1e3,
			lo->max / 1e3, hi->rate, hi->samples, hi->expected, hi->p50 / 1e3,
			hi->p99 / 1e3, hi->max / 1e3);
	}
}

static void write_txt_cost(FILE *f, const struct report *rp)
{
	const struct bench_params *p = &rp->p;
	const char *u = p->icount ? "instr" : "ns";
	int rb = idx("ringbuf");

	fprintf(f, "\n%s per hooked open(): the syscall's own (mean of %d singly timed opens),\n"
		"and per event in a loop (median of %d rounds of %d; the ringbuf agent's CPU time\n"
		"until it has forwarded the round is included); \"added\" is over no program;\n"
		"\"tasks\": the loop's, with the agent's, own CPU (median), without other tasks'\n",
		p->icount ? "INSTRUCTIONS" : "Cost", p->cost_repeats * p->cost_count, p->cost_repeats,
		p->cost_count);
	fprintf(f, "%-13s %8s %-5s %10s %10s   %8s %-5s %10s %10s   %8s %-5s %10s\n", "path",
		"call", u, "added", "x ringbuf", "loop", u, "added", "x ringbuf", "tasks", u, "added");
	fprintf(f, "%-13s %14.0f %10s %10s   %14.0f %10s %10s   %14.0f %10s\n", "none",
		rp->cost_none_call, "-", "-", rp->cost_none, "-", "-", rp->cost_none_task, "-");
	for (int m = 0; m < bench_nmethods; m++) {
		const struct path_res *pr = &rp->r[m];
		double add = pr->cost_med - rp->cost_none, cadd = pr->cost_call - rp->cost_none_call;
		double rbadd = have(rp, rb) ? rp->r[rb].cost_med - rp->cost_none : NAN;
		double rbcadd = have(rp, rb) ? rp->r[rb].cost_call - rp->cost_none_call : NAN;

		if (!have(rp, m) || !bench_is_bpf(&bench_methods[m]))
			continue;
		fprintf(f, "%-13s %14.0f %10.0f %10.2f   %14.0f %10.0f %10.2f   %14.0f %10.0f\n",
			bench_methods[m].name, pr->cost_call, cadd, rbcadd > 0 ? cadd / rbcadd : NAN,
			pr->cost_med, add, rbadd > 0 ? add / rbadd : NAN, pr->cost_task,
			pr->cost_task - rp->cost_none_task);
	}
	for (int m = 0; m < bench_nmethods; m++)
		if (have(rp, m) && rp->r[m].cost_failed > 0)
			fprintf(f, "WARNING: %s: %.0f of the cost run's %.0f sends failed (%.2f%%); "
				"a failed send costs less, so its figure is lower by about that share "
				"of a send\n", bench_methods[m].name, rp->r[m].cost_failed,
				rp->r[m].cost_events, 100.0 * rp->r[m].cost_failed / rp->r[m].cost_events);
}

static void write_txt(FILE *f, const struct report *rp)
{
	write_head(f, rp);
	if (!rp->p.icount)
		write_txt_rate(f, rp);
	write_txt_lat(f, rp);
	write_txt_cost(f, rp);
	write_txt_signed(f, rp);
}

/* ---- svg ------------------------------------------------------------------ */

static const char *colour[] = { "#555555", "#999999", "#1f77b4", "#2ca02c", "#d62728", "#ff7f0e",
				"#9467bd", "#8c564b", "#17becf", "#bcbd22", "#e377c2" };

static void svg_cdf(FILE *f, const struct report *rp, int half, double x0, double y0,
		    double w, double h)
{
	double lo = 1e9, hi = 0;

	for (int m = 0; m < bench_nmethods; m++) {
		const struct lat *l = &rp->r[m].lat[half];

		if (!have(rp, m) || !l->ok || !l->nns)
			continue;
		if (l->ns[0] > 0 && l->ns[0] < lo)
			lo = l->ns[0];
		if (l->ns[l->nns - 1] > hi)
			hi = l->ns[l->nns - 1];
	}
	if (hi <= 0) {
		lo = 1e3;
		hi = 1e6;
	}
	lo = pow(10, floor(log10(lo)));
	hi = pow(10, ceil(log10(hi)));
	if (hi <= lo)
		hi = lo * 10;
	fprintf(f, "<rect x='%.0f' y='%.0f' width='%.0f' height='%.0f' fill='none' stroke='#000'/>\n",
		x0, y0, w, h);
	fprintf(f, "<text x='%.0f' y='%.0f' font-size='14'>Hook-to-wire latency CDF, %s</text>\n",
		x0, y0 - 8, half ? "half of each path's max rate" : "low rate");
	for (double d = lo; d <= hi * 1.0001; d *= 10) {
		double x = x0 + w * log10(d / lo) / log10(hi / lo);

		fprintf(f, "<line x1='%.1f' y1='%.0f' x2='%.1f' y2='%.0f' stroke='#ddd'/>\n", x, y0, x,
			y0 + h);
		fprintf(f, "<text x='%.1f' y='%.0f' font-size='11' text-anchor='middle'>%g us</text>\n",
			x, y0 + h + 14, d / 1e3);
	}
	for (int q = 0; q <= 4; q++)
		fprintf(f, "<text x='%.0f' y='%.1f' font-size='11' text-anchor='end'>%.2f</text>\n",
			x0 - 4, y0 + h - h * q / 4 + 4, q / 4.0);
	for (int m = 0, k = 0; m < bench_nmethods; m++) {
		const struct lat *l = &rp->r[m].lat[half];

		if (!have(rp, m) || !l->ok || !l->nns)
			continue;
		fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='1.5' points='", colour[m]);
		for (int i = 0; i < l->nns; i++) {
			double v = l->ns[i] > lo ? l->ns[i] : lo;
			double x = x0 + w * log10(v / lo) / log10(hi / lo);

			fprintf(f, "%.1f,%.1f ", x, y0 + h - h * (i + 1) / l->nns);
		}
		fprintf(f, "'/>\n<text x='%.0f' y='%.0f' font-size='12' fill='%s'>%s</text>\n",
			x0 + 8, y0 + 16 + 14 * k++, colour[m], bench_methods[m].name);
	}
}

static void svg_loss(FILE *f, const struct report *rp, double x0, double y0, double w, double h)
{
	double xmax = 0, ymax = 1;

	for (int m = 0; m < bench_nmethods; m++)
		for (int i = 0; have(rp, m) && i < rp->r[m].nruns; i++) {
			const struct rate_run *rr = &rp->r[m].runs[i];
			double loss = rr->events ? 100.0 * (rr->events - rr->delivered) / rr->events : 0;

			if (rr->offered > xmax)
				xmax = rr->offered;
			if (loss > ymax)
				ymax = loss;
		}
	/* Four ticks at round numbers: 1, 2 or 5 times a power of ten. */
	{
		double step = xmax > 0 ? xmax / 4 : 1, mag = pow(10, floor(log10(step)));

		step = step <= mag ? mag : step <= 2 * mag ? 2 * mag : step <= 5 * mag ? 5 * mag : 10 * mag;
		xmax = 4 * step;
	}
	ymax = ceil(ymax / 20) * 20;
	fprintf(f, "<rect x='%.0f' y='%.0f' width='%.0f' height='%.0f' fill='none' stroke='#000'/>\n",
		x0, y0, w, h);
	fprintf(f, "<text x='%.0f' y='%.0f' font-size='14'>Offered rate vs loss, each run "
		"(loss: events not delivered to the receiver's socket)</text>\n", x0, y0 - 8);
	for (int q = 0; q <= 4; q++) {
		fprintf(f, "<text x='%.0f' y='%.1f' font-size='11' text-anchor='end'>%.0f%%</text>\n",
			x0 - 4, y0 + h - h * q / 4 + 4, ymax * q / 4);
		fprintf(f, "<text x='%.1f' y='%.0f' font-size='11' text-anchor='middle'>%.0f</text>\n",
			x0 + w * q / 4, y0 + h + 14, xmax * q / 4);
	}
	fprintf(f, "<text x='%.0f' y='%.0f' font-size='11' text-anchor='middle'>offered "
		"events/s</text>\n", x0 + w / 2, y0 + h + 28);
	for (int m = 0, k = 0; m < bench_nmethods; m++) {
		if (!have(rp, m))
			continue;
		for (int i = 0; i < rp->r[m].nruns; i++) {
			const struct rate_run *rr = &rp->r[m].runs[i];
			double loss = rr->events ? 100.0 * (rr->events - rr->delivered) / rr->events : 0;

			fprintf(f, "<circle cx='%.1f' cy='%.1f' r='4' fill='%s'/>\n",
				x0 + w * rr->offered / xmax, y0 + h - h * loss / ymax, colour[m]);
		}
		/* Top left: high loss at a low rate is the corner no run reaches. */
		fprintf(f, "<text x='%.0f' y='%.0f' font-size='12' fill='%s'>%s</text>\n",
			x0 + 8, y0 + 16 + 14 * k++, colour[m], bench_methods[m].name);
	}
}

static void write_svg(FILE *f, const struct report *rp)
{
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='1000' height='720' "
		"font-family='sans-serif'>\n<rect width='1000' height='720' fill='#fff'/>\n");
	fprintf(f, "<text x='20' y='24' font-size='16'>bpfwire benchmark, %s, accel %s</text>\n",
		rp->date, rp->accel);
	svg_cdf(f, rp, 0, 60, 70, 400, 260);
	svg_cdf(f, rp, 1, 560, 70, 400, 260);
	svg_loss(f, rp, 60, 420, 900, 240);
	fprintf(f, "</svg>\n");
}

/* ---- json ----------------------------------------------------------------- */

/* Where a run's (or the totals') events went. */
static void put_loss(json_object *o, const struct rate_run *rr)
{
	json_object_object_add(o, "events", json_object_new_int64(rr->events));
	json_object_object_add(o, "delivered", json_object_new_int64(rr->delivered));
	json_object_object_add(o, "eagain", json_object_new_int64(rr->eagain));
	json_object_object_add(o, "errors", json_object_new_int64(rr->errors));
	json_object_object_add(o, "queue", json_object_new_int64(rr->queue));
	json_object_object_add(o, "wire", json_object_new_int64(rr->wire));
	json_object_object_add(o, "rx", json_object_new_int64(rr->rx_drop));
	json_object_object_add(o, "unaccounted", json_object_new_int64(rr->unaccounted));
}

static json_object *lat_json(const struct lat *l)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "rate", jd(l->rate));
	json_object_object_add(o, "samples", json_object_new_int64(l->samples));
	json_object_object_add(o, "expected", json_object_new_int64(l->expected));
	json_object_object_add(o, "p50_ns", jd(l->p50));
	json_object_object_add(o, "p99_ns", jd(l->p99));
	json_object_object_add(o, "max_ns", jd(l->max));
	for (int i = 0; i < l->nns; i++)
		json_object_array_add(a, json_object_new_int64((long)l->ns[i]));
	json_object_object_add(o, "ns", a);
	return o;
}

static json_object *params_json(const struct bench_params *bp)
{
	json_object *p = json_object_new_object();

	json_object_object_add(p, "count", json_object_new_int(bp->count));
	json_object_object_add(p, "repeats", json_object_new_int(bp->repeats));
	json_object_object_add(p, "lat_low_rate", json_object_new_int(bp->lat_low_rate));
	json_object_object_add(p, "lat_low_count", json_object_new_int(bp->lat_low_count));
	json_object_object_add(p, "lat_half_count", json_object_new_int(bp->lat_half_count));
	json_object_object_add(p, "cost_count", json_object_new_int(bp->cost_count));
	json_object_object_add(p, "cost_repeats", json_object_new_int(bp->cost_repeats));
	json_object_object_add(p, "sndbuf", json_object_new_int64(bp->sndbuf));
	json_object_object_add(p, "netem_loss_pct", json_object_new_double(bp->netem_loss));
	json_object_object_add(p, "txqueuelen", json_object_new_int(bp->txqueuelen ?
				bp->txqueuelen : 1000));
	return p;
}

/* Issue 17: the sender-limited rate, its spread, and its ratios with theirs. */
static void sl_json(json_object *o, const struct report *rp, int m)
{
	const struct path_res *pr = &rp->r[m];
	double v[MAXREP], med;

	for (int i = 0; i < pr->nruns; i++)
		v[i] = pr->runs[i].sl_eps;
	json_object_object_add(o, "sl_eps_median", jd(pr->sl_med));
	json_object_object_add(o, "sl_eps_min", jd(pr->sl_min));
	json_object_object_add(o, "sl_eps_max", jd(pr->sl_max));
	json_object_object_add(o, "sl_eps_spread", jd(bench_spread(v, pr->nruns)));
	json_object_object_add(o, "sl_ratio_sendto_spread", jd(sl_ratio(rp, m, "sendto", &med)));
	json_object_object_add(o, "sl_ratio_sendto", jd(med));
	json_object_object_add(o, "sl_ratio_pktgen_spread", jd(sl_ratio(rp, m, "pktgen", &med)));
	json_object_object_add(o, "sl_ratio_pktgen", jd(med));
}

/* rate.PATH: each run, the medians and ranges, and where the events went. */
static json_object *rate_json(const struct report *rp, int m)
{
	const struct path_res *pr = &rp->r[m];
	json_object *o = json_object_new_object(), *runs = json_object_new_array(), *loss;

	for (int i = 0; i < pr->nruns; i++) {
		const struct rate_run *rr = &pr->runs[i];
		json_object *ro = json_object_new_object();

		json_object_object_add(ro, "offered_eps", jd(rr->offered));
		json_object_object_add(ro, "delivered_dps", jd(rr->delivered_dps));
		json_object_object_add(ro, "tap_frames", json_object_new_int64(rr->tap_frames));
		json_object_object_add(ro, "span_s", jd(rr->span_s));
		json_object_object_add(ro, "events_per_datagram", jd(rr->epd));
		json_object_object_add(ro, "sl_eps", jd(rr->sl_eps));
		put_loss(ro, rr);
		json_object_array_add(runs, ro);
	}
	json_object_object_add(o, "runs", runs);
	json_object_object_add(o, "offered_eps_median", jd(pr->offered_med));
	json_object_object_add(o, "offered_eps_min", jd(pr->off_min));
	json_object_object_add(o, "offered_eps_max", jd(pr->off_max));
	json_object_object_add(o, "delivered_dps_median", jd(pr->dps_med));
	json_object_object_add(o, "delivered_dps_min", jd(pr->dps_min));
	json_object_object_add(o, "delivered_dps_max", jd(pr->dps_max));
	json_object_object_add(o, "ratio_sendto", jd(ratio(rp, m, "sendto")));
	json_object_object_add(o, "ratio_pktgen", jd(ratio(rp, m, "pktgen")));
	sl_json(o, rp, m);
	loss = json_object_new_object();
	put_loss(loss, &pr->tot);
	json_object_object_add(o, "loss_total", loss);
	return o;
}

/* What the ringbuf sender adds to an open(): the unit of the x_ringbuf ratios. */
struct rb_added {
	double loop;	/* ns per open in a loop */
	double call;	/* ns per singly timed open */
};

/* cost.PATH of a BPF path: its ns per open, and what it adds over none. */
static json_object *cost_json(const struct report *rp, int m, const struct rb_added *rb)
{
	const struct path_res *pr = &rp->r[m];
	json_object *c = json_object_new_object();
	double add = pr->cost_med - rp->cost_none;
	double cadd = pr->cost_call - rp->cost_none_call;

	json_object_object_add(c, "ns_per_open", jd(pr->cost_med));
	json_object_object_add(c, "added_ns", jd(add));
	json_object_object_add(c, "x_ringbuf", jd(rb->loop > 0 ? add / rb->loop : NAN));
	json_object_object_add(c, "call_mean_ns", jd(pr->cost_call));
	json_object_object_add(c, "call_added_ns", jd(cadd));
	json_object_object_add(c, "call_x_ringbuf", jd(rb->call > 0 ? cadd / rb->call : NAN));
	json_object_object_add(c, "task_per_open", jd(pr->cost_task));
	json_object_object_add(c, "task_added", jd(pr->cost_task - rp->cost_none_task));
	json_object_object_add(c, "send_failed", jd(pr->cost_failed));
	return c;
}

/*
 * Issue 17: ksock --batch 32 against ringbuf+agent. Under icount: the
 * instructions it adds per event, over ringbuf's total (BPF program, the
 * agent's read and sendto(), one guest), < 1. In wall time: its
 * sender-limited rate >= 1.5x ringbuf's, with 0 unaccounted events.
 */
static void batch_targets(json_object *t, const struct report *rp, const struct rb_added *rba)
{
	int b = idx("ksock-b32"), rb = idx("ringbuf");
	double med;

	if (!have(rp, b))
		return;
	if (rp->p.icount) {
		double add = rp->r[b].cost_med - rp->cost_none;

		if (have(rp, rb) && rba->loop > 0)
			add_target(t, "b32_added_instr_x_ringbuf_total", add / rba->loop, "< 1",
				   add / rba->loop < 1);
		return;
	}
	add_target(t, "b32_unaccounted_events", rp->r[b].tot.unaccounted, "== 0",
		   rp->r[b].tot.unaccounted == 0);
	if (!have(rp, rb))
		return;
	sl_ratio(rp, b, "ringbuf", &med);
	add_target(t, "b32_sender_limited_x_ringbuf", med, ">= 1.5", isnan(med) ? -1 : med >= 1.5);
}

/* The targets, as measured; nothing here is tuned to pass. */
static json_object *targets_json(const struct report *rp, const struct rb_added *rba)
{
	json_object *t = json_object_new_object();
	int ks = idx("ksock"), kr = idx("ksock-sndbuf"), np = idx("netpoll"), rb = idx("ringbuf");
	double rbadd = rba->loop, rbcadd = rba->call;

	if (rp->p.icount) {
		batch_targets(t, rp, rba);
		return t;
	}

	if (have(rp, ks)) {
		double r = ratio(rp, ks, "sendto");

		add_target(t, "ksock_delivery_vs_sendto", r, ">= 0.8", isnan(r) ? -1 : r >= 0.8);
		add_target(t, "ksock_unaccounted_loss", rp->r[ks].tot.unaccounted, "== 0",
			   rp->r[ks].tot.unaccounted == 0);
	}
	if (have(rp, kr)) {
		const struct path_res *pr = &rp->r[kr];
		double lost = pr->tot.events - pr->tot.delivered;

		add_target(t, "remedy_burst_lost_events", lost, "== 0 (or reported and explained)",
			   lost == 0);
		add_target(t, "remedy_delivery_vs_sendto", ratio(rp, kr, "sendto"), ">= 0.8",
			   isnan(ratio(rp, kr, "sendto")) ? -1 : ratio(rp, kr, "sendto") >= 0.8);
	}
	for (int half = 0; half <= 1 && have(rp, ks) && have(rp, rb); half++) {
		double a = rp->r[ks].lat[half].p99, b = rp->r[rb].lat[half].p99;

		add_target(t, half ? "ksock_p99_over_ringbuf_p99_half" : "ksock_p99_over_ringbuf_p99_low",
			   b > 0 ? a / b : NAN, "<= 0.333", b > 0 ? a / b <= 1.0 / 3 : -1);
	}
	if (have(rp, rb) && rbcadd > 0) {
		if (have(rp, ks))
			add_target(t, "ksock_syscall_cost_x_ringbuf",
				   (rp->r[ks].cost_call - rp->cost_none_call) / rbcadd, "report", -1);
		if (have(rp, np))
			add_target(t, "netpoll_syscall_cost_x_ringbuf",
				   (rp->r[np].cost_call - rp->cost_none_call) / rbcadd, "report", -1);
		if (have(rp, kr))
			add_target(t, "remedy_syscall_cost_x_ringbuf",
				   (rp->r[kr].cost_call - rp->cost_none_call) / rbcadd, "report", -1);
	}
	{
		struct sign_cost c;

		if (sign_cost(rp, "ksock-signed", "ksock", &c)) {
			add_target(t, "ksock_signed_delivery_x_ksock", c.dps, "report", -1);
			add_target(t, "ksock_signed_call_added_x_ksock", c.call_added, "report", -1);
			add_target(t, "ksock_signed_loop_added_x_ksock", c.loop_added, "report", -1);
		}
		if (sign_cost(rp, "netpoll-signed", "netpoll", &c)) {
			add_target(t, "netpoll_signed_delivery_x_netpoll", c.dps, "report", -1);
			add_target(t, "netpoll_signed_call_added_x_netpoll", c.call_added, "report", -1);
		}
	}
	if (have(rp, rb) && rbadd > 0) {
		if (have(rp, ks))
			add_target(t, "ksock_loop_cost_x_ringbuf", (rp->r[ks].cost_med - rp->cost_none) / rbadd,
				   "report", -1);
		if (have(rp, np))
			add_target(t, "netpoll_loop_cost_x_ringbuf",
				   (rp->r[np].cost_med - rp->cost_none) / rbadd, "report", -1);
	}
	batch_targets(t, rp, rba);
	return t;
}

static json_object *build_json(const struct report *rp)
{
	json_object *root = json_object_new_object(), *rate = json_object_new_object();
	json_object *lat = json_object_new_object(), *cost = json_object_new_object();
	json_object *k = json_object_new_object(), *none = json_object_new_object();
	int rbi = idx("ringbuf");
	struct rb_added rb = {
		.loop = have(rp, rbi) ? rp->r[rbi].cost_med - rp->cost_none : NAN,
		.call = have(rp, rbi) ? rp->r[rbi].cost_call - rp->cost_none_call : NAN,
	};

	json_object_object_add(root, "tool", json_object_new_string("bpfwire-bench"));
	json_object_object_add(root, "date", json_object_new_string(rp->date));
	json_object_object_add(root, "accel", json_object_new_string(rp->accel));
	json_object_object_add(root, "icount", json_object_new_boolean(rp->p.icount));
	json_object_object_add(root, "unit", json_object_new_string(rp->p.icount ?
				"guest instructions (icount: 1 ns of the guest's clock each)" : "ns"));
	json_object_object_add(root, "pinning", json_object_new_string(rp->pinning));
	json_object_object_add(root, "commit", json_object_new_string(rp->commit));
	json_object_object_add(root, "load", json_object_new_string(rp->load));
	json_object_object_add(k, "uname", json_object_new_string(rp->uname));
	json_object_object_add(k, "lockdep", json_object_new_boolean(rp->lockdep));
	json_object_object_add(root, "kernel", k);
	json_object_object_add(root, "clocksource", json_object_new_string(rp->clocksource));
	json_object_object_add(root, "params", params_json(&rp->p));
	for (int m = 0; m < bench_nmethods; m++) {
		const struct path_res *pr = &rp->r[m];
		json_object *l;

		if (!have(rp, m))
			continue;
		json_object_object_add(rate, bench_methods[m].name, rate_json(rp, m));
		if (!bench_is_bpf(&bench_methods[m]))
			continue;
		l = json_object_new_object();
		json_object_object_add(l, "low", lat_json(&pr->lat[0]));
		json_object_object_add(l, "half", lat_json(&pr->lat[1]));
		json_object_object_add(lat, bench_methods[m].name, l);
		json_object_object_add(cost, bench_methods[m].name, cost_json(rp, m, &rb));
	}
	json_object_object_add(none, "ns_per_open", jd(rp->cost_none));
	json_object_object_add(none, "call_mean_ns", jd(rp->cost_none_call));
	json_object_object_add(none, "task_per_open", jd(rp->cost_none_task));
	json_object_object_add(cost, "none", none);
	json_object_object_add(root, "rate", rate);
	json_object_object_add(root, "latency", lat);
	json_object_object_add(root, "cost", cost);
	json_object_object_add(root, "targets", targets_json(rp, &rb));
	return root;
}

static void print_targets(FILE *f, json_object *root)
{
	json_object *t;

	if (!json_object_object_get_ex(root, "targets", &t))
		return;
	fprintf(f, "\nTargets (measured; \"met\" is informative, the benchmark never fails on it)\n");
	json_object_object_foreach(t, name, o) {
		json_object *met = NULL, *tg = NULL;
		double v = bench_json_num(o, "value");

		json_object_object_get_ex(o, "met", &met);
		json_object_object_get_ex(o, "target", &tg);
		fprintf(f, "  %-34s %10.3f  target %-34s %s\n", name, v, json_object_get_string(tg),
			!met ? "" : json_object_get_boolean(met) ? "met" : "NOT met");
	}
}

bool bench_config_has_lockdep(const char *path)
{
	char line[256];
	bool on = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strcmp(line, "CONFIG_LOCKDEP=y\n"))
			on = true;
	fclose(f);
	return on;
}

int bench_report(const char *run, FILE *out, char *err, size_t errlen)
{
	struct report *rp = calloc(1, sizeof(*rp));
	char path[4096];
	json_object *sum, *root;
	FILE *f;
	int ret = -1;

	if (!rp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (bench_params_load(run, &rp->p, err, errlen))
		goto out;
	if (rp->p.repeats > MAXREP) {
		snprintf(err, errlen, "at most %d repeats", MAXREP);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/summary.json", run);
	sum = json_object_from_file(path);
	{
		json_object *v;

		if (sum && json_object_object_get_ex(sum, "accel", &v))
			snprintf(rp->accel, sizeof(rp->accel), "%s", json_object_get_string(v));
		else
			snprintf(rp->accel, sizeof(rp->accel), "?");
	}
	json_object_put(sum);
	read_text(run, "uname", rp->uname, sizeof(rp->uname));
	read_run_file(run, "pinning.txt", "vCPU threads not pinned", rp->pinning, sizeof(rp->pinning));
	read_run_file(run, "commit", "unknown", rp->commit, sizeof(rp->commit));
	read_run_file(run, "load.txt", "unknown", rp->load, sizeof(rp->load));
	read_text(run, "clocksource", rp->clocksource, sizeof(rp->clocksource));
	/* refined-jiffies ticks in 4 ms: no latency can be read off it. */
	if (strcmp(rp->clocksource, "tsc")) {
		snprintf(err, errlen, "the sender's clocksource is '%s', not tsc (bench/README.md: the lab "
			 "passes tsc_early_khz and tsc=reliable)", rp->clocksource);
		goto out;
	}
	/* bpfwire-bench copies BUILD/kernel/config there before the run. */
	snprintf(path, sizeof(path), "%s/kernel-config", run);
	rp->lockdep = bench_config_has_lockdep(path);
	snprintf(path, sizeof(path), "%s/summary.json", run);
	{
		/* The run's date: summary.json is written when the lab run ends. */
		struct stat sb;
		time_t when = stat(path, &sb) ? time(NULL) : sb.st_mtime;

		strftime(rp->date, sizeof(rp->date), "%Y-%m-%d %H:%M UTC", gmtime(&when));
	}

	for (int m = 0; m < bench_nmethods; m++) {
		if (!have(rp, m))
			continue;
		for (int r = 1; r <= rp->p.repeats && !rp->p.icount; r++) {
			if (read_rate(run, m, r, &rp->r[m].runs[rp->r[m].nruns], err, errlen))
				goto out;
			rp->r[m].nruns++;
		}
		summarise(&rp->r[m]);
		if (!bench_is_bpf(&bench_methods[m]))
			continue;
		/* Under icount only the low rate: a half "rate" would be instructions too. */
		for (int half = 0; half <= !rp->p.icount; half++)
			if (read_lat(run, m, half, &rp->r[m].lat[half], err, errlen))
				goto out;
		if (read_cost(run, bench_methods[m].name, &rp->r[m].cost_med, &rp->r[m].cost_call,
			      &rp->r[m].cost_task)) {
			snprintf(err, errlen, "cost-%s: missing or no median", bench_methods[m].name);
			goto out;
		}
		read_cost_failed(run, bench_methods[m].name, &rp->r[m]);
	}
	if (read_cost(run, "none", &rp->cost_none, &rp->cost_none_call, &rp->cost_none_task)) {
		snprintf(err, errlen, "cost-none: missing or no median");
		goto out;
	}

	root = build_json(rp);
	snprintf(path, sizeof(path), "%s/bench.json", run);
	if (json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED)) {
		snprintf(err, errlen, "can't write %s: %s", path, json_util_get_last_err());
		json_object_put(root);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/bench.txt", run);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "can't write %s: %s", path, errno_text(errno));
		json_object_put(root);
		goto out;
	}
	write_txt(f, rp);
	print_targets(f, root);
	fclose(f);
	if (out) {
		write_txt(out, rp);
		print_targets(out, root);
	}
	json_object_put(root);
	snprintf(path, sizeof(path), "%s/bench.svg", run);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "can't write %s: %s", path, errno_text(errno));
		goto out;
	}
	write_svg(f, rp);
	fclose(f);
	ret = 0;
out:
	for (int m = 0; m < bench_nmethods; m++)
		for (int h = 0; h < 2; h++)
			free(rp->r[m].lat[h].ns);
	free(rp);
	return ret;
}
