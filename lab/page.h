/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pages of a run for people: RUN/index.html (page.c),
 * RUN/summary.md (summary_md.c), RESULTS/index.html (page_index.c), and
 * report.c, which writes all of them for one run.
 */
#ifndef BPFWIRE_LAB_PAGE_H
#define BPFWIRE_LAB_PAGE_H

#include <stdbool.h>
#include <stddef.h>

/* The most of one run file (a step's output, a console) a page reads. */
#define LAB_PAGE_FILE_MAX (32u << 20)

/* RUN/index.html; topo_svg: RUN/topology.svg is there to show. -1 with err. */
int page_run_write(const char *dir, bool topo_svg, char *err, size_t errlen);
/* RUN/summary.md. -1 with err. */
int summary_md_write(const char *dir, char *err, size_t errlen);
/* RESULTS/index.html: every run dir in results, newest first. -1 with err. */
int page_index_write(const char *results, char *err, size_t errlen);

/*
 * Every page of the run in dir (topology.svg, index.html, summary.md), then
 * the index of the results dir that holds it, when that dir is ours and
 * no one else can write it. Each failure is said on
 * stderr; returns how many failed.
 */
int report_run(const char *dir);
/* The newest run of scenario in results (NAME-STAMP with a summary.json) into out; -1: none. */
int report_latest(const char *results, const char *scenario, char *out, size_t len);

#endif
