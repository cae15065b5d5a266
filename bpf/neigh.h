/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtnetlink look-ups of the route to a destination and of the next hop's
 * MAC: netpoll has no ARP, so its user needs both. bpf's public header
 * (bpf_neigh_dep): the agent's netpoll loader and bench/guest's pktgen.
 */
#ifndef BPFWIRE_NEIGH_H
#define BPFWIRE_NEIGH_H

#include <linux/types.h>

struct route_info {
	int oif;
	int have_gw;
	__u8 gw[16];
	int have_src;
	__u8 src[16];
};

/* 0 and ri filled; -errno, or -ENOENT when there is no route. */
int route_get(int family, const __u8 *dst, int oif, struct route_info *ri);
/* 0 and mac filled, -ENOENT when no usable entry */
int neigh_get(int family, const __u8 *addr, int ifindex, __u8 mac[6]);
/* Like neigh_get, but makes the kernel resolve a missing entry first. */
int neigh_resolve(int family, const __u8 *addr, int ifindex, __u8 mac[6],
		  int timeout_ms);

#endif /* BPFWIRE_NEIGH_H */
