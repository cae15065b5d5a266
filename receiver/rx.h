/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The validation pipeline shared by live capture, --read and the fuzzer:
 * frame -> link/IP -> reassembly -> UDP -> wire format -> expectations ->
 * sequence accounting, with counts per verdict and reason. The socket side
 * runs the same wire/expectation/sequence steps on what recvfrom() returns.
 */
#ifndef BPFWIRE_RECV_RX_H
#define BPFWIRE_RECV_RX_H

#include "parse.h"
#include "reasm.h"
#include "seqtrack.h"

struct bpfw_src_expect {
	uint8_t family;		/* 4 or 6 */
	uint8_t addr[16];
	uint16_t port;		/* 0: any */
};

enum bpfw_side_id { BPFW_SIDE_WIRE, BPFW_SIDE_SOCKET };

/* Counts for one side. datagrams = valid + invalid; ignored is not ours. */
struct bpfw_side {
	uint64_t frames;
	uint64_t ignored;
	uint64_t datagrams;
	uint64_t valid;
	uint64_t invalid;
	uint64_t reasons[BPFW_R__COUNT];
	uint64_t udp_csum_zero;		/* IPv4 without UDP checksum, allowed */
	uint64_t udp_csum_partial;	/* offload artefacts accepted on request */
	uint64_t ip4_df;
	uint64_t payload_bytes;
	uint64_t events;		/* n_events of the distinct valid datagrams */
	uint64_t authenticated;		/* valid datagrams whose tag was checked */
	uint64_t decrypted;		/* valid v3 datagrams, decrypted */
	struct bpfw_senders *senders;
};

struct bpfw_dgram_info {
	enum bpfw_side_id side;
	enum bpfw_reason reason;
	enum bpfw_seq_event seq_event;	/* meaningful when reason is OK */
	uint64_t ts_ns;
	uint8_t family;
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	uint8_t fragmented;
	uint32_t len;			/* UDP payload bytes (0 if unknown) */
	const struct bpfw_wire *wire;	/* NULL before the wire layer */
};

typedef void (*bpfw_dgram_cb)(void *arg, const struct bpfw_dgram_info *info);

struct bpfw_rx_cfg {
	struct bpfw_link_cfg link;
	uint16_t port;			/* 0: any destination port */
	int accept_csum_partial;
	const struct bpfw_src_expect *srcs;
	unsigned nsrcs;
	unsigned max_senders;		/* per side; default 4096 */
	uint64_t state_budget;		/* bytes for both sides' senders; 0: none */
	int split_budget;		/* half each: live with capture (see rx.c) */
	const struct bpfw_key *key;	/* NULL: no MAC checked */
	unsigned frag_entries;
	uint64_t frag_timeout_ns;
	bpfw_dgram_cb cb;		/* every datagram verdict, for --log */
	void *cb_arg;
};

struct bpfw_rx {
	struct bpfw_rx_cfg cfg;
	struct bpfw_reasm *reasm;
	uint64_t incomplete_counted;
	struct bpfw_budget budget[2];	/* [side]; [0] for both unless split */
	struct bpfw_side wire, sock;
};

int bpfw_rx_init(struct bpfw_rx *rx, const struct bpfw_rx_cfg *cfg);
void bpfw_rx_fini(struct bpfw_rx *rx);

/* One captured frame. Returns its reason (FRAGMENT while held). */
enum bpfw_reason bpfw_rx_frame(struct bpfw_rx *rx, uint64_t ts_ns,
			       const uint8_t *frame, uint32_t caplen,
			       uint32_t wirelen);

/* One datagram as the UDP socket delivered it. src is 4 or 16 bytes. */
enum bpfw_reason bpfw_rx_socket(struct bpfw_rx *rx, uint64_t ts_ns,
				uint8_t family, const uint8_t *src,
				uint16_t sport, const uint8_t *buf, uint32_t len);

/* Expire old fragments now; UINT64_MAX at the end of a run. */
void bpfw_rx_expire(struct bpfw_rx *rx, uint64_t now_ns);

#endif /* BPFWIRE_RECV_RX_H */
