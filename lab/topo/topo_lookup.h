/* SPDX-License-Identifier: GPL-2.0-only */
/* Lookups in a parsed topology (topo_lookup.c). */
#ifndef BPFWIRE_LAB_TOPO_LOOKUP_H
#define BPFWIRE_LAB_TOPO_LOOKUP_H

#include "topology.h"

const struct topo_host *topo_host(const struct topology *t, const char *name);
int topo_nic_index(const struct topo_host *h, const char *ifname);
int topo_segment_index(const struct topology *t, const char *name);
int topo_set_icount(struct topology *t, const char *name);
const char *topo_model_qemu(enum nic_model m);	/* QEMU -device name */
const char *topo_model_name(enum nic_model m);	/* grammar name */

#endif
