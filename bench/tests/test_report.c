// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_report() on a made-up run: loss by cause, the unaccounted remainder,
 * ratios, latency and cost targets, and a clear error for a missing file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include "compare.h"
#include "file.h"
#include "gen.h"
#include "report.h"
#include "report_read.h"
#include "tap.h"

static char dir[128];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/*
 * The number at path, times scale, rounded, must be want. A missing key or
 * one of another type fails: it is never read as 0 or false.
 */
static bool num_is(json_object *o, const char *path, double scale, long long want,
		   const char *name, int line)
{
	o = bench_json_at(o, path);
	if (!json_object_is_type(o, json_type_int) && !json_object_is_type(o, json_type_double))
		return tap_check(false, name, line, "%s is %s, not a number", path,
				 o ? json_object_to_json_string(o) : "missing");
	return tap_check(llround(json_object_get_double(o) * scale) == want, name, line,
			 "%s = %g, expected %lld", path, json_object_get_double(o) * scale, want);
}

static bool flag_is(json_object *o, const char *path, bool want, const char *name, int line)
{
	o = bench_json_at(o, path);
	if (!json_object_is_type(o, json_type_boolean))
		return tap_check(false, name, line, "%s is %s, not a boolean", path,
				 o ? json_object_to_json_string(o) : "missing");
	return tap_check(json_object_get_boolean(o) == want, name, line, "%s is %s, expected %s",
			 path, want ? "false" : "true", want ? "true" : "false");
}

#define ASSERT_NUM(o, path, want, name)		num_is(o, path, 1, want, name, __LINE__)
#define ASSERT_NUM_X100(o, path, want, name)	num_is(o, path, 100, want, name, __LINE__)
#define ASSERT_FLAG(o, path, want, name)	flag_is(o, path, want, name, __LINE__)

static bool file_has(const char *rel, const char *needle)
{
	char path[256], buf[65536];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return strstr(buf, needle);
}

#define TAP0 "[ { \"stats64\": { \"tx\": { \"dropped\": 0 } } } ]"

static void mkdirs(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/hosts", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/hosts/sender", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/hosts/receiver", dir);
	mkdir(path, 0755);
}

/*
 * ksock-b32 (8001): 320 events in 10 datagrams; one datagram of 32 failed
 * with EAGAIN, 9 arrived with 288 events; 9 frames at the tap in 0.1 s.
 */
static void make_batch(void)
{
	put("hosts/sender/tap-rate-ksock-b32-1-0.json", TAP0);
	put("hosts/sender/tap-rate-ksock-b32-1-1.json",
	    "[ { \"stats64\": { \"rx\": { \"packets\": 9 } } } ]");
	put("hosts/receiver/tap-rate-ksock-b32-1-0.json", TAP0);
	put("hosts/receiver/tap-rate-ksock-b32-1-1.json", TAP0);
	put("hosts/sender/rate-ksock-b32-1.json", "{ \"count\": 320, \"rate_offered\": 3000.0,"
	    " \"qdisc_drops\": 0, \"tx_dropped\": 0, \"tx_span_ns\": 100000000 }");
	put("hosts/sender/stats-rate-ksock-b32-1.json", "{ \"senders\": [ { \"sender_id\": 8001,"
	    " \"counters\": { \"events\": 320, \"sent\": 9, \"failed\": 1, \"events_sent\": 288,"
	    " \"events_failed\": 32, \"events_pending\": 0, \"errors\": { \"EAGAIN\": 1 } } } ] }");
	put("hosts/receiver/rx-rate-ksock-b32-1.json", "{ \"arrival_span_s\": 0.1, \"socket\":"
	    " { \"drops\": 0, \"senders\": { \"8001\": { \"received\": 9, \"events\": 288 } } } }");
	put("hosts/sender/lat-low-ksock-b32.json", "{ \"rate_offered\": 10, \"latency\":"
	    " { \"samples\": 1, \"expected\": 3, \"p50_ns\": 70, \"p99_ns\": 70, \"max_ns\": 70,"
	    " \"ns\": [70] } }");
	put("hosts/sender/lat-half-ksock-b32.json", "{ \"rate_offered\": 1500, \"latency\":"
	    " { \"samples\": 1, \"expected\": 3, \"p50_ns\": 90, \"p99_ns\": 90, \"max_ns\": 90,"
	    " \"ns\": [90] } }");
	put("hosts/sender/cost-ksock-b32.json", "{ \"median\": 2500, \"call_mean_ns\": 1900 }");
}

