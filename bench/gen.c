// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark as a lab scenario (scenarios/README.md has the grammar):
 * one boot of the pair topology, then rate runs, latency runs and cost
 * rounds. Every run gets its own receiver port and sender id, so each
 * receiver summary counts exactly one run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include "errnames.h"
#include "gen.h"
#include "wire.h"

#define KEY_FILE	"/run/bench.key"	/* written by the scenario, mode 0600 */
#define ENC_KEY_FILE	"/run/bench-enc.key"	/* the same MAC key, then an AES key */

const struct bench_method bench_methods[] = {
	{ "sendto", BENCH_SENDTO, NULL, 0, NULL },
	{ "pktgen", BENCH_PKTGEN, NULL, 0, NULL },
	{ "ksock", BENCH_BPF, "--via ksock", 0, NULL },
	{ "ksock-sndbuf", BENCH_BPF, "--via ksock --sndbuf", 0, NULL },
	{ "netpoll", BENCH_BPF, "--via netpoll --dev eth0", 0, NULL },
	{ "ringbuf", BENCH_BPF_AGENT, "--via ringbuf", 0, NULL },
	/* The same senders signing every datagram (wire v2). */
	{ "ksock-signed", BENCH_BPF, "--via ksock --key-file " KEY_FILE, 0, NULL },
	{ "netpoll-signed", BENCH_BPF, "--via netpoll --dev eth0 --key-file " KEY_FILE, 0, NULL },
	/*
	 * ksock packing N events into one datagram (bpfwire-agent
	 * --batch). The age is 950 ms, not the default 1000: at the latency
	 * phase's 10 events/s, an age of exactly ten intervals flushed on the
	 * 10th or the 11th event by a few instructions of pacing jitter.
	 */
	{ "ksock-b1", BENCH_BPF, "--via ksock --batch 1", 1, NULL },
	{ "ksock-b8", BENCH_BPF, "--via ksock --batch 8 --batch-age-ms 950", 8, NULL },
	{ "ksock-b32", BENCH_BPF, "--via ksock --batch 32 --batch-age-ms 950", 32, NULL },
	/*
	 * The signed senders encrypting too (wire v3, AES-128-CTR in
	 * BPF). Their receivers decrypt, so that the runs count as the others.
	 */
	{ "ksock-enc", BENCH_BPF, "--via ksock --key-file " ENC_KEY_FILE " --encrypt", 0,
	  "--key-file " ENC_KEY_FILE " --key-id 1" },
	{ "netpoll-enc", BENCH_BPF, "--via netpoll --dev eth0 --key-file " ENC_KEY_FILE
	  " --encrypt", 0, "--key-file " ENC_KEY_FILE " --key-id 1" },
};
const int bench_nmethods = sizeof(bench_methods) / sizeof(bench_methods[0]);

#define DST		"192.0.2.20"
#define SENDER_ADDR	"192.0.2.10"
#define WATCH		"/tmp/b/"
#define FILE_PATH	WATCH "f"
#define GUEST_TOOL	"${BUILD}/bench/guest/bpfwire-bench-guest"
#define AGENT		"${BUILD}/bpf/bpfwire-agent"
#define RECV		"${BUILD}/receiver/bpfwire-recv"

bool bench_without_sndbuf(struct bench_params *p)
{
	bool asked = false;

	for (int m = 0; m < bench_nmethods; m++) {
		if (strcmp(bench_methods[m].name, "ksock-sndbuf"))
			continue;
		asked = p->methods & (1u << m);
		p->methods &= ~(1u << m);
	}
	p->sndbuf_missing = 1;
	return asked;
}

int bench_rate_port(int method, int repeat)
{
	return 7000 + 100 * method + repeat;
}

int bench_lat_port(int method, int half)
{
	return 7000 + 100 * method + 90 + half;
}

int bench_cost_port(int method)
{
	return 7000 + 100 * method + 99;
}

/*
 * Socket only: under TCG a receiver that also captures falls behind sooner.
 * The ready-file wait: the receiver must listen before the first event. The
 * taps' counters before and after: frames the host could not take from the
 * sender are its tap's RX drops, frames the bridge could not hand to the
 * receiver guest the receiver tap's TX drops.
 */
