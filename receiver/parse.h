/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpfwire-recv parser: validates one captured frame layer by layer, from the
 * link header down to the bpfwire wire format. Stateless and independent of
 * capture, so tests and the fuzzer drive it with plain byte buffers.
 * Fragment reassembly (reasm.h) and sequence accounting (seqtrack.h) are
 * the stateful parts and live apart.
 */
#ifndef BPFWIRE_RECV_PARSE_H
#define BPFWIRE_RECV_PARSE_H

#include <stdint.h>
#include <stddef.h>

/*
 * Every outcome of parsing, with its JSON name and class. OK and FRAGMENT are
 * not final; IGNORED is traffic that is not ours (another port, not UDP);
 * INVALID is a datagram that failed a check and is counted with its reason.
 */
#define BPFW_REASONS(X)							\
	X(OK,			"ok",			OK)		\
	X(FRAGMENT,		"fragment",		PENDING)	\
	X(NOT_IP,		"not_ip",		IGNORED)	\
	X(NOT_UDP,		"not_udp",		IGNORED)	\
	X(OTHER_PORT,		"other_port",		IGNORED)	\
	X(OUTGOING,		"outgoing",		IGNORED)	\
	X(CAPTURE_TRUNCATED,	"capture_truncated",	INVALID)	\
	X(LINK_TRUNCATED,	"link_truncated",	INVALID)	\
	X(ETH_DST,		"eth_dst_not_ours",	INVALID)	\
	X(ETH_TYPE,		"eth_type_mismatch",	INVALID)	\
	X(IP4_TRUNCATED,	"ip4_truncated",	INVALID)	\
	X(IP4_VERSION,		"ip4_version",		INVALID)	\
	X(IP4_IHL,		"ip4_ihl",		INVALID)	\
	X(IP4_CHECKSUM,		"ip4_checksum",		INVALID)	\
	X(IP4_TOTAL_LENGTH,	"ip4_total_length",	INVALID)	\
	X(IP4_TTL,		"ip4_ttl_zero",		INVALID)	\
	X(IP4_RESERVED_FLAG,	"ip4_reserved_flag",	INVALID)	\
	X(IP4_DF_FRAGMENT,	"ip4_df_on_fragment",	INVALID)	\
	X(IP6_TRUNCATED,	"ip6_truncated",	INVALID)	\
	X(IP6_VERSION,		"ip6_version",		INVALID)	\
	X(IP6_PAYLOAD_LENGTH,	"ip6_payload_length",	INVALID)	\
	X(IP6_HOP_LIMIT,	"ip6_hop_limit_zero",	INVALID)	\
	X(IP6_EXTHDR_TRUNCATED,	"ip6_exthdr_truncated",	INVALID)	\
	X(IP6_HBH_NOT_FIRST,	"ip6_hbh_not_first",	INVALID)	\
	X(IP6_EXTHDR_LIMIT,	"ip6_exthdr_limit",	INVALID)	\
	X(IP6_NESTED_FRAGMENT,	"ip6_nested_fragment",	INVALID)	\
	X(FRAG_LENGTH,		"frag_length",		INVALID)	\
	X(FRAG_TOO_BIG,		"frag_too_big",		INVALID)	\
	X(FRAG_OVERLAP,		"frag_overlap",		INVALID)	\
	X(FRAG_TOO_MANY,	"frag_too_many",	INVALID)	\
	X(FRAG_INCOMPLETE,	"frag_incomplete",	INVALID)	\
	X(UDP_TRUNCATED,	"udp_truncated",	INVALID)	\
	X(UDP_LENGTH,		"udp_length",		INVALID)	\
	X(UDP_CHECKSUM,		"udp_checksum",		INVALID)	\
	X(UDP_CHECKSUM_PARTIAL,	"udp_checksum_partial",	INVALID)	\
	X(UDP6_CHECKSUM_ZERO,	"udp6_checksum_zero",	INVALID)	\
	X(WIRE_TRUNCATED,	"wire_truncated",	INVALID)	\
	X(WIRE_MAGIC,		"wire_magic",		INVALID)	\
	X(WIRE_VERSION,		"wire_version",		INVALID)	\
	X(WIRE_HDR_LEN,		"wire_hdr_len",		INVALID)	\
	X(WIRE_PAYLOAD_LEN,	"wire_payload_len",	INVALID)	\
	X(WIRE_CHECK,		"wire_check",		INVALID)	\
	X(WIRE_RESERVED,	"wire_reserved",	INVALID)	\
	X(WIRE_TYPE,		"wire_type",		INVALID)	\
	X(WIRE_SEQ_ZERO,	"wire_seq_zero",	INVALID)	\
	X(EVENT_LENGTH,		"event_length",		INVALID)	\
	X(SRC_UNEXPECTED,	"src_unexpected",	INVALID)	\
	X(TOO_MANY_SENDERS,	"too_many_senders",	INVALID)	\
	X(UNAUTHENTICATED,	"unauthenticated",	INVALID)	\
	X(AUTH,			"auth",			INVALID)	\
	X(REPLAY,		"replay",		INVALID)	\
	X(REPLAY_OLD,		"replay_old",		INVALID)	\
	X(UNTRACKED,		"untracked",		INVALID)	\
	X(DECRYPT,		"decrypt",		INVALID)	\
	X(ENCRYPTED,		"encrypted",		INVALID)

