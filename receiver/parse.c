// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-recv parser: see parse.h. Every read is bounds-checked first. */
#include <string.h>

#include "parse.h"
#include "wire.h"

#define ETH_HLEN_	14
#define SLL_HLEN	16
#define SLL2_HLEN	20
#define ET_IP4		0x0800
#define ET_IP6		0x86dd
#define ET_VLAN		0x8100
#define ET_QINQ		0x88a8
#define PROTO_UDP	17
#define IP6_EXT_MAX	16	/* more than any sane sender uses; bounds the walk */

static const struct {
	const char *name;
	enum bpfw_class cls;
} reasons[] = {
#define BPFW_R_TAB(id, nm, c) { nm, BPFW_CLASS_##c },
	BPFW_REASONS(BPFW_R_TAB)
#undef BPFW_R_TAB
};

const char *bpfw_reason_name(enum bpfw_reason r)
{
	return (unsigned)r < BPFW_R__COUNT ? reasons[r].name : "unknown";
}

enum bpfw_class bpfw_reason_class(enum bpfw_reason r)
{
	return (unsigned)r < BPFW_R__COUNT ? reasons[r].cls : BPFW_CLASS_INVALID;
}

static inline uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

uint32_t bpfw_csum_add(uint32_t sum, const uint8_t *buf, uint32_t len)
{
	uint64_t acc = sum;
	uint32_t i = 0;

	/* A 64-bit accumulator cannot overflow below 2^48 bytes. */
	for (; i + 1 < len; i += 2)
		acc += be16(buf + i);
	if (i < len)
		acc += (uint32_t)buf[i] << 8;
	while (acc >> 32)
		acc = (acc & 0xffffffff) + (acc >> 32);
	return (uint32_t)acc;
}

uint16_t bpfw_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* v2's header layout, which v3 keeps (wire.h): a tag at 48. */
static int is_v2(const uint8_t *buf, uint32_t len)
{
	return len >= BPFWIRE_HDR_LEN_V2 &&
	       (buf[4] == BPFWIRE_VERSION_2 || buf[4] == BPFWIRE_VERSION_3);
}

uint32_t bpfw_wire_check(const uint8_t *buf, uint32_t len)
{
	static const uint8_t zero[BPFWIRE_TAG_LEN];
	uint32_t h = BPFWIRE_FNV_OFFSET;

	if (len < BPFWIRE_HDR_LEN)
		return bpfwire_fnv1a(h, buf, len);
	h = bpfwire_fnv1a(h, buf, BPFWIRE_OFF_CHECK);
	h = bpfwire_fnv1a(h, zero, 4);
	if (!is_v2(buf, len))
		return bpfwire_fnv1a(h, buf + 36, len - 36);
	h = bpfwire_fnv1a(h, buf + 36, BPFWIRE_OFF_TAG - 36);
	h = bpfwire_fnv1a(h, zero, BPFWIRE_TAG_LEN);
	return bpfwire_fnv1a(h, buf + BPFWIRE_HDR_LEN_V2, len - BPFWIRE_HDR_LEN_V2);
}

uint64_t bpfw_wire_tag(const uint8_t key[16], const uint8_t *buf, uint32_t len)
{
	uint8_t copy[65536];

	/* wire.h's SipHash wants one buffer: a copy with the tag zeroed. */
	if (len > sizeof(copy) || len < BPFWIRE_HDR_LEN_V2)
		return 0;
	memcpy(copy, buf, len);
	memset(copy + BPFWIRE_OFF_TAG, 0, BPFWIRE_TAG_LEN);
	return bpfwire_siphash24(key, copy, len);
}

/* A cut frame is the snaplen's fault when the capture says so, else a lie. */
#define TRUNC(reason) (caplen < wirelen ? BPFW_R_CAPTURE_TRUNCATED : (reason))

