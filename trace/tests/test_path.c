// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_path BPFWIRE_PATH FIXTURE_RUN
 *
 * 1. Copies the fixture run, runs bpfwire-path on it and checks path.json
 *    (layers, order, ends, capture positions), path.txt and path.svg.
 * 2. Builds a run of its own with the receiver's crafting library: traced
 *    IPv6 datagrams, one behind hop-by-hop and destination-options headers,
 *    one in two fragments, which bpfwire-path must find in the segment pcap.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include <pcap/pcap.h>

#include "craft.h"
#include "tap.h"
#include "wire.h"

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, k, &v);
	return v;
}

static const char *gets(json_object *o, const char *k)
{
	json_object *v = get(o, k);

	return v ? json_object_get_string(v) : NULL;
}

static json_object *find_dg(json_object *dgs, const char *path, int seq)
{
	for (size_t i = 0; i < json_object_array_length(dgs); i++) {
		json_object *d = json_object_array_get_idx(dgs, i);

		if (!strcmp(gets(d, "path"), path) && json_object_get_int(get(d, "seq")) == seq)
			return d;
	}
	return NULL;
}

/* Probe names of the entries, in order, joined by spaces. */
static void entries(json_object *d, char *buf, size_t len)
{
	json_object *l = get(d, "layers");
	long long last = -1;

	buf[0] = '\0';
	for (size_t i = 0; i < json_object_array_length(l); i++) {
		json_object *r = json_object_array_get_idx(l, i);
		long long off = json_object_get_int64(get(r, "offset_ns"));

		if (off < last)
			snprintf(buf, len, "offsets go backwards at %zu", i);
		last = off;
		if (!strcmp(gets(r, "ev"), "entry") && strlen(buf) + 40 < len) {
			if (buf[0])
				strcat(buf, " ");
			strcat(buf, gets(r, "probe"));
		}
	}
}

/* bpfwire-path on dir; its output goes to dir/out, shown on failure. */
static bool run_path(const char *bin, const char *dir)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "'%s' '%s' > '%s/out' 2>&1", bin, dir, dir);
	if (ASSERT_TRUE(system(cmd) == 0, "bpfwire-path exits 0"))
		return true;
	snprintf(cmd, sizeof(cmd), "sed 's/^/# /' '%s/out'", dir);
	if (system(cmd))
		printf("# couldn't show %s/out\n", dir);
	return false;
}

static void rm_rf(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# couldn't remove %s\n", dir);
}

static void check_fixture_ksock(json_object *d)
{
	char buf[2048];
	json_object *c;

	entries(d, buf, sizeof(buf));
	ASSERT_STREQ(buf, "bpf_ksock_send kernel_sendmsg security_socket_sendmsg udp_sendmsg ip_make_skb "
		     "udp_send_skb ip_send_skb __ip_local_out ip_output ip_finish_output2 __dev_queue_xmit "
		     "sch_direct_xmit dev_hard_start_xmit start_xmit consume_skb", "ksock entries in stack order");
	ASSERT_STREQ(gets(d, "end"), "driver", "ksock reached the driver");
	ASSERT_EQ(json_object_array_length(get(d, "missing")), 0, "ksock misses no listed layer");
	ASSERT_EQ(json_object_get_boolean(get(d, "in_order")), 1, "ksock in order");
	c = json_object_array_get_idx(get(d, "captures"), 0);
	ASSERT_STREQ(c ? gets(c, "pcap") : NULL, "segments/lan.pcap", "ksock captured on lan");
	ASSERT_EQ(c ? json_object_get_int(get(c, "frame")) : 0, 1, "ksock at frame 1");
}

static void check_fixture_netpoll(json_object *d)
{
	char buf[2048];
	json_object *c;

	entries(d, buf, sizeof(buf));
	ASSERT_STREQ(buf, "bpf_netpoll_send_udp netpoll_send_udp netpoll_send_skb netpoll_start_xmit "
		     "start_xmit consume_skb", "netpoll bypasses the stack");
	ASSERT_STREQ(gets(d, "end"), "driver", "netpoll reached the driver");
	c = json_object_array_get_idx(get(d, "captures"), 0);
	ASSERT_EQ(c ? json_object_get_int(get(c, "frame")) : 0, 2, "netpoll at frame 2");
}

