// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest pktgen: the kernel's ceiling on this NIC.
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
#include "guest_pktgen.h"
#include "libbpf_log.h"
#include "log.h"
#include "neigh.h"		/* bpf/: route_get, neigh_resolve */
#include "timeutil.h"
#include "xmit.bpf.skel.h"

#define PROG "bpfwire-bench-guest"
#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"
#define TC "/usr/sbin/tc"	/* busybox's tc may come first in $PATH */
#define PKTGEN_DIR "/proc/net/pktgen"

/* ---- pktgen --------------------------------------------------------------- */

static void pktgen_usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " pktgen --dev IF --dst ADDR --dst-mac MAC|auto --port P\n"
"           --count N [--len L] [--burst B] [--delay NS] --json OUT\n"
"\n"
"The kernel's own ceiling on this NIC: N UDP packets from pktgen (built in,\n"
"thread kpktgend_0), started with \"start\\n\" on " PKTGEN_DIR "/pgctrl, which\n"
"returns when they are sent. They are pktgen's packets, not bpfwire's: a\n"
"receiver counts them as invalid.\n"
"\n"
"  --dev IF         the device (also of the drop counters)\n"
"  --dst ADDR       IPv4 or IPv6 destination\n"
"  --dst-mac MAC    the next hop's MAC; auto: look it up (and resolve it)\n"
"  --port P         UDP destination port\n"
"  --count N        packets\n"
"  --len L          UDP payload bytes, at least 16 (default 80)\n"
"  --burst B        packets per xmit_more batch (default 64). pktgen checks\n"
"                   the count between batches, so it may send up to B-1 more\n"
"  --delay NS       pktgen's gap between batches (default 0: the ceiling);\n"
"                   with --burst 1, a paced run a slow receiver can follow\n"
"  --json OUT       write the JSON result to OUT\n");
}

/* One pktgen command; on failure, pktgen's own explanation from its file. */
static int pg_write(const char *file, const char *fmt, ...)
{
	char path[128], cmd[256];
	va_list ap;
	ssize_t n;
	int fd, e;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 1, fmt, ap);
	va_end(ap);
	strcat(cmd, "\n");
	snprintf(path, sizeof(path), PKTGEN_DIR "/%s", file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, cmd, strlen(cmd));
	e = errno;
	close(fd);
	return n == (ssize_t)strlen(cmd) ? 0 : n < 0 ? -e : -EIO;
}

static int pg_fail(struct out *out, const char *file, const char *what, int err)
{
	char path[128], *t, res[160] = "";

	snprintf(path, sizeof(path), PKTGEN_DIR "/%s", file);
	t = read_file(path, NULL);
	if (t) {
		char *r = strstr(t, "Result: ");

		if (r)
			snprintf(res, sizeof(res), " (%.*s)", (int)strcspn(r, "\n"), r);
		free(t);
	}
	pg_write("kpktgend_0", "rem_device_all");
	return out_fail(out, "pktgen: '%s' on %s: %s%s", what, path, errno_text(-err), res);
}

struct pktgen_args {
	const char *dst_text, *mac_text;
	struct bpfwire_addr dst;
	uint64_t port, count, len, burst, delay;
	__u8 mac[6];
};

/* -1: go on; else the exit status (0 after --help, 2 usage error). */
static int pktgen_parse(int argc, char **argv, struct out *out, struct pktgen_args *a)
{
	const struct gopt opts[] = {
		GOPT_DEV(out),
		GOPT_STR("dst", 'D', &a->dst_text),
		GOPT_STR("dst-mac", 'm', &a->mac_text),
		GOPT_PORT(&a->port),
		GOPT_COUNT(&a->count),
		/* pktgen pads a shorter payload to its own 16-byte header */
		GOPT_U64("len", 'l', &a->len, 16, 1472),
		GOPT_U64("burst", 'b', &a->burst, 1, 1024),
		GOPT_U64("delay", 'w', &a->delay, 0, 1000000000),
		GOPT_JSON(out),
	};
	char err[256];
	int rc;

	rc = guest_opts_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pktgen_usage);
	if (rc >= 0)
		return rc;
	if (!out->dev)
		return usage_error("missing --dev IF");
	if (!a->dst_text)
		return usage_error("missing --dst ADDR");
	if (bpfwire_parse_addr(a->dst_text, 0, &a->dst, err, sizeof(err)))
		return usage_error("%s", err);
	if (a->dst.port)
		return usage_error("--dst takes no port: give it with --port");
	if (a->dst.scope_id)
		return usage_error("pktgen cannot send to link-local %s", a->dst_text);
	if (!a->mac_text)
		return usage_error("missing --dst-mac MAC|auto");
	if (strcmp(a->mac_text, "auto") && bpfwire_parse_mac(a->mac_text, a->mac))
		return usage_error("bad --dst-mac '%s': write aa:bb:cc:dd:ee:ff or auto",
				   a->mac_text);
	if (!a->port)
		return usage_error("missing --port P");
	if (!a->count)
		return usage_error("missing --count N");
	if (opt_common(out))
		return 2;
	return -1;
}

