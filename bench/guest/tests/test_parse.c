// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host-side test of bpfwire-bench-guest's parsers: pktgen's Result, the
 * snmp counters, tc's qdisc JSON, nearest-rank percentiles, the (sender,
 * seq) set, the latency probe's frame parser (frame.h, the code the BPF
 * object compiles) and the datagrams `sendto` sends.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "frame.h"
#include "guest_parse.h"
#include "tap.h"
#ifdef HAVE_RECV_PARSER
#include "parse.h"	/* receiver/ */
#endif

/* The tail of /proc/net/pktgen/eth0 after a run, as 6.12 prints it. */
static const char pktgen_ok[] =
"Params: count 10000  min_pkt_size: 122  max_pkt_size: 122\n"
"     frags: 0  delay: 0  clone_skb: 0  ifname: eth0\n"
"     flows: 0 flowlen: 0\n"
"     queue_map_min: 0  queue_map_max: 0\n"
"     dst_min: 192.0.2.20  dst_max: \n"
"     src_min: 192.0.2.10  src_max: 192.0.2.10\n"
"     src_mac: 52:54:00:00:00:10 dst_mac: 52:54:00:00:00:20\n"
"     udp_src_min: 9  udp_src_max: 9  udp_dst_min: 7100  udp_dst_max: 7100\n"
"     burst: 64\n"
"     Flags: \n"
"Current:\n"
"     pkts-sofar: 10000  errors: 3\n"
"     started: 1234567us  stopped: 1345678us idle: 12us\n"
"     seq_num: 10001  cur_dst_mac_offset: 0  cur_src_mac_offset: 0\n"
"     cur_saddr: 192.0.2.10  cur_daddr: 192.0.2.20\n"
"     cur_udp_dst: 7100  cur_udp_src: 9\n"
"     cur_queue_map: 0\n"
"     flows: 0\n"
"Result: OK: 111111(c111099+d12) usec, 10000 (122byte,0frags)\n"
"  90000pps 87Mb/sec (87840000bps) errors: 3\n";

static void test_pktgen(void)
{
	struct bg_pktgen_result r;
	char *bad;

	ASSERT_OK(bg_parse_pktgen(pktgen_ok, &r), "pktgen: OK result parses");
	ASSERT_EQ(r.ok, 1, "pktgen: ok");
	ASSERT_EQ(r.usec, 111111, "pktgen: usec");
	ASSERT_EQ(r.sofar, 10000, "pktgen: sofar");
	ASSERT_EQ(r.pkt_size, 122, "pktgen: pkt_size");
	ASSERT_EQ(r.pps, 90000, "pktgen: pps");
	ASSERT_EQ(r.errors, 3, "pktgen: errors");
	ASSERT_EQ(r.have_cur, 1, "pktgen: Current section");
	ASSERT_EQ(r.cur_sofar, 10000, "pktgen: pkts-sofar");
	ASSERT_EQ(r.cur_errors, 3, "pktgen: current errors");
	ASSERT_STREQ(r.line, "OK: 111111(c111099+d12) usec, 10000 (122byte,0frags) "
		     "90000pps 87Mb/sec (87840000bps) errors: 3", "pktgen: result_line joined");

	ASSERT_OK(bg_parse_pktgen("Current:\n     pkts-sofar: 0  errors: 0\nResult: Idle\n", &r),
		  "pktgen: Idle parses");
	ASSERT_EQ(r.ok, 0, "pktgen: Idle is not ok");
	ASSERT_STREQ(r.line, "Idle", "pktgen: Idle line");
	ASSERT_OK(bg_parse_pktgen("Result: No such netdevice: \"eth9\"\n", &r),
		  "pktgen: an error result parses");
	ASSERT_EQ(r.ok, 0, "pktgen: error is not ok");
	ASSERT_EQ(bg_parse_pktgen("Params: count 1\n", &r), -1, "pktgen: no Result line");
	/* The thread file says "Result: NA" after a blank line; a device file
	 * with an OK but no rate line is malformed. */
	ASSERT_EQ(bg_parse_pktgen("Result: OK: 5(c5+d0) usec, 1 (60byte,0frags)\n", &r), -1,
		  "pktgen: OK without the rate line");
	bad = strdup(pktgen_ok);
	memcpy(strstr(bad, "90000pps"), "9x000pps", 8);
	ASSERT_EQ(bg_parse_pktgen(bad, &r), -1, "pktgen: garbled pps");
	free(bad);
	/* A line that merely contains "Result: " is not the Result line. */
	ASSERT_EQ(bg_parse_pktgen("     x Result: OK: 1(c1+d0) usec, 1 (60byte,0frags)\n"
				  "  1pps 0Mb/sec (480bps) errors: 0\n", &r), -1,
		  "pktgen: Result must start a line");
}