/* The recorded agent-killed trace in tests/run. */
static void test_fixture(const char *bin, const char *fixture)
{
	char tmpl[] = "/tmp/test_path.XXXXXX", cmd[8192], buf[2048];
	json_object *o = NULL, *dgs, *d;
	char *dir = mkdtemp(tmpl);

	if (!ASSERT_OK_PTR(dir, "temporary run dir"))
		return;
	snprintf(cmd, sizeof(cmd), "cp -r '%s'/. '%s'", fixture, dir);
	if (!ASSERT_OK(system(cmd), "copy the fixture run") || !run_path(bin, dir))
		goto out;
	snprintf(buf, sizeof(buf), "%s/hosts/sender/path.json", dir);
	o = json_object_from_file(buf);
	if (!ASSERT_OK_PTR(o, "hosts/sender/path.json parses"))
		goto out;
	dgs = get(o, "datagrams");
	ASSERT_EQ(dgs ? json_object_array_length(dgs) : 0, 3, "three datagrams");

	d = find_dg(dgs, "ksock", 2);
	if (ASSERT_OK_PTR(d, "ksock seq 2 is there"))
		check_fixture_ksock(d);
	d = find_dg(dgs, "netpoll", 2);
	if (ASSERT_OK_PTR(d, "netpoll seq 2 is there"))
		check_fixture_netpoll(d);
	d = find_dg(dgs, "ksock", 3);
	if (ASSERT_OK_PTR(d, "the netfilter drop is there")) {
		ASSERT_STREQ(gets(d, "end"), "dropped", "dropped");
		ASSERT_STREQ(gets(d, "end_at"), "nf_hook_slow", "the path ends at the netfilter hook");
		ASSERT_STREQ(gets(d, "reason"), "NETFILTER_DROP", "with the drop reason");
	}
	snprintf(cmd, sizeof(cmd), "grep -q 'ksock, sender id 1: 2 datagrams' '%s/path.txt' && "
		 "head -c 5 '%s/path.svg' | grep -q '<?xml' && grep -q 'not crossed' '%s/path.svg'", dir, dir, dir);
	ASSERT_TRUE(system(cmd) == 0, "path.txt groups by sender, path.svg hatches the lanes netpoll skips");
out:
	json_object_put(o);
	rm_rf(dir);
}

#define V6_SENDER	9

/* An IPv6 extension header of 8 bytes: next header, length 0, PadN. */
static void opt8(uint8_t *h, uint8_t nh)
{
	memset(h, 0, 8);
	h[0] = nh;
	h[2] = 1;
	h[3] = 4;
}

/* segments/lan6.pcap: frame 1 seq 5 behind hop-by-hop and destination
 * options; frames 2 and 3 the two fragments of seq 6. */
static int write_v6_pcap(const char *dir)
{
	static uint8_t frames[4][CRAFT_MAX_FRAME];
	uint8_t ext[16], dg[1024], payload[600];
	uint32_t lens[4], n;
	struct craft_pcap *pc;
	struct craft_pkt p;
	char file[4200];
	unsigned nf;

	snprintf(file, sizeof(file), "%s/segments/lan6.pcap", dir);
	pc = craft_pcap_open(file, DLT_EN10MB);
	if (!pc)
		return -1;
	craft_defaults(&p, 6);
	opt8(ext, 60);		/* hop-by-hop, then destination options */
	opt8(ext + 8, 0);
	p.ext = ext;
	p.ext_len = sizeof(ext);
	p.ext_first_nh = 0;
	p.ext_last_nh_off = 8;
	n = craft_wire(dg, V6_SENDER, 5, BPFWIRE_EV_TEST, (const uint8_t *)"ext", 3);
	n = craft_frame(frames[0], &p, dg, n);
	craft_pcap_write(pc, 1000000000ull, frames[0], n);

	memset(payload, 0xa5, sizeof(payload));
	p.ext_len = 0;
	n = craft_wire(dg, V6_SENDER, 6, BPFWIRE_EV_TEST, payload, sizeof(payload));
	nf = craft_fragments(frames, lens, 4, &p, dg, n, 512);
	for (unsigned i = 0; i < nf; i++)
		craft_pcap_write(pc, 2000000000ull + i * 1000, frames[i], lens[i]);
	return craft_pcap_close(pc) || nf != 2 ? -1 : 0;
}