/*
 * The route gives the source address (src, "" when none), and the gateway
 * when there is one; --dst-mac auto resolves the next hop's MAC into a->mac.
 * 0, or out_fail's exit status.
 */
static int pktgen_route(struct out *out, struct pktgen_args *a, int ifindex,
			const char *addr, char src[INET6_ADDRSTRLEN])
{
	struct route_info ri;
	int r = route_get(a->dst.family, a->dst.addr, ifindex, &ri);

	if (r)
		return out_fail(out, "no route to %s on %s: %s", addr, out->dev, errno_text(-r));
	if (ri.have_src)
		inet_ntop(a->dst.family, ri.src, src, INET6_ADDRSTRLEN);
	if (!strcmp(a->mac_text, "auto")) {
		const __u8 *nh = ri.have_gw ? ri.gw : a->dst.addr;
		char nhs[INET6_ADDRSTRLEN];

		inet_ntop(a->dst.family, nh, nhs, sizeof(nhs));
		r = neigh_resolve(a->dst.family, nh, ifindex, a->mac, 3000);
		if (r)
			return out_fail(out, "cannot resolve the MAC of %s%s on %s: %s; "
					"pass --dst-mac", nhs, ri.have_gw ? " (gateway)" : "",
					out->dev, r == -ENOENT ? "no neighbour answered within 3 s" :
					errno_text(-r));
	}
	return 0;
}

/* Hands dev to kpktgend_0 and configures it; 0, or pg_fail's exit status. */
static int pktgen_setup(struct out *out, const struct pktgen_args *a, const char *dev,
			const char *addr, const char *src, const char *macs)
{
	int v6 = a->dst.family == AF_INET6, r;
	/* pkt_size is the frame without FCS: Ethernet + IP + UDP + payload. */
	int pkt_size = 14 + (v6 ? 40 : 20) + 8 + (int)a->len;
	char cmd[160];

	r = pg_write("kpktgend_0", "rem_device_all");
	if (r)
		return pg_fail(out, "kpktgend_0", "rem_device_all", r);
	r = pg_write("kpktgend_0", "add_device %s", dev);
	if (r)
		return pg_fail(out, "kpktgend_0", "add_device", r);
#define PG(...) do {							\
		snprintf(cmd, sizeof(cmd), __VA_ARGS__);		\
		r = pg_write(dev, "%s", cmd);				\
		if (r)							\
			return pg_fail(out, dev, cmd, r);		\
	} while (0)
	PG("count %" PRIu64, a->count);
	PG("clone_skb 0");
	PG("pkt_size %d", pkt_size);
	PG("burst %" PRIu64, a->burst);
	PG("delay %" PRIu64, a->delay);
	PG("%s %s", v6 ? "dst6" : "dst", addr);
	if (*src && v6) {
		PG("src6 %s", src);
	} else if (*src) {
		PG("src_min %s", src);
		PG("src_max %s", src);
	}
	PG("dst_mac %s", macs);
	PG("udp_dst_min %" PRIu64, a->port);
	PG("udp_dst_max %" PRIu64, a->port);
	PG("udp_src_min 9");
	PG("udp_src_max 9");
	/* A zero UDP checksum is illegal over IPv6: have pktgen fill it. */
	if (v6)
		PG("flag UDPCSUM");