/* sendto (7001), ksock (7201), ringbuf (7501), ksock-signed (7601) and ksock-b32 (8001). */
static void make_run(void)
{
	struct bench_params p = {
		.count = 100, .repeats = 1, .lat_low_rate = 10, .lat_low_count = 3,
		.lat_half_count = 3, .cost_count = 10, .cost_repeats = 1, .sndbuf = 1 << 20,
		.methods = 1u << 0 | 1u << 2 | 1u << 5 | 1u << 6 | 1u << 10,
	};

	mkdirs();
	bench_params_save(dir, &p);
	put("pinning.txt", "vCPU pinning: sender vCPU thread on host core 0\n");
	put("commit", "abc1234\n");
	put("summary.json", "{ \"accel\": \"tcg\" }");
	put("kernel-config", "CONFIG_BPF=y\n# CONFIG_LOCKDEP is not set\n");
	put("hosts/sender/uname", "6.12.118-bpfwire\n");
	put("hosts/sender/clocksource", "tsc\n");

	/* Sender-limited: sendto 100 frames in 0.1 s, ksock 80 in 0.2 s, ringbuf 100 in 0.125 s. */
	put("hosts/sender/rate-sendto-1.json", "{ \"count\": 100, \"sent\": 100, \"failed\": 0,"
	    " \"rate_offered\": 1000.0, \"qdisc_drops\": 0, \"tx_dropped\": 0,"
	    " \"tx_span_ns\": 100000000 }");
	put("hosts/sender/tap-rate-sendto-1-0.json", TAP0);
	put("hosts/sender/tap-rate-sendto-1-1.json",
	    "[ { \"stats64\": { \"rx\": { \"packets\": 100 } } } ]");
	put("hosts/sender/tap-rate-ringbuf-1-0.json", TAP0);
	put("hosts/sender/tap-rate-ringbuf-1-1.json",
	    "[ { \"stats64\": { \"rx\": { \"packets\": 100 } } } ]");
	put("hosts/sender/tap-rate-ksock-1-0.json",
	    "[ { \"stats64\": { \"rx\": { \"dropped\": 5, \"packets\": 10 } } } ]");
	put("hosts/sender/tap-rate-ksock-1-1.json",
	    "[ { \"stats64\": { \"rx\": { \"dropped\": 6, \"packets\": 90 } } } ]");
	put("hosts/receiver/tap-rate-sendto-1-0.json", TAP0);
	put("hosts/receiver/tap-rate-sendto-1-1.json", TAP0);
	put("hosts/receiver/tap-rate-ringbuf-1-0.json", TAP0);
	put("hosts/receiver/tap-rate-ringbuf-1-1.json", TAP0);
	put("hosts/receiver/rx-rate-sendto-1.json", "{ \"arrival_span_s\": 0.1, \"socket\":"
	    " { \"drops\": 0, \"senders\": { \"7001\": { \"received\": 100 } } } }");

	/* 100 events: 70 delivered, 15 EAGAIN, 5 other, 3 qdisc, 4 + 1 on the taps, 1 rx: 1 left. */
	put("hosts/receiver/tap-rate-ksock-1-0.json",
	    "[ { \"stats64\": { \"tx\": { \"dropped\": 10 } } } ]");
	put("hosts/receiver/tap-rate-ksock-1-1.json",
	    "[ { \"stats64\": { \"tx\": { \"dropped\": 14 } } } ]");
	put("hosts/sender/rate-ksock-1.json", "{ \"count\": 100, \"rate_offered\": 900.0,"
	    " \"qdisc_drops\": 3, \"tx_dropped\": 0, \"tx_span_ns\": 200000000 }");
	put("hosts/sender/stats-rate-ksock-1.json", "{ \"senders\": [ { \"sender_id\": 7201,"
	    " \"counters\": { \"events\": 100, \"sent\": 80, \"failed\": 20, \"errors\":"
	    " { \"EAGAIN\": 15, \"ECONNREFUSED\": 5 } } } ] }");
	put("hosts/receiver/rx-rate-ksock-1.json", "{ \"arrival_span_s\": 0.1, \"socket\":"
	    " { \"drops\": 1, \"senders\": { \"7201\": { \"received\": 70 } } } }");

	put("hosts/sender/rate-ringbuf-1.json", "{ \"count\": 100, \"rate_offered\": 2000.0,"
	    " \"qdisc_drops\": 0, \"tx_dropped\": 0, \"tx_span_ns\": 125000000 }");
	put("hosts/sender/stats-rate-ringbuf-1.json", "{ \"senders\": [ { \"sender_id\": 7501,"
	    " \"counters\": { \"events\": 100, \"sent\": 100, \"failed\": 0, \"errors\": {} } } ] }");
	put("hosts/receiver/rx-rate-ringbuf-1.json", "{ \"arrival_span_s\": 0.2, \"socket\":"
	    " { \"drops\": 0, \"senders\": { \"7501\": { \"received\": 100 } } } }");

	put("hosts/sender/lat-low-ksock.json", "{ \"rate_offered\": 10, \"latency\": { \"samples\": 3,"
	    " \"expected\": 3, \"p50_ns\": 50, \"p99_ns\": 100, \"max_ns\": 100, \"ns\": [100, 40, 50] } }");
	put("hosts/sender/lat-low-ringbuf.json", "{ \"rate_offered\": 10, \"latency\": { \"samples\": 3,"
	    " \"expected\": 3, \"p50_ns\": 300, \"p99_ns\": 400, \"max_ns\": 400, \"ns\": [300, 400, 200] } }");
	put("hosts/sender/lat-half-ksock.json", "{ \"rate_offered\": 450, \"latency\": { \"samples\": 3,"
	    " \"expected\": 3, \"p50_ns\": 150, \"p99_ns\": 200, \"max_ns\": 200, \"ns\": [200, 150, 100] } }");
	put("hosts/sender/lat-half-ringbuf.json", "{ \"rate_offered\": 1000, \"latency\": { \"samples\": 3,"
	    " \"expected\": 3, \"p50_ns\": 250, \"p99_ns\": 300, \"max_ns\": 300, \"ns\": [300, 250, 200] } }");

	put("hosts/sender/cost-none.json", "{ \"median\": 1000, \"call_mean_ns\": 900 }");
	put("hosts/sender/cost-ksock.json", "{ \"median\": 31000, \"call_mean_ns\": 20900 }");
	put("hosts/sender/cost-ringbuf.json", "{ \"median\": 4000, \"call_mean_ns\": 2900 }");

	/* ksock-signed: 84 delivered in 0.1 s (1.2x ksock), and 1.2x its added costs. */
	put("hosts/sender/tap-rate-ksock-signed-1-0.json", TAP0);
	put("hosts/sender/tap-rate-ksock-signed-1-1.json", TAP0);
	put("hosts/receiver/tap-rate-ksock-signed-1-0.json", TAP0);
	put("hosts/receiver/tap-rate-ksock-signed-1-1.json", TAP0);
	put("hosts/sender/rate-ksock-signed-1.json", "{ \"count\": 100, \"rate_offered\": 950.0,"
	    " \"qdisc_drops\": 0, \"tx_dropped\": 0 }");
	put("hosts/sender/stats-rate-ksock-signed-1.json", "{ \"senders\": [ { \"sender_id\": 7601,"
	    " \"counters\": { \"events\": 100, \"sent\": 84, \"failed\": 16, \"errors\":"
	    " { \"EAGAIN\": 16 } } } ] }");
	put("hosts/receiver/rx-rate-ksock-signed-1.json", "{ \"arrival_span_s\": 0.1, \"socket\":"
	    " { \"drops\": 0, \"senders\": { \"7601\": { \"received\": 84 } } } }");
	put("hosts/sender/lat-low-ksock-signed.json", "{ \"rate_offered\": 10, \"latency\":"
	    " { \"samples\": 1, \"expected\": 1, \"p50_ns\": 60, \"p99_ns\": 60, \"max_ns\": 60,"
	    " \"ns\": [60] } }");
	put("hosts/sender/lat-half-ksock-signed.json", "{ \"rate_offered\": 470, \"latency\":"
	    " { \"samples\": 1, \"expected\": 1, \"p50_ns\": 160, \"p99_ns\": 160, \"max_ns\": 160,"
	    " \"ns\": [160] } }");
	put("hosts/sender/cost-ksock-signed.json", "{ \"median\": 37000, \"call_mean_ns\": 24900 }");
	make_batch();
}

