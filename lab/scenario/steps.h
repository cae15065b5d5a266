/* SPDX-License-Identifier: GPL-2.0-only */
/* The scenario runner's state and its steps (runner.c drives, steps.c runs). */
#ifndef BPFWIRE_LAB_STEPS_H
#define BPFWIRE_LAB_STEPS_H

#include <json-c/json.h>
#include <limits.h>
#include <stddef.h>

#include "scenario.h"
#include "topo/topology.h"
#include "vm/model.h"

struct spawned {
	char id[SCN_ID_MAX + 1];
	char host[SCN_ID_MAX + 1];
	long pid;
};

struct runner {
	struct scenario *s;
	struct topology *t;
	struct lab_run *lab;
	const char *host;	/* the current step's host, for ${HOST} */
	char results[PATH_MAX];
	int nspawned;
	struct spawned spawned[SCN_MAX_STEPS];
	json_object *steps, *reports;
	double t0;
	char kernel[PATH_MAX];	/* the bzImage booted */
	char release[128];	/* its release; "" when unread */
	unsigned series;	/* KSERIES_* of the API (or the release); 0: neither known */
	int api_known;		/* the kfunc API was read (api.json or vmlinux beside the bzImage) */
	int ksock, netpoll;	/* then: enum kapi_ksock, enum kapi_netpoll (kapi.h) */
	char api_from[PATH_MAX];	/* the file it was read from */
};

/* Runs step idx, recording it in js; 0 when its expectation holds, else why. */
int run_step(struct runner *rn, int idx, json_object *js, char *why, size_t whylen);
/* One line saying what a step does, for the log and the summary. */
void step_what(const struct scn_step *st, char *out, size_t len);
/* A message into why; a message cut short ends in "...". */
void why_set(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
