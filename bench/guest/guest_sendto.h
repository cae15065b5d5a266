// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-bench-guest sendto (guest_sendto.c). */
#ifndef BPFWIRE_BENCH_GUEST_SENDTO_H
#define BPFWIRE_BENCH_GUEST_SENDTO_H

int cmd_sendto(int argc, char **argv);

#endif
