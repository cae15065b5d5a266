/* SPDX-License-Identifier: GPL-2.0-only */
/* Every page of one run, for `bpfwire-lab report` and after a run (pages.c). */
#ifndef BPFWIRE_LAB_REPORT_PAGES_H
#define BPFWIRE_LAB_REPORT_PAGES_H

#include <stddef.h>

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
