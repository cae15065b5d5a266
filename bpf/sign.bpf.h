/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SipHash-2-4 for BPF programs: the same algorithm as wire.h's
 * bpfwire_siphash24() (the C reference), shaped for the verifier.
 *
 * The message is a stack buffer of BPFWIRE_SIGN_BUF bytes, 8-aligned and
 * fully written (memset first). The 8-byte blocks go through bpf_loop(), so
 * the verifier checks the block once per call site: a plain bounded loop
 * would be walked block by block on each of the paths the FNV loop leaves,
 * one per datagram length. The last partial block is one 8-byte read
 * masked to its bytes, hence the 8 bytes of slack after the longest
 * datagram.
 *
 * kernel/tests/mac.bpf.c runs this file against the published vectors.
 */
#ifndef BPFWIRE_SIGN_BPF_H
#define BPFWIRE_SIGN_BPF_H

#include "sender.h"

#define BPFWIRE_SIGN_BUF	(BPFWIRE_DGRAM_MAX_V2 + 8)
#define BPFWIRE_SIP_MAX_BLOCKS	(BPFWIRE_DGRAM_MAX_V2 / 8)

struct bpfwire_sip {
	__u64 v0, v1, v2, v3;
	const __u8 *msg;	/* the caller's stack buffer */
};

/* One 8-byte word, little-endian as SipHash reads it. */
static __always_inline __u64 bpfwire_sip_word(const __u8 *p)
{
	__u64 m = *(const __u64 *)p;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	m = __builtin_bswap64(m);
#endif
	return m;
}

static long bpfwire_sip_block(__u64 i, void *ctx)
{
	struct bpfwire_sip *s = ctx;
	__u64 m, v0 = s->v0, v1 = s->v1, v2 = s->v2, v3 = s->v3;

	if (i >= BPFWIRE_SIP_MAX_BLOCKS)
		return 1;
	m = bpfwire_sip_word(s->msg + i * 8);
	v3 ^= m;
	BPFWIRE_SIPROUND(v0, v1, v2, v3);
	BPFWIRE_SIPROUND(v0, v1, v2, v3);
	v0 ^= m;
	s->v0 = v0;
	s->v1 = v1;
	s->v2 = v2;
	s->v3 = v3;
	return 0;
}

/* The state after the key, before the first block (batch.bpf.h too). */
static __always_inline void bpfwire_sip_init(struct bpfwire_sip *s, const __u8 *key,
					     const __u8 *msg)
{
	__u64 k0 = bpfwire_le64(key), k1 = bpfwire_le64(key + 8);

	s->v0 = 0x736f6d6570736575ULL ^ k0;
	s->v1 = 0x646f72616e646f6dULL ^ k1;
	s->v2 = 0x6c7967656e657261ULL ^ k0;
	s->v3 = 0x7465646279746573ULL ^ k1;
	s->msg = msg;
}

/* The last partial block at msg[nb * 8..len), then the four final rounds. */
static __always_inline __u64 bpfwire_sip_finish(struct bpfwire_sip *s, const __u8 *msg,
						__u32 len)
{
	__u32 nb = len / 8, left = len & 7;
	__u64 m = 0, b;

	if (left)
		m = bpfwire_sip_word(msg + nb * 8) & ((1ULL << (8 * left)) - 1);
	b = (__u64)len << 56 | m;
	s->v3 ^= b;
	BPFWIRE_SIPROUND(s->v0, s->v1, s->v2, s->v3);
	BPFWIRE_SIPROUND(s->v0, s->v1, s->v2, s->v3);
	s->v0 ^= b;
	s->v2 ^= 0xff;
	BPFWIRE_SIPROUND(s->v0, s->v1, s->v2, s->v3);
	BPFWIRE_SIPROUND(s->v0, s->v1, s->v2, s->v3);
	BPFWIRE_SIPROUND(s->v0, s->v1, s->v2, s->v3);
	BPFWIRE_SIPROUND(s->v0, s->v1, s->v2, s->v3);
	return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}

/* SipHash-2-4 of msg[0..len) under the 16-byte key; len <= BPFWIRE_DGRAM_MAX_V2. */
static __always_inline __u64 bpfwire_siphash_bpf(const __u8 *key, const __u8 *msg,
						 __u32 len)
{
	struct bpfwire_sip s;
	__u32 nb = len / 8;

	if (nb > BPFWIRE_SIP_MAX_BLOCKS)
		return 0;
	bpfwire_sip_init(&s, key, msg);
	bpf_loop(nb, bpfwire_sip_block, &s, 0);
	return bpfwire_sip_finish(&s, msg, len);
}

#endif /* BPFWIRE_SIGN_BPF_H */
