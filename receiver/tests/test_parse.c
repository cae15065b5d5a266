// SPDX-License-Identifier: GPL-2.0-only
/*
 * Crafted packets through the whole validation pipeline (rx.c), one broken
 * field at a time, every other layer kept correct so that the reason names
 * exactly the check under test.
 */
#include <arpa/inet.h>
#include <stdlib.h>

#include "craft.h"
#include "rx.h"
#include "tap.h"
#include "wire.h"

static struct bpfw_rx rx;
static uint64_t now_ns = 1000000000ull;
static uint8_t f[CRAFT_MAX_FRAME];
static uint8_t dg[CRAFT_MAX_FRAME];
static const uint8_t payload16[16] = "bpfwire-payload";

static void rx_reset_cfg(const struct bpfw_rx_cfg *cfg)
{
	bpfw_rx_fini(&rx);
	if (bpfw_rx_init(&rx, cfg)) {
		fprintf(stderr, "bpfw_rx_init failed\n");
		exit(1);
	}
}

static void rx_reset(void)
{
	struct bpfw_rx_cfg cfg = { .port = 7000 };

	cfg.link.link = BPFW_LINK_ETH;
	memcpy(cfg.link.mac, craft_our_mac, 6);
	cfg.link.have_mac = 1;
	rx_reset_cfg(&cfg);
}

static enum bpfw_reason feed(const uint8_t *frame, uint32_t len)
{
	now_ns += 1000;
	return bpfw_rx_frame(&rx, now_ns, frame, len, len);
}

/* A correct frame around a TEST datagram with sequence seq. */
static uint32_t good(const struct craft_pkt *p, uint32_t sender, uint64_t seq)
{
	uint32_t n = craft_wire(dg, sender, seq, BPFWIRE_EV_TEST, payload16, 16);

	return craft_frame(f, p, dg, n);
}

/* Wrap whatever dg holds (n bytes) with correct lower layers and feed it. */
static enum bpfw_reason feed_dg(const struct craft_pkt *p, uint32_t n)
{
	return feed(f, craft_frame(f, p, dg, n));
}

static void put16(uint8_t *b, uint16_t v)
{
	b[0] = v >> 8;
	b[1] = (uint8_t)v;
}

static void test_good(void)
{
	struct craft_pkt p4, p6;
	uint32_t n;

	rx_reset();
	craft_defaults(&p4, 4);
	craft_defaults(&p6, 6);
	ASSERT_REASON(feed(f, good(&p4, 1, 1)), BPFW_R_OK, "ipv4 good");
	ASSERT_REASON(feed(f, good(&p6, 2, 1)), BPFW_R_OK, "ipv6 good");
	ASSERT_EQ(rx.wire.ip4_df, 1, "ipv4 DF counted");

	n = craft_event(dg + BPFWIRE_HDR_LEN, 42, "cat", "/etc/passwd");
	n = craft_wire(dg, 1, 2, BPFWIRE_EV_EXEC, dg + BPFWIRE_HDR_LEN, n);
	ASSERT_REASON(feed_dg(&p4, n), BPFW_R_OK, "exec event good");
	n = craft_event(dg + BPFWIRE_HDR_LEN, 42, "cat", "");
	n = craft_wire(dg, 1, 3, BPFWIRE_EV_OPEN, dg + BPFWIRE_HDR_LEN, n);
	ASSERT_REASON(feed_dg(&p4, n), BPFW_R_OK, "open event, empty path");

	/* Short frames carry trailing padding the IP length excludes. */
	n = good(&p4, 1, 4);
	memset(f + n, 0, 6);
	ASSERT_REASON(feed(f, n + 6), BPFW_R_OK, "ethernet trailer ignored");

	memset(p4.dst_mac, 0xff, 6);
	ASSERT_REASON(feed(f, good(&p4, 1, 5)), BPFW_R_OK, "broadcast MAC (netpoll)");
	ASSERT_EQ(rx.wire.valid, 6, "valid count");
	ASSERT_EQ(rx.wire.invalid, 0, "invalid count");

	/* IPv4 without DF is fine; so is "no checksum". */
	craft_defaults(&p4, 4);
	p4.df = 0;
	n = good(&p4, 1, 6);
	f[craft_l4_off(&p4) + 6] = 0;
	f[craft_l4_off(&p4) + 7] = 0;
	ASSERT_REASON(feed(f, n), BPFW_R_OK, "ipv4 udp checksum zero allowed");
	ASSERT_EQ(rx.wire.udp_csum_zero, 1, "checksum-zero counted");

	/* One 802.1Q tag between MACs and ethertype. */
	n = good(&p4, 1, 7);
	memmove(f + 16, f + 12, n - 12);
	put16(f + 12, 0x8100);
	put16(f + 14, 100);
	ASSERT_REASON(feed(f, n + 4), BPFW_R_OK, "vlan tagged");

	/* IPv4 options: IHL 6 with a NOP-padded option word. */
	n = good(&p4, 1, 8);
	memmove(f + 38, f + 34, n - 34);
	memset(f + 34, 1, 4);
	f[14] = 0x46;
	put16(f + 16, (uint16_t)(n - 14 + 4));
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, n + 4), BPFW_R_OK, "ipv4 with options");
}