static void rx_start(FILE *f, const struct bench_method *bm, const char *id, int port,
		     int timeout)
{
	fprintf(f, "tapstats receiver eth0 tap-%s-0.json\n", id);
	fprintf(f, "tapstats sender eth0 tap-%s-0.json\n", id);
	fprintf(f, "spawn rx-%s receiver -- " RECV " --port %d "
		"--accept-csum-partial --allow-invalid --max-loss any --max-dup any "
		"--max-reorder any --until-idle 4 --timeout %d --json ${SHARE}/rx-%s.json "
		"--ready-file /tmp/rx-%s.ready%s%s\n", id, port, timeout, id, id,
		bm->rx_args ? " " : "", bm->rx_args ? bm->rx_args : "");
	fprintf(f, "exec receiver -- for i in $(seq 300); do [ -e /tmp/rx-%s.ready ] && exit 0; "
		"sleep 0.1; done; exit 1\n", id);
}

static void rx_wait(FILE *f, const char *id, int timeout)
{
	fprintf(f, "wait rx-%s timeout %d\n", id, timeout);
	/* The receiver's summary in summary.json; a scenario needs a report or check. */
	fprintf(f, "report rx-%s receiver rx-%s.json\n", id, id);
	fprintf(f, "tapstats receiver eth0 tap-%s-1.json\n", id);
	fprintf(f, "tapstats sender eth0 tap-%s-1.json\n", id);
}

static void sender_install(FILE *f, const struct bench_params *p, int m, const char *id,
			   int port)
{
	const struct bench_method *bm = &bench_methods[m];
	char extra[32] = "";

	if (!strcmp(bm->name, "ksock-sndbuf"))
		snprintf(extra, sizeof(extra), " %ld", p->sndbuf);
	if (bm->kind == BENCH_BPF_AGENT) {
		/*
		 * Under icount the agent runs SCHED_FIFO, so that it forwards each
		 * event as it is woken, as an agent with a CPU of its own would at
		 * these rates. On the one vCPU, under the default policy, how many
		 * events it took per wake-up depended on the scheduler's state and
		 * moved its cost per event by up to 6.7% from one boot to the
		 * next.
		 */
		fprintf(f, "spawn agent-%s sender -- exec %s" AGENT " %s --dst " DST ":%d "
			"--events open --path-prefix " WATCH " --sender-id %d > /tmp/agent-%s.out\n",
			id, p->icount ? "chrt --fifo 1 " : "", bm->agent_args, port, port, id);
		/* The agent prints "forwarding" once its programs are attached. */
		fprintf(f, "exec sender -- for i in $(seq 600); do grep -q forwarding "
			"/tmp/agent-%s.out && exit 0; sleep 0.1; done; exit 1\n", id);
	} else {
		fprintf(f, "exec sender -- " AGENT " %s%s --dst " DST ":%d --events open "
			"--path-prefix " WATCH " --sender-id %d\n", bm->agent_args, extra, port, port);
	}
}

/* A partial batch waits for the next event: send it while the receiver listens. */
static void flush(FILE *f, int m)
{
	if (bench_methods[m].batch > 1)
		fprintf(f, "exec sender -- " AGENT " flush ksock\n");
}

static void sender_remove(FILE *f, int m, const char *id)
{
	fprintf(f, "exec sender -- " AGENT " status --json > ${SHARE}/stats-%s.json\n", id);
	if (bench_methods[m].kind == BENCH_BPF_AGENT) {
		fprintf(f, "exec sender -- pkill -TERM -x bpfwire-agent\n");
		fprintf(f, "wait agent-%s\n", id);
	}
	fprintf(f, "exec sender -- " AGENT " unload\n");
}

