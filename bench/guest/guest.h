// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest's shared parts (guest_out.c): the JSON output every
 * subcommand writes, usage errors, and the after-burst waits. The options
 * are guest_opts.h's. Each subcommand is a file of its own: guest_opens.c,
 * guest_cost.c, guest_sendto.c, guest_pktgen.c.
 */
#ifndef BPFWIRE_BENCH_GUEST_H
#define BPFWIRE_BENCH_GUEST_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <json-c/json.h>

#define PROG "bpfwire-bench-guest"
#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"
#define TC "/usr/sbin/tc"	/* busybox's tc may come first in $PATH */
#define PKTGEN_DIR "/proc/net/pktgen"

/* The subcommand, and "bpfwire-bench-guest SUBCOMMAND", every message's prefix. */
extern const char *cur_cmd;
extern char log_prog[64];

/* The device's drop counters, read before and after the measured interval. */
struct counters {
	int64_t v[4];
	int have[4];
};

struct out {
	const char *json_path;
	const char *dev;
	struct json_object *o;
};

struct tx_span {
	int ok;
	uint64_t packets, span_ns;
};

__attribute__((format(printf, 1, 2)))
int usage_error(const char *fmt, ...);
char *run_capture(const char *cmd, size_t max);
void counters_read(const char *dev, struct counters *c);
void counters_put(struct json_object *o, const struct counters *a,
		  const struct counters *b);
void out_begin(struct out *out);
int out_write(struct out *out);
__attribute__((format(printf, 2, 3)))
int out_fail(struct out *out, const char *fmt, ...);
int out_done(struct out *out);
int pace(uint64_t t0, uint64_t i, uint64_t rate);
int read_u64_file(const char *path, uint64_t *v);
int tx_packets(const char *dev, uint64_t *v);
void tx_wait(const char *dev, uint64_t t0, uint64_t p0, uint64_t loop_end,
	     uint64_t expect, struct tx_span *ts);
void tx_put(struct json_object *o, const struct tx_span *ts);
int proc_cpu_ns(pid_t pid, uint64_t *ns);
int agent_drain(pid_t pid, uint64_t *ns);

/* guest_opens.c: the hooked open() loop, cost uses it too. */
int open_loop(const char *path, uint64_t count, uint64_t rate,
	      uint64_t *errors, uint64_t *late, uint64_t *elapsed);

int cmd_opens(int argc, char **argv);
int cmd_cost(int argc, char **argv);
int cmd_sendto(int argc, char **argv);
int cmd_pktgen(int argc, char **argv);

#endif
