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

extern const struct bench_method bench_methods[];
extern const int bench_nmethods;

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