enum bpfw_reason bpfw_ip6_walk(uint8_t *nh, const uint8_t *buf, uint32_t len,
			       uint32_t *off, int first, struct bpfw_l3 *l3)
{
	uint32_t o = *off;
	uint32_t hlen;

	for (;;) {
		switch (*nh) {
		case 0:		/* hop-by-hop: only right after the fixed header */
			if (!first || o != 0)
				return BPFW_R_IP6_HBH_NOT_FIRST;
			/* fall through */
		case 43:	/* routing */
		case 60:	/* destination options */
			if (len - o < 2)
				return BPFW_R_IP6_EXTHDR_TRUNCATED;
			hlen = ((uint32_t)buf[o + 1] + 1) * 8;
			break;
		case 51:	/* AH counts its length in 4-byte units, minus 2 */
			if (len - o < 2)
				return BPFW_R_IP6_EXTHDR_TRUNCATED;
			hlen = ((uint32_t)buf[o + 1] + 2) * 4;
			break;
		case 44: {	/* fragment */
			uint16_t offm;

			if (len - o < 8)
				return BPFW_R_IP6_EXTHDR_TRUNCATED;
			offm = be16(buf + o + 2);
			l3->ext_count++;
			if (l3->ext_count > IP6_EXT_MAX)
				return BPFW_R_IP6_EXTHDR_LIMIT;
			*nh = buf[o];
			if ((offm & 0xfff8) == 0 && !(offm & 1)) {
				/* Atomic fragment (RFC 6946): a whole packet. */
				o += 8;
				continue;
			}
			l3->is_fragment = 1;
			l3->frag_off = offm & 0xfff8;
			l3->more_frags = offm & 1;
			l3->frag_id = bpfwire_be32(buf + o + 4);
			*off = o + 8;
			return BPFW_R_FRAGMENT;
		}
		default:
			*off = o;
			return BPFW_R_OK;
		}
		if (len - o < hlen)
			return BPFW_R_IP6_EXTHDR_TRUNCATED;
		*nh = buf[o];
		o += hlen;
		l3->ext_count++;
		if (l3->ext_count > IP6_EXT_MAX)
			return BPFW_R_IP6_EXTHDR_LIMIT;
	}
}

static enum bpfw_reason parse_ip4(const uint8_t *p, uint32_t len,
				  uint32_t caplen, uint32_t wirelen,
				  struct bpfw_l3 *out)
{
	uint32_t ihl, tot;
	uint16_t frag;

	if (len < 20)
		return TRUNC(BPFW_R_IP4_TRUNCATED);
	if (p[0] >> 4 != 4)
		return BPFW_R_IP4_VERSION;
	ihl = (uint32_t)(p[0] & 0xf) * 4;
	if (ihl < 20)
		return BPFW_R_IP4_IHL;
	if (ihl > len)
		return TRUNC(BPFW_R_IP4_TRUNCATED);
	if (bpfw_csum_fold(bpfw_csum_add(0, p, ihl)) != 0xffff)
		return BPFW_R_IP4_CHECKSUM;
	tot = be16(p + 2);
	if (tot < ihl)
		return BPFW_R_IP4_TOTAL_LENGTH;
	if (tot > len)
		return TRUNC(BPFW_R_IP4_TOTAL_LENGTH);
	out->ttl = p[8];
	if (out->ttl == 0)
		return BPFW_R_IP4_TTL;
	frag = be16(p + 6);
	if (frag & 0x8000)
		return BPFW_R_IP4_RESERVED_FLAG;
	out->family = 4;
	out->df = !!(frag & 0x4000);
	out->proto = p[9];
	memcpy(out->src, p + 12, 4);
	memcpy(out->dst, p + 16, 4);
	/* Ethernet pads short frames: the IP length, not the frame, is the end. */
	out->l4 = p + ihl;
	out->l4_len = tot - ihl;
	if (frag & 0x3fff) {
		if (out->df)
			return BPFW_R_IP4_DF_FRAGMENT;
		out->is_fragment = 1;
		out->more_frags = !!(frag & 0x2000);
		out->frag_off = (uint32_t)(frag & 0x1fff) * 8;
		out->frag_id = be16(p + 4);
		return out->proto == PROTO_UDP ? BPFW_R_FRAGMENT : BPFW_R_NOT_UDP;
	}
	return out->proto == PROTO_UDP ? BPFW_R_OK : BPFW_R_NOT_UDP;
}

