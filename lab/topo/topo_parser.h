/* SPDX-License-Identifier: GPL-2.0-only */
/* The topology parser's state, shared by topology.c and topo_validate.c; lab-private. */
#ifndef BPFWIRE_LAB_TOPO_PARSER_H
#define BPFWIRE_LAB_TOPO_PARSER_H

#include <stddef.h>

#include "topology.h"

#define MAX_TOKENS 16

struct parser {
	const char *path;
	struct topology *t;
	char *err;
	size_t errlen;
	int line;
	enum { BLK_NONE, BLK_SEGMENT, BLK_HOST, BLK_PART } blk;
	/* nic segment names and route devs, resolved after the whole file */
	char nic_seg[TOPO_MAX_HOSTS][TOPO_MAX_NICS][64];
	char addr_dev[TOPO_MAX_HOSTS][TOPO_MAX_NICS * TOPO_MAX_ADDRS][TOPO_IFNAME_MAX + 1];
	struct topo_addr pend_addr[TOPO_MAX_HOSTS][TOPO_MAX_NICS * TOPO_MAX_ADDRS];
	int npend[TOPO_MAX_HOSTS];
	char host_part[TOPO_MAX_HOSTS][64];	/* resolved after the whole file */
};

/* "FILE:LINE: what" into p->err; always -1. */
__attribute__((format(printf, 3, 4)))
int fail(struct parser *p, int line, const char *fmt, ...);
int topo_segment_index(const struct topology *t, const char *name);
/* part NAME, and the key of its block (topology.c). */
int topo_open_part(struct parser *p, char **tok, int n);
int topo_part_key(struct parser *p, char **tok, int n);
/* After the whole file: resolve names, check addresses (topo_validate.c). */
int topo_validate(struct parser *p);

#endif