static void test_ignored(void)
{
	struct craft_pkt p;
	uint32_t n;

	rx_reset();
	craft_defaults(&p, 4);
	p.dport = 7001;
	ASSERT_REASON(feed(f, good(&p, 1, 1)), BPFW_R_OTHER_PORT, "other port");
	p.dport = 7000;
	n = good(&p, 1, 1);
	put16(f + 12, 0x0806);
	ASSERT_REASON(feed(f, n), BPFW_R_NOT_IP, "arp ethertype");
	n = good(&p, 1, 1);
	f[14 + 9] = 6;
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, n), BPFW_R_NOT_UDP, "tcp");
	ASSERT_EQ(rx.wire.ignored, 3, "ignored count");
	ASSERT_EQ(rx.wire.datagrams, 0, "ignored are not datagrams");
}

static void test_link(void)
{
	struct craft_pkt p;
	uint32_t n;

	rx_reset();
	craft_defaults(&p, 4);
	p.dst_mac[5] = 0x99;
	ASSERT_REASON(feed(f, good(&p, 1, 1)), BPFW_R_ETH_DST, "foreign dst MAC");
	craft_defaults(&p, 6);
	n = good(&p, 1, 1);
	put16(f + 12, 0x0800);
	ASSERT_REASON(feed(f, n), BPFW_R_ETH_TYPE, "ipv6 under ipv4 ethertype");
	craft_defaults(&p, 4);
	n = good(&p, 1, 1);
	put16(f + 12, 0x86dd);
	ASSERT_REASON(feed(f, n), BPFW_R_ETH_TYPE, "ipv4 under ipv6 ethertype");

	ASSERT_REASON(feed(f, 10), BPFW_R_LINK_TRUNCATED, "ethernet truncated");
	put16(f + 12, 0x8100);
	ASSERT_REASON(feed(f, 16), BPFW_R_LINK_TRUNCATED, "vlan tag truncated");

	/* Linux cooked capture ("any"): the kernel's pkttype decides. */
	{
		struct bpfw_rx_cfg cfg = { .port = 7000 };
		uint8_t s[CRAFT_MAX_FRAME];

		cfg.link.link = BPFW_LINK_SLL;
		rx_reset_cfg(&cfg);
		n = good(&p, 1, 1);
		memset(s, 0, 16);
		put16(s + 14, 0x0800);
		memcpy(s + 16, f + 14, n - 14);
		ASSERT_REASON(feed(s, n + 2), BPFW_R_OK, "sll to host");
		put16(s, 4);
		ASSERT_REASON(feed(s, n + 2), BPFW_R_OUTGOING, "sll outgoing");
		put16(s, 3);
		ASSERT_REASON(feed(s, n + 2), BPFW_R_ETH_DST, "sll other host");
		ASSERT_REASON(feed(s, 12), BPFW_R_LINK_TRUNCATED, "sll truncated");

		cfg.link.link = BPFW_LINK_SLL2;
		rx_reset_cfg(&cfg);
		memset(s, 0, 20);
		put16(s, 0x86dd);
		craft_defaults(&p, 6);
		n = good(&p, 1, 1);
		memcpy(s + 20, f + 14, n - 14);
		ASSERT_REASON(feed(s, n + 6), BPFW_R_OK, "sll2 to host");

		cfg.link.link = BPFW_LINK_RAW;
		rx_reset_cfg(&cfg);
		ASSERT_REASON(feed(f + 14, n - 14), BPFW_R_OK, "raw ipv6");
		ASSERT_REASON(feed(f, 0), BPFW_R_LINK_TRUNCATED, "raw empty");
	}
	rx_reset();
}

static void test_ip4(void)
{
	struct craft_pkt p;
	uint32_t n;

	rx_reset();
	craft_defaults(&p, 4);

	n = good(&p, 1, 1);
	f[14] = 0x55;
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, n), BPFW_R_IP4_VERSION, "ipv4 version 5");
	n = good(&p, 1, 1);
	f[14] = 0x44;
	ASSERT_REASON(feed(f, n), BPFW_R_IP4_IHL, "ipv4 ihl 4");
	n = good(&p, 1, 1);
	f[14] = 0x4f;	/* 60-byte header: more than is there past the UDP? no */
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, 14 + 40), BPFW_R_IP4_TRUNCATED, "ipv4 ihl past end");
	n = good(&p, 1, 1);
	f[14 + 10] ^= 0x01;
	ASSERT_REASON(feed(f, n), BPFW_R_IP4_CHECKSUM, "ipv4 header checksum");
	n = good(&p, 1, 1);
	put16(f + 16, (uint16_t)(n - 14 + 1));
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, n), BPFW_R_IP4_TOTAL_LENGTH, "ipv4 total length too long");
	n = good(&p, 1, 1);
	put16(f + 16, 19);
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, n), BPFW_R_IP4_TOTAL_LENGTH, "ipv4 total length < ihl");
	n = good(&p, 1, 1);
	put16(f + 16, (uint16_t)(n - 14 - 2));
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, n), BPFW_R_UDP_LENGTH, "ipv4 total length short of udp");
	n = good(&p, 1, 1);
	f[14 + 8] = 0;
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, n), BPFW_R_IP4_TTL, "ipv4 ttl 0");
	n = good(&p, 1, 1);
	f[14 + 6] |= 0x80;
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, n), BPFW_R_IP4_RESERVED_FLAG, "ipv4 reserved flag");
	n = good(&p, 1, 1);
	f[14 + 6] |= 0x20;	/* MF with DF */
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, n), BPFW_R_IP4_DF_FRAGMENT, "ipv4 DF on a fragment");
	ASSERT_REASON(feed(f, 14 + 12), BPFW_R_IP4_TRUNCATED, "ipv4 header truncated");
	ASSERT_EQ(rx.wire.valid, 0, "no ipv4 bad case is valid");
}

