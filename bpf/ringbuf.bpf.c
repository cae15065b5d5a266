// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringbuf sender, the status quo: the LSM programs build the very same
 * datagram (sequence and check included) and queue it on a ring buffer;
 * bpfwire-agent stays in the foreground and forwards it with sendmsg().
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "kfuncs.h"
#include "bpf_defs.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} rb SEC(".maps");

/* The agent's half of the counters (sendmsg results), mmapped by it. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct bpfwire_stats);
} ustats SEC(".maps");

static __always_inline int bpfwire_xmit(__u8 *buf, __u32 len)
{
	return bpf_ringbuf_output(&rb, buf, len, 0);
}

/* No --batch: one event per record and per datagram, as before. */
#define BPFWIRE_NO_BATCH
/* --encrypt: the agent makes each record wire v3 with libcrypto (ringbuf.c). */
#define BPFWIRE_NO_ENCRYPT
#include "sender.bpf.h"
