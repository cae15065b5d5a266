/* SPDX-License-Identifier: GPL-2.0-only */
/* The run's netns with its bridges and taps, dnsmasq, one tcpdump per segment (net.c). */
#ifndef BPFWIRE_LAB_VM_NET_H
#define BPFWIRE_LAB_VM_NET_H

#include <stdbool.h>

#include "model.h"
#include "topo/topology.h"

int net_up(struct lab_run *r, const struct topology *t, bool capture);
int net_start_tcpdump(struct lab_run *r, int s);
int lab_capture_start(struct lab_run *r, const char *segment);

#endif
