// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c's bench.txt: the tables a reader looks at first.
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
#include "report_txt.h"

/* ---- text ----------------------------------------------------------------- */

static void fmt_rate(char *b, size_t n, double v)
{
	if (isnan(v))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.0f", v);
}

/* What signing costs, as ratios to the same sender unsigned. */
bool sign_cost(const struct report *rp, const char *sig, const char *plain,
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

/* A table of variants over their base, same run (sign_cost's ratios). */
static void write_txt_over(FILE *f, const struct report *rp, const char *title,
			   const char *const pairs[][2], size_t n)
{
	struct sign_cost c;
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		if (!sign_cost(rp, pairs[i][0], pairs[i][1], &c))
			continue;
		if (!any++)
			fprintf(f, "\n%s\n%-15s %-14s %14s %16s %16s\n", title, "path", "vs",
				"delivered/s", "added ns (call)", "added ns (loop)");
		fprintf(f, "%-15s %-14s %14.2f %16.2f %16.2f\n", pairs[i][0], pairs[i][1], c.dps,
			c.call_added, c.loop_added);
	}
}

static void write_txt_signed(FILE *f, const struct report *rp)
{
	static const char *const sig[][2] = {
		{ "ksock-signed", "ksock" }, { "netpoll-signed", "netpoll" },
	};
	/* What encryption adds to signing. */
	static const char *const enc[][2] = {
		{ "ksock-enc", "ksock-signed" }, { "netpoll-enc", "netpoll-signed" },
	};

	write_txt_over(f, rp, "Signing (SipHash-2-4, wire v2): signed over unsigned, same run",
		       sig, sizeof(sig) / sizeof(sig[0]));
	write_txt_over(f, rp, "Encryption (AES-128-CTR in BPF, wire v3): encrypted over signed-only, same run",
		       enc, sizeof(enc) / sizeof(enc[0]));
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
	if (p->sndbuf_missing)
		fprintf(f, "%d events per run, %d repeats; remedy: none, the kernel lacked bpfwire's "
			"sndbuf extension (kernel/patches/sndbuf), ksock-sndbuf left out; ",
			p->count, p->repeats);
	else
		fprintf(f, "%d events per run, %d repeats; remedy: ksock-sndbuf = --sndbuf %ld; ",
			p->count, p->repeats, p->sndbuf);
	fprintf(f, "sender txqueuelen %d; netem loss on the sender's eth0: %s\n%s\n\n",
		p->txqueuelen ? p->txqueuelen : 1000, p->netem_loss > 0 ? "on" : "none", rp->pinning);
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

/* Counted at the sender's tap, where the receiver cannot cap it. */
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

void write_txt(FILE *f, const struct report *rp)
{
	write_head(f, rp);
	if (!rp->p.icount)
		write_txt_rate(f, rp);
	write_txt_lat(f, rp);
	write_txt_cost(f, rp);
	write_txt_signed(f, rp);
}


void print_targets(FILE *f, json_object *root)
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