static void rate_run(FILE *f, const struct bench_params *p, int m, int r)
{
	const struct bench_method *bm = &bench_methods[m];
	int port = bench_rate_port(m, r), tmo = p->count / 100 + 300;
	int len = BPFWIRE_HDR_LEN + BPFWIRE_EVENT_FIXED_LEN + (int)strlen(FILE_PATH);
	char id[64];

	snprintf(id, sizeof(id), "rate-%s-%d", bm->name, r);
	fprintf(f, "\n# rate: %s, repeat %d\n", bm->name, r);
	if (bench_is_bpf(bm))
		sender_install(f, p, m, id, port);
	rx_start(f, bm, id, port, tmo);
	switch (bm->kind) {
	case BENCH_SENDTO:
		fprintf(f, "exec sender -- " GUEST_TOOL " sendto --dst " DST ":%d --count %d "
			"--len %d --sender-id %d --json ${SHARE}/%s.json\n", port, p->count, len,
			port, id);
		break;
	case BENCH_PKTGEN:
		fprintf(f, "exec sender -- " GUEST_TOOL " pktgen --dev eth0 --dst " DST
			" --dst-mac auto --port %d --count %d --len %d --burst 64 "
			"--json ${SHARE}/%s.json\n", port, p->count, len, id);
		break;
	default:
		/* --tx-wait: the span until the last frame left, the sender-limited rate's. */
		/* A partial batch waits for `flush`: it is not in the span. */
		fprintf(f, "exec sender -- " GUEST_TOOL " opens --path " FILE_PATH " --count %d "
			"--tx-wait --tx-expect %d --json ${SHARE}/%s.json\n", p->count,
			p->count / (bm->batch > 1 ? bm->batch : 1), id);
	}
	flush(f, m);
	rx_wait(f, id, tmo);
	if (bench_is_bpf(bm))
		sender_remove(f, m, id);
}

/*
 * The measured command. Under icount a host-timed qemu-ga poll (every 5 to
 * 50 ms of wall time while `exec` waits) lands at a random instruction and
 * moves how the scheduler interleaves the loop and the ringbuf agent: spawn
 * it, sleep until its JSON (ID.json) is in the share, which the host sees
 * without asking the guest, then one wait finds it done. settle_s is a
 * generous bound on its wall time; past it, `wait` polls as `exec` would.
 */
static void measured(FILE *f, const struct bench_params *p, const char *id, int settle_s,
		     int timeout_s, const char *cmd)
{
	if (!p->icount) {
		fprintf(f, "exec sender -- %s\n", cmd);
		return;
	}
	fprintf(f, "spawn run-%s sender -- %s\n", id, cmd);
	fprintf(f, "sleep %d until sender %s.json\n", settle_s, id);
	fprintf(f, "wait run-%s timeout %d\n", id, timeout_s);
}

static void lat_run(FILE *f, const struct bench_params *p, int m, int half)
{
	const struct bench_method *bm = &bench_methods[m];
	int port = bench_lat_port(m, half), tmo = 600, count;
	char id[64], rate[256], cmd[1024];

	snprintf(id, sizeof(id), "lat-%s-%s", half ? "half" : "low", bm->name);
	if (half) {
		/* Half the median rate of this path's own rate runs, read in the guest. */
		snprintf(rate, sizeof(rate), "$(jq -s '[.[].rate_offered] | sort | "
			 ".[length / 2 | floor] / 2 | floor' ${SHARE}/rate-%s-[0-9]*.json)", bm->name);
		count = p->lat_half_count;
	} else {
		snprintf(rate, sizeof(rate), "%d", p->lat_low_rate);
		count = p->lat_low_count;
	}
	/* At least four full batches: a partial one sends nothing until `flush`. */
	if (bm->batch > 1 && count < 4 * bm->batch)
		count = 4 * bm->batch;
	if (!half)
		tmo += count / (p->lat_low_rate ? p->lat_low_rate : 1);
	fprintf(f, "\n# latency: %s at %s\n", bm->name, half ? "half its rate" : "a low rate");
	sender_install(f, p, m, id, port);
	rx_start(f, bm, id, port, tmo);
	snprintf(cmd, sizeof(cmd), GUEST_TOOL " opens --path " FILE_PATH " --count %d --rate %s "
		 "--latency --port %d --json ${SHARE}/%s.json", count, rate, port, id);
	/* Low rate only under icount: the guest idles between events, and its clock skips it. */
	measured(f, p, id, 4 + count / 20, tmo, cmd);
	flush(f, m);
	rx_wait(f, id, tmo);
	sender_remove(f, m, id);
}

