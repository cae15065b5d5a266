/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one list of kernel-splat patterns, for every scan: the lab's consoles,
 * the kernel suite's log, the agent test and the benchmark.
 */
#ifndef BPFWIRE_COMMON_SPLAT_H
#define BPFWIRE_COMMON_SPLAT_H

#include <stddef.h>
#include <stdio.h>

/* The largest console bpfwire-splat reads; a larger one is no evidence. */
#define SPLAT_CONSOLE_MAX (32u << 20)

extern const char *const splat_patterns[];
extern const size_t splat_npatterns;

/* The pattern that line (len bytes, no NUL needed) matches, or NULL. */
const char *splat_match(const char *line, size_t len);
/*
 * Scans all len bytes of text, NUL bytes included (a truncated console
 * starts with NULs). Returns the number of splat lines; when quote is
 * given, each is quoted there, with up to 11 lines after it, under label,
 * escaped (escape.h): a console is the guest's text.
 */
int splat_scan(const char *text, size_t len, FILE *quote, const char *label);

#endif /* BPFWIRE_COMMON_SPLAT_H */
