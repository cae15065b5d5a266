/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-path's model of a run: hosts, their datagrams, each one's records (types only). */
#ifndef BPFWIRE_TRACE_DATAGRAM_H
#define BPFWIRE_TRACE_DATAGRAM_H

#include <stdint.h>
#include <stdio.h>

struct rec {
	int probe;		/* enum tr_probe */
	int exit;		/* 1: the function's return */
	uint64_t t;		/* ns, the sender's CLOCK_MONOTONIC */
	int64_t ret;
	int has_ret;
	char skb[24];
	char dev[20];
	char reason[48];
	int64_t len, pid, cpu;
};

struct capture {
	char pcap[256];		/* relative to RUN */
	long frame;		/* 1-based, as Wireshark counts */
	long long ts_us;	/* the capturing host's wall clock */
	char src[64], dst[64];
};

enum dg_end { END_INCOMPLETE, END_DRIVER, END_DROPPED, END_FAILED };

struct datagram {
	uint32_t sender;
	uint64_t seq;
	int path;		/* enum tr_path */
	int ipv6;
	struct rec *recs;
	int nrecs, caprecs;
	struct capture *caps;
	int ncaps;
	/* derived by finish() */
	enum dg_end end;
	int end_probe;		/* the last layer reached before the end */
	const char *reason;
	int64_t kfunc_ret;
	int has_kfunc_ret;
	uint64_t total_ns;	/* first record to the driver (or the end) */
	const char *missing[16];
	int nmissing;
	int in_order;
};

struct host {
	char name[256];
	struct datagram *dgs;
	int ndgs, capdgs;
	long long records, lost;
	int have_end;
};

#endif