/* IPv6 extension header helpers: 8-byte options headers of PadN. */
static void opt8(uint8_t *h, uint8_t nh)
{
	h[0] = nh;
	h[1] = 0;
	h[2] = 1;	/* PadN */
	h[3] = 4;
	memset(h + 4, 0, 4);
}

static void test_ip6(void)
{
	struct craft_pkt p;
	uint8_t ext[8 * 20];
	uint32_t n, i;

	rx_reset();
	craft_defaults(&p, 6);

	n = good(&p, 1, 1);
	f[14] = 0x70;
	ASSERT_REASON(feed(f, n), BPFW_R_IP6_VERSION, "ipv6 version 7");
	n = good(&p, 1, 1);
	put16(f + 18, (uint16_t)(n - 54 + 1));
	ASSERT_REASON(feed(f, n), BPFW_R_IP6_PAYLOAD_LENGTH, "ipv6 payload length too long");
	put16(f + 18, 0);
	ASSERT_REASON(feed(f, n), BPFW_R_IP6_PAYLOAD_LENGTH, "ipv6 payload length 0 (jumbo)");
	n = good(&p, 1, 1);
	put16(f + 18, (uint16_t)(n - 54 - 1));
	ASSERT_REASON(feed(f, n), BPFW_R_UDP_LENGTH, "ipv6 payload length short of udp");
	n = good(&p, 1, 1);
	f[14 + 7] = 0;
	ASSERT_REASON(feed(f, n), BPFW_R_IP6_HOP_LIMIT, "ipv6 hop limit 0");
	ASSERT_REASON(feed(f, 14 + 39), BPFW_R_IP6_TRUNCATED, "ipv6 header truncated");

	/* Hop-by-hop, then routing, then destination options, then UDP. */
	opt8(ext, 43);
	ext[8] = 60; ext[9] = 0; ext[10] = 0; ext[11] = 0;	/* type 0, 0 left */
	memset(ext + 12, 0, 4);
	opt8(ext + 16, 0);
	p.ext = ext;
	p.ext_len = 24;
	p.ext_first_nh = 0;
	p.ext_last_nh_off = 16;
	ASSERT_REASON(feed(f, good(&p, 1, 1)), BPFW_R_OK, "ipv6 hbh+routing+dstopts");

	/* Hop-by-hop anywhere but first is malformed. */
	opt8(ext, 0);
	opt8(ext + 8, 0);
	p.ext_len = 16;
	p.ext_first_nh = 60;
	p.ext_last_nh_off = 8;
	ASSERT_REASON(feed(f, good(&p, 1, 2)), BPFW_R_IP6_HBH_NOT_FIRST, "ipv6 hbh not first");

	/* An extension header whose length runs past the payload. */
	opt8(ext, 0);
	p.ext_len = 8;
	p.ext_first_nh = 60;
	p.ext_last_nh_off = 0;
	n = good(&p, 1, 2);
	f[54 + 1] = 200;
	ASSERT_REASON(feed(f, n), BPFW_R_IP6_EXTHDR_TRUNCATED, "ipv6 ext length lies");

	for (i = 0; i < 20; i++)
		opt8(ext + 8 * i, 60);
	p.ext_len = 8 * 20;
	p.ext_last_nh_off = 8 * 19;
	ASSERT_REASON(feed(f, good(&p, 1, 2)), BPFW_R_IP6_EXTHDR_LIMIT, "ipv6 ext chain limit");

	/* RFC 6946 atomic fragment: a fragment header around a whole packet. */
	memset(ext, 0, 8);
	ext[4] = 1;
	p.ext_len = 8;
	p.ext_first_nh = 44;
	p.ext_last_nh_off = 0;
	ASSERT_REASON(feed(f, good(&p, 1, 2)), BPFW_R_OK, "ipv6 atomic fragment");

	p.ext_len = 0;
	n = good(&p, 1, 3);
	f[14 + 6] = 50;
	ASSERT_REASON(feed(f, n), BPFW_R_NOT_UDP, "ipv6 esp is not ours");
	f[14 + 6] = 59;
	ASSERT_REASON(feed(f, n), BPFW_R_NOT_UDP, "ipv6 no next header");
	ASSERT_EQ(rx.wire.valid, 2, "only the two good ipv6 frames are valid");
}

