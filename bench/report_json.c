// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c's bench.json, with the targets and whether each was met.
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
#include "report_json.h"
#include "report_read.h"
#include "report_txt.h"

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
	/* false: the kernel lacked bpfwire's sndbuf extension, no ksock-sndbuf */
	json_object_object_add(p, "ksock_sndbuf", json_object_new_boolean(!bp->sndbuf_missing));
	json_object_object_add(p, "netem_loss_pct", json_object_new_double(bp->netem_loss));
	json_object_object_add(p, "txqueuelen", json_object_new_int(bp->txqueuelen ?
				bp->txqueuelen : 1000));
	return p;
}

/* The sender-limited rate, its spread, and its ratios with theirs. */
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
 * ksock --batch 32 against ringbuf+agent. Under icount: the
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
/* Encrypted over signed-only, what AES-CTR adds (either clock). */
static void enc_targets(json_object *t, const struct report *rp)
{
	static const char *const pairs[][3] = {
		{ "ksock-enc", "ksock-signed", "ksock" }, { "netpoll-enc", "netpoll-signed", "netpoll" },
	};
	struct sign_cost c;
	char name[64];

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (!sign_cost(rp, pairs[i][0], pairs[i][1], &c))
			continue;
		snprintf(name, sizeof(name), "%s_enc_call_added_x_signed", pairs[i][2]);
		add_target(t, name, c.call_added, "report", -1);
		snprintf(name, sizeof(name), "%s_enc_loop_added_x_signed", pairs[i][2]);
		add_target(t, name, c.loop_added, "report", -1);
	}
}

static json_object *targets_json(const struct report *rp, const struct rb_added *rba)
{
	json_object *t = json_object_new_object();
	int ks = idx("ksock"), kr = idx("ksock-sndbuf"), np = idx("netpoll"), rb = idx("ringbuf");
	double rbadd = rba->loop, rbcadd = rba->call;

	enc_targets(t, rp);
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

json_object *build_json(const struct report *rp)
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
