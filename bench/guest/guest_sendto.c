// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest sendto: the user-space reference, N send()s on a
 * connected UDP socket.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <json-c/json.h>
#include <bpf/libbpf.h>
#include "args.h"		/* bpf/: the agent's address syntax */
#include "cli.h"
#include "errnames.h"
#include "file.h"
#include "frame.h"
#include "guest.h"
#include "guest_opts.h"
#include "guest_out.h"
#include "guest_parse.h"
#include "guest_sendto.h"
#include "libbpf_log.h"
#include "log.h"
#include "neigh.h"		/* bpf/: route_get, neigh_resolve */
#include "timeutil.h"
#include "xmit.bpf.skel.h"

#define PROG "bpfwire-bench-guest"
#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"
#define TC "/usr/sbin/tc"	/* busybox's tc may come first in $PATH */
#define PKTGEN_DIR "/proc/net/pktgen"

/* ---- sendto --------------------------------------------------------------- */

static void sendto_usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " sendto --dst ADDR:PORT --count N [--len L] [--sender-id S]\n"
"           [--rate R] [--dev IF] --json OUT\n"
"\n"
"The user-space reference: a connected UDP socket and N blocking send()s of\n"
"valid bpfwire datagrams (type test, seq 1..N, CLOCK_MONOTONIC timestamps,\n"
"sealed as the BPF senders seal them).\n"
"\n"
"  --dst ADDR:PORT  192.0.2.20:7100, [2001:db8::20]:7100, [fe80::20%%eth0]:7100\n"
"  --count N        datagrams\n"
"  --len L          datagram bytes (UDP payload), %d..%d (default 80, an open\n"
"                   event of a 12-byte path)\n"
"  --sender-id S    the header's sender_id (default 1)\n"
"  --rate R         datagrams per second, paced on absolute deadlines\n"
"  --dev IF         the device of the drop counters (eth0)\n"
"  --json OUT       write the JSON result to OUT\n",
		BPFWIRE_HDR_LEN, BPFWIRE_MAX_DATAGRAM);
}

#define ERRNO_MAX 4096

struct sendto_args {
	const char *dst_text;
	struct bpfwire_addr dst;
	uint64_t count, len, sender_id, rate;
};

/* -1: go on; else the exit status (0 after --help, 2 usage error). */
static int sendto_parse(int argc, char **argv, struct out *out, struct sendto_args *a)
{
	const struct gopt opts[] = {
		GOPT_STR("dst", 'D', &a->dst_text),
		GOPT_COUNT(&a->count),
		GOPT_U64("len", 'l', &a->len, BPFWIRE_HDR_LEN, BPFWIRE_MAX_DATAGRAM),
		GOPT_U64("sender-id", 's', &a->sender_id, 0, UINT32_MAX),
		GOPT_RATE(&a->rate),
		GOPT_DEV(out),
		GOPT_JSON(out),
	};
	char err[256];
	int rc;

	rc = guest_opts_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), sendto_usage);
	if (rc >= 0)
		return rc;
	if (!a->dst_text)
		return usage_error("missing --dst ADDR:PORT");
	if (bpfwire_parse_addr(a->dst_text, 1, &a->dst, err, sizeof(err)))
		return usage_error("%s", err);
	if (!a->count)
		return usage_error("missing --count N");
	if (opt_common(out))
		return 2;
	return -1;
}

/* dst as a sockaddr for connect(); its length. */
static socklen_t fill_sockaddr(const struct bpfwire_addr *dst, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (dst->family == AF_INET) {
		struct sockaddr_in *s4 = (void *)ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(dst->port);
		memcpy(&s4->sin_addr, dst->addr, 4);
		return sizeof(*s4);
	} else {
		struct sockaddr_in6 *s6 = (void *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(dst->port);
		memcpy(&s6->sin6_addr, dst->addr, 16);
		s6->sin6_scope_id = dst->scope_id;
		return sizeof(*s6);
	}
}

int cmd_sendto(int argc, char **argv)
{
	struct out out = { .dev = "eth0" };
	struct sendto_args a = { .len = 80, .sender_id = 1 };
	uint64_t t0, elapsed, sent = 0, failed = 0, late = 0, p0 = 0;
	static uint64_t errs[ERRNO_MAX + 1];
	struct tx_span ts = { 0 };
	__u8 buf[BPFWIRE_MAX_DATAGRAM];
	struct counters before, after;
	struct sockaddr_storage ss;
	struct json_object *eo;
	socklen_t sl;
	int fd, rc;

	rc = sendto_parse(argc, argv, &out, &a);
	if (rc >= 0)
		return rc;
	sl = fill_sockaddr(&a.dst, &ss);
	fd = socket(a.dst.family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return out_fail(&out, "socket: %s", errno_text(errno));
	if (connect(fd, (struct sockaddr *)&ss, sl)) {
		int e = errno;

		close(fd);
		return out_fail(&out, "connect %s: %s", a.dst_text, errno_text(e));
	}

	out_begin(&out);
	counters_read(out.dev, &before);
	if (tx_packets(out.dev, &p0))
		pr_warn("warning: cannot read %s's tx_packets", out.dev);
	t0 = now_ns();
	for (uint64_t seq = 1; seq <= a.count; seq++) {
		if (a.rate)
			late += pace(t0, seq - 1, a.rate);
		bg_build_test_datagram(buf, a.len, a.sender_id, seq, now_ns());
		if (send(fd, buf, a.len, 0) == (ssize_t)a.len) {
			sent++;
		} else {
			/* Like the senders: a failed send has used up its seq. */
			failed++;
			errs[errno > 0 && errno < ERRNO_MAX ? errno : ERRNO_MAX]++;
		}
	}
	elapsed = now_ns() - t0;
	/* The qdisc may still hold some: the span ends with the last frame out. */
	tx_wait(out.dev, t0, p0, t0 + elapsed, sent, &ts);
	counters_read(out.dev, &after);
	close(fd);

	eo = json_object_new_object();
	for (int e = 1; e <= ERRNO_MAX; e++)
		if (errs[e])
			json_object_object_add(eo, e == ERRNO_MAX ? "other" : errno_name(e),
					       json_object_new_int64(errs[e]));
	json_object_object_add(out.o, "dst", json_object_new_string(a.dst_text));
	json_object_object_add(out.o, "len", json_object_new_int64(a.len));
	json_object_object_add(out.o, "sender_id", json_object_new_int64(a.sender_id));
	json_object_object_add(out.o, "count", json_object_new_int64(a.count));
	json_object_object_add(out.o, "sent", json_object_new_int64(sent));
	json_object_object_add(out.o, "failed", json_object_new_int64(failed));
	json_object_object_add(out.o, "errors", eo);
	json_object_object_add(out.o, "rate_target", a.rate ? json_object_new_int64(a.rate) : NULL);
	json_object_object_add(out.o, "late", json_object_new_int64(late));
	json_object_object_add(out.o, "elapsed_ns", json_object_new_int64(elapsed));
	json_object_object_add(out.o, "rate_offered",
			       json_object_new_double(a.count * 1e9 / elapsed));
	tx_put(out.o, &ts);
	counters_put(out.o, &before, &after);
	printf("sendto: %" PRIu64 " of %" PRIu64 " sent to %s in %.3f s, %.0f/s, %" PRIu64
	       " failed\n", sent, a.count, a.dst_text, elapsed / 1e9, a.count * 1e9 / elapsed,
	       failed);
	return out_done(&out);
}
