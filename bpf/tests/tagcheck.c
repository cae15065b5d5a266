// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guest test's checker of signed datagrams, beside the receiver's own
 * check: receives bpfwire datagrams on a UDP port and checks each with
 * wire.h's C reference, under the right key and under a wrong one, so the
 * agent's tags meet a second reading. Prints one "name value" line per
 * count.
 *
 *   tagcheck --port P --key-file F --wrong-key-file W --count N --timeout S
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "keyfile.h"
#include "args.h"
#include "errnames.h"
#include "log.h"
#include "timeutil.h"

struct counts {
	unsigned long datagrams, v2, signed_, check_ok, tag_ok, tag_wrong_key;
	unsigned key_id;
	__u64 epoch, first_seq, last_seq;
	int epochs;		/* distinct epochs seen, up to 2 */
};

static int tag_ok(const __u8 *key, const __u8 *d, size_t len)
{
	__u8 z[BPFWIRE_MAX_DATAGRAM];

	memcpy(z, d, len);
	memset(z + BPFWIRE_OFF_TAG, 0, BPFWIRE_TAG_LEN);
	return bpfwire_siphash24(key, z, len) == bpfwire_le64(d + BPFWIRE_OFF_TAG);
}

static void check_one(struct counts *c, const __u8 *key, const __u8 *wrong,
		      const __u8 *d, size_t len)
{
	__u8 z[BPFWIRE_MAX_DATAGRAM];
	__u32 check;
	__u64 seq, epoch;

	c->datagrams++;
	if (len < BPFWIRE_HDR_LEN_V2 || len > sizeof(z) || d[4] != BPFWIRE_VERSION_2 ||
	    (d[6] << 8 | d[7]) != BPFWIRE_HDR_LEN_V2)
		return;
	c->v2++;
	if (!(d[36] & BPFWIRE_F_SIGNED))
		return;
	c->signed_++;
	memcpy(z, d, len);
	memset(z + BPFWIRE_OFF_CHECK, 0, 4);
	memset(z + BPFWIRE_OFF_TAG, 0, BPFWIRE_TAG_LEN);
	check = (__u32)d[32] << 24 | d[33] << 16 | d[34] << 8 | d[35];
	if (bpfwire_fnv1a(BPFWIRE_FNV_OFFSET, z, len) == check)
		c->check_ok++;
	c->tag_ok += tag_ok(key, d, len);
	c->tag_wrong_key += tag_ok(wrong, d, len);
	seq = bpfwire_be64(d + 16);
	epoch = bpfwire_be64(d + 40);
	if (!c->epochs || epoch != c->epoch)
		c->epochs++;
	if (c->signed_ == 1)
		c->first_seq = seq;
	c->last_seq = seq;
	c->epoch = epoch;
	c->key_id = d[37];
}

static int open_port(int port)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(port),
				  .sin6_addr = IN6ADDR_ANY_INIT };
	int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0), off = 0;

	if (fd < 0 || setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		pr_warn("couldn't listen on UDP port %d: %s", port, errno_str(-errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "key-file", required_argument, NULL, 'k' },
		{ "wrong-key-file", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	const char *kf = NULL, *wf = NULL;
	__u8 key[BPFWIRE_KEY_LEN], wrong[BPFWIRE_KEY_LEN], d[2048];
	struct counts c = { 0 };
	int port = 0, count = 0, timeout = 30, fd, o;
	char err[512];
	double end;

	log_init("tagcheck", LOG_WARN);
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'p': port = atoi(optarg); break;
		case 'k': kf = optarg; break;
		case 'w': wf = optarg; break;
		case 'n': count = atoi(optarg); break;
		case 't': timeout = atoi(optarg); break;
		default: return 2;
		}
	}
	if (port <= 0 || !kf || !wf || count <= 0) {
		pr_warn("usage: tagcheck --port P --key-file F --wrong-key-file W --count N "
			"[--timeout S]");
		return 2;
	}
	if (key_file_read(kf, key, err, sizeof(err)) ||
	    key_file_read(wf, wrong, err, sizeof(err))) {
		pr_warn("%s", err);
		return 1;
	}
	fd = open_port(port);
	if (fd < 0)
		return 1;
	/* Ready once listening: the shell test waits for this line. */
	printf("listening %d\n", port);
	fflush(stdout);
	end = now_s() + timeout;
	while (c.datagrams < (unsigned long)count && now_s() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		n = recv(fd, d, sizeof(d), 0);
		if (n >= 0)
			check_one(&c, key, wrong, d, n);
	}
	printf("datagrams %lu\nv2 %lu\nsigned %lu\ncheck_ok %lu\ntag_ok %lu\n"
	       "tag_wrong_key %lu\nkey_id %u\nepoch 0x%016llx\nepochs %d\n"
	       "first_seq %llu\nlast_seq %llu\n", c.datagrams, c.v2, c.signed_,
	       c.check_ok, c.tag_ok, c.tag_wrong_key, c.key_id,
	       (unsigned long long)c.epoch, c.epochs,
	       (unsigned long long)c.first_seq, (unsigned long long)c.last_seq);
	close(fd);
	return 0;
}