static enum bpfw_reason parse_ip6(const uint8_t *p, uint32_t len,
				  uint32_t caplen, uint32_t wirelen,
				  struct bpfw_l3 *out)
{
	enum bpfw_reason r;
	uint32_t plen, off = 0;
	uint8_t nh;

	if (len < 40)
		return TRUNC(BPFW_R_IP6_TRUNCATED);
	if (p[0] >> 4 != 6)
		return BPFW_R_IP6_VERSION;
	plen = be16(p + 4);
	/* 0 means a jumbogram, which no link in the lab can carry. */
	if (plen == 0)
		return BPFW_R_IP6_PAYLOAD_LENGTH;
	if (plen > len - 40)
		return TRUNC(BPFW_R_IP6_PAYLOAD_LENGTH);
	out->ttl = p[7];
	if (out->ttl == 0)
		return BPFW_R_IP6_HOP_LIMIT;
	out->family = 6;
	memcpy(out->src, p + 8, 16);
	memcpy(out->dst, p + 24, 16);
	nh = p[6];
	r = bpfw_ip6_walk(&nh, p + 40, plen, &off, 1, out);
	out->proto = nh;
	out->l4 = p + 40 + off;
	out->l4_len = plen - off;
	if (r != BPFW_R_OK)
		return r;	/* a fragment's protocol is known only once whole */
	return nh == PROTO_UDP ? BPFW_R_OK : BPFW_R_NOT_UDP;
}

enum bpfw_reason bpfw_parse_frame(const struct bpfw_link_cfg *cfg,
				  const uint8_t *frame, uint32_t caplen,
				  uint32_t wirelen, struct bpfw_l3 *out)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint32_t off = 0;
	uint16_t type = 0;
	int dst_bad = 0;

	memset(out, 0, sizeof(*out));
	switch (cfg->link) {
	case BPFW_LINK_ETH: {
		int tags;

		if (caplen < ETH_HLEN_)
			return TRUNC(BPFW_R_LINK_TRUNCATED);
		type = be16(frame + 12);
		off = ETH_HLEN_;
		for (tags = 0; (type == ET_VLAN || type == ET_QINQ) && tags < 2;
		     tags++) {
			if (caplen - off < 4)
				return TRUNC(BPFW_R_LINK_TRUNCATED);
			type = be16(frame + off + 2);
			off += 4;
		}
		if (cfg->have_mac && memcmp(frame, cfg->mac, 6) &&
		    memcmp(frame, bcast, 6))
			dst_bad = 1;
		break;
	}
	case BPFW_LINK_SLL:
	case BPFW_LINK_SLL2: {
		uint16_t pkttype;

		if (cfg->link == BPFW_LINK_SLL) {
			if (caplen < SLL_HLEN)
				return TRUNC(BPFW_R_LINK_TRUNCATED);
			pkttype = be16(frame);
			type = be16(frame + 14);
			off = SLL_HLEN;
		} else {
			if (caplen < SLL2_HLEN)
				return TRUNC(BPFW_R_LINK_TRUNCATED);
			pkttype = frame[10];
			type = be16(frame);
			off = SLL2_HLEN;
		}
		/* The kernel already classified the destination MAC for us. */
		if (pkttype == 4)
			return BPFW_R_OUTGOING;
		if (pkttype != 0 && pkttype != 1)
			dst_bad = 1;
		break;
	}
	case BPFW_LINK_RAW:
		if (caplen < 1)
			return TRUNC(BPFW_R_LINK_TRUNCATED);
		type = frame[0] >> 4 == 6 ? ET_IP6 : ET_IP4;
		break;
	default:
		return BPFW_R_NOT_IP;
	}

	enum bpfw_reason r;

	if (type == ET_IP4) {
		if (caplen - off >= 1 && frame[off] >> 4 == 6)
			return BPFW_R_ETH_TYPE;
		r = parse_ip4(frame + off, caplen - off, caplen, wirelen, out);
	} else if (type == ET_IP6) {
		if (caplen - off >= 1 && frame[off] >> 4 == 4)
			return BPFW_R_ETH_TYPE;
		r = parse_ip6(frame + off, caplen - off, caplen, wirelen, out);
	} else {
		return BPFW_R_NOT_IP;
	}
	/* The MAC verdict waits until we know the datagram is ours: see rx.c. */
	out->link_dst_bad = dst_bad;
	return r;
}