static const char snmp[] =
"Ip: Forwarding DefaultTTL InReceives\n"
"Ip: 2 64 100\n"
"Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
"Udp: 46 1 2 48 3 1234 5 6 7\n"
"UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
"UdpLite: 0 0 0 0 0 99 0 0 0\n";

static void test_snmp(void)
{
	int64_t v = -1;

	ASSERT_OK(bg_parse_snmp(snmp, "Udp", "SndbufErrors", &v), "snmp: Udp SndbufErrors found");
	ASSERT_EQ(v, 1234, "snmp: Udp SndbufErrors value");
	ASSERT_OK(bg_parse_snmp(snmp, "UdpLite", "SndbufErrors", &v), "snmp: UdpLite");
	ASSERT_EQ(v, 99, "snmp: UdpLite is its own section");
	ASSERT_OK(bg_parse_snmp(snmp, "Udp", "OutDatagrams", &v), "snmp: OutDatagrams");
	ASSERT_EQ(v, 48, "snmp: OutDatagrams value");
	ASSERT_EQ(bg_parse_snmp(snmp, "Udp", "Nope", &v), -1, "snmp: missing name");
	ASSERT_EQ(bg_parse_snmp(snmp, "Tcp", "SndbufErrors", &v), -1, "snmp: missing section");
	ASSERT_EQ(bg_parse_snmp("Udp: InDatagrams SndbufErrors\nUdp: 5\n", "Udp", "SndbufErrors", &v),
		  -1, "snmp: short value line");
	ASSERT_EQ(bg_parse_snmp("Udp: SndbufErrors\nIp: 5\n", "Udp", "SndbufErrors", &v),
		  -1, "snmp: value line of another section");

	ASSERT_OK(bg_parse_snmp6("Udp6InDatagrams                 \t5\n"
				 "Udp6SndbufErrors                \t17\n", "Udp6SndbufErrors", &v),
		  "snmp6: found");
	ASSERT_EQ(v, 17, "snmp6: value");
	ASSERT_EQ(bg_parse_snmp6("Udp6SndbufErrorsX 1\n", "Udp6SndbufErrors", &v), -1,
		  "snmp6: a longer name does not match");
}

static void test_tc(void)
{
	int64_t d = -1;

	ASSERT_OK(bg_parse_tc_drops("[{\"kind\":\"pfifo_fast\",\"handle\":\"0:\",\"root\":true,"
				    "\"bytes\":1,\"packets\":1,\"drops\":7,\"overlimits\":0}]", &d),
		  "tc: pfifo_fast");
	ASSERT_EQ(d, 7, "tc: pfifo_fast drops");
	/* tbf root with a child: both count. */
	ASSERT_OK(bg_parse_tc_drops("[{\"kind\":\"tbf\",\"handle\":\"1:\",\"root\":true,\"drops\":5},"
				    "{\"kind\":\"pfifo\",\"handle\":\"10:\",\"parent\":\"1:1\",\"drops\":2}]",
				    &d), "tc: tbf + child");
	ASSERT_EQ(d, 7, "tc: classful root and child summed");
	/* mq already sums its queues: the children are not added again. */
	ASSERT_OK(bg_parse_tc_drops("[{\"kind\":\"mq\",\"handle\":\"0:\",\"root\":true,\"drops\":9},"
				    "{\"kind\":\"pfifo_fast\",\"handle\":\"0:\",\"parent\":\":1\",\"drops\":4},"
				    "{\"kind\":\"pfifo_fast\",\"handle\":\"0:\",\"parent\":\":2\",\"drops\":5}]",
				    &d), "tc: mq");
	ASSERT_EQ(d, 9, "tc: mq counted once");
	ASSERT_OK(bg_parse_tc_drops("[{\"kind\":\"mq\",\"handle\":\"8001:\",\"root\":true,\"drops\":3},"
				    "{\"kind\":\"fq_codel\",\"handle\":\"0:\",\"parent\":\"8001:1\",\"drops\":3}]",
				    &d), "tc: mq with a handle");
	ASSERT_EQ(d, 3, "tc: mq 8001: counted once");
	ASSERT_EQ(bg_parse_tc_drops("Error: Cannot find device \"eth9\".", &d), -1, "tc: not JSON");
	ASSERT_EQ(bg_parse_tc_drops("[{\"kind\":\"noqueue\",\"root\":true}]", &d), -1,
		  "tc: no drops field");
}