/* An --icount run (ksock, ringbuf, ksock-b32): cost and low-rate latency only. */
static void make_icount(const char *d, double ksock)
{
	struct bench_params p = {
		.count = 100, .repeats = 3, .lat_low_rate = 10, .lat_low_count = 3,
		.lat_half_count = 3, .cost_count = 10, .cost_repeats = 1, .sndbuf = 1 << 20,
		.methods = 1u << 2 | 1u << 5 | 1u << 6 | 1u << 10 | 1u << 11, .icount = 1,
	};
	char text[160];

	snprintf(dir, sizeof(dir), "%s", d);
	mkdir(dir, 0755);
	mkdirs();
	bench_params_save(dir, &p);
	put("summary.json", "{ \"accel\": \"tcg\" }");
	put("kernel-config", "# CONFIG_LOCKDEP is not set\n");
	put("hosts/sender/uname", "6.12.118-bpfwire\n");
	put("hosts/sender/clocksource", "tsc\n");
	put("hosts/sender/lat-low-ksock.json", "{ \"rate_offered\": 10, \"latency\": { \"samples\": 3,"
	    " \"expected\": 3, \"p50_ns\": 9000, \"p99_ns\": 9100, \"max_ns\": 9100, \"ns\": [9000] } }");
	put("hosts/sender/lat-low-ringbuf.json", "{ \"rate_offered\": 10, \"latency\": { \"samples\": 3,"
	    " \"expected\": 3, \"p50_ns\": 40000, \"p99_ns\": 41000, \"max_ns\": 41000, \"ns\": [40000] } }");
	put("hosts/sender/lat-low-ksock-b32.json", "{ \"rate_offered\": 10, \"latency\": { \"samples\": 1,"
	    " \"expected\": 3, \"p50_ns\": 50000, \"p99_ns\": 50000, \"max_ns\": 50000, \"ns\": [50000] } }");
	put("hosts/sender/cost-none.json", "{ \"median\": 15000, \"call_mean_ns\": 14000,"
	    " \"task_median\": 14500 }");
	snprintf(text, sizeof(text), "{ \"median\": %.0f, \"call_mean_ns\": 40000,"
		 " \"task_median\": 30000 }", ksock);
	put("hosts/sender/cost-ksock.json", text);
	/* ringbuf's total, the agent's drain included, adds 30000; b32 adds 6000: 0.2x. */
	put("hosts/sender/cost-ringbuf.json", "{ \"median\": 45000, \"call_mean_ns\": 20000 }");
	put("hosts/sender/cost-ksock-b32.json", "{ \"median\": 21000, \"call_mean_ns\": 16000 }");
	put("hosts/sender/lat-low-ksock-signed.json", "{ \"rate_offered\": 10, \"latency\": { \"samples\": 3,"
	    " \"expected\": 3, \"p50_ns\": 11000, \"p99_ns\": 11100, \"max_ns\": 11100, \"ns\": [11000] } }");
	put("hosts/sender/lat-low-ksock-enc.json", "{ \"rate_offered\": 10, \"latency\": { \"samples\": 3,"
	    " \"expected\": 3, \"p50_ns\": 14000, \"p99_ns\": 14100, \"max_ns\": 14100, \"ns\": [14000] } }");
	/* ksock-signed adds 10000 (call 12000), ksock-enc 25000 (call 30000): 2.5x. */
	put("hosts/sender/cost-ksock-signed.json", "{ \"median\": 25000, \"call_mean_ns\": 26000 }");
	put("hosts/sender/cost-ksock-enc.json", "{ \"median\": 40000, \"call_mean_ns\": 44000 }");
	/* 7 of ksock's sends failed; ringbuf's all went; b32 has no status file. */
	put("hosts/sender/stats-cost-ksock.json", "{ \"senders\": [ { \"counters\": "
	    "{ \"events\": 20, \"sent\": 13, \"failed\": 7 } } ] }");
	put("hosts/sender/stats-cost-ringbuf.json", "{ \"senders\": [ { \"counters\": "
	    "{ \"events\": 20, \"sent\": 20, \"failed\": 0 } } ] }");
}