#undef PG
	return 0;
}

static void pktgen_put(struct out *out, const struct pktgen_args *a, const char *addr,
		       const char *macs, const char *src, const struct bg_pktgen_result *res,
		       uint64_t wall)
{
	json_object_object_add(out->o, "dst", json_object_new_string(addr));
	json_object_object_add(out->o, "dst_mac", json_object_new_string(macs));
	json_object_object_add(out->o, "src", *src ? json_object_new_string(src) : NULL);
	json_object_object_add(out->o, "port", json_object_new_int64(a->port));
	json_object_object_add(out->o, "len", json_object_new_int64(a->len));
	json_object_object_add(out->o, "pkt_size", json_object_new_int64(res->pkt_size));
	json_object_object_add(out->o, "burst", json_object_new_int64(a->burst));
	json_object_object_add(out->o, "delay_ns", json_object_new_int64(a->delay));
	json_object_object_add(out->o, "count", json_object_new_int64(a->count));
	json_object_object_add(out->o, "sent", json_object_new_int64(res->sofar));
	json_object_object_add(out->o, "elapsed_ns", json_object_new_int64(res->usec * 1000));
	json_object_object_add(out->o, "wall_ns", json_object_new_int64(wall));
	json_object_object_add(out->o, "rate_offered", json_object_new_int64(res->pps));
	json_object_object_add(out->o, "errors", json_object_new_int64(res->errors));
}

int cmd_pktgen(int argc, char **argv)
{
	struct out out = { .dev = NULL };
	struct pktgen_args a = { .len = 80, .burst = 64 };
	uint64_t t0, wall;
	struct counters before, after;
	struct bg_pktgen_result res;
	char addr[INET6_ADDRSTRLEN], src[INET6_ADDRSTRLEN] = "", macs[18];
	char devfile[IF_NAMESIZE], path[128], *t;
	int ifindex, r;

	r = pktgen_parse(argc, argv, &out, &a);
	if (r >= 0)
		return r;
	ifindex = if_nametoindex(out.dev);
	snprintf(devfile, sizeof(devfile), "%s", out.dev);
	inet_ntop(a.dst.family, a.dst.addr, addr, sizeof(addr));

	if (access(PKTGEN_DIR "/pgctrl", W_OK))
		return out_fail(&out, "no %s/pgctrl: %s (CONFIG_NET_PKTGEN)", PKTGEN_DIR,
				errno_text(errno));
	r = pktgen_route(&out, &a, ifindex, addr, src);
	if (r)
		return r;
	bpfwire_fmt_mac(a.mac, macs, sizeof(macs));
	r = pktgen_setup(&out, &a, devfile, addr, src, macs);
	if (r)
		return r;

	out_begin(&out);
	counters_read(out.dev, &before);
	t0 = now_ns();
	r = pg_write("pgctrl", "start");	/* returns when pktgen is done */
	wall = now_ns() - t0;
	counters_read(out.dev, &after);
	if (r)
		return pg_fail(&out, "pgctrl", "start", r);

	snprintf(path, sizeof(path), PKTGEN_DIR "/%s", devfile);
	t = read_file(path, NULL);
	pg_write("kpktgend_0", "rem_device_all");
	if (!t)
		return out_fail(&out, "cannot read %s/%s: %s", PKTGEN_DIR, devfile, errno_text(errno));
	r = bg_parse_pktgen(t, &res);
	free(t);
	if (r)
		return out_fail(&out, "pktgen left no parsable Result line in %s/%s",
				PKTGEN_DIR, devfile);
	json_object_object_add(out.o, "result_line", json_object_new_string(res.line));
	if (!res.ok)
		return out_fail(&out, "pktgen did not run: Result: %s", res.line);

	pktgen_put(&out, &a, addr, macs, src, &res, wall);
	counters_put(out.o, &before, &after);
	printf("pktgen: %" PRIu64 " of %" PRIu64 " sent to %s (%s) in %.3f s, %" PRIu64
	       " pps, %" PRIu64 " errors\n", res.sofar, a.count, addr, macs, res.usec / 1e6,
	       res.pps, res.errors);
	return out_done(&out);
}
