/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The topology as a picture: hosts in a row, segments as bars
 * below them, a NIC as the line between, labelled with its name and first
 * address. An SVG document built with libxml2 and written atomically.
 */
#ifndef BPFWIRE_LAB_TOPO_SVG_H
#define BPFWIRE_LAB_TOPO_SVG_H

#include <stddef.h>

#include "topo/topology.h"

struct topology;

/* The SVG text, malloc'd; NULL with errno. */
char *topo_svg(const struct topology *t);
/* Parse topo_path with lab/topo/topo_parse.c, write the SVG to out; -1 with err set. */
int topo_svg_write(const char *topo_path, const char *out, char *err, size_t errlen);

#endif
