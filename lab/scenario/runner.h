/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-lab run / list: scenarios on top of the lab (vm/lifecycle.h). */
#ifndef BPFWIRE_LAB_RUNNER_H
#define BPFWIRE_LAB_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scenario.h"
#include "steps.h"
#include "topo/topology.h"

struct runner_opts {
	const char *results;	/* NULL: ./results/NAME-YYYYmmdd-HHMMSS */
	const char *kernel;	/* NULL: the lab's default */
	const char *kernel_series;	/* seed|upstream: that series' kernel (kseries.h) */
	const char *accel;	/* auto, kvm, tcg */
	const char *append;	/* extra kernel parameters for every guest */
	bool keep;		/* leave the lab up afterwards */
	bool no_capture;	/* no tcpdump on the segments */
	bool trace;		/* run bpfwire-trace in every guest (trace/) */
	const char *underlay_netns;	/* remote hosts' underlay netns; NULL: the root one */
	const char *ssh_config;	/* ssh -F for remote hosts */
	bool dry_run;		/* parse and resolve, say what would run, boot nothing */
	unsigned share_mib;	/* each guest's share size (tmpfs); 0: the lab's default */
};

/* Directory of the shipped scenarios (SOURCE/scenarios). */
const char *runner_scenario_dir(void);
/* NAME as `run` finds it: a path when it has a '/', else one under that directory. */
void runner_scenario_path(const char *name, char *path, size_t len);
/*
 * What `run` checks before it boots, beyond the parse: every step's host
 * and interface is in the topology, which is one whole lab. Prints each
 * error as "file:line: what"; returns how many.
 */
struct scenario;
struct topology;
int runner_check_topology(const struct scenario *s, const struct topology *t, FILE *err);
/* SOURCE/topology/NAME.topo for the scenario's `topology NAME`. */
void runner_topology_path(const struct scenario *s, char *path, size_t len);
/*
 * Run one scenario by name or path. Returns the verdict: 0 pass, 1 fail,
 * 2 usage, 77 not applicable to the kernel's series (or its kernel unbuilt).
 */
int runner_run(const char *name, const struct runner_opts *o);
/*
 * The scenarios in dir, sorted: at most max malloc'd names into names; how
 * many, or -1 (said). scenarios/names.sh decides which files are, the one
 * rule: meson's list of scenario tests runs it too.
 */
int runner_scenario_names(const char *dir, char **names, int max);
/* Print every shipped scenario with its summary line. */
int runner_list(FILE *f);

/*
 * runner.c's, called by its tests without a guest too: every step in order
 * (after a failure the rest are skipped), returning the verdict with the
 * reason; then RUN/summary.json and RUN/summary.txt.
 */
int runner_steps(struct runner *rn, int failed, char *reason, size_t rlen);

#endif
