/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark's types: the paths it compares and its parameters, as
 * gen.c writes them into the scenario and report_read.c reads them back.
 */
#ifndef BPFWIRE_BENCH_PARAMS_H
#define BPFWIRE_BENCH_PARAMS_H

#include <stdbool.h>

enum bench_kind {
	BENCH_SENDTO,		/* user-space reference */
	BENCH_PKTGEN,		/* the kernel's ceiling on the NIC */
	BENCH_BPF,		/* an LSM sender installed by bpfwire-agent */
	BENCH_BPF_AGENT,	/* ringbuf: the agent stays and forwards */
};

struct bench_method {
	const char *name;
	enum bench_kind kind;
	const char *agent_args;	/* bpfwire-agent options (BPF kinds) */
	int batch;		/* --batch N: events per datagram, 0: none given */
	const char *rx_args;	/* the receiver's extra options, NULL: none */
};

/* Methods whose hook-to-wire latency and per-open cost are measured. */
static inline bool bench_is_bpf(const struct bench_method *m)
{
	return m->kind == BENCH_BPF || m->kind == BENCH_BPF_AGENT;
}

struct bench_params {
	int count;		/* events per rate run (the burst) */
	int repeats;
	int lat_low_rate;	/* events/s */
	int lat_low_count;
	int lat_half_count;
	int cost_count;		/* opens per cost round */
	int cost_repeats;
	long sndbuf;		/* the remedy's --sndbuf */
	double netem_loss;	/* percent, 0: none */
	int txqueuelen;		/* the sender's eth0, 0: the default (1000) */
	unsigned methods;	/* bit i: bench_methods[i] */
	int icount;		/* 1: the sender on icount, cost and low-rate latency only */
	int sndbuf_missing;	/* 1: the kernel lacked bpfwire's sndbuf extension, so
				 * ksock-sndbuf was left out (bench_without_sndbuf) */
};

#endif /* BPFWIRE_BENCH_PARAMS_H */
