/* SPDX-License-Identifier: GPL-2.0-only */
/* The commands bpfwire-agent's main() dispatches to. */
#ifndef BPFWIRE_AGENT_H
#define BPFWIRE_AGENT_H

#include "args.h"

/*
 * Each returns 0, or -1 after saying what failed; the installs also
 * KAPI_EXIT_API (kapi.h) when the kernel lacks the kfunc API they need.
 */
int install_ksock(const struct agent_opts *o);	/* ksock.c */
int install_netpoll(const struct agent_opts *o);	/* netpoll.c */
int run_ringbuf(const struct agent_opts *o);	/* ringbuf.c */
int cmd_status(const struct agent_opts *o);	/* pins.c */
int cmd_unload(const struct agent_opts *o);	/* pins.c */
int cmd_flush(const struct agent_opts *o);	/* pins.c: --batch's partial batch */

#endif /* BPFWIRE_AGENT_H */
