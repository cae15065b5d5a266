// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest opens: N open()+close() of a file, the senders'
 * events; --latency reads each datagram's times from a ring buffer.
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
#include "guest_opens.h"
#include "guest_opts.h"
#include "guest_out.h"
#include "guest_parse.h"
#include "libbpf_log.h"
#include "log.h"
#include "neigh.h"		/* bpf/: route_get, neigh_resolve */
#include "timeutil.h"
#include "xmit.bpf.skel.h"

#define PROG "bpfwire-bench-guest"
#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"
#define TC "/usr/sbin/tc"	/* busybox's tc may come first in $PATH */
#define PKTGEN_DIR "/proc/net/pktgen"

/* ---- opens --latency: the ring buffer reader ---------------------------- */

struct lat {
	struct bpfwire_bench_xmit *skel;
	struct ring_buffer *rb;
	struct bg_seen seen;
	uint64_t *ns;
	size_t n, cap;
	uint64_t records, dups, negative;
	int oom;
	uint64_t drain_ns;
	uint64_t last_ns;		/* a record arrived, or the loop ended */
	volatile int loop_done;		/* set by the main thread */
	pthread_t thr;
};

static int lat_record(void *ctx, void *data, size_t len)
{
	struct bg_xmit_rec *r = data;
	struct lat *l = ctx;
	int fresh;

	if (len < sizeof(*r))
		return 0;
	l->records++;
	fresh = bg_seen_add(&l->seen, r->sender_id, r->seq);
	if (fresh < 0) {
		l->oom = 1;
		return 0;
	}
	if (!fresh) {		/* a requeue or retry: the first xmit counts */
		l->dups++;
		return 0;
	}
	if (r->ts_xmit < r->ts_hook) {
		l->negative++;
		return 0;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		uint64_t *ns = realloc(l->ns, cap * sizeof(*ns));

		if (!ns) {
			l->oom = 1;
			return 0;
		}
		l->ns = ns;
		l->cap = cap;
	}
	l->ns[l->n++] = r->ts_xmit - r->ts_hook;
	return 0;
}

/*
 * Polls every 10 ms (the probe does not wake us, so the sender's path pays
 * no wake-up) until the loop has ended and no record came for drain_ns.
 */
static void *lat_drain(void *arg)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	struct lat *l = arg;
	int ended = 0;

	for (;;) {
		int n = ring_buffer__consume(l->rb);
		uint64_t now = now_ns();

		if (n > 0)
			l->last_ns = now;
		if (l->loop_done && !ended) {
			ended = 1;
			if (l->last_ns < now)
				l->last_ns = now;
		}
		if (ended && now - l->last_ns >= l->drain_ns)
			break;
		nanosleep(&tick, NULL);
	}
	return NULL;
}

/* Ring buffer: room for every record of the run, 1..16 MiB, a power of two. */
static __u32 rb_size(uint64_t count)
{
	uint64_t want = count * (sizeof(struct bg_xmit_rec) + 8) * 2;
	__u32 sz = 1 << 20;

	while (sz < want && sz < (16u << 20))
		sz <<= 1;
	return sz;
}

static int lat_start(struct out *out, struct lat *l, uint64_t count, __u16 port,
		     const char *func, uint64_t drain_ms)
{
	char msg[256];
	int err;

	log_route_libbpf();	/* at LOG_INFO: libbpf's warnings only */
	l->drain_ns = drain_ms * 1000000ull;
	l->skel = bpfwire_bench_xmit__open();
	if (!l->skel)
		return out_fail(out, "cannot open the latency probe: %s", errno_text(errno));
	l->skel->rodata->port = port;
	l->skel->rodata->ifindex = if_nametoindex(out->dev);
	bpf_map__set_max_entries(l->skel->maps.recs, rb_size(count));
	err = bpf_program__set_attach_target(l->skel->progs.bg_xmit, 0, func);
	if (!err)
		err = bpfwire_bench_xmit__load(l->skel);
	if (err) {
		snprintf(msg, sizeof(msg), "cannot load the latency probe on %s: %s "
			 "(is %s the NIC driver's transmit function? see --xmit-func)",
			 func, errno_text(-err), func);
		return out_fail(out, "%s", msg);
	}
	err = bpfwire_bench_xmit__attach(l->skel);
	if (err)
		return out_fail(out, "cannot attach fentry/%s: %s", func, errno_text(-err));
	l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.recs), lat_record, l, NULL);
	if (!l->rb)
		return out_fail(out, "ring_buffer__new: %s", errno_text(errno));
	l->last_ns = now_ns();
	err = pthread_create(&l->thr, NULL, lat_drain, l);
	if (err) {
		ring_buffer__free(l->rb);
		l->rb = NULL;
		return out_fail(out, "pthread_create: %s", errno_text(err));
	}
	return 0;
}

