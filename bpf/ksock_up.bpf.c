// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ksock sender for the API Linux merged (no bind, 4-byte create opts,
 * connect to a union of sockaddrs): the same source as ksock.bpf.c, whose
 * setup program this macro switches. Its skeleton is bpfwire_ksock_up.
 */
#define BPFWIRE_KSOCK_UPSTREAM
#include "ksock.bpf.c"
