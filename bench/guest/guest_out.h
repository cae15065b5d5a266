// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-bench-guest's output, usage errors and the after-burst waits (guest_out.c). */
#ifndef BPFWIRE_BENCH_GUEST_OUT_H
#define BPFWIRE_BENCH_GUEST_OUT_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <json-c/json.h>
#include "guest.h"

/* The subcommand, and "bpfwire-bench-guest SUBCOMMAND", every message's prefix. */
extern const char *cur_cmd;
extern char log_prog[64];

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

#endif
