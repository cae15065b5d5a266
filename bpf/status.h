/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpfwire-agent status --json, as pins.c builds it from the pinned maps
 * (its writers are pins.h's).
 * Its fields are listed in status-json.fields (common/fields.h), which the
 * lab's `check` lints scenarios' stats IDs against; tests/test_status_json.c
 * runs these writers on made-up readings, as no host without the lab kernel
 * has maps to read.
 */
#ifndef BPFWIRE_STATUS_H
#define BPFWIRE_STATUS_H

#include <json-c/json.h>
#include "sender.h"

/* One installed sender, as read from its pin dir. */
struct status {
	struct bpfwire_info info;
	struct bpfwire_stats k;		/* summed over CPUs */
	struct bpfwire_stats u;		/* ringbuf: the agent's sendmsg half */
	int have_u;
	__u64 seq;
	__u32 pending;			/* --batch: events in the open batch */
	int agent_running;
};

#endif /* BPFWIRE_STATUS_H */