enum bpfw_reason {
#define BPFW_R_ENUM(id, name, cls) BPFW_R_##id,
	BPFW_REASONS(BPFW_R_ENUM)
#undef BPFW_R_ENUM
	BPFW_R__COUNT
};

enum bpfw_class {
	BPFW_CLASS_OK,
	BPFW_CLASS_PENDING,
	BPFW_CLASS_IGNORED,
	BPFW_CLASS_INVALID,
};

const char *bpfw_reason_name(enum bpfw_reason r);
enum bpfw_class bpfw_reason_class(enum bpfw_reason r);

/* Link types we decode; recv.c maps pcap's DLT_* onto these. */
enum bpfw_link {
	BPFW_LINK_ETH,		/* DLT_EN10MB */
	BPFW_LINK_SLL,		/* DLT_LINUX_SLL, the "any" device */
	BPFW_LINK_SLL2,		/* DLT_LINUX_SLL2 */
	BPFW_LINK_RAW,		/* DLT_RAW, DLT_IPV4, DLT_IPV6: no link header */
};

struct bpfw_link_cfg {
	enum bpfw_link link;
	uint8_t mac[6];		/* our MAC, checked on Ethernet when have_mac */
	uint8_t have_mac;
};

/* One IP packet (or fragment) as seen on the wire. Pointers alias the frame. */
struct bpfw_l3 {
	uint8_t family;		/* 4 or 6 */
	uint8_t proto;		/* upper-layer protocol after extension headers */
	uint8_t ttl;		/* TTL or hop limit */
	uint8_t df;		/* IPv4 DF bit */
	uint8_t src[16];	/* IPv4 uses the first 4 bytes */
	uint8_t dst[16];
	uint8_t is_fragment;
	uint8_t more_frags;
	uint8_t link_dst_bad;	/* frame was not for our MAC nor broadcast */
	uint32_t frag_id;
	uint32_t frag_off;	/* in bytes */
	uint32_t ext_count;	/* IPv6 extension headers walked */
	const uint8_t *l4;	/* UDP header, or fragment data */
	uint32_t l4_len;
};

struct bpfw_udp {
	uint16_t sport, dport;
	uint16_t len;
	uint16_t csum;
	uint8_t csum_zero;	/* IPv4 "no checksum" */
	const uint8_t *data;	/* UDP payload */
	uint32_t data_len;
};

/*
 * Header fields in host order, plus where the payload starts. v1 leaves the
 * v2 fields 0 (n_events 1); reserved is v1's bytes 36-39 in either version.
 */
struct bpfw_wire {
	uint32_t magic;
	uint8_t version;
	uint8_t type;
	uint16_t hdr_len;
	uint32_t sender_id;
	uint32_t payload_len;
	uint64_t seq;
	uint64_t timestamp_ns;
	uint32_t check;
	uint32_t reserved;
	uint8_t flags;		/* v2: BPFWIRE_F_* */
	uint8_t key_id;		/* v2 */
	uint16_t n_events;	/* v2; 1 for v1 */
	uint64_t epoch;		/* v2 */
	uint8_t tag[8];		/* v2, as on the wire */
	uint8_t authenticated;	/* the tag was checked against our key */
	uint8_t encrypted;	/* v3: payload is ciphertext until decrypted */
	uint8_t decrypted;	/* v3: payload points at the plaintext */
	const uint8_t *payload;
};

