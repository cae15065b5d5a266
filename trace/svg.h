/* SPDX-License-Identifier: GPL-2.0-only */
/* RUN/path.svg: bpfwire-path's lanes, one panel per host, sender and path (svg.c). */
#ifndef BPFWIRE_SVG_H
#define BPFWIRE_SVG_H

#include <stdio.h>
#include "datagram.h"

int write_svg(FILE *f, const struct host *hosts, int nhosts);

#endif