/* The UDP header's fields, and everything after it as the payload. */
static int udp_header(const uint8_t *l4, uint32_t len, struct bpfw_udp *out)
{
	memset(out, 0, sizeof(*out));
	if (len < 8)
		return -1;
	out->sport = be16(l4);
	out->dport = be16(l4 + 2);
	out->len = be16(l4 + 4);
	out->csum = be16(l4 + 6);
	out->data = l4 + 8;
	out->data_len = len - 8;
	return 0;
}

enum bpfw_reason bpfw_parse_udp(const struct bpfw_l3 *l3, const uint8_t *l4,
				uint32_t len, uint16_t port,
				struct bpfw_udp *out)
{
	uint32_t sum;
	uint16_t pseudo;

	if (udp_header(l4, len, out))
		return BPFW_R_UDP_TRUNCATED;
	if (port && out->dport != port)
		return BPFW_R_OTHER_PORT;
	if (out->len < 8 || out->len != len)
		return BPFW_R_UDP_LENGTH;
	if (out->csum == 0) {
		if (l3->family == 6)
			return BPFW_R_UDP6_CHECKSUM_ZERO;
		out->csum_zero = 1;
		return BPFW_R_OK;
	}
	if (l3->family == 4) {
		uint8_t ph[4] = { 0, PROTO_UDP, (uint8_t)(len >> 8), (uint8_t)len };

		sum = bpfw_csum_add(0, l3->src, 4);
		sum = bpfw_csum_add(sum, l3->dst, 4);
		sum = bpfw_csum_add(sum, ph, 4);
	} else {
		uint8_t ph[8] = { (uint8_t)(len >> 24), (uint8_t)(len >> 16),
				  (uint8_t)(len >> 8), (uint8_t)len,
				  0, 0, 0, PROTO_UDP };

		sum = bpfw_csum_add(0, l3->src, 16);
		sum = bpfw_csum_add(sum, l3->dst, 16);
		sum = bpfw_csum_add(sum, ph, 8);
	}
	pseudo = bpfw_csum_fold(sum);
	if (bpfw_csum_fold(bpfw_csum_add(sum, l4, len)) == 0xffff)
		return BPFW_R_OK;
	/*
	 * With TX checksum offload the sender leaves only the folded pseudo
	 * header sum in the field; a capture taken before the NIC (or a
	 * virtio peer that never fills it) shows exactly that value.
	 */
	if (out->csum == pseudo)
		return BPFW_R_UDP_CHECKSUM_PARTIAL;
	return BPFW_R_UDP_CHECKSUM;
}

/* Decode every header field there is room for, before checking any. */
static void decode_wire(const uint8_t *buf, uint32_t len, struct bpfw_wire *out)
{
	out->magic = bpfwire_be32(buf);
	out->version = buf[4];
	out->type = buf[5];
	out->hdr_len = be16(buf + 6);
	out->sender_id = bpfwire_be32(buf + 8);
	out->payload_len = bpfwire_be32(buf + 12);
	out->seq = bpfwire_be64(buf + 16);
	out->timestamp_ns = bpfwire_be64(buf + 24);
	out->check = bpfwire_be32(buf + 32);
	out->reserved = bpfwire_be32(buf + 36);
	out->n_events = 1;
	/* v3 has v2's header (wire.h) */
	if ((out->version == BPFWIRE_VERSION_2 || out->version == BPFWIRE_VERSION_3) &&
	    len >= BPFWIRE_HDR_LEN_V2) {
		out->flags = buf[36];
		out->key_id = buf[37];
		out->n_events = be16(buf + 38);
		out->epoch = bpfwire_be64(buf + 40);
		memcpy(out->tag, buf + BPFWIRE_OFF_TAG, BPFWIRE_TAG_LEN);
	}
}