static void test_udp(void)
{
	struct craft_pkt p4, p6;
	struct bpfw_rx_cfg cfg = { .port = 7000, .accept_csum_partial = 1 };
	uint32_t n, l4;
	uint32_t sum;

	rx_reset();
	craft_defaults(&p4, 4);
	craft_defaults(&p6, 6);
	l4 = craft_l4_off(&p4);

	n = good(&p4, 1, 1);
	f[n - 1] ^= 0x40;
	ASSERT_REASON(feed(f, n), BPFW_R_UDP_CHECKSUM, "ipv4 udp checksum bad");
	n = good(&p6, 1, 1);
	f[n - 1] ^= 0x40;
	ASSERT_REASON(feed(f, n), BPFW_R_UDP_CHECKSUM, "ipv6 udp checksum bad");
	n = good(&p6, 1, 1);
	f[craft_l4_off(&p6) + 6] = 0;
	f[craft_l4_off(&p6) + 7] = 0;
	ASSERT_REASON(feed(f, n), BPFW_R_UDP6_CHECKSUM_ZERO, "ipv6 udp checksum zero");

	/* What a TX-offloading sender leaves: the pseudo-header sum only. */
	n = good(&p4, 1, 1);
	{
		uint8_t ph[4] = { 0, 17, (uint8_t)((n - l4) >> 8), (uint8_t)(n - l4) };

		sum = bpfw_csum_add(0, p4.src, 4);
		sum = bpfw_csum_add(sum, p4.dst, 4);
		sum = bpfw_csum_add(sum, ph, 4);
		put16(f + l4 + 6, bpfw_csum_fold(sum));
	}
	ASSERT_REASON(feed(f, n), BPFW_R_UDP_CHECKSUM_PARTIAL, "udp checksum partial");
	memcpy(cfg.link.mac, craft_our_mac, 6);
	cfg.link.have_mac = 1;
	rx_reset_cfg(&cfg);
	ASSERT_REASON(feed(f, n), BPFW_R_OK, "udp checksum partial accepted");
	ASSERT_EQ(rx.wire.udp_csum_partial, 1, "partial counted");

	rx_reset();
	n = good(&p4, 1, 1);
	put16(f + l4 + 4, (uint16_t)(n - l4 + 2));
	craft_fix_udp(f, &p4, n - l4);
	ASSERT_REASON(feed(f, n), BPFW_R_UDP_LENGTH, "udp length past ip");
	n = good(&p4, 1, 1);
	put16(f + l4 + 4, (uint16_t)(n - l4 - 2));
	craft_fix_udp(f, &p4, n - l4);
	ASSERT_REASON(feed(f, n), BPFW_R_UDP_LENGTH, "udp length short of ip");
	n = good(&p4, 1, 1);
	put16(f + l4 + 4, 7);
	ASSERT_REASON(feed(f, n), BPFW_R_UDP_LENGTH, "udp length < 8");
	/* IP says only 4 bytes of UDP follow, consistently. */
	n = good(&p4, 1, 1);
	put16(f + 16, 24);
	craft_fix_ip4(f);
	ASSERT_REASON(feed(f, l4 + 4), BPFW_R_UDP_TRUNCATED, "udp header truncated");
}

