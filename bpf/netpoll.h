/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-agent --via netpoll: load, set up netpoll, attach, pin (netpoll.c). */
#ifndef BPFWIRE_NETPOLL_H
#define BPFWIRE_NETPOLL_H

#include "args.h"

/* 0, or -1 after saying what failed; or KAPI_EXIT_API (kapi.h) when the
 * kernel lacks the kfunc API it needs. */
int install_netpoll(const struct agent_opts *o);

#endif
