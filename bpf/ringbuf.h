/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-agent --via ringbuf: the send() baseline, in the foreground (ringbuf.c). */
#ifndef BPFWIRE_RINGBUF_H
#define BPFWIRE_RINGBUF_H

#include "args.h"

/* 0, or -1 after saying what failed. */
int run_ringbuf(const struct agent_opts *o);

#endif
