// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test sender: emits bpfwire datagrams from user space, so the receiver's
 * live mode (and the forged scenario's intruder) needs no kernel half.
 *
 * usage: send_wire [options] ADDR[%IF] PORT
 *   -s ID      sender id (default 1)          -n N     datagrams (default 10)
 *   -l LEN     payload bytes (default 16)     -q SEQ   first seq (default 1)
 *   -k SEQ     skip this seq                  -d SEQ   send this seq twice
 *   -p PORT    source port                    -r RATE  datagrams per second
 *   -V 2       wire v2 (unsigned)             -e EPOCH v2 epoch (default 1)
 *   -K FILE    sign with this key file (v2)   -i ID    key id (default 1)
 *   -T         forge: v2 signed, a wrong tag (no key needed)
 *   -D N       the DoS pattern: N ids from -s, each seq 1, 2^24, 3*2^23 (v1)
 *   -R PCAP    replay every bpfwire datagram of sender -s found in PCAP
 *   -j FILE    write {"sent": N, "failed": N} at the end
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "craft.h"
#include "errnames.h"
#include "keyfile.h"
#include "log.h"
#include "wire.h"

struct tx {
	int fd;
	struct addrinfo *ai;
	unsigned long rate;
	unsigned long sent, failed;
};

static void send_one(struct tx *t, const uint8_t *buf, uint32_t n)
{
	if (sendto(t->fd, buf, n, 0, t->ai->ai_addr, t->ai->ai_addrlen) == (ssize_t)n) {
		t->sent++;
	} else {
		if (!t->failed)
			pr_warn("sendto: %s", errno_str(errno));
		t->failed++;
	}
	/* Paced: the tests check correctness, not throughput. */
	usleep(t->rate ? (useconds_t)(1000000 / t->rate) : 200);
}

/* Every bpfwire datagram of sender id in a capture, sent again as it was. */
static int replay(struct tx *t, const char *path, uint32_t id)
{
	char err[PCAP_ERRBUF_SIZE];
	struct bpfw_link_cfg cfg = { .link = BPFW_LINK_ETH };
	struct pcap_pkthdr *h;
	const u_char *frame;
	pcap_t *p = pcap_open_offline(path, err);

	if (!p) {
		pr_warn("couldn't read %s: %s", path, err);
		return -1;
	}
	while (pcap_next_ex(p, &h, &frame) == 1) {
		struct bpfw_l3 l3;
		struct bpfw_udp udp;
		struct bpfw_wire w;

		if (bpfw_find_wire(&cfg, frame, h->caplen, h->len, &l3, &udp, &w) ||
		    l3.is_fragment || w.sender_id != id)
			continue;
		send_one(t, udp.data, udp.data_len);
	}
	pcap_close(p);
	return 0;
}

static void dos(struct tx *t, uint32_t first_id, unsigned long ids)
{
	static const uint64_t seqs[] = { 1, 1ull << 24, 3ull << 23 };
	uint8_t buf[128];
	unsigned long i;
	unsigned k;

	for (i = 0; i < ids; i++)
		for (k = 0; k < 3; k++)
			send_one(t, buf, craft_wire(buf, first_id + (uint32_t)i, seqs[k],
						    BPFWIRE_EV_TEST, (const uint8_t *)"flood", 5));
}

static int open_tx(struct tx *t, const char *addr, const char *port, unsigned long sport)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICHOST };
	struct sockaddr_storage ss = { 0 };
	int e = getaddrinfo(addr, port, &hints, &t->ai);

	if (e) {
		pr_warn("%s: %s", addr, gai_strerror(e));
		return -1;
	}
	t->fd = socket(t->ai->ai_family, SOCK_DGRAM, 0);
	if (t->fd < 0) {
		pr_warn("socket: %s", errno_str(errno));
		return -1;
	}
	if (!sport)
		return 0;
	ss.ss_family = (sa_family_t)t->ai->ai_family;
	if (t->ai->ai_family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)sport);
	else
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)sport);
	if (bind(t->fd, (struct sockaddr *)&ss, t->ai->ai_addrlen)) {
		pr_warn("bind to port %lu: %s", sport, errno_str(errno));
		return -1;
	}
	return 0;
}

struct stream {
	unsigned long sender, count, plen, skip, dup, first, version, key_id, forge;
	unsigned long long epoch;
	int have_key;
	uint8_t key[16];
};

