/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-recv's expectations as named checks, and the verdict line (recv_verdict.c). */
#ifndef BPFWIRE_RECV_VERDICT_H
#define BPFWIRE_RECV_VERDICT_H

#include "recv_run.h"

struct totals side_totals(struct bpfw_senders *s);
void evaluate(struct run *run, struct checks *c);
void print_line(struct run *run, struct checks *c);

#endif
