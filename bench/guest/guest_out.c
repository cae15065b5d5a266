// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest's shared parts: the JSON output, usage errors, and
 * after a burst, when the last frame left and when the agent stopped.
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
#include "guest.h"
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

/* ---- output ------------------------------------------------------------ */

const char *cur_cmd = "";
/* Every message of a subcommand starts "bpfwire-bench-guest SUBCOMMAND: ". */
char log_prog[64] = PROG;

/* "bpfwire-bench-guest SUB: WHAT (bpfwire-bench-guest SUB --help for details)" */
int usage_error(const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return cli_bad_args(log_prog, "%s", what);
}

char *run_capture(const char *cmd, size_t max)
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

enum { C_UDP, C_UDP6, C_TXD, C_QDISC };
static const char *const counter_key[] = {
	"udp_sndbuf_errors", "udp6_sndbuf_errors", "tx_dropped", "qdisc_drops",
};

void counters_read(const char *dev, struct counters *c)
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

void counters_put(struct json_object *o, const struct counters *a,
		  const struct counters *b)
{
	for (int i = 0; i < 4; i++)
		json_object_object_add(o, counter_key[i], a->have[i] && b->have[i] ?
				       json_object_new_int64(b->v[i] - a->v[i]) : NULL);
}


void out_begin(struct out *out)
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

int out_write(struct out *out)
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
int out_fail(struct out *out, const char *fmt, ...)
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

int out_done(struct out *out)
{
	int r = out_write(out) ? 1 : 0;

	json_object_put(out->o);
	out->o = NULL;
	return r;
}

/* Absolute deadlines from t0: event i is due at t0 + i/rate, so no drift. */
int pace(uint64_t t0, uint64_t i, uint64_t rate)
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

int read_u64_file(const char *path, uint64_t *v)
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

int tx_packets(const char *dev, uint64_t *v)
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

void tx_wait(const char *dev, uint64_t t0, uint64_t p0, uint64_t loop_end,
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

void tx_put(struct json_object *o, const struct tx_span *ts)
{
	json_object_object_add(o, "tx_packets", ts->ok ? json_object_new_int64(ts->packets) : NULL);
	json_object_object_add(o, "tx_span_ns", ts->ok ? json_object_new_int64(ts->span_ns) : NULL);
}

/* The CPU time of process pid, ns (under icount: its instructions). */
int proc_cpu_ns(pid_t pid, uint64_t *ns)
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
int agent_drain(pid_t pid, uint64_t *ns)
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