static void lat_free(struct lat *l)
{
	ring_buffer__free(l->rb);
	bpfwire_bench_xmit__destroy(l->skel);
	bg_seen_free(&l->seen);
	free(l->ns);
}

static const char *const verdict_key[BG_V__COUNT] = {
	"ok", "short", "not_ip", "not_udp", "fragment", "other_port", "not_bpfwire", "fault",
};

static struct json_object *lat_json(struct lat *l, uint64_t expected, const char *func,
				    __u16 port, uint64_t drain_ms)
{
	struct json_object *o = json_object_new_object(), *a, *f;

	json_object_object_add(o, "samples", json_object_new_int64(l->n));
	json_object_object_add(o, "expected", json_object_new_int64(expected));
	if (l->n)
		bg_sort_u64(l->ns, l->n);
#define PUT_NS(key, val) json_object_object_add(o, key, l->n ? json_object_new_int64(val) : NULL)
	PUT_NS("p50_ns", bg_percentile(l->ns, l->n, 50));
	PUT_NS("p99_ns", bg_percentile(l->ns, l->n, 99));
	PUT_NS("max_ns", l->ns[l->n - 1]);
	PUT_NS("min_ns", l->ns[0]);
#undef PUT_NS
	json_object_object_add(o, "records", json_object_new_int64(l->records));
	json_object_object_add(o, "duplicates", json_object_new_int64(l->dups));
	json_object_object_add(o, "negative", json_object_new_int64(l->negative));
	json_object_object_add(o, "lost", json_object_new_int64(l->skel->bss->lost));
	json_object_object_add(o, "xmit_func", json_object_new_string(func));
	json_object_object_add(o, "port", json_object_new_int(port));
	json_object_object_add(o, "drain_ms", json_object_new_int64(drain_ms));
	f = json_object_new_object();
	for (int i = 0; i < BG_V__COUNT; i++)
		json_object_object_add(f, verdict_key[i],
				       json_object_new_int64(l->skel->bss->verdicts[i]));
	json_object_object_add(o, "frames", f);
	a = json_object_new_array_ext(l->n);
	for (size_t i = 0; i < l->n; i++)
		json_object_array_add(a, json_object_new_int64(l->ns[i]));
	json_object_object_add(o, "ns", a);
	return o;
}

/* ---- opens ---------------------------------------------------------------- */

static void opens_usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " opens --path FILE --count N [--rate R]\n"
"           [--latency --port P [--xmit-func NAME] [--drain-ms MS]]\n"
"           [--tx-wait [--tx-expect N]] [--dev IF] --json OUT\n"
"\n"
"N times open(FILE, O_RDONLY) and close(): the events an installed sender\n"
"turns into datagrams. FILE must exist (it is not created: that would be an\n"
"event too).\n"
"\n"
"  --path FILE       the file to open\n"
"  --count N         how many opens\n"
"  --rate R          opens per second, paced on absolute CLOCK_MONOTONIC\n"
"                    deadlines (default: as fast as possible)\n"
"  --latency         time each datagram from the LSM hook (its header's\n"
"                    timestamp_ns) to the NIC driver's transmit function\n"
"  --port P          the datagrams' UDP destination port (with --latency)\n"
"  --xmit-func NAME  the driver function to probe (default start_xmit,\n"
"                    virtio_net's ndo_start_xmit)\n"
"  --drain-ms MS     after the loop, wait until no datagram came for MS ms\n"
"                    (default 2000)\n"
"  --tx-wait         after the loop, wait until IF's tx_packets stood still\n"
"                    for 500 ms: tx_packets, and tx_span_ns from the loop's\n"
"                    start to its last move (the sender-limited span)\n"
"  --tx-expect N     with --tx-wait: the span ends when N frames are out\n"
"  --dev IF          the device of the drop counters and the probe (eth0)\n"
"  --json OUT        write the JSON result to OUT\n");
}

int open_loop(const char *path, uint64_t count, uint64_t rate,
	      uint64_t *errors, uint64_t *late, uint64_t *elapsed)
{
	uint64_t t0 = now_ns(), i;

	*errors = *late = 0;
	for (i = 0; i < count; i++) {
		int fd;

		if (rate)
			*late += pace(t0, i, rate);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			(*errors)++;
		else
			close(fd);
	}
	*elapsed = now_ns() - t0;
	return 0;
}

