/* SPDX-License-Identifier: GPL-2.0-only */
/* Remote hosts over SSH and their VXLANs (remote.c; see lab/README.md). */
#ifndef BPFWIRE_LAB_VM_REMOTE_H
#define BPFWIRE_LAB_VM_REMOTE_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"
#include "proc.h"
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

/* ip link add DEV type vxlan id VNI remote PEER dstport 4789 nolearning */
void vxlan_add_argv(struct argv *a, const char *dev, unsigned vni, const char *peer);
/*
 * The nft commands (n of them, each an argv) that drop VXLAN with this VNI
 * to UDP 4789 from anyone but PEER, in table inet TABLE, chain pin (raw
 * prerouting). Returns n.
 */
int vxlan_pin_argvs(const char *table, unsigned vni, const char *peer, struct argv cmds[4]);
/* The remote end's line (remote-side.sh end): its pin, its VXLAN, MAC, MTU, addresses, up. */
int remote_end_script(const struct lab_run *r, const struct lab_remote *m, const struct lab_tunnel *tn,
		      const struct topo_nic *nic, char *out, size_t len);
/* down's line on remote m (remote-side.sh down): pids, VXLANs, the pin, the dir (checked first). */
int remote_down_script(const struct lab_run *r, const struct lab_remote *m, char *out, size_t len);
/* The nft table of a run's pins: in the lab's underlay netns (m NULL), or on remote m. */
void vxlan_pin_table(const struct lab_run *r, const struct lab_remote *m, char *out, size_t len);

#endif
