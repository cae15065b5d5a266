// SPDX-License-Identifier: GPL-2.0-only
/* Packet crafting for tests: see craft.h. */
#include <arpa/inet.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "craft.h"
#include "parse.h"
#include "rx.h"
#include "wire.h"
#include "wirecrypt.h"

const uint8_t craft_our_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, (uint32_t)v);
}

void craft_defaults(struct craft_pkt *p, int family)
{
	static const uint8_t src_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

	memset(p, 0, sizeof(*p));
	p->family = family;
	memcpy(p->dst_mac, craft_our_mac, 6);
	memcpy(p->src_mac, src_mac, 6);
	if (family == 4) {
		inet_pton(AF_INET, "192.0.2.1", p->src);
		inet_pton(AF_INET, "192.0.2.2", p->dst);
	} else {
		inet_pton(AF_INET6, "2001:db8::1", p->src);
		inet_pton(AF_INET6, "2001:db8::2", p->dst);
	}
	p->sport = 40000;
	p->dport = 7000;
	p->ttl = 64;
	p->df = 1;
	p->ip_id = 0x1234;
}

/* Bytes 0-31, the same in v1 and v2; the stamp is seq seconds. */
static void craft_hdr_start(uint8_t *buf, uint8_t version, uint16_t hdr_len,
			    uint32_t sender, uint64_t seq, uint8_t type, uint32_t plen)
{
	put32(buf, BPFWIRE_MAGIC);
	buf[4] = version;
	buf[5] = type;
	put16(buf + 6, hdr_len);
	put32(buf + 8, sender);
	put32(buf + 12, plen);
	put64(buf + 16, seq);
	put64(buf + 24, 1000000000ull * seq);
}

uint32_t craft_wire(uint8_t *buf, uint32_t sender, uint64_t seq, uint8_t type,
		    const uint8_t *payload, uint32_t plen)
{
	uint32_t len = BPFWIRE_HDR_LEN + plen;

	craft_hdr_start(buf, BPFWIRE_VERSION, BPFWIRE_HDR_LEN, sender, seq, type, plen);
	put32(buf + 36, 0);
	if (plen)
		memmove(buf + BPFWIRE_HDR_LEN, payload, plen);
	craft_wire_fix(buf, len);
	return len;
}

void craft_wire_fix(uint8_t *buf, uint32_t len)
{
	put32(buf + 32, bpfw_wire_check(buf, len));
}

uint32_t craft_wire_v2(uint8_t *buf, uint32_t sender, uint64_t epoch,
		       uint64_t seq, uint8_t type, uint16_t n_events,
		       const uint8_t *payload, uint32_t plen)
{
	uint32_t len = BPFWIRE_HDR_LEN_V2 + plen;

	if (plen)
		memmove(buf + BPFWIRE_HDR_LEN_V2, payload, plen);
	craft_hdr_start(buf, BPFWIRE_VERSION_2, BPFWIRE_HDR_LEN_V2, sender, seq, type, plen);
	buf[36] = 0;
	buf[37] = 0;
	put16(buf + 38, n_events);
	put64(buf + 40, epoch);
	memset(buf + BPFWIRE_OFF_TAG, 0, BPFWIRE_TAG_LEN);
	craft_wire_fix(buf, len);
	return len;
}

void craft_wire_sign(uint8_t *buf, uint32_t len, const uint8_t key[16],
		     uint8_t key_id)
{
	uint64_t t;
	int i;

	buf[36] |= BPFWIRE_F_SIGNED;
	buf[37] = key_id;
	memset(buf + BPFWIRE_OFF_TAG, 0, BPFWIRE_TAG_LEN);
	craft_wire_fix(buf, len);
	/* wire.h's SipHash itself, not the receiver's bpfw_wire_tag(). */
	t = bpfwire_siphash24(key, buf, len);
	for (i = 0; i < BPFWIRE_TAG_LEN; i++)	/* little-endian, as SipHash outputs */
		buf[BPFWIRE_OFF_TAG + i] = (uint8_t)(t >> (8 * i));
}

