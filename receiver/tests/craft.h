/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Packet crafting for the receiver's tests, fuzz seeds and benchmark: builds
 * correct Ethernet/IPv4/IPv6/UDP/bpfwire frames that a test then breaks one
 * field at a time.
 */
#ifndef BPFWIRE_RECV_CRAFT_H
#define BPFWIRE_RECV_CRAFT_H

#include <stdint.h>

#include "parse.h"
#include "tap.h"

/* common/tap.h's check with the reasons printed by name, as a reader wants. */
#define ASSERT_REASON(actual, expected, name) ({			\
	enum bpfw_reason a_ = (actual), e_ = (expected);		\
	tap_check(a_ == e_, name, __LINE__, "actual %s != expected %s",	\
		  bpfw_reason_name(a_), bpfw_reason_name(e_)); })

#define CRAFT_MAX_FRAME	2048

struct craft_pkt {
	int family;			/* 4 or 6 */
	uint8_t dst_mac[6], src_mac[6];
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	uint8_t ttl;
	uint8_t df;
	uint16_t ip_id;
	/* IPv6 extension headers placed before UDP; their last next-header
	 * byte is patched to UDP (17), the first type goes in ext_first_nh. */
	const uint8_t *ext;
	uint32_t ext_len;
	uint8_t ext_first_nh;
	uint32_t ext_last_nh_off;	/* offset in ext of the byte to patch */
};

extern const uint8_t craft_our_mac[6];

void craft_defaults(struct craft_pkt *p, int family);

/* A bpfwire datagram with a correct check; returns its length. */
uint32_t craft_wire(uint8_t *buf, uint32_t sender, uint64_t seq, uint8_t type,
		    const uint8_t *payload, uint32_t plen);
/* Recompute the FNV check after a test edited the datagram. */
void craft_wire_fix(uint8_t *buf, uint32_t len);
/*
 * A v2 datagram (56-byte header) carrying n_events events in payload,
 * unsigned: flags, key id and tag 0, the check right.
 */
uint32_t craft_wire_v2(uint8_t *buf, uint32_t sender, uint64_t epoch,
		       uint64_t seq, uint8_t type, uint16_t n_events,
		       const uint8_t *payload, uint32_t plen);
/* Sign a v2 datagram: set the flag and key id, fix the check, then the tag. */
void craft_wire_sign(uint8_t *buf, uint32_t len, const uint8_t key[16],
		     uint8_t key_id);
/*
 * A signed v2 datagram turned into wire v3 (common/wirecrypt.h): the
 * payload encrypted under enc, check and tag again under mac. Returns 0.
 */
int craft_wire_encrypt(uint8_t *buf, uint32_t len, const uint8_t mac[16],
		       const uint8_t enc[16]);
/* An EXEC/OPEN event payload; returns its length. */
uint32_t craft_event(uint8_t *buf, uint32_t pid, const char *comm,
		     const char *path);

/* Ethernet + IP (+ ext) + UDP around data, every checksum right. */
uint32_t craft_frame(uint8_t *out, const struct craft_pkt *p,
		     const uint8_t *data, uint32_t len);
uint32_t craft_l4_off(const struct craft_pkt *p);
void craft_fix_ip4(uint8_t *frame);
void craft_fix_udp(uint8_t *frame, const struct craft_pkt *p, uint32_t udp_len);

/*
 * Split the UDP datagram around data into IP fragments of frag_size payload
 * bytes (a multiple of 8). Returns the number of frames written.
 */
unsigned craft_fragments(uint8_t (*frames)[CRAFT_MAX_FRAME], uint32_t *lens,
			 unsigned max, const struct craft_pkt *p,
			 const uint8_t *data, uint32_t len, uint32_t frag_size);

/* pcap files written with libpcap (linktype: a DLT_*). */
struct craft_pcap;
struct craft_pcap *craft_pcap_open(const char *path, int linktype);
void craft_pcap_write(struct craft_pcap *c, uint64_t ts_ns, const uint8_t *buf,
		      uint32_t len);
int craft_pcap_close(struct craft_pcap *c);

/*
 * The pipeline (rx.c) afresh for a test: port 7000, key k (NULL: none),
 * state budget (0: none); exits when it cannot be made.
 */
struct bpfw_rx;
struct bpfw_key;
void craft_rx_reset(struct bpfw_rx *rx, const struct bpfw_key *k, uint64_t budget);
/* dg[0..n) to rx's socket side from 192.0.2.10:40000 at *ts, then *ts + 1. */
enum bpfw_reason craft_rx_feed(struct bpfw_rx *rx, uint64_t *ts, const uint8_t *dg,
			       uint32_t n);

#endif /* BPFWIRE_RECV_CRAFT_H */
