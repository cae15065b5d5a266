/* SPDX-License-Identifier: GPL-2.0-only */
/* Address arithmetic of the topology parser, and addresses as text (topo_prefix.c). */
#ifndef BPFWIRE_LAB_TOPO_PREFIX_H
#define BPFWIRE_LAB_TOPO_PREFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology.h"

/* "ADDR" or "ADDR/LEN" (plen -1 when absent); 0 or -1. */
int prefix_parse(const char *s, struct topo_prefix *out);
const uint8_t *prefix_bytes(const struct topo_prefix *p);
/* Is address a inside network n/n.plen? */
bool prefix_contains(const struct topo_prefix *n, const struct topo_prefix *a);
bool prefix_host_zero(const struct topo_prefix *p);
bool prefix_host_ones(const struct topo_prefix *p);	/* IPv4 broadcast */
bool prefix_same(const struct topo_prefix *a, const struct topo_prefix *b);
/* Only documentation prefixes and link-local may appear in a topology. */
bool prefix_documentation(const struct topo_prefix *p);
bool prefix_link_local(const struct topo_prefix *p);

void topo_format_mac(const uint8_t mac[6], char out[18]);
void topo_format_prefix(const struct topo_prefix *p, char *out, size_t len);
/* The lab's own address on a dhcp segment: the first host of the prefix. */
void topo_segment_lab_addr(const struct topo_prefix *p, struct topo_prefix *out);

#endif