/* The spread arithmetic, and three --icount runs side by side. */
static void test_icount_compare(void)
{
	char d[3][96], err[512], *runs[3], *text = NULL, path[300];
	double v[] = { 101, 99.5, 100 }, w[] = { NAN, 10, 10 }, m[] = { 4, 1, 3, 2 };
	const double ks[3] = { 31000, 31310, 30690 };
	FILE *devnull = fopen("/dev/null", "w"), *mem;
	size_t len = 0;
	json_object *b;

	ASSERT_TRUE(fabs(bench_spread(v, 3) - 0.015) < 1e-12, "spread: (101 - 99.5) / 100");
	ASSERT_TRUE(bench_spread(w, 3) == 0, "spread: a NAN is skipped");
	ASSERT_TRUE(bench_median(m, 4) == 2.5, "median of four: the mean of the middle two");
	for (int i = 0; i < 3; i++) {
		snprintf(d[i], sizeof(d[i]), "%.64s-ic%d", dir, i);
		make_icount(d[i], ks[i]);
		ASSERT_OK(bench_report(d[i], devnull, err, sizeof(err)), "an icount run's report");
		runs[i] = d[i];
	}
	snprintf(path, sizeof(path), "%s/bench.json", d[0]);
	b = json_object_from_file(path);
	ASSERT_FLAG(b, "icount", true, "bench.json says icount");
	ASSERT_NUM(b, "cost.ksock.added_ns", 16000, "icount: ksock adds 16000 instructions");
	ASSERT_NUM(b, "cost.ringbuf.added_ns", 30000, "icount: ringbuf's total adds 30000");
	ASSERT_NUM_X100(b, "targets.b32_added_instr_x_ringbuf_total.value", 20, "b32: 6000 / 30000");
	ASSERT_FLAG(b, "targets.b32_added_instr_x_ringbuf_total.met", true, "b32: 0.2 < 1");
	ASSERT_NUM_X100(b, "targets.ksock_enc_loop_added_x_signed.value", 250,
			"enc over signed-only, loop: 25000 / 10000 added");
	ASSERT_NUM_X100(b, "targets.ksock_enc_call_added_x_signed.value", 250,
			"enc over signed-only, call: 30000 / 12000 added");
	ASSERT_NUM(b, "latency.ksock.low.p99_ns", 9100, "icount latency p99 in instructions");
	ASSERT_NUM(b, "cost.none.task_per_open", 14500, "icount: the bare open()'s own CPU");
	ASSERT_NUM(b, "cost.ksock.task_added", 15500, "icount: ksock's task figure, 30000 - 14500");
	ASSERT_TRUE(!bench_json_at(b, "cost.ringbuf.task_added"),
		    "a cost file without task_median: no figure");
	ASSERT_TRUE(!bench_json_at(b, "rate.ksock.runs.0"), "icount: no rate runs");
	ASSERT_NUM(b, "cost.ksock.send_failed", 7, "cost: ksock's failed sends, from its status");
	ASSERT_NUM(b, "cost.ringbuf.send_failed", 0, "cost: ringbuf's, none failed");
	ASSERT_TRUE(!bench_json_at(b, "cost.ksock-b32.send_failed"), "no status file: no figure");
	json_object_put(b);
	snprintf(dir, sizeof(dir), "%s", d[0]);
	ASSERT_TRUE(file_has("bench.txt", "INSTRUCTIONS"), "bench.txt says the unit is instructions");
	ASSERT_TRUE(file_has("bench.txt", "WARNING: ksock: 7 of the cost run's 20 sends failed (35.00%)"),
		    "bench.txt warns of ksock's failed sends, with their share");
	ASSERT_TRUE(!file_has("bench.txt", "WARNING: ringbuf"), "and says nothing of ringbuf's");

	mem = open_memstream(&text, &len);
	ASSERT_OK(bench_compare(runs, 3, mem, err, sizeof(err)), "compare three icount runs");
	fclose(mem);
	ASSERT_HAS(text, "cost.ksock.ns_per_open", "compare: instructions per open");
	ASSERT_HAS(text, "31000.00    2.00%", "compare: median 31000, spread 620 / 31000");
	ASSERT_HAS(text, "cost.none.call_mean_ns", "compare: the bare open()");
	ASSERT_HAS(text, "cost.ksock.task_added", "compare: the tasks' own instructions");
	ASSERT_HAS(text, "largest spread:", "compare: the largest spread");
	free(text);
	fclose(devnull);
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "rm -rf '%s'", d[i]);
		if (system(path))
			exit(1);
	}
}

