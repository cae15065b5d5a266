/* SPDX-License-Identifier: GPL-2.0-only */
/* Remote hosts over SSH and their VXLANs (remote.c; see lab/README.md). */
#ifndef BPFWIRE_LAB_VM_REMOTE_H
#define BPFWIRE_LAB_VM_REMOTE_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"
#include "topo/topology.h"

/* A copy of t with only what boots (no remote hosts, only part's guests), or NULL. */
struct topology *remote_guests_only(const struct topology *t, const char *part);
/* Names, VNIs and MTUs of the remote hosts' tunnels; before the guests' setup.sh. */
int remote_layout(struct lab_run *r, const struct topology *t, const char *part);
/* Each remote answers over SSH within 8 s: 0, or -1 naming the one that does not. */
int remote_check(struct lab_run *r, bool quiet);
/* Both ends of every VXLAN, the remote's addresses and its capture; the links to other parts. */
int remote_up(struct lab_run *r, const struct topology *t, bool capture);
/* Removes both ends (verified by VNI), kills what the lab started there, keeps its dmesg. */
int remote_down(struct lab_run *r);
/* Each remote's dmesg.log since up (root there only), scanned like a console. */
int remote_scan_splats(const struct lab_run *r, FILE *f);

#endif
