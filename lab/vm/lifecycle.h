/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A lab run, up and down (lifecycle.c). This is the API a scenario runner
 * calls (see lab/README.md):
 *
 *	lab_install_signals();
 *	lab_up(&opts, &topo, &run);          boots; tears down itself on failure
 *	lab_exec(run, "receiver", argv, 10000, &res);
 *	lab_link(run, "sender", "eth0", false, LINK_CARRIER);
 *	lab_down(run);                       always; returns splat count > 0 as 1
 *	lab_free(run);
 */
#ifndef BPFWIRE_LAB_VM_LIFECYCLE_H
#define BPFWIRE_LAB_VM_LIFECYCLE_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "topo/topology.h"

const char *lab_default_kernel(void);
int lab_up(const struct lab_up_opts *o, const struct topology *t, struct lab_run **out);
/* Tear down (certain, idempotent). Returns 0, or 1 if a console had a splat. */
int lab_down(struct lab_run *r, bool quiet);
/* down every run and every orphan bpfwire-* netns. */
int lab_down_all(bool quiet);
/*
 * A results dir RUN for a run, DIR itself (not through a link), made 0755
 * if missing; an existing one must be root's and writable by no one else,
 * or a user could have planted links where the lab writes
 * (consoles/HOST.log). Every dir above it must be root's (or the sudo
 * caller's) and writable by no one else unless root's and sticky (/tmp),
 * or its owner could swap RUN. out: its real path. 0, -EPERM refused
 * (why: one line), or -errno.
 */
int lab_claim_results(const char *dir, char *out, size_t len, char *why, size_t whylen);
/*
 * guest-init's first reason for a failed setup (stage.failed in the share),
 * as a warning; false when it gave none. Guest-written: one printable line,
 * and a stage.failed over 64 KiB is a failed boot, not read.
 */
bool guest_init_failed(const struct lab_guest *g);

#endif
