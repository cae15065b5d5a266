/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpfwire-bench-guest: the text parsers and the statistics, kept apart from
 * libbpf and the syscalls so the host unit test runs them on canned input.
 */
#ifndef BENCH_GUEST_GUEST_PARSE_H
#define BENCH_GUEST_GUEST_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* The pktgen device file (/proc/net/pktgen/IF) after a run. */
struct bg_pktgen_result {
	int ok;			/* "Result: OK: ..." (else an error or "Idle") */
	uint64_t usec;		/* elapsed, pktgen's own clock */
	uint64_t sofar;		/* packets sent */
	uint64_t pkt_size;	/* frame bytes, as pktgen counts them */
	uint64_t pps;
	uint64_t errors;
	uint64_t cur_sofar;	/* "Current: pkts-sofar:" */
	uint64_t cur_errors;	/* "Current: ... errors:" */
	int have_cur;
	char line[256];		/* the Result text, its two lines joined by one space */
};

/*
 * Parse the whole device file. 0 when a Result line was found and parsed
 * (r->ok tells whether pktgen said OK), -1 when there is no Result line or
 * an OK result does not have the expected shape.
 */
int bg_parse_pktgen(const char *text, struct bg_pktgen_result *r);

/*
 * A named counter of /proc/net/snmp, whose sections are a line of names and a
 * line of values with the same "Proto:" prefix ("Udp:" is not "UdpLite:").
 * 0 and *v, or -1 when the section or the name is missing.
 */
int bg_parse_snmp(const char *text, const char *proto, const char *name, int64_t *v);

/* A counter of /proc/net/snmp6 ("Udp6SndbufErrors   12"). */
int bg_parse_snmp6(const char *text, const char *name, int64_t *v);

/*
 * The drops of `tc -s -j qdisc show dev IF`. A classless root is counted once
 * and every child once; the children of a multiqueue root (mq, mqprio,
 * taprio) are not added, because the root already reports their sum.
 * 0 and *drops, -1 when the text is not tc's JSON array.
 */
int bg_parse_tc_drops(const char *json, int64_t *drops);

/* Nearest rank: the smallest value with at least p% of the samples at or
 * below it (rank ceil(p/100 * n), at least 1). n must be > 0. */
uint64_t bg_percentile(const uint64_t *sorted, size_t n, double p);
void bg_sort_u64(uint64_t *v, size_t n);

/* A strict decimal unsigned integer, min..max. 0 or -1. */
int bg_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *v);

/*
 * The datagram `sendto` sends: a bpfwire header of type test, sender_id, seq,
 * ts, then len - 40 bytes of a fixed pattern, sealed as encode.h seals.
 * len is 40..BPFWIRE_MAX_DATAGRAM; -1 otherwise.
 */
int bg_build_test_datagram(uint8_t *buf, uint32_t len, uint32_t sender_id,
			   uint64_t seq, uint64_t ts);

/* Which (sender_id, seq) pairs have been seen: an open-addressing set. */
struct bg_seen_slot {
	uint64_t seq;
	uint32_t sender_id;
	uint32_t used;
};
struct bg_seen {
	struct bg_seen_slot *slot;
	size_t cap, n;		/* cap is a power of two, kept at most half full */
};
/* 1 when new (and now added), 0 when already there, -1 out of memory. */
int bg_seen_add(struct bg_seen *s, uint32_t sender_id, uint64_t seq);
void bg_seen_free(struct bg_seen *s);

/*
 * A counter that settles: fed (time, value) samples after a burst (the
 * NIC's tx_packets, the agent's CPU time), it tells when the value has not
 * moved for window_ns, and when it last moved. The first sample is the
 * baseline; last_change_ns stays 0 when it never moved after it.
 */
struct bg_settle {
	uint64_t window_ns;
	uint64_t first, value;		/* the baseline, the latest value */
	uint64_t last_change_ns;	/* 0: no change since the baseline */
	uint64_t since_ns;		/* time of the latest change, or of the baseline */
	int started;
};
void bg_settle_init(struct bg_settle *s, uint64_t window_ns);
/* 1 when the value has been still for window_ns, else 0. */
int bg_settle_feed(struct bg_settle *s, uint64_t t_ns, uint64_t value);

#endif /* BENCH_GUEST_GUEST_PARSE_H */
