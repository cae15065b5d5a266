/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-lab run / list: scenarios on top of the lab (lab/run.h). */
#ifndef BPFWIRE_LAB_RUNNER_H
#define BPFWIRE_LAB_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

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
};

/* Directory of the shipped scenarios (SOURCE/scenarios). */
const char *runner_scenario_dir(void);
/*
 * Run one scenario by name or path. Returns the verdict: 0 pass, 1 fail,
 * 2 usage, 77 not applicable to the kernel's series (or its kernel unbuilt).
 */
int runner_run(const char *name, const struct runner_opts *o);
/* Print every shipped scenario with its summary line. */
int runner_list(FILE *f);

#endif
