// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench.json, bench.txt and bench.svg from a benchmark run's shares.
 *
 * Loss accounting for one run: every event the sender saw either reached the
 * receiver's socket or is lost for a counted cause:
 *   eagain   the send path refused it with -EAGAIN (sender counters)
 *   errors   any other send error (sender counters)
 *   queue    dropped by the sender's qdisc or driver (tc and tx_dropped
 *            deltas; an injected netem loss is a qdisc drop in the guest)
 *   wire     dropped on the host between the guests: the sender tap's RX
 *            drops and the receiver tap's TX drops (a frame the receiver
 *            guest did not take)
 *   rx       dropped by the receiver's socket buffer
 * and "unaccounted" is what is left. It is reported, never folded away.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include "errnames.h"
#include "gen.h"
#include "jsonget.h"
#include "report_int.h"
#include "report_json.h"
#include "report_read.h"
#include "report_svg.h"
#include "report_txt.h"

bool bench_config_has_lockdep(const char *path)
{
	char line[256];
	bool on = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strcmp(line, "CONFIG_LOCKDEP=y\n"))
			on = true;
	fclose(f);
	return on;
}

int bench_report(const char *run, FILE *out, char *err, size_t errlen)
{
	struct report *rp = calloc(1, sizeof(*rp));
	char path[4096];
	json_object *sum, *root;
	FILE *f;
	int ret = -1;

	if (!rp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (bench_params_load(run, &rp->p, err, errlen))
		goto out;
	if (rp->p.repeats > MAXREP) {
		snprintf(err, errlen, "at most %d repeats", MAXREP);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/summary.json", run);
	sum = json_object_from_file(path);
	snprintf(rp->accel, sizeof(rp->accel), "%s", jget_str(sum, "accel", "?"));
	json_object_put(sum);
	read_text(run, "uname", rp->uname, sizeof(rp->uname));
	read_run_file(run, "pinning.txt", "vCPU threads not pinned", rp->pinning, sizeof(rp->pinning));
	read_run_file(run, "commit", "unknown", rp->commit, sizeof(rp->commit));
	read_run_file(run, "load.txt", "unknown", rp->load, sizeof(rp->load));
	read_text(run, "clocksource", rp->clocksource, sizeof(rp->clocksource));
	/* refined-jiffies ticks in 4 ms: no latency can be read off it. */
	if (strcmp(rp->clocksource, "tsc")) {
		snprintf(err, errlen, "the sender's clocksource is '%s', not tsc (bench/README.md: the lab "
			 "passes tsc_early_khz and tsc=reliable)", rp->clocksource);
		goto out;
	}
	/* bpfwire-bench copies BUILD/kernel/config there before the run. */
	snprintf(path, sizeof(path), "%s/kernel-config", run);
	rp->lockdep = bench_config_has_lockdep(path);
	snprintf(path, sizeof(path), "%s/summary.json", run);
	{
		/* The run's date: summary.json is written when the lab run ends. */
		struct stat sb;
		time_t when = stat(path, &sb) ? time(NULL) : sb.st_mtime;

		strftime(rp->date, sizeof(rp->date), "%Y-%m-%d %H:%M UTC", gmtime(&when));
	}

	for (int m = 0; m < bench_nmethods; m++) {
		if (!have(rp, m))
			continue;
		for (int r = 1; r <= rp->p.repeats && !rp->p.icount; r++) {
			if (read_rate(run, m, r, &rp->r[m].runs[rp->r[m].nruns], err, errlen))
				goto out;
			rp->r[m].nruns++;
		}
		summarise(&rp->r[m]);
		if (!bench_is_bpf(&bench_methods[m]))
			continue;
		/* Under icount only the low rate: a half "rate" would be instructions too. */
		for (int half = 0; half <= !rp->p.icount; half++)
			if (read_lat(run, m, half, &rp->r[m].lat[half], err, errlen))
				goto out;
		if (read_cost(run, bench_methods[m].name, &rp->r[m].cost_med, &rp->r[m].cost_call,
			      &rp->r[m].cost_task)) {
			snprintf(err, errlen, "cost-%s: missing or no median", bench_methods[m].name);
			goto out;
		}
		read_cost_failed(run, bench_methods[m].name, &rp->r[m]);
	}
	if (read_cost(run, "none", &rp->cost_none, &rp->cost_none_call, &rp->cost_none_task)) {
		snprintf(err, errlen, "cost-none: missing or no median");
		goto out;
	}

	root = build_json(rp);
	snprintf(path, sizeof(path), "%s/bench.json", run);
	if (json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED)) {
		snprintf(err, errlen, "can't write %s: %s", path, json_util_get_last_err());
		json_object_put(root);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/bench.txt", run);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "can't write %s: %s", path, errno_text(errno));
		json_object_put(root);
		goto out;
	}
	write_txt(f, rp);
	print_targets(f, root);
	fclose(f);
	if (out) {
		write_txt(out, rp);
		print_targets(out, root);
	}
	json_object_put(root);
	snprintf(path, sizeof(path), "%s/bench.svg", run);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "can't write %s: %s", path, errno_text(errno));
		goto out;
	}
	write_svg(f, rp);
	fclose(f);
	ret = 0;
out:
	for (int m = 0; m < bench_nmethods; m++)
		for (int h = 0; h < 2; h++)
			free(rp->r[m].lat[h].ns);
	free(rp);
	return ret;
}
