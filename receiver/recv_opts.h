/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-recv's options: parsing, checking and --help (recv_opts.c). */
#ifndef BPFWIRE_RECV_OPTS_H
#define BPFWIRE_RECV_OPTS_H

#include "recv_run.h"

/* 0, or -1 after saying why (exit EXIT_USAGE). */
int parse_opts(int argc, char **argv, struct opts *o);

#endif
