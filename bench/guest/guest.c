// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest: the in-guest half of the sender benchmark. Each
 * subcommand measures one thing, prints one human line and writes one JSON
 * object that the host-side driver collects from the guest's share.
 *
 *   opens    N open()+close() of a file, the event the senders send;
 *            --latency times each datagram from the LSM hook to the driver
 *   sendto   the user-space reference: a connected UDP socket, N send()s
 *   pktgen   the kernel's ceiling on this NIC
 *   cost     per-open() cost, R timed rounds
 *
 * Exit: 0 measured, 1 could not measure (the JSON says why, "ok": false),
 * 2 usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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

/* ---- output ------------------------------------------------------------ */

static const char *cur_cmd = "";
/* Every message of a subcommand starts "bpfwire-bench-guest SUBCOMMAND: ". */
static char log_prog[64] = PROG;

/* "bpfwire-bench-guest SUB: WHAT (bpfwire-bench-guest SUB --help for details)" */
static int usage_error(const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return cli_bad_args(log_prog, "%s", what);
}

static char *run_capture(const char *cmd, size_t max)
{
	char *buf = malloc(max + 1);
	size_t n = 0, r;
	FILE *f;

	if (!buf)
		return NULL;
	f = popen(cmd, "r");
	if (!f) {
		free(buf);
		return NULL;
	}
	while (n < max && (r = fread(buf + n, 1, max - n, f)) > 0)
		n += r;
	buf[n] = 0;
	if (pclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The device's drop counters, read before and after the measured interval. */
struct counters {
	int64_t v[4];
	int have[4];
};
enum { C_UDP, C_UDP6, C_TXD, C_QDISC };
static const char *const counter_key[] = {
	"udp_sndbuf_errors", "udp6_sndbuf_errors", "tx_dropped", "qdisc_drops",
};

static void counters_read(const char *dev, struct counters *c)
{
	char path[128], cmd[128], *t;

	memset(c, 0, sizeof(*c));
	if ((t = read_file("/proc/net/snmp", NULL))) {
		c->have[C_UDP] = !bg_parse_snmp(t, "Udp", "SndbufErrors", &c->v[C_UDP]);
		free(t);
	}
	if ((t = read_file("/proc/net/snmp6", NULL))) {
		c->have[C_UDP6] = !bg_parse_snmp6(t, "Udp6SndbufErrors", &c->v[C_UDP6]);
		free(t);
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/tx_dropped", dev);
	if ((t = read_file(path, NULL))) {
		char *end;

		c->v[C_TXD] = strtoll(t, &end, 10);
		c->have[C_TXD] = end != t;
		free(t);
	}
	/* dev passed if_nametoindex() in main, so it is safe in a command. */
	snprintf(cmd, sizeof(cmd), TC " -s -j qdisc show dev %s 2>/dev/null", dev);
	if ((t = run_capture(cmd, 1 << 16))) {
		c->have[C_QDISC] = !bg_parse_tc_drops(t, &c->v[C_QDISC]);
		free(t);
	}
	for (int i = 0; i < 4; i++)
		if (!c->have[i] && i != C_UDP6)
			pr_warn("warning: cannot read %s", counter_key[i]);
}

static void counters_put(struct json_object *o, const struct counters *a,
			 const struct counters *b)
{
	for (int i = 0; i < 4; i++)
		json_object_object_add(o, counter_key[i], a->have[i] && b->have[i] ?
				       json_object_new_int64(b->v[i] - a->v[i]) : NULL);
}

struct out {
	const char *json_path;
	const char *dev;
	struct json_object *o;
};

static void out_begin(struct out *out)
{
	char *cs = read_file(CLOCKSOURCE, NULL);

	out->o = json_object_new_object();
	json_object_object_add(out->o, "tool", json_object_new_string(PROG));
	json_object_object_add(out->o, "subcommand", json_object_new_string(cur_cmd));
	json_object_object_add(out->o, "ok", json_object_new_boolean(1));
	if (cs)
		cs[strcspn(cs, "\n")] = 0;
	json_object_object_add(out->o, "clocksource", cs ? json_object_new_string(cs) : NULL);
	json_object_object_add(out->o, "dev", json_object_new_string(out->dev));
	free(cs);
}

static int out_write(struct out *out)
{
	const char *s = json_object_to_json_string_ext(out->o,
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	char *text;
	int err;

	if (asprintf(&text, "%s\n", s) < 0) {
		pr_warn("cannot write %s: out of memory", out->json_path);
		return -1;
	}
	/* Whole or not at all: the host ends a `sleep ... until` on its name. */
	err = write_file_atomic(out->json_path, text);
	free(text);
	if (err) {
		pr_warn("cannot write %s: %s", out->json_path, errno_text(-err));
		return -1;
	}
	return 0;
}

/* Failure to measure: message on stderr, "ok": false and "error" in the JSON. */
static int out_fail(struct out *out, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_warn("%s", msg);
	if (!out->o)
		out_begin(out);
	json_object_object_add(out->o, "ok", json_object_new_boolean(0));
	json_object_object_add(out->o, "error", json_object_new_string(msg));
	out_write(out);
	json_object_put(out->o);
	out->o = NULL;
	return 1;
}

static int out_done(struct out *out)
{
	int r = out_write(out) ? 1 : 0;

	json_object_put(out->o);
	out->o = NULL;
	return r;
}

/* ---- option parsing ------------------------------------------------------ */

static int opt_uint(const char *name, const char *s, uint64_t min, uint64_t max,
		    uint64_t *v)
{
	if (bg_parse_uint(s, min, max, v))
		return usage_error("bad %s '%s': need an integer %" PRIu64 "..%" PRIu64,
				   name, s, min, max);
	return 0;
}

/* Common checks once options are parsed: --json given, --dev exists. */
static int opt_common(struct out *out)
{
	if (!out->json_path)
		return usage_error("missing --json FILE");
	if (strlen(out->dev) >= IF_NAMESIZE || !if_nametoindex(out->dev))
		return usage_error("no network device '%s' (--dev)", out->dev);
	return 0;
}

/* Absolute deadlines from t0: event i is due at t0 + i/rate, so no drift. */
static int pace(uint64_t t0, uint64_t i, uint64_t rate)
{
	uint64_t due = t0 + (uint64_t)((unsigned __int128)i * 1000000000ull / rate);
	struct timespec ts = { .tv_sec = due / 1000000000ull, .tv_nsec = due % 1000000000ull };

	if (now_ns() >= due)
		return 1;	/* late: no sleep, catch up */
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return 0;
}

/* ---- after a burst: when did the last frame leave, when did the agent stop - */

static int read_u64_file(const char *path, uint64_t *v)
{
	char *t = read_file(path, NULL), *end;
	int ok;

	if (!t)
		return -1;
	*v = strtoull(t, &end, 10);
	ok = end != t;
	free(t);
	return ok ? 0 : -1;
}

static int tx_packets(const char *dev, uint64_t *v)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/tx_packets", dev);
	return read_u64_file(path, v);
}

/*
 * The sender-limited span: from t0 (the burst's start) to the last time
 * the NIC's tx_packets moved, polled every 2 ms until it stood still for
 * 500 ms; the loop's own end if it never moved after it. Frames a queue or
 * the ringbuf agent sends after the loop count in it.
 */
struct tx_span {
	int ok;
	uint64_t packets, span_ns;
};

static void tx_wait(const char *dev, uint64_t t0, uint64_t p0, uint64_t loop_end,
		    uint64_t expect, struct tx_span *ts)
{
	struct timespec tick = { 0, 2 * 1000 * 1000 };
	struct bg_settle st;
	uint64_t v, end = 0;

	ts->ok = 0;
	bg_settle_init(&st, 500ull * 1000 * 1000);
	for (int first = 1;; first = 0) {
		uint64_t now = now_ns();

		if (tx_packets(dev, &v))
			return;
		/* Every expected frame out: a stray ARP or ND frame later is not the burst's. */
		if (expect && v - p0 >= expect) {
			end = first ? loop_end : now;
			break;
		}
		if (bg_settle_feed(&st, now, v)) {
			end = st.last_change_ns ? st.last_change_ns : loop_end;
			break;
		}
		nanosleep(&tick, NULL);
	}
	ts->ok = 1;
	ts->packets = v - p0;
	ts->span_ns = end - t0;
}

static void tx_put(struct json_object *o, const struct tx_span *ts)
{
	json_object_object_add(o, "tx_packets", ts->ok ? json_object_new_int64(ts->packets) : NULL);
	json_object_object_add(o, "tx_span_ns", ts->ok ? json_object_new_int64(ts->span_ns) : NULL);
}

/* The CPU time of process pid, ns (under icount: its instructions). */
static int proc_cpu_ns(pid_t pid, uint64_t *ns)
{
	struct timespec ts;
	clockid_t cid;

	if (clock_getcpuclockid(pid, &cid) || clock_gettime(cid, &ts))
		return -1;
	*ns = ts.tv_sec * 1000000000ull + ts.tv_nsec;
	return 0;
}

/*
 * What the agent spends after the loop, forwarding the backlog: its CPU
 * time until it stood still for 60 ms (polled every 20 ms). -1 when the
 * process is gone.
 */
static int agent_drain(pid_t pid, uint64_t *ns)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	struct bg_settle st;
	uint64_t v;

	bg_settle_init(&st, 60ull * 1000 * 1000);
	for (;;) {
		if (proc_cpu_ns(pid, &v))
			return -1;
		if (bg_settle_feed(&st, now_ns(), v))
			break;
		nanosleep(&tick, NULL);
	}
	*ns = st.value - st.first;
	return 0;
}

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

static int open_loop(const char *path, uint64_t count, uint64_t rate,
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

static int cmd_opens(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "path", required_argument, 0, 'p' },
		{ "count", required_argument, 0, 'n' },
		{ "rate", required_argument, 0, 'r' },
		{ "latency", no_argument, 0, 'L' },
		{ "port", required_argument, 0, 'P' },
		{ "xmit-func", required_argument, 0, 'x' },
		{ "drain-ms", required_argument, 0, 'D' },
		{ "tx-wait", no_argument, 0, 'T' },
		{ "tx-expect", required_argument, 0, 'E' },
		{ "dev", required_argument, 0, 'd' },
		{ "json", required_argument, 0, 'j' },
		{ "help", no_argument, 0, 'h' },
		{ 0 }
	};
	struct out out = { .dev = "eth0" };
	struct tx_span ts = { 0 };
	uint64_t t0, p0 = 0, tx_expect = 0;
	const char *path = NULL, *func = NULL;
	uint64_t count = 0, rate = 0, port = 0, drain_ms = 2000;
	uint64_t errors, late, elapsed;
	int c, latency = 0, have_drain = 0, ret, txw = 0;
	struct counters before, after;
	struct lat l = { 0 };

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'p': path = optarg; break;
		case 'n': if (opt_uint("--count", optarg, 1, UINT32_MAX, &count)) return 2; break;
		case 'r': if (opt_uint("--rate", optarg, 1, 100000000, &rate)) return 2; break;
		case 'L': latency = 1; break;
		case 'P': if (opt_uint("--port", optarg, 1, 65535, &port)) return 2; break;
		case 'x': func = optarg; break;
		case 'D':
			if (opt_uint("--drain-ms", optarg, 0, 3600000, &drain_ms))
				return 2;
			have_drain = 1;
			break;
		case 'T': txw = 1; break;
		case 'E':
			if (opt_uint("--tx-expect", optarg, 1, UINT32_MAX, &tx_expect))
				return 2;
			break;
		case 'd': out.dev = optarg; break;
		case 'j': out.json_path = optarg; break;
		case 'h': opens_usage(stdout); return 0;
		default: return cli_bad_option(log_prog, argv, "h", lo);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
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

/* ---- cost ----------------------------------------------------------------- */

static void cost_usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " cost --path FILE --count N [--repeats R] [--agent-pid PID]\n"
"           [--dev IF] --json OUT\n"
"\n"
"R rounds of N open(FILE, O_RDONLY)+close(), each timed: what one open()\n"
"costs. Run it with no sender and with each sender; the difference is what\n"
"the sender adds to every event. Then N more opens per round, each timed on\n"
"its own: their mean (call_mean_ns) is the syscall's own cost, without the\n"
"time other tasks (the ringbuf agent) take between calls. The median alone\n"
"would hide the expensive calls (a virtio kick costs far more than a send\n"
"that finds the device busy).\n"
"Each round also reports task_rounds: the CPU time of this process and of\n"
"the agent alone, per open, without what other tasks (qemu-ga answering the\n"
"host's polls) run meanwhile; under icount, host timing moves those.\n"
"\n"
"  --path FILE    the file to open (must exist)\n"
"  --count N      opens per round\n"
"  --repeats R    rounds (default 5)\n"
"  --agent-pid P  the ringbuf agent: each round's ns per open also counts the\n"
"                 agent's CPU time after the loop, until it has forwarded\n"
"                 every event (its CPU clock still for 60 ms)\n"
"  --dev IF       the device of the drop counters (eth0)\n"
"  --json OUT     write the JSON result to OUT\n");
}