int craft_wire_encrypt(uint8_t *buf, uint32_t len, const uint8_t mac[16],
		       const uint8_t enc[16])
{
	char err[160];

	if (wire_encrypt_datagram(buf, len, mac, enc, err, sizeof(err))) {
		fprintf(stderr, "craft_wire_encrypt: %s\n", err);
		abort();
	}
	return 0;
}

uint32_t craft_event(uint8_t *buf, uint32_t pid, const char *comm,
		     const char *path)
{
	uint32_t plen = (uint32_t)strlen(path);

	memset(buf, 0, BPFWIRE_EVENT_FIXED_LEN);
	put32(buf, pid);
	put32(buf + 4, 1000);
	strncpy((char *)buf + 8, comm, BPFWIRE_COMM_LEN);
	put16(buf + 24, (uint16_t)plen);
	memcpy(buf + BPFWIRE_EVENT_FIXED_LEN, path, plen);
	return BPFWIRE_EVENT_FIXED_LEN + plen;
}

uint32_t craft_l4_off(const struct craft_pkt *p)
{
	return 14 + (p->family == 4 ? 20 : 40 + p->ext_len);
}

void craft_fix_ip4(uint8_t *frame)
{
	uint8_t *ip = frame + 14;
	uint32_t ihl = (ip[0] & 0xf) * 4u;

	put16(ip + 10, 0);
	put16(ip + 10, (uint16_t)~bpfw_csum_fold(bpfw_csum_add(0, ip, ihl)));
}

static uint16_t udp_csum(const struct craft_pkt *p, const uint8_t *udp,
			 uint32_t udp_len)
{
	uint32_t sum;
	uint16_t c;

	if (p->family == 4) {
		uint8_t ph[4] = { 0, 17, (uint8_t)(udp_len >> 8), (uint8_t)udp_len };

		sum = bpfw_csum_add(0, p->src, 4);
		sum = bpfw_csum_add(sum, p->dst, 4);
		sum = bpfw_csum_add(sum, ph, 4);
	} else {
		uint8_t ph[8] = { 0, 0, (uint8_t)(udp_len >> 8), (uint8_t)udp_len,
				  0, 0, 0, 17 };

		sum = bpfw_csum_add(0, p->src, 16);
		sum = bpfw_csum_add(sum, p->dst, 16);
		sum = bpfw_csum_add(sum, ph, 8);
	}
	c = (uint16_t)~bpfw_csum_fold(bpfw_csum_add(sum, udp, udp_len));
	return c ? c : 0xffff;	/* 0 means "none" on the wire */
}

void craft_fix_udp(uint8_t *frame, const struct craft_pkt *p, uint32_t udp_len)
{
	uint8_t *udp = frame + craft_l4_off(p);

	put16(udp + 6, 0);
	put16(udp + 6, udp_csum(p, udp, udp_len));
}

static uint32_t put_l2l3(uint8_t *out, const struct craft_pkt *p,
			 uint32_t l3_payload, uint16_t frag_field, uint8_t proto)
{
	uint8_t *ip = out + 14;

	memcpy(out, p->dst_mac, 6);
	memcpy(out + 6, p->src_mac, 6);
	put16(out + 12, p->family == 4 ? 0x0800 : 0x86dd);
	if (p->family == 4) {
		ip[0] = 0x45;
		ip[1] = 0;
		put16(ip + 2, (uint16_t)(20 + l3_payload));
		put16(ip + 4, p->ip_id);
		put16(ip + 6, frag_field);
		ip[8] = p->ttl;
		ip[9] = proto;
		memcpy(ip + 12, p->src, 4);
		memcpy(ip + 16, p->dst, 4);
		craft_fix_ip4(out);
		return 34;
	}
	put32(ip, 0x60000000);
	put16(ip + 4, (uint16_t)l3_payload);
	ip[6] = proto;
	ip[7] = p->ttl;
	memcpy(ip + 8, p->src, 16);
	memcpy(ip + 24, p->dst, 16);
	return 54;
}

