// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-bench-guest pktgen (guest_pktgen.c). */
#ifndef BPFWIRE_BENCH_GUEST_PKTGEN_H
#define BPFWIRE_BENCH_GUEST_PKTGEN_H

int cmd_pktgen(int argc, char **argv);

#endif
