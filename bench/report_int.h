/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the parts of the benchmark report (report.c) share: a run read into
 * struct report (report_read.h), then written as bench.txt (report_txt.h),
 * bench.svg (report_svg.h) and bench.json (report_json.h).
 */
#ifndef BPFWIRE_BENCH_REPORT_INT_H
#define BPFWIRE_BENCH_REPORT_INT_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>
#include "params.h"

#define MAXREP 32

struct rate_run {
	bool ok;
	double offered;		/* events/s at the sender */
	double delivered_dps;	/* datagrams/s at the receiver, over its arrival span */
	long events, delivered, eagain, errors, queue, wire, rx_drop, unaccounted;
	/* What left the sender, counted where nothing caps it. */
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

/*
 * sign_cost() (report_txt.h) serves bench.json too: a variant over its base,
 * signed over unsigned or encrypted over signed-only.
 */
struct sign_cost {
	double dps;		/* delivered datagrams/s, variant over base */
	double call_added;	/* added ns per singly timed open, variant over base */
	double loop_added;	/* added ns per open in a loop, variant over base */
};

#endif