uint32_t craft_frame(uint8_t *out, const struct craft_pkt *p,
		     const uint8_t *data, uint32_t len)
{
	uint32_t udp_len = 8 + len, off;
	uint8_t *udp;

	if (p->family == 4) {
		off = put_l2l3(out, p, udp_len, p->df ? 0x4000 : 0, 17);
	} else {
		off = put_l2l3(out, p, p->ext_len + udp_len,
			       0, p->ext_len ? p->ext_first_nh : 17);
		if (p->ext_len) {
			memcpy(out + off, p->ext, p->ext_len);
			out[off + p->ext_last_nh_off] = 17;
			off += p->ext_len;
		}
	}
	udp = out + off;
	put16(udp, p->sport);
	put16(udp + 2, p->dport);
	put16(udp + 4, (uint16_t)udp_len);
	memcpy(udp + 8, data, len);
	craft_fix_udp(out, p, udp_len);
	return off + udp_len;
}

unsigned craft_fragments(uint8_t (*frames)[CRAFT_MAX_FRAME], uint32_t *lens,
			 unsigned max, const struct craft_pkt *p,
			 const uint8_t *data, uint32_t len, uint32_t frag_size)
{
	uint8_t whole[70000];
	uint32_t udp_len = 8 + len, off = 0;
	unsigned n = 0;
	struct craft_pkt q = *p;

	/* Build the UDP datagram once, then slice it. */
	q.ext_len = 0;
	craft_frame(whole, &q, data, len);
	const uint8_t *udp = whole + craft_l4_off(&q);

	while (off < udp_len && n < max) {
		uint32_t chunk = udp_len - off > frag_size ? frag_size : udp_len - off;
		int more = off + chunk < udp_len;
		uint8_t *f = frames[n];
		uint32_t hl;

		if (p->family == 4) {
			hl = put_l2l3(f, p, chunk,
				      (uint16_t)((more ? 0x2000 : 0) | off / 8), 17);
		} else {
			hl = put_l2l3(f, p, 8 + chunk, 0, 44);
			f[hl] = 17;
			f[hl + 1] = 0;
			put16(f + hl + 2, (uint16_t)(off | (more ? 1 : 0)));
			put32(f + hl + 4, 0xabcd0000u | p->ip_id);
			hl += 8;
		}
		memcpy(f + hl, udp + off, chunk);
		lens[n++] = hl + chunk;
		off += chunk;
	}
	return n;
}

struct craft_pcap {
	pcap_t *p;
	pcap_dumper_t *d;
};

struct craft_pcap *craft_pcap_open(const char *path, int linktype)
{
	struct craft_pcap *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->p = pcap_open_dead_with_tstamp_precision(linktype, 262144,
						    PCAP_TSTAMP_PRECISION_NANO);
	c->d = c->p ? pcap_dump_open(c->p, path) : NULL;
	if (!c->d) {
		fprintf(stderr, "couldn't write %s: %s\n", path,
			c->p ? pcap_geterr(c->p) : "pcap_open_dead failed");
		if (c->p)
			pcap_close(c->p);
		free(c);
		return NULL;
	}
	return c;
}

void craft_pcap_write(struct craft_pcap *c, uint64_t ts_ns, const uint8_t *buf,
		      uint32_t len)
{
	struct pcap_pkthdr h = { 0 };

	h.ts.tv_sec = (time_t)(ts_ns / 1000000000ull);
	h.ts.tv_usec = (suseconds_t)(ts_ns % 1000000000ull); /* nanoseconds */
	h.caplen = h.len = len;
	pcap_dump((u_char *)c->d, &h, buf);
}

int craft_pcap_close(struct craft_pcap *c)
{
	int err = pcap_dump_flush(c->d);

	pcap_dump_close(c->d);
	pcap_close(c->p);
	free(c);
	return err;
}

void craft_rx_reset(struct bpfw_rx *rx, const struct bpfw_key *k, uint64_t budget)
{
	struct bpfw_rx_cfg cfg = { .port = 7000, .key = k, .state_budget = budget };

	bpfw_rx_fini(rx);
	if (bpfw_rx_init(rx, &cfg)) {
		fprintf(stderr, "bpfw_rx_init failed\n");
		exit(1);
	}
}

enum bpfw_reason craft_rx_feed(struct bpfw_rx *rx, uint64_t *ts, const uint8_t *dg,
			       uint32_t n)
{
	static const uint8_t src[4] = { 192, 0, 2, 10 };

	return bpfw_rx_socket(rx, (*ts)++, 4, src, 40000, dg, n);
}
