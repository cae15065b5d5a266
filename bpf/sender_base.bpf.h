/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a sender's BPF headers share: the datagram's offsets, cfg, the maps
 * and the counters. sender.bpf.h, batch.bpf.h and encrypt.bpf.h each
 * include it, so their includes run one way (sender over batch and
 * encrypt, all three over this).
 */
#ifndef BPFWIRE_SENDER_BASE_BPF_H
#define BPFWIRE_SENDER_BASE_BPF_H

#include "encode.h"

/* The sender's own send: its .bpf.c defines it (sender.bpf.h says how). */
static __always_inline int bpfwire_xmit(__u8 *buf, __u32 len);

/*
 * One buffer for both versions: the payload is always at 56. A v2 header
 * fills bytes 0..55; a v1 header starts at 16, so the offsets the
 * verifier sees stay constant either way.
 */
#define OFF_PAYLOAD	BPFWIRE_HDR_LEN_V2
#define OFF_V1		(BPFWIRE_HDR_LEN_V2 - BPFWIRE_HDR_LEN)
#define OFF_COMM	(OFF_PAYLOAD + 8)
#define OFF_PATH	(OFF_PAYLOAD + BPFWIRE_EVENT_FIXED_LEN)

/* Written by the agent before load (skel->rodata->cfg). */
const volatile struct bpfwire_cfg cfg = {};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfwire_stats);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfwire_state);
} state SEC(".maps");

/*
 * The SipHash key, written once by the agent, then frozen: no syscall can
 * change it, and the programs may only read it. It is not pinned. Root can
 * still read it by map id (bpf/README.md, key handling).
 */
struct bpfwire_key {
	__u8 k[BPFWIRE_KEY_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__type(key, __u32);
	__type(value, struct bpfwire_key);
} sign_key SEC(".maps");

/* Not used by the programs: the agent fills it and pins it for status. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfwire_info);
} info SEC(".maps");

/*
 * Copy out of cfg. Never __builtin_memcpy from a cast-away-volatile cfg
 * field: clang folds the read to the zero initialiser (this sent every
 * datagram to 0.0.0.0, which is loopback, until a guest test caught it).
 */
static __always_inline void cfg_copy(void *dst, const volatile void *src, int n)
{
	int i;

#pragma unroll
	for (i = 0; i < n; i++)
		((__u8 *)dst)[i] = ((const volatile __u8 *)src)[i];
}

static __always_inline void bpfwire_count_err(struct bpfwire_stats *s, int err)
{
	__u32 e = -err;

	if (e >= BPFWIRE_ERRNO_SLOTS)
		e = 0;
	__sync_fetch_and_add(&s->failed, 1);
	__sync_fetch_and_add(&s->err[e], 1);
}

static __always_inline void bpfwire_count_sent(struct bpfwire_stats *s, int ret,
					       __u32 len, __u32 n_events)
{
	if (ret < 0) {
		bpfwire_count_err(s, ret);
		__sync_fetch_and_add(&s->events_failed, n_events);
	} else {
		__sync_fetch_and_add(&s->sent, 1);
		__sync_fetch_and_add(&s->bytes, len);
		__sync_fetch_and_add(&s->events_sent, n_events);
	}
}

#endif /* BPFWIRE_SENDER_BASE_BPF_H */