/*
 * The scenario's measured commands: under icount spawned, slept past and
 * waited for once (no qemu-ga poll lands inside them); on wall time exec'd.
 */
static void test_scenario_polls(void)
{
	struct bench_params p = {
		.count = 1000, .repeats = 1, .lat_low_rate = 10, .lat_low_count = 100,
		.lat_half_count = 100, .cost_count = 2000, .cost_repeats = 7,
		.methods = 1u << 2 | 1u << 5, .icount = 1,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	for (p.icount = 1; p.icount >= 0; p.icount--) {
		f = open_memstream(&text, &len);
		ASSERT_OK(bench_write_scenario(f, &p, "/run"), "the scenario is written");
		fclose(f);
		if (p.icount) {
			ASSERT_HAS(text, "spawn run-cost-ringbuf sender -- ${BUILD}/bench/guest/"
				   "bpfwire-bench-guest cost ", "icount: ringbuf's cost is spawned");
			ASSERT_HAS(text, "--json ${SHARE}/cost-ringbuf.json\n"
				   "sleep 11 until sender cost-ringbuf.json\n"
				   "wait run-cost-ringbuf timeout 440\n",
				   "icount: then a sleep of at most 3 + 16000 / 2000 s, until its "
				   "JSON is there, and one wait");
			ASSERT_HAS(text, "--json ${SHARE}/lat-low-ringbuf.json\n"
				   "sleep 9 until sender lat-low-ringbuf.json\n",
				   "icount: the latency run's sleep ends on its own JSON");
			ASSERT_HAS(text, "spawn agent-cost-ringbuf sender -- exec chrt --fifo 1 "
				   "${BUILD}/bpf/bpfwire-agent --via ringbuf",
				   "icount: the ringbuf agent runs SCHED_FIFO");
			ASSERT_HAS(text, "spawn run-cost-none sender", "icount: so is the bare loop");
			ASSERT_HAS(text, "spawn run-lat-low-ringbuf sender", "icount: and the latency run");
			ASSERT_TRUE(!strstr(text, "exec sender -- ${BUILD}/bench/guest/bpfwire-bench-guest cost"),
				    "icount: no cost run is exec'd");
		} else {
			ASSERT_HAS(text, "exec sender -- ${BUILD}/bench/guest/bpfwire-bench-guest "
				   "cost --path /tmp/b/f --count 2000", "wall time: the cost run is exec'd");
			ASSERT_TRUE(!strstr(text, "spawn run-"), "wall time: nothing spawned");
			ASSERT_TRUE(!strstr(text, "chrt"), "wall time: the agent keeps the default policy");
		}
		free(text);
		text = NULL;
	}
}

/*
 * A kernel without bpfwire's sndbuf extension: ksock-sndbuf is left out of
 * the paths and of the scenario (no --sndbuf anywhere), the run's
 * parameters say so, and a run from before the key had the extension.
 */
static void test_without_sndbuf(void)
{
	struct bench_params p = {
		.count = 100, .repeats = 1, .lat_low_rate = 10, .lat_low_count = 3,
		.lat_half_count = 3, .cost_count = 10, .cost_repeats = 1, .sndbuf = 8 << 20,
		.methods = (1u << bench_nmethods) - 1,
	}, q;
	char run[] = "/tmp/bench-sndbuf-XXXXXX", path[64], err[256], *text = NULL;
	unsigned all = p.methods;
	size_t len = 0;
	FILE *f;
	int m;

	for (m = 0; m < bench_nmethods && strcmp(bench_methods[m].name, "ksock-sndbuf"); m++)
		;
	tap_case_begin("no sndbuf extension: ksock-sndbuf left out of the paths and the scenario");
	ASSERT_TRUE(m < bench_nmethods, "ksock-sndbuf is a path");
	f = open_memstream(&text, &len);
	ASSERT_OK(bench_write_scenario(f, &p, "/run"), "the scenario with every path");
	fclose(f);
	ASSERT_HAS(text, "--via ksock --sndbuf 8388608 --dst", "with the extension: the remedy's install");
	free(text);
	text = NULL;
	ASSERT_TRUE(bench_without_sndbuf(&p), "the path had been asked for");
	ASSERT_EQ(p.methods, all & ~(1u << m), "only ksock-sndbuf is left out");
	ASSERT_EQ(p.sndbuf_missing, 1, "the parameters say why");
	f = open_memstream(&text, &len);
	ASSERT_OK(bench_write_scenario(f, &p, "/run"), "the scenario without it");
	fclose(f);
	ASSERT_TRUE(text && !strstr(text, "--sndbuf"), "no --sndbuf in the scenario");
	ASSERT_TRUE(text && !strstr(text, "ksock-sndbuf"), "no ksock-sndbuf run");
	ASSERT_HAS(text, "# rate: ksock, repeat 1\n", "the other paths still run");
	free(text);
	ASSERT_TRUE(!bench_without_sndbuf(&p), "asked again: it was not in the paths");
	tap_case_end();

	tap_case_begin("bench-params.json keeps ksock_sndbuf; a run without the key had the extension");
	if (ASSERT_OK_PTR(mkdtemp(run), "mkdtemp")) {
		ASSERT_OK(bench_params_save(run, &p), "save");
		memset(&q, 0, sizeof(q));
		ASSERT_OK(bench_params_load(run, &q, err, sizeof(err)), "load");
		ASSERT_EQ(q.sndbuf_missing, 1, "read back: the extension was missing");
		snprintf(path, sizeof(path), "%s/bench-params.json", run);
		text = read_file(path, NULL);
		ASSERT_HAS(text, "\"ksock_sndbuf\":false", "said in the file");
		free(text);
		p.sndbuf_missing = 0;
		ASSERT_OK(bench_params_save(run, &p), "save with the extension");
		ASSERT_OK(bench_params_load(run, &q, err, sizeof(err)), "load");
		ASSERT_EQ(q.sndbuf_missing, 0, "read back: it was there");
		f = fopen(path, "w");
		fputs("{ \"count\": 1, \"repeats\": 1, \"lat_low_rate\": 1, \"lat_low_count\": 1,"
		      " \"lat_half_count\": 1, \"cost_count\": 1, \"cost_repeats\": 1,"
		      " \"txqueuelen\": 0, \"sndbuf\": 1, \"netem_loss\": 0, \"methods\": 1 }", f);
		fclose(f);
		q.sndbuf_missing = 1;
		ASSERT_OK(bench_params_load(run, &q, err, sizeof(err)), "an older run's parameters");
		ASSERT_EQ(q.sndbuf_missing, 0, "without the key: the extension was there");
		snprintf(path, sizeof(path), "rm -rf '%s'", run);
		if (system(path))
			tap_check(false, "cleanup", __LINE__, "rm failed");
	}
	tap_case_end();
}

int main(void)
{
	char err[512] = "", path[256];
	json_object *b;
	FILE *devnull = fopen("/dev/null", "w");

	snprintf(dir, sizeof(dir), "/tmp/bench-report-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	make_run();
	ASSERT_OK(bench_report(dir, devnull, err, sizeof(err)), "report from a complete run");
	snprintf(path, sizeof(path), "%s/bench.json", dir);
	b = json_object_from_file(path);
	ASSERT_OK_PTR(b, "bench.json parses");

	ASSERT_NUM(b, "rate.ksock.loss_total.eagain", 15, "ksock: EAGAIN from the agent's errors");
	ASSERT_NUM(b, "rate.ksock.loss_total.errors", 5, "ksock: other errors = failed - EAGAIN");
	ASSERT_NUM(b, "rate.ksock.loss_total.queue", 3, "ksock: qdisc drops");
	ASSERT_NUM(b, "rate.ksock.loss_total.rx", 1, "ksock: receiver socket drops");
	ASSERT_NUM(b, "rate.ksock.loss_total.wire", 5, "ksock: both taps' drops, as deltas");
	ASSERT_NUM(b, "rate.ksock.loss_total.unaccounted", 1, "ksock: the remainder is reported");
	ASSERT_NUM(b, "rate.sendto.loss_total.unaccounted", 0, "sendto: nothing unaccounted");
	ASSERT_NUM(b, "rate.ksock.delivered_dps_median", 700, "ksock: 70 over a 0.1 s span");
	ASSERT_NUM_X100(b, "rate.ksock.ratio_sendto", 70, "ksock: 0.70 of sendto");
	ASSERT_FLAG(b, "targets.ksock_delivery_vs_sendto.met", false, "0.7 misses >= 0.8");
	ASSERT_FLAG(b, "targets.ksock_unaccounted_loss.met", false, "1 unaccounted misses == 0");
	ASSERT_NUM_X100(b, "targets.ksock_p99_over_ringbuf_p99_low.value", 25,
		  "low-rate p99 ratio 100/400");
	ASSERT_FLAG(b, "targets.ksock_p99_over_ringbuf_p99_low.met", true, "0.25 <= 1/3");
	ASSERT_FLAG(b, "targets.ksock_p99_over_ringbuf_p99_half.met", false, "0.67 > 1/3");
	ASSERT_NUM(b, "cost.ksock.added_ns", 30000, "ksock adds 30 us per open");
	ASSERT_NUM(b, "cost.ksock.x_ringbuf", 10, "ksock costs 10x the ringbuf");
	ASSERT_NUM(b, "cost.ksock.call_added_ns", 20000, "ksock adds 20 us to the syscall");
	ASSERT_NUM(b, "targets.ksock_syscall_cost_x_ringbuf.value", 10, "syscall: 20000 / 2000");
	ASSERT_NUM_X100(b, "targets.ksock_signed_delivery_x_ksock.value", 120,
			"signed: 840 / 700 datagrams/s");
	ASSERT_NUM_X100(b, "targets.ksock_signed_call_added_x_ksock.value", 120,
			"signed: 24000 / 20000 ns added to the syscall");
	ASSERT_NUM_X100(b, "targets.ksock_signed_loop_added_x_ksock.value", 120,
			"signed: 36000 / 30000 ns added in a loop");
	ASSERT_TRUE(file_has("bench.txt", "Signing (SipHash-2-4"), "bench.txt has the signing table");
	ASSERT_NUM(b, "rate.sendto.sl_eps_median", 1000, "sendto: 100 frames at its tap in 0.1 s");
	ASSERT_NUM(b, "rate.ksock.sl_eps_median", 400, "ksock: 90 - 10 tap frames in 0.2 s");
	ASSERT_NUM_X100(b, "rate.ksock.sl_ratio_sendto", 40, "ksock: 400 / 1000 events/s");
	ASSERT_NUM(b, "rate.ksock-b32.sl_eps_median", 2880, "b32: 9 frames x 32 events / 0.1 s");
	ASSERT_NUM(b, "rate.ksock-b32.loss_total.delivered", 288, "b32: the receiver's events");
	ASSERT_NUM(b, "rate.ksock-b32.loss_total.eagain", 32, "b32: one EAGAIN datagram is 32 events");
	ASSERT_NUM(b, "rate.ksock-b32.loss_total.unaccounted", 0, "b32: 320 = 288 + 32");
	ASSERT_NUM_X100(b, "targets.b32_sender_limited_x_ringbuf.value", 360, "b32: 2880 / 800");
	ASSERT_FLAG(b, "targets.b32_sender_limited_x_ringbuf.met", true, "3.6 >= 1.5");
	ASSERT_FLAG(b, "targets.b32_unaccounted_events.met", true, "b32: 0 unaccounted");
	ASSERT_TRUE(file_has("bench.txt", "Sender-limited rate"), "bench.txt has the sender-limited table");
	ASSERT_TRUE(file_has("bench.txt", "Receiver capacity"), "bench.txt names receiver capacity");
	ASSERT_TRUE(file_has("bench.txt", "commit abc1234"), "bench.txt names the commit");
	ASSERT_TRUE(file_has("bench.txt", "sender vCPU thread on host core 0"), "bench.txt: the pinning");
	ASSERT_FLAG(b, "kernel.lockdep", false, "kernel flavour read from kernel-config");
	ASSERT_TRUE(file_has("bench.txt", "unaccounted"), "bench.txt has the loss table");
	ASSERT_TRUE(file_has("bench.txt", "accel tcg"), "bench.txt names the accel");
	ASSERT_TRUE(file_has("bench.svg", "<polyline"), "bench.svg has the CDFs");
	ASSERT_TRUE(file_has("bench.svg", "<circle"), "bench.svg has the rate/loss points");
	ASSERT_TRUE(file_has("bench.txt", "remedy: ksock-sndbuf = --sndbuf 1048576;"),
		    "bench.txt names the remedy's buffer");
	ASSERT_FLAG(b, "params.ksock_sndbuf", true, "bench.json: the kernel had the sndbuf extension");
	json_object_put(b);

	/* A kernel without bpfwire's sndbuf extension: the report says so. */
	{
		struct bench_params p;

		ASSERT_OK(bench_params_load(dir, &p, err, sizeof(err)), "the run's parameters");
		p.sndbuf_missing = 1;
		bench_params_save(dir, &p);
		ASSERT_OK(bench_report(dir, devnull, err, sizeof(err)), "report without the extension");
		ASSERT_TRUE(file_has("bench.txt", "remedy: none, the kernel lacked bpfwire's sndbuf "
				     "extension (kernel/patches/sndbuf), ksock-sndbuf left out;"),
			    "bench.txt says the remedy was left out, and why");
		snprintf(path, sizeof(path), "%s/bench.json", dir);
		b = json_object_from_file(path);
		ASSERT_FLAG(b, "params.ksock_sndbuf", false, "bench.json: no sndbuf extension");
		json_object_put(b);
		p.sndbuf_missing = 0;
		bench_params_save(dir, &p);
	}

	/* A guest on jiffies: no latency to speak of, so no report. */
	put("hosts/sender/clocksource", "refined-jiffies\n");
	ASSERT_EQ(bench_report(dir, devnull, err, sizeof(err)), -1, "clocksource not tsc: cannot measure");
	ASSERT_HAS(err, "refined-jiffies", "the error names the clocksource");
	put("hosts/sender/clocksource", "tsc\n");

	/* A missing receiver summary: no report, and the error names the run. */
	snprintf(path, sizeof(path), "%s/hosts/receiver/rx-rate-ksock-1.json", dir);
	unlink(path);
	ASSERT_EQ(bench_report(dir, devnull, err, sizeof(err)), -1, "missing file: cannot measure");
	tap_check(strstr(err, "rate-ksock-1") && strstr(err, "receiver"),
		  "the error names run and side", __LINE__, "error: %s", err);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		return 1;
	test_icount_compare();
	test_scenario_polls();
	test_without_sndbuf();
	return tap_done();
}