static void cost_run(FILE *f, const struct bench_params *p, int m)
{
	char id[64], cmd[1024];
	int port = bench_cost_port(m), tmo = p->cost_count * p->cost_repeats / 100 + 300;
	/* Rounds plus the warm-up, at 2,000 hooked opens a wall second or more. */
	int settle = 3 + p->cost_count * (p->cost_repeats + 1) / 2000;

	if (m < 0) {
		fprintf(f, "\n# cost: no program attached\n");
		snprintf(cmd, sizeof(cmd), GUEST_TOOL " cost --path " FILE_PATH " --count %d "
			 "--repeats %d --json ${SHARE}/cost-none.json", p->cost_count, p->cost_repeats);
		measured(f, p, "cost-none", settle, tmo, cmd);
		return;
	}
	snprintf(id, sizeof(id), "cost-%s", bench_methods[m].name);
	fprintf(f, "\n# cost: %s attached\n", bench_methods[m].name);
	sender_install(f, p, m, id, port);
	rx_start(f, &bench_methods[m], id, port, tmo);
	/* ringbuf: its agent's forwarding is part of the cost of an event. */
	snprintf(cmd, sizeof(cmd), GUEST_TOOL " cost --path " FILE_PATH " --count %d "
		 "--repeats %d%s --json ${SHARE}/%s.json", p->cost_count, p->cost_repeats,
		 bench_methods[m].kind == BENCH_BPF_AGENT ? " --agent-pid $(pgrep -x bpfwire-agent)" : "",
		 id);
	measured(f, p, id, settle, tmo, cmd);
	flush(f, m);
	rx_wait(f, id, tmo);
	sender_remove(f, m, id);
}

/* Before any run: the file the senders watch, the clock, the key, the neighbour. */
static void setup(FILE *f, const struct bench_params *p)
{
	fprintf(f, "exec sender -- mkdir -p " WATCH " && touch " FILE_PATH "\n");
	fprintf(f, "exec sender -- cat /sys/devices/system/clocksource/clocksource0/"
		"current_clocksource > ${SHARE}/clocksource && uname -r > ${SHARE}/uname\n");
	/* The signed paths' key: a fixed test key, never a real one. */
	fprintf(f, "exec sender -- umask 077 && echo 000102030405060708090a0b0c0d0e0f > "
		KEY_FILE "\n");
	for (int h = 0; h < 2; h++)
		fprintf(f, "exec %s -- umask 077 && echo 000102030405060708090a0b0c0d0e0f "
			"2b7e151628aed2a6abf7158809cf4f3c > " ENC_KEY_FILE "\n",
			h ? "receiver" : "sender");
	/*
	 * Under icount an idle guest's clock jumps ahead, so its neighbour entry
	 * would age and re-probe at random points of the rounds: fix it. The
	 * receiver's MAC is the topology's default (host 2, NIC 0). Its ping -W 5
	 * could also expire before the reply (a 2026-12-04 run failed so): the
	 * receiver, on wall time, pings instead. Otherwise the sender resolves
	 * the receiver's MAC now, so no run pays for ARP.
	 */
	if (p->icount) {
		fprintf(f, "exec sender -- /usr/sbin/ip neigh replace " DST " lladdr "
			"52:54:00:bf:02:00 nud permanent dev eth0\n");
		fprintf(f, "exec receiver -- busybox ping -c 1 -W 5 " SENDER_ADDR " > /dev/null\n");
	} else {
		fprintf(f, "exec sender -- busybox ping -c 1 -W 5 " DST " > /dev/null\n");
	}
	if (p->txqueuelen)
		fprintf(f, "exec sender -- /usr/sbin/ip link set eth0 txqueuelen %d\n", p->txqueuelen);
	if (p->netem_loss > 0)
		fprintf(f, "netem sender eth0 loss %g%%\n", p->netem_loss);
}

/*
 * Wall time: rate runs interleaved (every path once per repeat, in turn),
 * latency at a low rate and at half each path's rate, cost. Under icount
 * (the sender on pair-icount): cost and low-rate latency only, whose
 * figures are instruction counts; a rate there would be one too.
 */
