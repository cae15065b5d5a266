/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The latency probe's frame parser: from an Ethernet frame about to enter the
 * NIC driver to the bpfwire header it carries. xmit.bpf.c compiles it with
 * bpf_probe_read_kernel() as the reader; the host unit test compiles it
 * unchanged with memcpy(), so both run the same bounds checks.
 */
#ifndef BENCH_GUEST_FRAME_H
#define BENCH_GUEST_FRAME_H

#include "wire.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

#ifdef __BPF__
#define bg_read(dst, n, src)	bpf_probe_read_kernel(dst, n, src)
#else
#include <string.h>
/* Host: the caller's checks against headlen keep this inside the frame. */
static inline long bg_read(void *dst, __u32 n, const void *src)
{
	memcpy(dst, src, n);
	return 0;
}
#endif

/* One transmitted bpfwire datagram, as the probe hands it to user space. */
struct bg_xmit_rec {
	__u32 sender_id;
	__u32 ifindex;
	__u64 seq;
	__u64 ts_hook;		/* the header's timestamp_ns */
	__u64 ts_xmit;		/* bpf_ktime_get_ns() at the driver's entry */
};

/* What the parser made of a frame; the probe counts each. */
enum bg_verdict {
	BG_V_OK,
	BG_V_SHORT,		/* linear part too short for Eth+IP+UDP+bpfwire */
	BG_V_NOT_IP,
	BG_V_NOT_UDP,
	BG_V_FRAG,		/* an IPv4 fragment after the first */
	BG_V_PORT,		/* another UDP destination port */
	BG_V_MAGIC,		/* the port, but no bpfwire v1 or v2 header */
	BG_V_FAULT,		/* the read faulted */
	BG_V__COUNT
};

#define BG_ETH_LEN	14
#define BG_IP4_MIN	20
#define BG_IP6_LEN	40
#define BG_L4_LEN	(8 + BPFWIRE_HDR_LEN)	/* UDP header + bpfwire header */

static __always_inline __u16 bg_be16(const __u8 *p)
{
	return (__u16)p[0] << 8 | p[1];
}

static __always_inline __u32 bg_be32(const __u8 *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

static __always_inline __u64 bg_be64(const __u8 *p)
{
	return (__u64)bg_be32(p) << 32 | bg_be32(p + 4);
}

/*
 * data: the frame from its Ethernet header; headlen: how many bytes of it
 * are linear (skb_headlen). port: the UDP destination port, host order.
 * Fills sender_id, seq and ts_hook of r on BG_V_OK.
 *
 * Two fixed-size reads (L2+L3, then UDP+bpfwire at the L4 offset) keep
 * every access at a constant offset, which the verifier takes as is.
 */
static __always_inline int bg_frame_parse(const __u8 *data, __u32 headlen,
					  __u16 port, struct bg_xmit_rec *r)
{
	__u8 l3[BG_ETH_LEN + BG_IP6_LEN];
	__u8 l4[BG_L4_LEN];
	__u32 off;

	if (headlen < BG_ETH_LEN + BG_IP4_MIN + BG_L4_LEN)
		return BG_V_SHORT;
	if (bg_read(l3, BG_ETH_LEN + BG_IP4_MIN, data))
		return BG_V_FAULT;

	switch (bg_be16(l3 + 12)) {
	case 0x0800:
		if (l3[14] >> 4 != 4 || (l3[14] & 0xf) < 5)
			return BG_V_NOT_IP;
		if (l3[14 + 9] != 17)
			return BG_V_NOT_UDP;
		/* Only the first fragment carries the UDP and bpfwire headers. */
		if (bg_be16(l3 + 14 + 6) & 0x1fff)
			return BG_V_FRAG;
		off = BG_ETH_LEN + (l3[14] & 0xf) * 4;
		break;
	case 0x86dd:
		if (headlen < BG_ETH_LEN + BG_IP6_LEN + BG_L4_LEN)
			return BG_V_SHORT;
		if (bg_read(l3, sizeof(l3), data))
			return BG_V_FAULT;
		if (l3[14] >> 4 != 6)
			return BG_V_NOT_IP;
		/* No extension headers: the senders never add any. */
		if (l3[14 + 6] != 17)
			return BG_V_NOT_UDP;
		off = BG_ETH_LEN + BG_IP6_LEN;
		break;
	default:
		return BG_V_NOT_IP;
	}

	if (off + BG_L4_LEN > headlen)
		return BG_V_SHORT;
	if (bg_read(l4, sizeof(l4), data + off))
		return BG_V_FAULT;
	if (bg_be16(l4 + 2) != port)
		return BG_V_PORT;
	/* v2 (signed) and v3 (encrypted) keep v1's first 36 bytes,
	 * clear: sender, seq and stamp alike. */
	if (bg_be32(l4 + 8) != BPFWIRE_MAGIC ||
	    (l4[8 + 4] != BPFWIRE_VERSION && l4[8 + 4] != BPFWIRE_VERSION_2 &&
	     l4[8 + 4] != BPFWIRE_VERSION_3))
		return BG_V_MAGIC;
	r->sender_id = bg_be32(l4 + 8 + 8);
	r->seq = bg_be64(l4 + 8 + 16);
	r->ts_hook = bg_be64(l4 + 8 + 24);
	return BG_V_OK;
}

#endif /* BENCH_GUEST_FRAME_H */
