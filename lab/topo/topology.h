/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A topology: segments (bridges) and hosts (QEMU guests) with NICs,
 * addresses, routes and sysctls, as topo_parse.c reads it from a file
 * (grammar: topology/README.md). Only types: no file's functions.
 */
#ifndef BPFWIRE_LAB_TOPOLOGY_H
#define BPFWIRE_LAB_TOPOLOGY_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#define TOPO_MAX_SEGMENTS 16
#define TOPO_MAX_HOSTS    32
#define TOPO_MAX_NICS     8
#define TOPO_MAX_ADDRS    8
#define TOPO_MAX_ROUTES   16
#define TOPO_MAX_SYSCTLS  16
#define TOPO_NAME_MAX     12	/* so "br-NAME" fits IFNAMSIZ */
#define TOPO_IFNAME_MAX   15

enum nic_model { NIC_VIRTIO = 0, NIC_E1000, NIC_E1000E };

struct topo_prefix {
	int family;			/* AF_INET, AF_INET6, 0 when absent */
	union { struct in_addr v4; struct in6_addr v6; } addr;
	int plen;
};

struct topo_segment {
	char name[TOPO_NAME_MAX + 1];
	int line;
	struct topo_prefix v4, v6;
	bool dhcp;			/* dnsmasq: DHCPv4 + RA/SLAAC */
};

struct topo_addr {
	struct topo_prefix a;		/* a.family == 0: dhcp */
	int line;
};

struct topo_nic {
	char ifname[TOPO_IFNAME_MAX + 1];
	int line;
	int segment;			/* index into topology.segments */
	enum nic_model model;
	uint8_t mac[6];
	bool mac_given;
	bool dhcp;
	int naddrs;
	struct topo_addr addrs[TOPO_MAX_ADDRS];
};

struct topo_route {
	int family;
	char dest[64];			/* "default" or a prefix */
	char via[64];			/* gateway address, "" if none */
	char dev[TOPO_IFNAME_MAX + 1];	/* "" if none */
	int line;
};

struct topo_sysctl {
	char key[128];
	char value[64];
	int line;
};

/*
 * A remote host: a real machine reached over SSH, its NICs joined to their
 * segments by VXLAN (lab/vm/remote.c). The lab does not boot it.
 */
#define TOPO_USER_MAX 32
struct topo_remote {
	bool on;
	char user[TOPO_USER_MAX + 1];
	char addr[64];			/* an IPv4 or IPv6 literal: no names */
	int family;
	unsigned port;			/* 22 unless given */
	char key[1024];			/* absolute path; "" none */
	int line;
};

/* A part of a lab split across machines: `up --part NAME` boots its hosts. */
#define TOPO_MAX_PARTS 8
struct topo_part {
	char name[TOPO_NAME_MAX + 1];
	char addr[64];			/* the underlay address of the machine that runs it */
	int family;
	int line;
};

struct topo_host {
	char name[TOPO_NAME_MAX + 1];
	int line;
	int part;			/* index into topology.parts; -1: none */
	struct topo_remote remote;
	unsigned memory_mib;
	unsigned cpus;
	bool router;
	bool icount;			/* -icount shift=0,sleep=off: its clock counts instructions */
	char append[256];		/* extra kernel command line */
	int nnics, nroutes, nsysctls;
	struct topo_nic nics[TOPO_MAX_NICS];
	struct topo_route routes[TOPO_MAX_ROUTES];
	struct topo_sysctl sysctls[TOPO_MAX_SYSCTLS];
};

struct topology {
	char name[64];
	char path[4096];
	int nsegments, nhosts, nparts;
	struct topo_segment segments[TOPO_MAX_SEGMENTS];
	struct topo_host hosts[TOPO_MAX_HOSTS];
	struct topo_part parts[TOPO_MAX_PARTS];
};

#define TOPO_DEFAULT_MEMORY_MIB 256

#endif