static void test_percentile(void)
{
	uint64_t v[100], w[] = { 50, 10, 40, 30, 20 }, one = 42;
	int i;

	for (i = 0; i < 100; i++)
		v[i] = 1000 + i;	/* rank r holds 999 + r */
	ASSERT_EQ(bg_percentile(v, 100, 50), 1049, "p50 of 100 is rank 50");
	ASSERT_EQ(bg_percentile(v, 100, 99), 1098, "p99 of 100 is rank 99, not 100");
	ASSERT_EQ(bg_percentile(v, 100, 100), 1099, "p100 is the max");
	ASSERT_EQ(bg_percentile(v, 100, 0), 1000, "p0 is the min");
	ASSERT_EQ(bg_percentile(v, 10, 99), 1009, "p99 of 10 is rank 10");
	ASSERT_EQ(bg_percentile(v, 10, 50), 1004, "p50 of 10 is rank 5");
	ASSERT_EQ(bg_percentile(v, 7, 50), 1003, "p50 of 7 is rank 4");
	ASSERT_EQ(bg_percentile(&one, 1, 99), 42, "p99 of 1 sample");
	bg_sort_u64(w, 5);
	ASSERT_EQ(w[0] == 10 && w[1] == 20 && w[2] == 30 && w[3] == 40 && w[4] == 50, 1,
		  "sort ascending");
	ASSERT_EQ(bg_percentile(w, 5, 50), 30, "p50 of 5 is the middle");
}

static void test_uint(void)
{
	uint64_t v = 0;

	ASSERT_OK(bg_parse_uint("10000", 1, 100000, &v), "uint: 10000");
	ASSERT_EQ(v, 10000, "uint: value");
	ASSERT_EQ(bg_parse_uint("0", 1, 10, &v), -1, "uint: below min");
	ASSERT_EQ(bg_parse_uint("11", 1, 10, &v), -1, "uint: above max");
	ASSERT_EQ(bg_parse_uint("-1", 0, 10, &v), -1, "uint: negative");
	ASSERT_EQ(bg_parse_uint(" 1", 0, 10, &v), -1, "uint: leading space");
	ASSERT_EQ(bg_parse_uint("1k", 0, 10000, &v), -1, "uint: suffix");
	ASSERT_EQ(bg_parse_uint("", 0, 10, &v), -1, "uint: empty");
	ASSERT_EQ(bg_parse_uint("99999999999999999999999", 0, UINT64_MAX, &v), -1, "uint: overflow");
}

static void test_seen(void)
{
	struct bg_seen s = { 0 };
	int fresh = 0, again = 0;
	uint64_t i;

	for (i = 1; i <= 5000; i++)
		fresh += bg_seen_add(&s, 1, i);
	for (i = 1; i <= 5000; i++)
		fresh += bg_seen_add(&s, 2, i);		/* another sender, same seqs */
	for (i = 1; i <= 5000; i += 7)
		again += bg_seen_add(&s, 1, i) == 0;
	ASSERT_EQ(fresh, 10000, "seen: 10000 distinct (sender, seq) pairs added");
	ASSERT_EQ(again, 715, "seen: every repeat is reported as seen");
	ASSERT_EQ(s.n, 10000, "seen: size");
	ASSERT_EQ(s.cap >= 2 * s.n, 1, "seen: at most half full");
	bg_seen_free(&s);
}