static uint32_t build(const struct stream *st, uint8_t *buf, const uint8_t *payload,
		      unsigned long seq)
{
	uint32_t n;

	if (st->version != 2)
		return craft_wire(buf, (uint32_t)st->sender, seq, BPFWIRE_EV_TEST, payload,
				  (uint32_t)st->plen);
	n = craft_wire_v2(buf, (uint32_t)st->sender, st->epoch, seq, BPFWIRE_EV_TEST, 1,
			  payload, (uint32_t)st->plen);
	if (st->have_key)
		craft_wire_sign(buf, n, st->key, (uint8_t)st->key_id);
	if (st->forge) {
		/* A tag that was never computed; the FNV check stays right. */
		buf[36] |= BPFWIRE_F_SIGNED;
		buf[37] = (uint8_t)st->key_id;
		memcpy(buf + BPFWIRE_OFF_TAG, "\xba\xdc\x0f\xfe\xe0\xdd\xf0\x0d", 8);
		craft_wire_fix(buf, n);
	}
	return n;
}

static void stream(struct tx *t, const struct stream *st)
{
	static uint8_t buf[70000], payload[65536];
	unsigned long seq;

	for (seq = 0; seq < st->plen; seq++)
		payload[seq] = (uint8_t)seq;
	for (seq = st->first; seq < st->first + st->count; seq++) {
		uint32_t n;

		if (seq == st->skip)
			continue;
		n = build(st, buf, payload, seq);
		send_one(t, buf, n);
		if (seq == st->dup)
			send_one(t, buf, n);
	}
}

static int write_json(const char *path, const struct tx *t)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "{\"sent\": %lu, \"failed\": %lu}\n", t->sent, t->failed) < 0 ||
	    fclose(f)) {
		pr_warn("couldn't write %s: %s", path, errno_str(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct stream st = { .sender = 1, .count = 10, .plen = 16, .first = 1,
			     .version = 1, .key_id = 1, .epoch = 1 };
	struct tx t = { .fd = -1 };
	const char *pcap = NULL, *json = NULL;
	unsigned long sport = 0, dos_ids = 0;
	char why[512];
	int c;

	log_init("send_wire", LOG_WARN);
	while ((c = getopt(argc, argv, "s:n:l:k:d:p:q:r:V:e:K:i:TD:R:j:")) != -1) {
		unsigned long v = optarg ? strtoul(optarg, NULL, 0) : 0;

		switch (c) {
		case 's': st.sender = v; break;
		case 'n': st.count = v; break;
		case 'l': st.plen = v; break;
		case 'k': st.skip = v; break;
		case 'd': st.dup = v; break;
		case 'p': sport = v; break;
		case 'q': st.first = v; break;
		case 'r': t.rate = v; break;
		case 'V': st.version = v; break;
		case 'e': st.epoch = strtoull(optarg, NULL, 0); break;
		case 'K':
			if (key_file_read(optarg, st.key, why, sizeof(why))) {
				pr_warn("-K: %s", why);
				return 2;
			}
			st.have_key = 1;
			st.version = 2;
			break;
		case 'i': st.key_id = v; break;
		case 'T': st.forge = 1; st.version = 2; break;
		case 'D': dos_ids = v; break;
		case 'R': pcap = optarg; break;
		case 'j': json = optarg; break;
		default: return 2;
		}
	}
	if (argc - optind != 2 || st.plen > 65536 || (st.version != 1 && st.version != 2)) {
		fprintf(stderr, "usage: send_wire [-s ID] [-n N] [-l LEN] [-q SEQ] [-k SKIP] [-d DUP]"
			" [-p SPORT] [-r RATE] [-V 2] [-e EPOCH] [-K KEYFILE] [-i KEYID] [-T]"
			" [-D IDS] [-R PCAP] [-j OUT.json] ADDR PORT\n");
		return 2;
	}
	if (open_tx(&t, argv[optind], argv[optind + 1], sport))
		return 1;
	if (pcap) {
		if (replay(&t, pcap, (uint32_t)st.sender))
			return 1;
	} else if (dos_ids) {
		dos(&t, (uint32_t)st.sender, dos_ids);
	} else {
		stream(&t, &st);
	}
	freeaddrinfo(t.ai);
	close(t.fd);
	if (json && write_json(json, &t))
		return 1;
	return t.failed ? 1 : 0;
}
