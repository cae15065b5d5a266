// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest's constants and the structs its parts share. The JSON
 * output every subcommand writes, usage errors, and the after-burst waits
 * are guest_out.h's; the options are guest_opts.h's. Each subcommand is a
 * file of its own: guest_opens.c, guest_cost.c, guest_sendto.c,
 * guest_pktgen.c.
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

#endif