/* An Ethernet + IPv4/IPv6 + UDP frame around a bpfwire datagram. */
static uint32_t frame(uint8_t *f, int v6, int ihl, uint16_t dport, const uint8_t *dgram,
		      uint32_t dlen)
{
	uint32_t off;

	memset(f, 0, 14);
	memset(f, 0x52, 12);
	if (!v6) {
		f[12] = 0x08;
		f[13] = 0x00;
		memset(f + 14, 0, 20);
		f[14] = 0x40 | ihl;
		f[14 + 9] = 17;
		if (ihl > 5)
			memset(f + 14 + 20, 0x01, ihl * 4 - 20);	/* options: NOPs */
		off = 14 + (ihl < 5 ? 20 : ihl * 4);
	} else {
		f[12] = 0x86;
		f[13] = 0xdd;
		memset(f + 14, 0, 40);
		f[14] = 0x60;
		f[14 + 6] = 17;
		off = 54;
	}
	f[off + 0] = 0x1f;
	f[off + 1] = 0x90;			/* source port 8080 */
	f[off + 2] = dport >> 8;
	f[off + 3] = dport;
	f[off + 4] = (8 + dlen) >> 8;
	f[off + 5] = 8 + dlen;
	f[off + 6] = f[off + 7] = 0;
	memcpy(f + off + 8, dgram, dlen);
	return off + 8 + dlen;
}

static void test_frame(void)
{
	uint8_t d[80], f[256];
	struct bg_xmit_rec r;
	uint64_t seq;
	uint32_t n;

	ASSERT_OK(bg_build_test_datagram(d, sizeof(d), 77, 0x0102030405ull, 0x1122334455667788ull),
		  "build: an 80-byte datagram");

	memset(&r, 0, sizeof(r));
	n = frame(f, 0, 5, 7100, d, sizeof(d));
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_OK, "frame: IPv4 IHL 5");
	ASSERT_EQ(r.sender_id, 77, "frame: sender_id");
	ASSERT_EQ(r.seq, 0x0102030405ull, "frame: seq (64-bit, big-endian)");
	ASSERT_EQ(r.ts_hook, 0x1122334455667788ull, "frame: ts_hook");

	memset(&r, 0, sizeof(r));
	n = frame(f, 0, 15, 7100, d, sizeof(d));
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_OK, "frame: IPv4 IHL 15 (40 bytes of options)");
	ASSERT_EQ(r.seq, 0x0102030405ull, "frame: seq after options");

	memset(&r, 0, sizeof(r));
	n = frame(f, 1, 0, 7100, d, sizeof(d));
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_OK, "frame: IPv6");
	ASSERT_EQ(r.ts_hook, 0x1122334455667788ull, "frame: IPv6 ts_hook");
	ASSERT_EQ(bg_frame_parse(f, 14 + 40 + 8 + 39, 7100, &r), BG_V_SHORT,
		  "frame: IPv6 one byte short of the header");

	n = frame(f, 0, 5, 7101, d, sizeof(d));
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_PORT, "frame: other port");
	ASSERT_EQ(bg_frame_parse(f, 14 + 20 + 8 + 39, 7101, &r), BG_V_SHORT,
		  "frame: linear part one byte short");
	ASSERT_EQ(bg_frame_parse(f, 14 + 20 + 8 + 40, 7101, &r), BG_V_OK,
		  "frame: exactly the headers suffice");

	n = frame(f, 0, 15, 7100, d, sizeof(d));
	ASSERT_EQ(bg_frame_parse(f, 14 + 60 + 8 + 39, 7100, &r), BG_V_SHORT,
		  "frame: options push the header past headlen");

	n = frame(f, 0, 5, 7100, d, sizeof(d));
	f[14 + 6] = 0x00;
	f[14 + 7] = 0xb9;			/* fragment offset 185*8 */
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_FRAG, "frame: later fragment");
	f[14 + 6] = 0x20;
	f[14 + 7] = 0x00;			/* MF, offset 0: the first fragment */
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_OK, "frame: first fragment parses");

	n = frame(f, 0, 5, 7100, d, sizeof(d));
	f[14 + 9] = 6;
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_NOT_UDP, "frame: TCP");
	n = frame(f, 0, 4, 7100, d, sizeof(d));
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_NOT_IP, "frame: IHL 4");
	n = frame(f, 0, 5, 7100, d, sizeof(d));
	f[12] = 0x08;
	f[13] = 0x06;
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_NOT_IP, "frame: ARP");
	n = frame(f, 1, 0, 7100, d, sizeof(d));
	f[14 + 6] = 0;				/* hop-by-hop: not followed */
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_NOT_UDP, "frame: IPv6 extension header");

	n = frame(f, 0, 5, 7100, d, sizeof(d));
	f[14 + 20 + 8] ^= 0xff;
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_MAGIC, "frame: not bpfwire (magic)");
	n = frame(f, 0, 5, 7100, d, sizeof(d));
	f[14 + 20 + 8 + 4] = 2;
	/* v2, signed: the same sender, seq and stamp at the same offsets */
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_OK, "frame: bpfwire version 2 is read");
	/* v3: encrypted payload, the same clear header */
	seq = r.seq;
	f[14 + 20 + 8 + 4] = 3;
	r.seq = 0;
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_OK, "frame: bpfwire version 3 is read");
	ASSERT_EQ(r.seq, seq, "frame: v3's seq where v2's is");
	f[14 + 20 + 8 + 4] = 4;
	ASSERT_EQ(bg_frame_parse(f, n, 7100, &r), BG_V_MAGIC, "frame: bpfwire version 4");
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static void test_datagram(void)
{
	static const uint32_t lens[] = { 40, 80, 324, 325, 1460 };
	uint8_t d[1500], z[1500];
	size_t i;

	ASSERT_EQ(bg_build_test_datagram(d, 39, 1, 1, 1), -1, "build: below the header");
	ASSERT_EQ(bg_build_test_datagram(d, 1461, 1, 1, 1), -1, "build: above netpoll's cap");
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint32_t len = lens[i];
		char name[64];

		bg_build_test_datagram(d, len, 9, 1000 + i, 123456789);
		memcpy(z, d, len);
		memset(z + 32, 0, 4);
		snprintf(name, sizeof(name), "build %u: check is FNV-1a of the whole datagram", len);
		ASSERT_EQ(be32(d + 32), bpfwire_fnv1a(BPFWIRE_FNV_OFFSET, z, len), name);
		snprintf(name, sizeof(name), "build %u: type test, payload_len", len);
		ASSERT_EQ(d[5] == BPFWIRE_EV_TEST && be32(d + 12) == len - 40, 1, name);
#ifdef HAVE_RECV_PARSER
		{
			struct bpfw_wire w;

			snprintf(name, sizeof(name), "build %u: the receiver's parser accepts it", len);
			ASSERT_EQ(bpfw_parse_wire(d, len, &w), BPFW_R_OK, name);
			snprintf(name, sizeof(name), "build %u: the receiver reads seq", len);
			ASSERT_EQ(w.seq, 1000 + i, name);
		}
#endif
	}
}