static void opens_put(struct json_object *o, const char *path, uint64_t count, uint64_t rate,
		      uint64_t late, uint64_t elapsed, uint64_t errors)
{
	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "count", json_object_new_int64(count));
	json_object_object_add(o, "rate_target", rate ? json_object_new_int64(rate) : NULL);
	json_object_object_add(o, "late", json_object_new_int64(late));
	json_object_object_add(o, "elapsed_ns", json_object_new_int64(elapsed));
	json_object_object_add(o, "rate_offered", json_object_new_double(count * 1e9 / elapsed));
	json_object_object_add(o, "ns_per_open", json_object_new_double((double)elapsed / count));
	json_object_object_add(o, "open_errors", json_object_new_int64(errors));
}

int cmd_opens(int argc, char **argv)
{
	struct out out = { .dev = "eth0" };
	struct tx_span ts = { 0 };
	uint64_t t0, p0 = 0, tx_expect = 0;
	const char *path = NULL, *func = NULL;
	uint64_t count = 0, rate = 0, port = 0, drain_ms = 2000;
	uint64_t errors, late, elapsed;
	int latency = 0, have_drain = 0, ret, txw = 0;
	struct counters before, after;
	struct lat l = { 0 };
	const struct gopt opts[] = {
		GOPT_PATH(&path),
		GOPT_COUNT(&count),
		GOPT_RATE(&rate),
		GOPT_BOOL("latency", 'L', &latency),
		GOPT_PORT(&port),
		GOPT_STR("xmit-func", 'x', &func),
		/* seen: --drain-ms goes with --latency */
		{ .name = "drain-ms", .val = 'D', .kind = GOPT_UINT, .dst = &drain_ms,
		  .min = 0, .max = 3600000, .seen = &have_drain },
		GOPT_BOOL("tx-wait", 'T', &txw),
		GOPT_U64("tx-expect", 'E', &tx_expect, 1, UINT32_MAX),
		GOPT_DEV(&out),
		GOPT_JSON(&out),
	};

	ret = guest_opts_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), opens_usage);
	if (ret >= 0)
		return ret;
	if (!path)
		return usage_error("missing --path FILE");
	if (!count)
		return usage_error("missing --count N");
	if (latency && !port)
		return usage_error("--latency needs --port P, the datagrams' destination port");
	if (!latency && (port || func || have_drain))
		return usage_error("--port, --xmit-func and --drain-ms go with --latency");
	if (func && (!*func || strlen(func) > 127))
		return usage_error("bad --xmit-func '%s'", func);
	if (opt_common(&out))
		return 2;
	if (!func)
		func = "start_xmit";

	/* access(), not open(): an open here would be one event too many. */
	if (access(path, R_OK))
		return out_fail(&out, "cannot open %s: %s (create it first)", path, errno_text(errno));
	out_begin(&out);
	if (latency && (ret = lat_start(&out, &l, count, port, func, drain_ms))) {
		lat_free(&l);
		return ret;
	}

	counters_read(out.dev, &before);
	if (txw && tx_packets(out.dev, &p0))
		pr_warn("warning: cannot read %s's tx_packets", out.dev);
	t0 = now_ns();
	open_loop(path, count, rate, &errors, &late, &elapsed);
	if (txw)
		tx_wait(out.dev, t0, p0, t0 + elapsed, tx_expect, &ts);
	if (latency) {
		l.loop_done = 1;
		pthread_join(l.thr, NULL);
	}
	counters_read(out.dev, &after);

	opens_put(out.o, path, count, rate, late, elapsed, errors);
	if (txw)
		tx_put(out.o, &ts);
	counters_put(out.o, &before, &after);

	printf("opens: %" PRIu64 " in %.3f s, %.0f/s, %.2f us/open, %" PRIu64 " errors",
	       count, elapsed / 1e9, count * 1e9 / elapsed, elapsed / 1e3 / count, errors);
	if (!latency) {
		printf("\n");
		return out_done(&out);
	}

	json_object_object_add(out.o, "latency", lat_json(&l, count, func, port, drain_ms));
	if (l.n)
		printf("; latency %zu/%" PRIu64 " samples, p50 %.1f us, p99 %.1f us, max %.1f us\n",
		       l.n, count, bg_percentile(l.ns, l.n, 50) / 1e3,
		       bg_percentile(l.ns, l.n, 99) / 1e3, l.ns[l.n - 1] / 1e3);
	else
		printf("; latency: no sample\n");
	ret = l.oom ? out_fail(&out, "out of memory while collecting latency records") :
	      !l.n ? out_fail(&out, "no bpfwire datagram to port %" PRIu64 " reached %s "
			      "on %s (is a sender installed, with a matching --path-prefix?)",
			      port, func, out.dev) :
	      out_done(&out);
	lat_free(&l);
	return ret;
}
