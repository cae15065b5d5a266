// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark: write a pcap of N (default 1e6) bpfwire datagrams from 4
 * senders, IPv4 and IPv6, then time `bpfwire-recv --read` over it and
 * print packets/s from its JSON summary. Not a timed test: it fails only
 * if the receiver does not validate every packet.
 * usage: bench_offline BPFWIRE-RECV [N]
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "craft.h"
#include "wire.h"

int main(int argc, char **argv)
{
	char dir[] = "/tmp/bpfwire-recv-bench-XXXXXX";
	char pcap_path[256], json_path[256], cmd[1024], count[32];
	static uint8_t f[CRAFT_MAX_FRAME], dg[CRAFT_MAX_FRAME], payload[64];
	struct craft_pkt p[4];
	struct craft_pcap *c;
	json_object *j, *v;
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000000;
	unsigned long i;
	double pps = 0;
	int rc, ret = 1;

	if (argc < 2 || !mkdtemp(dir)) {
		fprintf(stderr, "usage: bench_offline BPFWIRE-RECV [N]\n");
		return 2;
	}
	snprintf(pcap_path, sizeof(pcap_path), "%s/bench.pcap", dir);
	snprintf(json_path, sizeof(json_path), "%s/bench.json", dir);
	for (i = 0; i < 4; i++) {
		craft_defaults(&p[i], i % 2 ? 6 : 4);
		p[i].sport = (uint16_t)(40000 + i);
	}
	memset(payload, 0xa5, sizeof(payload));
	c = craft_pcap_open(pcap_path, DLT_EN10MB);
	if (!c)
		goto out;
	/* 64-byte payloads, as in the rate measurements of docs/measurements.md. */
	for (i = 0; i < n; i++) {
		uint32_t len = craft_wire(dg, (uint32_t)(i % 4) + 1, i / 4 + 1,
					  BPFWIRE_EV_TEST, payload, sizeof(payload));

		craft_pcap_write(c, 1700000000000000000ull + i * 1000, f,
				 craft_frame(f, &p[i % 4], dg, len));
	}
	if (craft_pcap_close(c))
		goto out;
	snprintf(count, sizeof(count), "%lu", n);
	snprintf(cmd, sizeof(cmd), "'%s' --read '%s' --port 7000 --expect-count %s --json '%s'",
		 argv[1], pcap_path, count, json_path);
	rc = system(cmd);
	if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
		fprintf(stderr, "bench: receiver failed (%d)\n", rc);
		goto out;
	}
	j = json_object_from_file(json_path);
	if (j && json_object_object_get_ex(j, "frames_per_s", &v))
		pps = json_object_get_double(v);
	json_object_put(j);
	printf("bench: %lu packets validated offline: %.0f packets/s (%s)\n", n, pps,
	       pps >= 1e6 ? "meets the 1e6/s target" : "BELOW the 1e6/s target");
	ret = 0;
out:
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "bench: couldn't remove %s\n", dir);
	return ret;
}