static void test_wire(void)
{
	struct craft_pkt p;
	uint32_t n;

	rx_reset();
	craft_defaults(&p, 4);

#define WIRE_CASE(edit, refix, expect, name) do {			\
		n = craft_wire(dg, 1, 1, BPFWIRE_EV_TEST, payload16, 16); \
		edit;							\
		if (refix)						\
			craft_wire_fix(dg, n);				\
		ASSERT_REASON(feed_dg(&p, n), expect, name);		\
	} while (0)

	WIRE_CASE(dg[0] = 0x43, 1, BPFW_R_WIRE_MAGIC, "wire magic");
	WIRE_CASE(dg[4] = 4, 1, BPFW_R_WIRE_VERSION, "wire version 4");
	/* v3 is v2's 56-byte header: a 40-byte one is too short for it. */
	WIRE_CASE(dg[4] = 3, 1, BPFW_R_WIRE_HDR_LEN, "wire version 3 with v1's 40-byte header");
	WIRE_CASE(put16(dg + 6, 39), 1, BPFW_R_WIRE_HDR_LEN, "wire hdr_len 39");
	WIRE_CASE(put16(dg + 6, 200), 1, BPFW_R_WIRE_HDR_LEN, "wire hdr_len past end");
	WIRE_CASE(dg[15] = 17, 1, BPFW_R_WIRE_PAYLOAD_LEN, "wire payload_len +1");
	WIRE_CASE(dg[15] = 15, 1, BPFW_R_WIRE_PAYLOAD_LEN, "wire payload_len -1");
	WIRE_CASE(dg[12] = 0x80, 1, BPFW_R_WIRE_PAYLOAD_LEN, "wire payload_len huge");
	WIRE_CASE(dg[45] ^= 1, 0, BPFW_R_WIRE_CHECK, "wire payload bit flip");
	WIRE_CASE(dg[20] ^= 1, 0, BPFW_R_WIRE_CHECK, "wire seq bit flip");
	WIRE_CASE(dg[33] ^= 1, 0, BPFW_R_WIRE_CHECK, "wire check field wrong");
	WIRE_CASE(dg[39] = 1, 1, BPFW_R_WIRE_RESERVED, "wire reserved set");
	WIRE_CASE(dg[5] = 9, 1, BPFW_R_WIRE_TYPE, "wire unknown type");
	WIRE_CASE(dg[5] = 0, 1, BPFW_R_WIRE_TYPE, "wire type 0");
	WIRE_CASE(memset(dg + 16, 0, 8), 1, BPFW_R_WIRE_SEQ_ZERO, "wire seq 0");
	WIRE_CASE(n = 20, 0, BPFW_R_WIRE_TRUNCATED, "wire header truncated");
	WIRE_CASE(n = 0, 0, BPFW_R_WIRE_TRUNCATED, "empty udp payload");

	/* A v1 header grown by 8 bytes is skipped by a v1 reader. */
	n = craft_wire(dg, 1, 1, BPFWIRE_EV_TEST, payload16, 16);
	memmove(dg + 48, dg + 40, 16);
	memset(dg + 40, 0xee, 8);
	put16(dg + 6, 48);
	n += 8;
	craft_wire_fix(dg, n);
	ASSERT_REASON(feed_dg(&p, n), BPFW_R_OK, "wire longer header skipped");

	/* Events: the path length must account for the payload exactly. */
	{
		uint8_t ev[512];
		uint32_t el = craft_event(ev, 7, "sh", "/bin/sh");

		ev[25] = 8;
		n = craft_wire(dg, 1, 2, BPFWIRE_EV_EXEC, ev, el);
		ASSERT_REASON(feed_dg(&p, n), BPFW_R_EVENT_LENGTH, "event path_len lies");
		n = craft_wire(dg, 1, 2, BPFWIRE_EV_OPEN, ev, 20);
		ASSERT_REASON(feed_dg(&p, n), BPFW_R_EVENT_LENGTH, "event too short");
		memset(ev + 28, 'a', 300);
		put16(ev + 24, 300);
		n = craft_wire(dg, 1, 2, BPFWIRE_EV_OPEN, ev, 328);
		ASSERT_REASON(feed_dg(&p, n), BPFW_R_EVENT_LENGTH, "event path over PATH_MAX");
	}
	/* --batch: n_events must count the events exactly. */
	{
		uint8_t ev[512];
		uint32_t el = craft_event(ev, 7, "sh", "/bin/sh"), pl;
		uint64_t events = rx.wire.events;

		pl = el + craft_event(ev + el, 8, "cat", "/etc/hosts");
		pl += craft_event(ev + pl, 9, "ls", "/");
		n = craft_wire_v2(dg, 1, 5, 3, BPFWIRE_EV_OPEN, 3, ev, pl);
		ASSERT_REASON(feed_dg(&p, n), BPFW_R_OK, "v2 batch of 3 events");
		ASSERT_EQ(rx.wire.events - events, 3, "a batch of 3 counts 3 events");
		n = craft_wire_v2(dg, 1, 5, 4, BPFWIRE_EV_OPEN, 0, ev, pl);
		ASSERT_REASON(feed_dg(&p, n), BPFW_R_EVENT_LENGTH, "n_events 0: malformed");
		n = craft_wire_v2(dg, 1, 5, 5, BPFWIRE_EV_OPEN, 4, ev, pl);
		ASSERT_REASON(feed_dg(&p, n), BPFW_R_EVENT_LENGTH, "n_events 4 over 3 events");
		n = craft_wire_v2(dg, 1, 5, 6, BPFWIRE_EV_OPEN, 2, ev, pl);
		ASSERT_REASON(feed_dg(&p, n), BPFW_R_EVENT_LENGTH, "n_events 2, 3 events' bytes");
		n = craft_wire_v2(dg, 1, 5, 7, BPFWIRE_EV_OPEN, 65535, ev, pl);
		ASSERT_REASON(feed_dg(&p, n), BPFW_R_EVENT_LENGTH, "n_events 65535");
		ASSERT_EQ(rx.wire.events - events, 3, "malformed batches count no event");
	}
	ASSERT_EQ(rx.wire.valid, 2, "only the grown header and the batch are valid");
	ASSERT_EQ(rx.wire.reasons[BPFW_R_WIRE_CHECK], 3, "wire_check reason count");
#undef WIRE_CASE
}

/* Cut one good frame at every byte: never valid, never a crash. */
static void test_truncation_everywhere(void)
{
	struct craft_pkt p;
	int fam;

	for (fam = 4; fam <= 6; fam += 2) {
		uint32_t n, cut, bad = 0, snap_bad = 0;

		rx_reset();
		craft_defaults(&p, fam);
		n = good(&p, 1, 1);
		for (cut = 0; cut < n; cut++) {
			enum bpfw_reason r;

			now_ns += 1000;
			r = bpfw_rx_frame(&rx, now_ns, f, cut, cut);
			if (bpfw_reason_class(r) != BPFW_CLASS_INVALID)
				bad++;
			now_ns += 1000;
			r = bpfw_rx_frame(&rx, now_ns, f, cut, n);
			if (r != BPFW_R_CAPTURE_TRUNCATED && cut >= 14)
				snap_bad++;
		}
		ASSERT_EQ(bad, 0, fam == 4 ? "ipv4 every cut is invalid" :
					     "ipv6 every cut is invalid");
		ASSERT_EQ(snap_bad, 0, fam == 4 ? "ipv4 snaplen cuts say so" :
						  "ipv6 snaplen cuts say so");
		ASSERT_EQ(rx.wire.valid, 0, "no cut frame valid");
	}
}

