/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * IPv4/IPv6 fragment reassembly for validation. Large ksock payloads leave
 * the sender as fragments; we rebuild them so that the UDP checksum and the
 * wire format are checked over the whole datagram, as the socket sees it.
 */
#ifndef BPFWIRE_RECV_REASM_H
#define BPFWIRE_RECV_REASM_H

#include "parse.h"

struct bpfw_reasm_stats {
	uint64_t fragments;	/* fragments handed in */
	uint64_t reassembled;	/* datagrams completed */
	uint64_t duplicates;	/* byte-identical fragments seen twice, ignored */
	uint64_t incomplete;	/* datagrams dropped by timeout, eviction or end */
	uint64_t dead;		/* fragments of a datagram already rejected */
};

struct bpfw_reasm;

struct bpfw_reasm *bpfw_reasm_new(unsigned max_entries, uint64_t timeout_ns);
void bpfw_reasm_free(struct bpfw_reasm *ra);
const struct bpfw_reasm_stats *bpfw_reasm_stats(const struct bpfw_reasm *ra);

/*
 * Add one fragment (as bpfw_parse_frame returned it). Returns FRAGMENT while
 * the datagram is incomplete, OK or NOT_UDP when it is whole (then *whole
 * describes it; whole->l4 stays valid until the next call), or the reason
 * it was rejected. A rejected datagram is counted once: its later fragments
 * are swallowed until it times out.
 */
enum bpfw_reason bpfw_reasm_add(struct bpfw_reasm *ra, const struct bpfw_l3 *frag,
				uint64_t now_ns, struct bpfw_l3 *whole);

/* Drop datagrams older than the timeout; UINT64_MAX drops all (end of run). */
void bpfw_reasm_expire(struct bpfw_reasm *ra, uint64_t now_ns);

#endif /* BPFWIRE_RECV_REASM_H */
