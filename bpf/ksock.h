/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-agent --via ksock: load, set up the kernel socket, attach, pin (ksock.c). */
#ifndef BPFWIRE_KSOCK_H
#define BPFWIRE_KSOCK_H

#include "args.h"

/* 0, or -1 after saying what failed; or KAPI_EXIT_API (kapi.h) when the
 * kernel lacks the kfunc API it needs. */
int install_ksock(const struct agent_opts *o);

#endif
