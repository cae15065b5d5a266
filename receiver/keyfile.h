/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MAC key file (bpf/wire.h's SipHash-2-4 key): 32 hex digits, the first
 * pair is key byte 0, whitespace allowed anywhere. Opened without following
 * a symlink, and refused when group or others may read or write it (the
 * agent's rule, bpf/args.c).
 */
#ifndef BPFWIRE_RECV_KEYFILE_H
#define BPFWIRE_RECV_KEYFILE_H

#include <stdint.h>

/* 0, or -1 after saying why through common/log.h. */
int bpfw_key_load(const char *path, uint8_t key[16]);

#endif /* BPFWIRE_RECV_KEYFILE_H */