/*
 * The receiver's keys (--key-file) and the key id it insists on: the MAC
 * key, and with a 64-digit file wire v3's encryption key.
 */
struct bpfw_key {
	uint8_t key[16];
	int key_id;		/* 0-255, or -1: any */
	uint8_t enc[16];
	int has_enc;
};

/*
 * Link and IP layers. Returns OK for a whole packet (out->proto says what it
 * carries, NOT_UDP is returned when it is not UDP), FRAGMENT for a fragment
 * to hand to the reassembler, or the reason the frame is invalid/ignored.
 * wirelen is the original length; caplen < wirelen means snaplen cut it.
 */
enum bpfw_reason bpfw_parse_frame(const struct bpfw_link_cfg *cfg,
				  const uint8_t *frame, uint32_t caplen,
				  uint32_t wirelen, struct bpfw_l3 *out);

/*
 * Walk IPv6 extension headers from next header *nh over buf. On OK, *nh is
 * the upper protocol and *off where it starts; a fragment header stops the
 * walk with FRAGMENT and fills the fragment fields of l3. first says whether
 * buf directly follows the fixed IPv6 header (hop-by-hop allowed there).
 */
enum bpfw_reason bpfw_ip6_walk(uint8_t *nh, const uint8_t *buf, uint32_t len,
			       uint32_t *off, int first, struct bpfw_l3 *l3);

/*
 * UDP header, length and checksum over a whole (possibly reassembled) IP
 * payload. port 0 accepts any destination port.
 */
enum bpfw_reason bpfw_parse_udp(const struct bpfw_l3 *l3, const uint8_t *l4,
				uint32_t len, uint16_t port,
				struct bpfw_udp *out);

/* The bpfwire header and payload of one UDP payload (wire or socket side). */
enum bpfw_reason bpfw_parse_wire(const uint8_t *buf, uint32_t len,
				 struct bpfw_wire *out);

/*
 * The same, with a key (NULL: none). With a key, v1 and unsigned v2 are
 * UNAUTHENTICATED and a tag that does not match (or another key id) is AUTH;
 * the tag is checked right after the FNV check, before anything else. Without
 * a key a signed v2 datagram passes on its FNV check alone.
 * A v3 datagram whose header passes every check (and the MAC, with a key)
 * is ENCRYPTED, out->encrypted set: its payload is not read here. The
 * pipeline sequences it, then decrypts (decrypt.h) if it has the key.
 */
enum bpfw_reason bpfw_parse_wire_key(const uint8_t *buf, uint32_t len,
				     const struct bpfw_key *key,
				     struct bpfw_wire *out);

/*
 * n_events EXEC/OPEN events back to back at w->payload must fill
 * payload_len exactly: OK or EVENT_LENGTH (a TEST payload is any bytes).
 */
enum bpfw_reason bpfw_check_events(const struct bpfw_wire *w);

/* SipHash-2-4 tag of a v2 datagram (tag bytes taken as 0), as wire.h says. */
uint64_t bpfw_wire_tag(const uint8_t key[16], const uint8_t *buf, uint32_t len);

/*
 * Where a bpfwire datagram sits in one frame, for tools that locate rather
 * than validate (bpfwire-path): link and IP checked as bpfw_parse_frame
 * does, IPv6 extension headers walked, a whole packet or a first fragment
 * (it carries both headers), then the UDP header with its length and
 * checksum unchecked, and the bpfwire header decoded into w. OK when its
 * magic is right; any other reason when the frame holds no bpfwire header.
 */
enum bpfw_reason bpfw_find_wire(const struct bpfw_link_cfg *cfg,
				const uint8_t *frame, uint32_t caplen,
				uint32_t wirelen, struct bpfw_l3 *l3,
				struct bpfw_udp *udp, struct bpfw_wire *w);

/* FNV-1a of a datagram as wire.h defines it (check, and v2's or v3's tag, taken as 0). */
uint32_t bpfw_wire_check(const uint8_t *buf, uint32_t len);

/* RFC 1071 sum, not folded or complemented, for chaining. */
uint32_t bpfw_csum_add(uint32_t sum, const uint8_t *buf, uint32_t len);
uint16_t bpfw_csum_fold(uint32_t sum);

#endif /* BPFWIRE_RECV_PARSE_H */
