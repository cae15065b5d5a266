// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-bench-guest opens (guest_opens.c). */
#ifndef BPFWIRE_BENCH_GUEST_OPENS_H
#define BPFWIRE_BENCH_GUEST_OPENS_H

#include <stdint.h>

/* The hooked open() loop, cost uses it too. */
int open_loop(const char *path, uint64_t count, uint64_t rate,
	      uint64_t *errors, uint64_t *late, uint64_t *elapsed);

int cmd_opens(int argc, char **argv);

#endif
