// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test sender: emits bpfwire datagrams from user space so the receiver's
 * live mode can be tested without the kernel half.
 * usage: send_wire [-s SENDER] [-n COUNT] [-l PAYLOAD_LEN] [-k SKIP_SEQ]
 *                  [-d DUP_SEQ] [-p SRC_PORT] ADDR[%IF] PORT
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "craft.h"
#include "wire.h"

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICHOST };
	unsigned long sender = 1, count = 10, plen = 16, skip = 0, dup = 0, sport = 0;
	static uint8_t buf[70000], payload[65536];
	struct addrinfo *ai;
	unsigned long seq;
	int c, fd, e;

	while ((c = getopt(argc, argv, "s:n:l:k:d:p:")) != -1) {
		unsigned long v = strtoul(optarg, NULL, 0);

		switch (c) {
		case 's': sender = v; break;
		case 'n': count = v; break;
		case 'l': plen = v; break;
		case 'k': skip = v; break;
		case 'd': dup = v; break;
		case 'p': sport = v; break;
		default: return 2;
		}
	}
	if (argc - optind != 2 || plen > sizeof(payload)) {
		fprintf(stderr, "usage: send_wire [-s ID] [-n N] [-l LEN] [-k SKIP] [-d DUP] [-p SPORT] ADDR PORT\n");
		return 2;
	}
	e = getaddrinfo(argv[optind], argv[optind + 1], &hints, &ai);
	if (e) {
		fprintf(stderr, "send_wire: %s: %s\n", argv[optind], gai_strerror(e));
		return 2;
	}
	fd = socket(ai->ai_family, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("send_wire: socket");
		return 1;
	}
	if (sport) {
		struct sockaddr_storage ss = { .ss_family = (sa_family_t)ai->ai_family };

		if (ai->ai_family == AF_INET)
			((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)sport);
		else
			((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)sport);
		if (bind(fd, (struct sockaddr *)&ss, ai->ai_addrlen)) {
			perror("send_wire: bind");
			return 1;
		}
	}
	for (seq = 0; seq < plen; seq++)
		payload[seq] = (uint8_t)seq;
	for (seq = 1; seq <= count; seq++) {
		uint32_t n;
		int times = seq == dup ? 2 : 1;

		if (seq == skip)
			continue;
		n = craft_wire(buf, (uint32_t)sender, seq, BPFWIRE_EV_TEST, payload,
			       (uint32_t)plen);
		while (times--)
			if (sendto(fd, buf, n, 0, ai->ai_addr, ai->ai_addrlen) != (ssize_t)n) {
				fprintf(stderr, "send_wire: sendto seq %lu: %s\n", seq,
					strerror(errno));
				return 1;
			}
		/* Pace a little: the test checks correctness, not throughput. */
		usleep(200);
	}
	freeaddrinfo(ai);
	close(fd);
	return 0;
}