struct cost_res {
	uint64_t count, repeats, errors, total, *calls, *drain;
	double *per, *sorted;
	double *task;			/* the loop's and the agent's own CPU, per open */
	double task_median;
	long agent;			/* --agent-pid, 0: none */
};

/* R rounds are few: insertion sort; a median is then the nearest-rank p50. */
static void sort_small(double *v, uint64_t n)
{
	for (uint64_t i = 1; i < n; i++)
		for (uint64_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

static void cost_put(struct out *out, const char *path, struct cost_res *c)
{
	uint64_t n = c->count * c->repeats, R = c->repeats;
	struct json_object *rounds = json_object_new_array(), *dr = json_object_new_array();
	struct json_object *tr = json_object_new_array();
	long double sum = 0;

	bg_sort_u64(c->calls, n);
	for (uint64_t i = 0; i < n; i++)
		sum += c->calls[i];
	/* The tasks' own CPU leaves out what others (qemu-ga) run meanwhile. */
	memcpy(c->sorted, c->task, R * sizeof(*c->task));
	sort_small(c->sorted, R);
	c->task_median = c->sorted[(R + 1) / 2 - 1];
	json_object_object_add(out->o, "task_rounds", tr);
	json_object_object_add(out->o, "task_median", json_object_new_double(c->task_median));
	memcpy(c->sorted, c->per, R * sizeof(*c->per));
	sort_small(c->sorted, R);
	for (uint64_t r = 0; r < R; r++) {
		json_object_array_add(rounds, json_object_new_double(c->per[r]));
		json_object_array_add(dr, json_object_new_int64(c->drain[r]));
		json_object_array_add(tr, json_object_new_double(c->task[r]));
	}
	json_object_object_add(out->o, "call_mean_ns", json_object_new_double((double)(sum / n)));
	json_object_object_add(out->o, "path", json_object_new_string(path));
	json_object_object_add(out->o, "count", json_object_new_int64(c->count));
	json_object_object_add(out->o, "repeats", json_object_new_int64(R));
	json_object_object_add(out->o, "rounds", rounds);
	json_object_object_add(out->o, "agent_pid", c->agent ? json_object_new_int64(c->agent) : NULL);
	json_object_object_add(out->o, "agent_drain_ns", c->agent ? dr : NULL);
	if (!c->agent)
		json_object_put(dr);
	json_object_object_add(out->o, "min", json_object_new_double(c->sorted[0]));
	json_object_object_add(out->o, "median", json_object_new_double(c->sorted[(R + 1) / 2 - 1]));
	json_object_object_add(out->o, "max", json_object_new_double(c->sorted[R - 1]));
	json_object_object_add(out->o, "elapsed_ns", json_object_new_int64(c->total));
	json_object_object_add(out->o, "call_p50_ns", json_object_new_int64(
		bg_percentile(c->calls, n, 50)));
	json_object_object_add(out->o, "call_p90_ns", json_object_new_int64(
		bg_percentile(c->calls, n, 90)));
	json_object_object_add(out->o, "open_errors", json_object_new_int64(c->errors));
}

/*
 * A warm-up round, then R rounds: N opens in a loop, then (with an agent) its CPU time until it has
 * forwarded the backlog, which the round's ns per open includes; then N
 * singly timed opens, and the agent's drain of those, not counted.
 */
static int cost_rounds(const char *path, struct cost_res *c)
{
	uint64_t e, late, elapsed, rest;

	/* A round not counted: the first one pays for cold caches and page faults. */
	open_loop(path, c->count, 0, &e, &late, &elapsed);
	if (c->agent && agent_drain(c->agent, &rest))
		return -1;
	for (uint64_t r = 0; r < c->repeats; r++) {
		uint64_t s0, s1, a0 = 0, a1 = 0, a_end = 0;

		if (proc_cpu_ns(0, &s0) || (c->agent && proc_cpu_ns(c->agent, &a0)))
			return -1;
		open_loop(path, c->count, 0, &e, &late, &elapsed);
		/*
		 * The agent's clock first: a wake-up pending at the loop's end runs
		 * it on the way out of this read, and that belongs to the drain.
		 */
		if ((c->agent && proc_cpu_ns(c->agent, &a_end)) || proc_cpu_ns(0, &s1))
			return -1;
		if (c->agent && (agent_drain(c->agent, &rest) || proc_cpu_ns(c->agent, &a1)))
			return -1;
		c->drain[r] = a1 - a_end;
		c->task[r] = (double)(s1 - s0 + a1 - a0) / c->count;
		c->errors += e;
		c->total += elapsed + c->drain[r];
		c->per[r] = (double)(elapsed + c->drain[r]) / c->count;
		for (uint64_t i = 0; i < c->count; i++) {
			open_loop(path, 1, 0, &e, &late, &c->calls[r * c->count + i]);
			c->errors += e;
		}
		if (c->agent && agent_drain(c->agent, &rest))
			return -1;
	}
	return 0;
}

static int cmd_cost(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "path", required_argument, 0, 'p' },
		{ "count", required_argument, 0, 'n' },
		{ "repeats", required_argument, 0, 'R' },
		{ "agent-pid", required_argument, 0, 'a' },
		{ "dev", required_argument, 0, 'd' },
		{ "json", required_argument, 0, 'j' },
		{ "help", no_argument, 0, 'h' },
		{ 0 }
	};
	struct out out = { .dev = "eth0" };
	struct cost_res c = { .repeats = 5 };
	struct counters before, after;
	const char *path = NULL;
	uint64_t pid = 0, ns;
	int c_, ret;

	while ((c_ = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c_) {
		case 'p': path = optarg; break;
		case 'n': if (opt_uint("--count", optarg, 1, UINT32_MAX, &c.count)) return 2; break;
		case 'R': if (opt_uint("--repeats", optarg, 1, 1000, &c.repeats)) return 2; break;
		case 'a': if (opt_uint("--agent-pid", optarg, 1, 1u << 22, &pid)) return 2; break;
		case 'd': out.dev = optarg; break;
		case 'j': out.json_path = optarg; break;
		case 'h': cost_usage(stdout); return 0;
		default: return cli_bad_option(log_prog, argv, "h", lo);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (!path)
		return usage_error("missing --path FILE");
	if (!c.count)
		return usage_error("missing --count N");
	if (opt_common(&out))
		return 2;
	if (access(path, R_OK))
		return out_fail(&out, "cannot open %s: %s (create it first)", path, errno_text(errno));
	c.agent = (long)pid;
	if (c.agent && proc_cpu_ns(c.agent, &ns))
		return out_fail(&out, "--agent-pid %ld: no CPU clock: %s", c.agent, errno_text(errno));

	c.per = calloc(c.repeats, sizeof(*c.per));
	c.sorted = calloc(c.repeats, sizeof(*c.sorted));
	c.drain = calloc(c.repeats, sizeof(*c.drain));
	c.task = calloc(c.repeats, sizeof(*c.task));
	c.calls = calloc(c.count * c.repeats, sizeof(*c.calls));
	if (!c.per || !c.sorted || !c.calls || !c.drain || !c.task)
		return out_fail(&out, "out of memory");
	out_begin(&out);
	counters_read(out.dev, &before);
	if (cost_rounds(path, &c)) {
		ret = out_fail(&out, "the agent (pid %ld) went away during the rounds", c.agent);
	} else {
		counters_read(out.dev, &after);
		cost_put(&out, path, &c);
		counters_put(out.o, &before, &after);
		printf("cost: %" PRIu64 " x %" PRIu64 " opens, ns/open min %.0f median %.0f max %.0f, "
		       "tasks' own median %.0f, %" PRIu64 " errors\n", c.repeats, c.count, c.sorted[0],
		       c.sorted[(c.repeats + 1) / 2 - 1], c.sorted[c.repeats - 1], c.task_median,
		       c.errors);
		ret = out_done(&out);
	}
	free(c.per);
	free(c.task);
	free(c.sorted);
	free(c.drain);
	free(c.calls);
	return ret;
}

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
	static const struct option lo[] = {
		{ "dst", required_argument, 0, 'D' },
		{ "count", required_argument, 0, 'n' },
		{ "len", required_argument, 0, 'l' },
		{ "sender-id", required_argument, 0, 's' },
		{ "rate", required_argument, 0, 'r' },
		{ "dev", required_argument, 0, 'd' },
		{ "json", required_argument, 0, 'j' },
		{ "help", no_argument, 0, 'h' },
		{ 0 }
	};
	char err[256];
	int c;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'D': a->dst_text = optarg; break;
		case 'n': if (opt_uint("--count", optarg, 1, UINT32_MAX, &a->count)) return 2; break;
		case 'l':
			if (opt_uint("--len", optarg, BPFWIRE_HDR_LEN, BPFWIRE_MAX_DATAGRAM, &a->len))
				return 2;
			break;
		case 's':
			if (opt_uint("--sender-id", optarg, 0, UINT32_MAX, &a->sender_id))
				return 2;
			break;
		case 'r': if (opt_uint("--rate", optarg, 1, 100000000, &a->rate)) return 2; break;
		case 'd': out->dev = optarg; break;
		case 'j': out->json_path = optarg; break;
		case 'h': sendto_usage(stdout); return 0;
		default: return cli_bad_option(log_prog, argv, "h", lo);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
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

static int cmd_sendto(int argc, char **argv)
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
	static const struct option lo[] = {
		{ "dev", required_argument, 0, 'd' },
		{ "dst", required_argument, 0, 'D' },
		{ "dst-mac", required_argument, 0, 'm' },
		{ "port", required_argument, 0, 'P' },
		{ "count", required_argument, 0, 'n' },
		{ "len", required_argument, 0, 'l' },
		{ "burst", required_argument, 0, 'b' },
		{ "delay", required_argument, 0, 'w' },
		{ "json", required_argument, 0, 'j' },
		{ "help", no_argument, 0, 'h' },
		{ 0 }
	};
	char err[256];
	int c;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'd': out->dev = optarg; break;
		case 'D': a->dst_text = optarg; break;
		case 'm': a->mac_text = optarg; break;
		case 'P': if (opt_uint("--port", optarg, 1, 65535, &a->port)) return 2; break;
		case 'n': if (opt_uint("--count", optarg, 1, UINT32_MAX, &a->count)) return 2; break;
		case 'l':
			/* pktgen pads a shorter payload to its own 16-byte header */
			if (opt_uint("--len", optarg, 16, 1472, &a->len))
				return 2;
			break;
		case 'b': if (opt_uint("--burst", optarg, 1, 1024, &a->burst)) return 2; break;
		case 'w': if (opt_uint("--delay", optarg, 0, 1000000000, &a->delay)) return 2; break;
		case 'j': out->json_path = optarg; break;
		case 'h': pktgen_usage(stdout); return 0;
		default: return cli_bad_option(log_prog, argv, "h", lo);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
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

static int cmd_pktgen(int argc, char **argv)
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

/* ---- main ----------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " SUBCOMMAND [options] --json OUT\n"
"\n"
"  opens   N open()+close() of a file (the senders' events); --latency times\n"
"          each datagram from the LSM hook to the NIC driver\n"
"  sendto  the user-space reference: N send()s on a connected UDP socket\n"
"  pktgen  the kernel's ceiling: N packets from pktgen\n"
"  cost    per-open() cost over R timed rounds\n"
"\n"
"Each writes one JSON object to --json OUT and prints one line. Every JSON has\n"
"\"clocksource\" and the deltas over the measured interval of\n"
"udp_sndbuf_errors, udp6_sndbuf_errors, tx_dropped and qdisc_drops of --dev.\n"
"'" PROG " SUBCOMMAND --help' for its options.\n"
"Exit: 0 measured, 1 could not measure, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "opens", cmd_opens }, { "sendto", cmd_sendto },
		{ "pktgen", cmd_pktgen }, { "cost", cmd_cost },
	};

	/* '+': stop at the subcommand, whose own parser takes the options after it. */
	static const char shortopts[] = "+h";
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	int c;

	log_init(log_prog, LOG_INFO);
	/* 10 significant digits: ns and rates, without %.17g's noise. */
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); return 0;
		case 'V': cli_version(PROG); return 0;
		default: return cli_bad_option(PROG, argv, shortopts, lo);
		}
	}
	if (optind == argc)
		return cli_bad_args(PROG, "missing the subcommand: opens, sendto, pktgen or cost");
	if (!strcmp(argv[optind], "help")) {
		usage(stdout);
		return 0;
	}
	argc -= optind - 1;
	argv += optind - 1;
	optind = 0;	/* full reset: the subcommand parser permutes, from after its name */
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (!strcmp(argv[1], cmds[i].name)) {
			cur_cmd = cmds[i].name;
			snprintf(log_prog, sizeof(log_prog), "%s %s", PROG, cur_cmd);
			setvbuf(stdout, NULL, _IOLBF, 0);
			return cmds[i].fn(argc - 1, argv + 1);
		}
	}
	return cli_bad_args(PROG, "unknown subcommand '%s': opens, sendto, pktgen or cost", argv[1]);
}
