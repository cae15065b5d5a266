// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-bench-guest cost: per-open() cost over R timed rounds.
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
#include "guest_cost.h"
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

int cmd_cost(int argc, char **argv)
{
	struct out out = { .dev = "eth0" };
	struct cost_res c = { .repeats = 5 };
	struct counters before, after;
	const char *path = NULL;
	uint64_t pid = 0, ns;
	const struct gopt opts[] = {
		GOPT_PATH(&path),
		GOPT_COUNT(&c.count),
		GOPT_U64("repeats", 'R', &c.repeats, 1, 1000),
		GOPT_U64("agent-pid", 'a', &pid, 1, 1u << 22),
		GOPT_DEV(&out),
		GOPT_JSON(&out),
	};
	int ret;

	ret = guest_opts_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), cost_usage);
	if (ret >= 0)
		return ret;
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
