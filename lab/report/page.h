/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run's page for people, RUN/index.html (page.c); pages.c writes it with
 * the others (summary_md.h, page_index.h).
 */
#ifndef BPFWIRE_LAB_REPORT_PAGE_H
#define BPFWIRE_LAB_REPORT_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "topo_svg.h"


/* The most of one run file (a step's output, a console) a page reads. */
#define LAB_PAGE_FILE_MAX (32u << 20)

/* RUN/index.html; topo_svg: RUN/topology.svg is there to show. -1 with err. */
int page_run_write(const char *dir, bool topo_svg, char *err, size_t errlen);

#endif
