/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading a topology file (topo_parse.c): the grammar, then the checks. */
#ifndef BPFWIRE_LAB_TOPO_PARSE_H
#define BPFWIRE_LAB_TOPO_PARSE_H

#include <stddef.h>

#include "topology.h"

/*
 * Parse a topology (topo_parse.c). On error return -1 and put "file:line: what is wrong"
 * into err. text may be NULL to read path.
 */
int topo_parse(const char *path, const char *text, struct topology *t,
	       char *err, size_t errlen);
static inline int topo_parse_file(const char *path, struct topology *t,
				  char *err, size_t errlen)
{
	return topo_parse(path, NULL, t, err, errlen);
}

#endif