static void test_expect_src(void)
{
	struct bpfw_src_expect e[2] = { { .family = 4, .port = 40000 },
					{ .family = 6 } };
	struct bpfw_rx_cfg cfg = { .port = 7000, .srcs = e, .nsrcs = 2 };
	struct craft_pkt p;

	inet_pton(AF_INET, "192.0.2.1", e[0].addr);
	inet_pton(AF_INET6, "2001:db8::1", e[1].addr);
	cfg.link.link = BPFW_LINK_ETH;
	rx_reset_cfg(&cfg);
	craft_defaults(&p, 4);
	ASSERT_REASON(feed(f, good(&p, 1, 1)), BPFW_R_OK, "expected source");
	p.sport = 40001;
	ASSERT_REASON(feed(f, good(&p, 1, 2)), BPFW_R_SRC_UNEXPECTED, "wrong source port");
	p.sport = 40000;
	p.src[3] = 9;
	ASSERT_REASON(feed(f, good(&p, 1, 2)), BPFW_R_SRC_UNEXPECTED, "wrong source address");
	craft_defaults(&p, 6);
	p.sport = 1234;
	ASSERT_REASON(feed(f, good(&p, 2, 1)), BPFW_R_OK, "expected ipv6 source, any port");
	rx_reset();
}

static void test_sequence(void)
{
	static const uint64_t seqs[] = { 1, 2, 4, 3, 3, 6, 2 };
	static const enum bpfw_seq_event want[] = {
		BPFW_SEQ_NEW, BPFW_SEQ_NEW, BPFW_SEQ_NEW, BPFW_SEQ_REORDERED,
		BPFW_SEQ_DUPLICATE, BPFW_SEQ_NEW, BPFW_SEQ_DUPLICATE,
	};
	struct bpfw_senders *s = bpfw_senders_new(2, NULL);
	const struct bpfw_sender *snd;
	struct craft_pkt p;
	unsigned i, ev_bad = 0;

	for (i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		if (bpfw_senders_record(s, 5, 0, seqs[i], 0, 4, NULL, 0) != want[i])
			ev_bad++;
	ASSERT_EQ(ev_bad, 0, "sequence events");
	snd = bpfw_senders_get(s, 0);
	ASSERT_EQ(snd->received, 5, "seq received distinct");
	ASSERT_EQ(snd->duplicates, 2, "seq duplicates");
	ASSERT_EQ(snd->reordered, 1, "seq reordered");
	ASSERT_EQ(bpfw_sender_lost(snd), 1, "seq lost (5)");
	ASSERT_EQ(snd->first_seq, 1, "seq first");
	ASSERT_EQ(snd->last_seq, 6, "seq last");

	/* Two senders stay apart; a third is refused, not mixed in. */
	ASSERT_EQ(bpfw_senders_record(s, 9, 0, 3, 0, 4, NULL, 0), BPFW_SEQ_NEW, "second sender");
	ASSERT_EQ(bpfw_senders_record(s, 10, 0, 1, 0, 4, NULL, 0), BPFW_SEQ_FULL, "third sender refused");
	ASSERT_EQ(bpfw_senders_count(s), 2, "two senders");
	ASSERT_EQ(bpfw_senders_get(s, 1)->sender_id, 9, "sorted by id");
	ASSERT_EQ(bpfw_sender_lost(bpfw_senders_get(s, 1)), 2, "late starter lost 1,2");

	/* A jump past the window slides it; a number below it is refused:
	 * 2 was seen, 5 was not, and the forgotten bitmap cannot tell. */
	ASSERT_EQ(bpfw_senders_record(s, 5, 0, 100000000, 0, 4, NULL, 0), BPFW_SEQ_NEW, "far jump");
	ASSERT_EQ(bpfw_senders_record(s, 5, 0, 100000000, 0, 4, NULL, 0), BPFW_SEQ_DUPLICATE, "far dup");
	ASSERT_EQ(bpfw_senders_record(s, 5, 0, 2, 0, 4, NULL, 0), BPFW_SEQ_OLD, "seen seq below the window");
	ASSERT_EQ(bpfw_senders_record(s, 5, 0, 5, 0, 4, NULL, 0), BPFW_SEQ_OLD, "unseen seq below the window");
	snd = bpfw_senders_get(s, 0);
	ASSERT_EQ(snd->stale, 2, "stale counted");
	ASSERT_EQ(snd->received, 6, "stale not received");
	ASSERT_EQ(snd->last_seq, 100000000, "last after jump");
	bpfw_senders_free(s);

	/* A first datagram far from 1: earlier ones arriving late are reordered,
	 * not old; the window starts half a window below the first. */
	s = bpfw_senders_new(1, NULL);
	ASSERT_EQ(bpfw_senders_record(s, 5, 0, 1000000, 0, 4, NULL, 0), BPFW_SEQ_NEW, "first at 1e6");
	ASSERT_EQ(bpfw_senders_record(s, 5, 0, 3, 0, 4, NULL, 0), BPFW_SEQ_REORDERED, "then seq 3");
	ASSERT_EQ(bpfw_senders_record(s, 5, 0, 20000000, 0, 4, NULL, 0), BPFW_SEQ_NEW, "2e7 slides the window");
	ASSERT_EQ(bpfw_senders_record(s, 5, 0, 20000000 - (1 << 23) + 512, 0, 4, NULL, 0),
		  BPFW_SEQ_REORDERED, "half a window below, in");
	ASSERT_EQ(bpfw_senders_record(s, 5, 0, 20000000 - (1 << 23) - 512, 0, 4, NULL, 0),
		  BPFW_SEQ_OLD, "more than half a window below, old");
	bpfw_senders_free(s);

	/* Through the pipeline: the same on the wire side. */
	rx_reset();
	craft_defaults(&p, 6);
	for (i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		feed(f, good(&p, 77, seqs[i]));
	snd = bpfw_senders_get(rx.wire.senders, 0);
	ASSERT_EQ(snd->sender_id, 77, "pipeline sender id");
	ASSERT_EQ(snd->received, 5, "pipeline received");
	ASSERT_EQ(snd->duplicates, 2, "pipeline duplicates");
	ASSERT_EQ(rx.wire.valid, 7, "duplicates are still valid datagrams");
	ASSERT_EQ(snd->sport, 40000, "sender source port recorded");
}

static void test_socket_side(void)
{
	uint8_t src[4] = { 192, 0, 2, 1 };
	uint32_t n;

	rx_reset();
	n = craft_wire(dg, 3, 1, BPFWIRE_EV_TEST, payload16, 16);
	ASSERT_REASON(bpfw_rx_socket(&rx, 1, 4, src, 40000, dg, n), BPFW_R_OK, "socket good");
	dg[50] ^= 4;
	ASSERT_REASON(bpfw_rx_socket(&rx, 2, 4, src, 40000, dg, n), BPFW_R_WIRE_CHECK, "socket corrupt");
	ASSERT_EQ(rx.sock.valid, 1, "socket valid");
	ASSERT_EQ(rx.sock.invalid, 1, "socket invalid");
	ASSERT_EQ(rx.wire.datagrams, 0, "socket does not touch wire counts");
}

static void test_fragments(void)
{
	static uint8_t frames[8][CRAFT_MAX_FRAME];
	static uint8_t big[4000];
	uint32_t lens[8], n, dl;
	struct craft_pkt p;
	unsigned nf, i;
	enum bpfw_reason r;
	int fam;

	for (i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7);
	for (fam = 4; fam <= 6; fam += 2) {
		const char *v = fam == 4 ? "ipv4" : "ipv6";
		char name[96];

		rx_reset();
		craft_defaults(&p, fam);
		p.df = 0;
		dl = craft_wire(dg, 1, 1, BPFWIRE_EV_TEST, big, 3000);
		nf = craft_fragments(frames, lens, 8, &p, dg, dl, 1232);
		snprintf(name, sizeof(name), "%s three fragments", v);
		ASSERT_EQ(nf, 3, name);
		r = BPFW_R_OK;
		for (i = 0; i < nf; i++) {
			r = feed(frames[i], lens[i]);
			if (i + 1 < nf && r != BPFW_R_FRAGMENT)
				break;
		}
		snprintf(name, sizeof(name), "%s in order reassembled", v);
		ASSERT_REASON(r, BPFW_R_OK, name);

		/* Reversed, with the middle one duplicated. */
		p.ip_id = 2;	/* one IP ID per datagram, as senders do */
		dl = craft_wire(dg, 1, 2, BPFWIRE_EV_TEST, big, 3000);
		craft_fragments(frames, lens, 8, &p, dg, dl, 1232);
		feed(frames[2], lens[2]);
		feed(frames[1], lens[1]);
		feed(frames[1], lens[1]);
		r = feed(frames[0], lens[0]);
		snprintf(name, sizeof(name), "%s reversed+dup reassembled", v);
		ASSERT_REASON(r, BPFW_R_OK, name);
		ASSERT_EQ(bpfw_reasm_stats(rx.reasm)->duplicates, 1, "duplicate fragment counted");

		/* Same offset, different bytes: overlap, the whole datagram goes. */
		p.ip_id = 3;
		dl = craft_wire(dg, 1, 3, BPFWIRE_EV_TEST, big, 3000);
		craft_fragments(frames, lens, 8, &p, dg, dl, 1232);
		feed(frames[0], lens[0]);
		memcpy(frames[7], frames[0], lens[0]);
		frames[7][lens[0] - 1] ^= 1;
		snprintf(name, sizeof(name), "%s overlap", v);
		ASSERT_REASON(feed(frames[7], lens[0]), BPFW_R_FRAG_OVERLAP, name);
		feed(frames[1], lens[1]);
		ASSERT_REASON(feed(frames[2], lens[2]), BPFW_R_FRAGMENT, "rest of a rejected datagram swallowed");

		/* Corruption inside a fragment shows once whole. */
		p.ip_id = 4;
		dl = craft_wire(dg, 1, 4, BPFWIRE_EV_TEST, big, 3000);
		craft_fragments(frames, lens, 8, &p, dg, dl, 1232);
		frames[1][lens[1] - 3] ^= 0x10;
		for (i = 0; i < 3; i++)
			r = feed(frames[i], lens[i]);
		snprintf(name, sizeof(name), "%s corrupt fragment -> udp checksum", v);
		ASSERT_REASON(r, BPFW_R_UDP_CHECKSUM, name);

		/* One lost fragment: incomplete at the end of the run. */
		p.ip_id = 5;
		dl = craft_wire(dg, 1, 5, BPFWIRE_EV_TEST, big, 3000);
		craft_fragments(frames, lens, 8, &p, dg, dl, 1232);
		feed(frames[0], lens[0]);
		feed(frames[2], lens[2]);
		bpfw_rx_expire(&rx, UINT64_MAX);
		snprintf(name, sizeof(name), "%s missing fragment -> incomplete", v);
		ASSERT_EQ(rx.wire.reasons[BPFW_R_FRAG_INCOMPLETE], 1, name);
		ASSERT_EQ(rx.wire.valid, 2, "two reassembled valid");
		ASSERT_EQ(bpfw_senders_get(rx.wire.senders, 0)->received, 2, "reassembled reach the tracker");

		/* Time out: the first fragment is 31 s older than the next. */
		p.ip_id = 6;
		dl = craft_wire(dg, 1, 6, BPFWIRE_EV_TEST, big, 3000);
		craft_fragments(frames, lens, 8, &p, dg, dl, 1232);
		feed(frames[0], lens[0]);
		now_ns += 31000000000ull;
		feed(frames[1], lens[1]);
		ASSERT_EQ(rx.wire.reasons[BPFW_R_FRAG_INCOMPLETE], 2, "fragment timeout");
	}

	/* Bad geometry on IPv4. */
	rx_reset();
	craft_defaults(&p, 4);
	p.df = 0;
	dl = craft_wire(dg, 1, 1, BPFWIRE_EV_TEST, big, 3000);
	nf = craft_fragments(frames, lens, 8, &p, dg, dl, 1232);
	n = lens[0];
	put16(frames[0] + 16, (uint16_t)(20 + 1230));	/* MF, not a multiple of 8 */
	craft_fix_ip4(frames[0]);
	ASSERT_REASON(feed(frames[0], n - 2), BPFW_R_FRAG_LENGTH, "fragment not multiple of 8");
	put16(frames[1] + 18, 0x999);	/* another datagram */
	put16(frames[1] + 20, 0x2000 | 8190);		/* 65520 + 1232 */
	craft_fix_ip4(frames[1]);
	ASSERT_REASON(feed(frames[1], lens[1]), BPFW_R_FRAG_TOO_BIG, "fragment past 64 KiB");
	/* Non-UDP fragments are not ours. */
	put16(frames[2] + 18, 0x998);
	frames[2][14 + 9] = 1;
	craft_fix_ip4(frames[2]);
	ASSERT_REASON(feed(frames[2], lens[2]), BPFW_R_NOT_UDP, "icmp fragment ignored");
	(void)nf;
}

/* bpfw_find_wire(), bpfwire-path's locator: the headers found through IPv6
 * extension headers and first fragments; UDP and bpfwire checks not enforced. */
static void test_find_wire(void)
{
	static const struct bpfw_link_cfg eth = { .link = BPFW_LINK_ETH };
	static uint8_t frames[4][CRAFT_MAX_FRAME];
	static uint8_t big[600];
	uint8_t ext[16];
	uint32_t lens[4], n;
	struct bpfw_l3 l3;
	struct bpfw_udp udp;
	struct bpfw_wire w;
	struct craft_pkt p;

	craft_defaults(&p, 6);
	opt8(ext, 60);
	opt8(ext + 8, 0);
	p.ext = ext;
	p.ext_len = sizeof(ext);
	p.ext_first_nh = 0;
	p.ext_last_nh_off = 8;
	n = good(&p, 4, 11);
	ASSERT_REASON(bpfw_find_wire(&eth, f, n, n, &l3, &udp, &w), BPFW_R_OK,
		      "find: ipv6 behind hop-by-hop and destination options");
	ASSERT_EQ(w.sender_id, 4, "find: sender id");
	ASSERT_EQ(w.seq, 11, "find: seq");
	ASSERT_EQ(udp.sport, 40000, "find: source port");
	ASSERT_EQ(l3.ext_count, 2, "find: two extension headers walked");
	f[n - 1] ^= 1;	/* breaks the UDP checksum and the bpfwire check */
	ASSERT_REASON(bpfw_find_wire(&eth, f, n, n, &l3, &udp, &w), BPFW_R_OK,
		      "find: bad checksums do not hide a datagram");
	f[n - 1] ^= 1;
	f[n - 16 - BPFWIRE_HDR_LEN] ^= 0x80;	/* the magic's first byte */
	ASSERT_REASON(bpfw_find_wire(&eth, f, n, n, &l3, &udp, &w), BPFW_R_WIRE_MAGIC,
		      "find: not bpfwire without the magic");

	p.ext_len = 0;
	for (int fam = 4; fam <= 6; fam += 2) {
		const char *first = fam == 4 ? "find: ipv4 first fragment" : "find: ipv6 first fragment";
		const char *later = fam == 4 ? "find: ipv4 later fragment has no header" :
					       "find: ipv6 later fragment has no header";

		craft_defaults(&p, fam);
		p.df = 0;
		n = craft_wire(dg, 4, 12, BPFWIRE_EV_TEST, big, sizeof(big));
		if (!ASSERT_EQ(craft_fragments(frames, lens, 4, &p, dg, n, 512), 2, "find: two fragments"))
			continue;
		ASSERT_REASON(bpfw_find_wire(&eth, frames[0], lens[0], lens[0], &l3, &udp, &w),
			      BPFW_R_OK, first);
		ASSERT_EQ(w.seq, 12, first);
		ASSERT_REASON(bpfw_find_wire(&eth, frames[1], lens[1], lens[1], &l3, &udp, &w),
			      BPFW_R_FRAGMENT, later);
	}
}

int main(void)
{
	test_good();
	test_ignored();
	test_link();
	test_ip4();
	test_ip6();
	test_udp();
	test_wire();
	test_truncation_everywhere();
	test_expect_src();
	test_sequence();
	test_socket_side();
	test_fragments();
	test_find_wire();
	bpfw_rx_fini(&rx);
	return tap_done();
}
