/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The topology checks that need the whole file (topo_validate.c), on the
 * state topo_parse.c's reader leaves; lab-private.
 */
#ifndef BPFWIRE_LAB_TOPO_VALIDATE_H
#define BPFWIRE_LAB_TOPO_VALIDATE_H

#include <stddef.h>

#include "linegrammar.h"
#include "topology.h"

struct parser {
	struct lg_err e;	/* the file's path, and where its error goes */
	struct topology *t;
	int line;
	enum { BLK_NONE, BLK_SEGMENT, BLK_HOST, BLK_PART } blk;
	/* nic segment names and route devs, resolved after the whole file */
	char nic_seg[TOPO_MAX_HOSTS][TOPO_MAX_NICS][64];
	char addr_dev[TOPO_MAX_HOSTS][TOPO_MAX_NICS * TOPO_MAX_ADDRS][TOPO_IFNAME_MAX + 1];
	struct topo_addr pend_addr[TOPO_MAX_HOSTS][TOPO_MAX_NICS * TOPO_MAX_ADDRS];
	int npend[TOPO_MAX_HOSTS];
	char host_part[TOPO_MAX_HOSTS][64];	/* resolved after the whole file */
};

/* After the whole file: resolve names, check addresses. */
int topo_validate(struct parser *p);

#endif