/* The MAC, compared in constant time: no early exit on the first byte. */
static enum bpfw_reason check_tag(const uint8_t *buf, uint32_t len,
				  const struct bpfw_key *key,
				  struct bpfw_wire *w)
{
	uint64_t t;
	uint8_t diff = 0;
	int i;

	if (w->version == BPFWIRE_VERSION || !(w->flags & BPFWIRE_F_SIGNED))
		return BPFW_R_UNAUTHENTICATED;
	t = bpfw_wire_tag(key->key, buf, len);
	for (i = 0; i < BPFWIRE_TAG_LEN; i++)
		diff |= (uint8_t)(w->tag[i] ^ (uint8_t)(t >> (8 * i)));
	if (diff || (key->key_id >= 0 && w->key_id != key->key_id))
		return BPFW_R_AUTH;
	w->authenticated = 1;
	return BPFW_R_OK;
}

/*
 * v1's reserved word; v2's unknown flags (ENCRYPTED is v3's), or a key id
 * or tag when unsigned; v3's flags other than exactly SIGNED|ENCRYPTED, no
 * key id, or seq's top 16 bits, which no counter block holds.
 */
static int reserved_set(const struct bpfw_wire *w)
{
	static const uint8_t zero[BPFWIRE_TAG_LEN];

	if (w->version == BPFWIRE_VERSION)
		return w->reserved != 0;
	if (w->version == BPFWIRE_VERSION_3)
		return w->flags != BPFWIRE_F_V3 || !w->key_id ||
		       w->seq > BPFWIRE_SEQ_MAX_V3;
	if (w->flags & ~BPFWIRE_F_SIGNED)
		return 1;
	return !(w->flags & BPFWIRE_F_SIGNED) &&
	       (w->key_id || memcmp(w->tag, zero, sizeof(zero)));
}

enum bpfw_reason bpfw_check_events(const struct bpfw_wire *w)
{
	uint32_t off = 0, path_len;
	unsigned i;

	if (w->n_events == 0)
		return BPFW_R_EVENT_LENGTH;
	if (w->type != BPFWIRE_EV_EXEC && w->type != BPFWIRE_EV_OPEN)
		return BPFW_R_OK;
	for (i = 0; i < w->n_events; i++) {
		if (w->payload_len - off < BPFWIRE_EVENT_FIXED_LEN)
			return BPFW_R_EVENT_LENGTH;
		path_len = be16(w->payload + off + 24);
		if (path_len > BPFWIRE_PATH_MAX ||
		    w->payload_len - off - BPFWIRE_EVENT_FIXED_LEN < path_len)
			return BPFW_R_EVENT_LENGTH;
		off += BPFWIRE_EVENT_FIXED_LEN + path_len;
	}
	return off == w->payload_len ? BPFW_R_OK : BPFW_R_EVENT_LENGTH;
}

enum bpfw_reason bpfw_parse_wire_key(const uint8_t *buf, uint32_t len,
				     const struct bpfw_key *key,
				     struct bpfw_wire *out)
{
	uint16_t min_hdr;
	enum bpfw_reason r;

