// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-bench-guest cost (guest_cost.c). */
#ifndef BPFWIRE_BENCH_GUEST_COST_H
#define BPFWIRE_BENCH_GUEST_COST_H

int cmd_cost(int argc, char **argv);

#endif