int bench_write_scenario(FILE *f, const struct bench_params *p, const char *path)
{
	int m, r;

	fprintf(f, "# Written by bpfwire-bench for %s; run it with bpfwire-bench, which\n"
		"# then builds bench.json, bench.txt and bench.svg from the shares.\n", path);
	if (p->icount)
		fprintf(f, "summary bpfwire benchmark under icount: instructions per hooked open() "
			"and hook-to-start_xmit\ntopology pair-icount\ntimeout 14400\n\n");
	else
		fprintf(f, "summary bpfwire benchmark: rate, loss, hook-to-wire latency and per-open "
			"cost, %d events x %d repeats\ntopology pair\ntimeout 14400\n\n", p->count,
			p->repeats);
	setup(f, p);
	for (r = 1; r <= p->repeats && !p->icount; r++)
		for (m = 0; m < bench_nmethods; m++)
			if (p->methods & (1u << m))
				rate_run(f, p, m, r);
	for (int half = 0; half <= !p->icount; half++)
		for (m = 0; m < bench_nmethods; m++)
			if ((p->methods & (1u << m)) && bench_is_bpf(&bench_methods[m]))
				lat_run(f, p, m, half);
	cost_run(f, p, -1);
	for (m = 0; m < bench_nmethods; m++)
		if ((p->methods & (1u << m)) && bench_is_bpf(&bench_methods[m]))
			cost_run(f, p, m);
	return ferror(f) ? -1 : 0;
}

#define PARAMS(X) X(count) X(repeats) X(lat_low_rate) X(lat_low_count) \
	X(lat_half_count) X(cost_count) X(cost_repeats) X(txqueuelen)

int bench_params_save(const char *run, const struct bench_params *p)
{
	json_object *o = json_object_new_object();
	char path[4096];
	int ret;

#define PUT(n) json_object_object_add(o, #n, json_object_new_int(p->n));
	PARAMS(PUT)
#undef PUT
	json_object_object_add(o, "sndbuf", json_object_new_int64(p->sndbuf));
	json_object_object_add(o, "netem_loss", json_object_new_double(p->netem_loss));
	json_object_object_add(o, "methods", json_object_new_int64(p->methods));
	json_object_object_add(o, "icount", json_object_new_boolean(p->icount));
	json_object_object_add(o, "ksock_sndbuf", json_object_new_boolean(!p->sndbuf_missing));
	snprintf(path, sizeof(path), "%s/bench-params.json", run);
	ret = json_object_to_file_ext(path, o, JSON_C_TO_STRING_PRETTY);
	json_object_put(o);
	return ret;
}

int bench_params_load(const char *run, struct bench_params *p, char *err, size_t errlen)
{
	char path[4096];
	json_object *o, *v;

	snprintf(path, sizeof(path), "%s/bench-params.json", run);
	o = json_object_from_file(path);
	if (!o) {
		snprintf(err, errlen, "%s: %s", path, errno ? errno_text(errno) : "not JSON");
		return -1;
	}
	memset(p, 0, sizeof(*p));
#define GET(n) if (!json_object_object_get_ex(o, #n, &v)) goto bad; p->n = json_object_get_int(v);
	PARAMS(GET)
#undef GET
	if (!json_object_object_get_ex(o, "sndbuf", &v))
		goto bad;
	p->sndbuf = json_object_get_int64(v);
	if (!json_object_object_get_ex(o, "netem_loss", &v))
		goto bad;
	p->netem_loss = json_object_get_double(v);
	if (!json_object_object_get_ex(o, "methods", &v))
		goto bad;
	p->methods = json_object_get_int64(v);
	/* Runs from before --icount have no icount: wall time. */
	p->icount = json_object_object_get_ex(o, "icount", &v) && json_object_get_boolean(v);
	/* Runs from before it had the extension (0004 was in the seed series). */
	p->sndbuf_missing = json_object_object_get_ex(o, "ksock_sndbuf", &v) &&
			    !json_object_get_boolean(v);
	json_object_put(o);
	return 0;
bad:
	snprintf(err, errlen, "%s: a parameter is missing", path);
	json_object_put(o);
	return -1;
}