	memset(out, 0, sizeof(*out));
	if (len < BPFWIRE_HDR_LEN)
		return BPFW_R_WIRE_TRUNCATED;
	decode_wire(buf, len, out);
	if (out->magic != BPFWIRE_MAGIC)
		return BPFW_R_WIRE_MAGIC;
	if ((out->version == BPFWIRE_VERSION_2 || out->version == BPFWIRE_VERSION_3) &&
	    len < BPFWIRE_HDR_LEN_V2)
		return BPFW_R_WIRE_TRUNCATED;
	if (out->version != BPFWIRE_VERSION && out->version != BPFWIRE_VERSION_2 &&
	    out->version != BPFWIRE_VERSION_3)
		return BPFW_R_WIRE_VERSION;
	/* A longer header is a compatible extension: skip what we don't know. */
	min_hdr = out->version == BPFWIRE_VERSION ? BPFWIRE_HDR_LEN : BPFWIRE_HDR_LEN_V2;
	if (out->hdr_len < min_hdr || out->hdr_len > len)
		return BPFW_R_WIRE_HDR_LEN;
	if (out->payload_len != len - out->hdr_len)
		return BPFW_R_WIRE_PAYLOAD_LEN;
	/* No sender makes a longer one, and no counter block would cover it. */
	if (out->version == BPFWIRE_VERSION_3 && out->payload_len > BPFWIRE_MAX_PAYLOAD_V3)
		return BPFW_R_WIRE_PAYLOAD_LEN;
	/* Integrity first: a flipped bit anywhere must read as corruption. */
	if (bpfw_wire_check(buf, len) != out->check)
		return BPFW_R_WIRE_CHECK;
	/* Then the MAC, before any field is trusted or any state touched. */
	if (key && (r = check_tag(buf, len, key, out)) != BPFW_R_OK)
		return r;
	if (reserved_set(out))
		return BPFW_R_WIRE_RESERVED;
	if (out->type < BPFWIRE_EV_EXEC || out->type > BPFWIRE_EV_TEST)
		return BPFW_R_WIRE_TYPE;
	if (out->seq == 0)
		return BPFW_R_WIRE_SEQ_ZERO;
	out->payload = buf + out->hdr_len;
	if (out->version == BPFWIRE_VERSION_3) {
		/* The header is all we may read: the events wait for the key. */
		out->encrypted = 1;
		return out->n_events ? BPFW_R_ENCRYPTED : BPFW_R_EVENT_LENGTH;
	}
	return bpfw_check_events(out);
}

enum bpfw_reason bpfw_parse_wire(const uint8_t *buf, uint32_t len,
				 struct bpfw_wire *out)
{
	return bpfw_parse_wire_key(buf, len, NULL, out);
}

enum bpfw_reason bpfw_find_wire(const struct bpfw_link_cfg *cfg,
				const uint8_t *frame, uint32_t caplen,
				uint32_t wirelen, struct bpfw_l3 *l3,
				struct bpfw_udp *udp, struct bpfw_wire *w)
{
	enum bpfw_reason r = bpfw_parse_frame(cfg, frame, caplen, wirelen, l3);
	const uint8_t *l4 = l3->l4;
	uint32_t len = l3->l4_len, off = 0;

	if (r == BPFW_R_FRAGMENT && l3->frag_off)
		return r;	/* a later fragment carries neither header */
	if (r != BPFW_R_OK && r != BPFW_R_FRAGMENT)
		return r;
	if (r == BPFW_R_FRAGMENT && l3->family == 6) {
		/* The first fragment: the headers after the fragment header. */
		struct bpfw_l3 rest = *l3;
		uint8_t nh = l3->proto;

		r = bpfw_ip6_walk(&nh, l4, len, &off, 0, &rest);
		if (r != BPFW_R_OK)
			return r == BPFW_R_FRAGMENT ? BPFW_R_IP6_NESTED_FRAGMENT : r;
		l3->proto = nh;
		l4 += off;
		len -= off;
	}
	if (l3->proto != PROTO_UDP)
		return BPFW_R_NOT_UDP;
	if (udp_header(l4, len, udp))
		return BPFW_R_UDP_TRUNCATED;
	r = bpfw_parse_wire(udp->data, udp->data_len, w);
	/* parse_wire decodes the header before it checks anything. */
	return r == BPFW_R_WIRE_TRUNCATED || r == BPFW_R_WIRE_MAGIC ? r : BPFW_R_OK;
}