/* A counter still for the window is settled; the last change time is kept. */
static void test_settle(void)
{
	struct bg_settle s;

	bg_settle_init(&s, 500);
	ASSERT_EQ(bg_settle_feed(&s, 1000, 7), 0, "settle: the baseline is not settled");
	ASSERT_EQ(bg_settle_feed(&s, 1400, 7), 0, "settle: still, but under the window");
	ASSERT_EQ(bg_settle_feed(&s, 1500, 7), 1, "settle: still for the window");
	ASSERT_EQ(s.last_change_ns, 0, "settle: never moved after the baseline");
	bg_settle_init(&s, 500);
	bg_settle_feed(&s, 1000, 7);
	ASSERT_EQ(bg_settle_feed(&s, 1200, 9), 0, "settle: a change restarts the window");
	ASSERT_EQ(bg_settle_feed(&s, 1600, 9), 0, "settle: 400 ns after the change");
	ASSERT_EQ(bg_settle_feed(&s, 1700, 9), 1, "settle: 500 ns after the change");
	ASSERT_EQ(s.last_change_ns, 1200, "settle: the last change is at 1200");
	ASSERT_EQ(s.value - s.first, 2, "settle: moved by 2 over the baseline");
}

int main(void)
{
	test_pktgen();
	test_snmp();
	test_tc();
	test_percentile();
	test_uint();
	test_seen();
	test_frame();
	test_datagram();
	test_settle();
	return tap_done();
}
