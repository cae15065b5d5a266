// SPDX-License-Identifier: GPL-2.0-only
/*
 * The senders' BPF SipHash-2-4 (bpf/sign.bpf.h), run through
 * BPF_PROG_TEST_RUN on a key and message passed in ctx_in. test_mac.c
 * checks it against the published vectors, carried here in .rodata from
 * bpf/siphash_vectors.h. (wire.h's C reference itself does not verify:
 * its byte-wise tail loop gives "invalid unbounded variable-offset read
 * from stack"; the guest test checks longer datagrams against it.)
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "sign.bpf.h"
#include "siphash_vectors.h"

#define EINVAL 22

/* Must match struct mac_ctx in test_mac.c. */
struct mac_ctx {
	__u8  key[BPFWIRE_KEY_LEN];
	__u32 len;
	__u32 pad;
	__u8  msg[BPFWIRE_DGRAM_MAX_V2 + 4];	/* 344: whole u64 loads */
};

const volatile __u8 sip64_vectors[64][8] = BPFWIRE_SIP64_VECTORS;
__u64 mac;

/* ctx is read at constant offsets only; the signer wants a stack buffer. */
static __always_inline int load(struct mac_ctx *c, __u8 *key, __u8 *buf)
{
	int i;

	if (c->len > BPFWIRE_DGRAM_MAX_V2)
		return -EINVAL;
	((__u64 *)key)[0] = ((__u64 *)c->key)[0];
	((__u64 *)key)[1] = ((__u64 *)c->key)[1];
	__builtin_memset(buf, 0, BPFWIRE_SIGN_BUF);
#pragma unroll
	for (i = 0; i < (int)sizeof(c->msg) / 8; i++)
		((__u64 *)buf)[i] = ((__u64 *)c->msg)[i];
	return 0;
}

SEC("syscall")
int mac_bpf(struct mac_ctx *c)
{
	__u8 buf[BPFWIRE_SIGN_BUF] __attribute__((aligned(8)));
	__u8 key[BPFWIRE_KEY_LEN] __attribute__((aligned(8)));
	__u32 len = c->len;

	if (load(c, key, buf))
		return -EINVAL;
	if (len > BPFWIRE_DGRAM_MAX_V2)
		return -EINVAL;
	mac = bpfwire_siphash_bpf(key, buf, len);
	return 0;
}

/*
 * Timing for bpf/README.md (SYSCALL programs take no repeat count):
 * MAC_BENCH_RUNS MACs of the same length through bpf_loop, each fed the
 * last one's output so none can be skipped, between two bpf_ktime_get_ns()
 * (which, under TCG, is too slow to time one MAC).
 */
#define MAC_BENCH_RUNS 10000
__u64 bench_ns;

struct mac_bench_ctx {
	__u8 *buf, *key;
	__u32 len;
	__u64 m;
};

static long mac_bench_one(__u64 i, void *ctx)
{
	struct mac_bench_ctx *b = ctx;
	__u32 len = b->len;

	if (len > BPFWIRE_DGRAM_MAX_V2)
		return 1;
	*(__u64 *)b->buf ^= b->m;
	b->m = bpfwire_siphash_bpf(b->key, b->buf, len);
	return 0;
}

SEC("syscall")
int mac_bench(struct mac_ctx *c)
{
	__u8 buf[BPFWIRE_SIGN_BUF] __attribute__((aligned(8)));
	__u8 key[BPFWIRE_KEY_LEN] __attribute__((aligned(8)));
	struct mac_bench_ctx b = { .buf = buf, .key = key, .len = c->len };
	__u64 t0;

	if (load(c, key, buf))
		return -EINVAL;
	t0 = bpf_ktime_get_ns();
	bpf_loop(MAC_BENCH_RUNS, mac_bench_one, &b, 0);
	bench_ns = bpf_ktime_get_ns() - t0;
	mac = b.m;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