/* A ksock IPv6 datagram's trace: enough for bpfwire-path to group it. */
static int write_v6_trace(const char *dir)
{
	static const char *const probes[] = { "bpf_ksock_send", "udpv6_sendmsg", "start_xmit" };
	char file[4200];
	FILE *f;

	snprintf(file, sizeof(file), "%s/hosts/sender6", dir);
	if (mkdir(file, 0755))
		return -1;
	snprintf(file, sizeof(file), "%s/hosts/sender6/trace.jsonl", dir);
	f = fopen(file, "w");
	if (!f)
		return -1;
	for (int seq = 5; seq <= 6; seq++)
		for (int i = 0; i < 3; i++)
			fprintf(f, "{\"t\":%d,\"probe\":\"%s\",\"ev\":\"entry\",\"path\":\"ksock\","
				"\"sender\":%d,\"seq\":%d}\n", seq * 1000 + i * 10, probes[i], V6_SENDER, seq);
	fprintf(f, "{\"type\":\"end\",\"records\":6,\"lost\":0}\n");
	return fclose(f);
}

static void check_v6_capture(json_object *dgs, int seq, int frame, const char *what)
{
	json_object *d = find_dg(dgs, "ksock", seq), *caps, *c;
	char name[160];

	snprintf(name, sizeof(name), "seq %d (%s) is traced", seq, what);
	if (!ASSERT_OK_PTR(d, name))
		return;
	caps = get(d, "captures");
	snprintf(name, sizeof(name), "seq %d (%s) found once in the pcap", seq, what);
	ASSERT_EQ(caps ? json_object_array_length(caps) : 0, 1, name);
	c = json_object_array_get_idx(caps, 0);
	snprintf(name, sizeof(name), "seq %d (%s) at frame %d", seq, what, frame);
	ASSERT_EQ(c ? json_object_get_int(get(c, "frame")) : 0, frame, name);
	snprintf(name, sizeof(name), "seq %d (%s): source address and port", seq, what);
	ASSERT_STREQ(c ? gets(c, "src") : NULL, "[2001:db8::1]:40000", name);
	snprintf(name, sizeof(name), "seq %d (%s): destination address and port", seq, what);
	ASSERT_STREQ(c ? gets(c, "dst") : NULL, "[2001:db8::2]:7000", name);
	snprintf(name, sizeof(name), "seq %d (%s) is ipv6", seq, what);
	ASSERT_STREQ(gets(d, "family"), "ipv6", name);
}

/* IPv6 extension headers and fragments, in a run built here. */
static void test_ipv6_ext(const char *bin)
{
	char tmpl[] = "/tmp/test_path6.XXXXXX", file[4200];
	char *dir = mkdtemp(tmpl);
	json_object *o = NULL;

	if (!ASSERT_OK_PTR(dir, "temporary IPv6 run dir"))
		return;
	snprintf(file, sizeof(file), "%s/hosts", dir);
	ASSERT_OK(mkdir(file, 0755), "mkdir hosts");
	snprintf(file, sizeof(file), "%s/segments", dir);
	ASSERT_OK(mkdir(file, 0755), "mkdir segments");
	if (!ASSERT_OK(write_v6_trace(dir), "trace.jsonl written") ||
	    !ASSERT_OK(write_v6_pcap(dir), "lan6.pcap crafted") || !run_path(bin, dir))
		goto out;
	snprintf(file, sizeof(file), "%s/hosts/sender6/path.json", dir);
	o = json_object_from_file(file);
	if (!ASSERT_OK_PTR(o, "hosts/sender6/path.json parses"))
		goto out;
	check_v6_capture(get(o, "datagrams"), 5, 1, "hop-by-hop and destination options");
	check_v6_capture(get(o, "datagrams"), 6, 2, "first of two fragments");
out:
	json_object_put(o);
	rm_rf(dir);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_path BPFWIRE_PATH FIXTURE_RUN\n");
		return 2;
	}
	test_fixture(argv[1], argv[2]);
	test_ipv6_ext(argv[1]);
	return tap_done();
}
