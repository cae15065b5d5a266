/* SPDX-License-Identifier: GPL-2.0-only */
/* What the lab does in a guest, through qemu-ga and QMP (guest.c). */
#ifndef BPFWIRE_LAB_VM_GUEST_H
#define BPFWIRE_LAB_VM_GUEST_H

#include <stdbool.h>

#include "model.h"
#include "qga.h"
#include "topo/topology.h"

int guest_write_setup(const struct lab_run *r, const struct topology *t, int hi);
/* One qemu-ga client per guest at a time: an flock'd fd, or -1. */
int guest_lock(const struct lab_run *r, const char *host);
int lab_exec(struct lab_run *r, const char *host, char *const argv[], int timeout_ms,
	     struct qga_result *res);
long lab_spawn(struct lab_run *r, const char *host, char *const argv[]);
int lab_wait(struct lab_run *r, const char *host, long pid, int timeout_ms,
	     struct qga_result *res);
int lab_link(struct lab_run *r, const char *host, const char *iface, bool up, enum link_how how);
/* tc netem in the guest on IFACE's egress; args NULL: remove. */
int lab_netem(struct lab_run *r, const char *host, const char *iface, char *const args[]);
/* The same on the NIC's tap in the lab netns (needs sch_netem in the host kernel). */
int lab_netem_tap(struct lab_run *r, const char *host, const char *iface, char *const args[]);
/*
 * `ip -s -j link show` of IFACE's tap, written to FILE (relative) in HOST's
 * share, never through a link: drops between the bridge and the guest show
 * there, not in the guest.
 */
int lab_tap_stats(struct lab_run *r, const char *host, const char *iface, const char *file);
int lab_shell(struct lab_run *r, const char *host);

#endif
