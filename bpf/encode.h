/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Datagram encoding used by the BPF senders, compiled unchanged on the host
 * for the unit tests. Fields are written byte by byte in network order, so
 * the code is the same on either endianness and needs no aligned stores.
 */
#ifndef BPFWIRE_ENCODE_H
#define BPFWIRE_ENCODE_H

#include "sender.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

static __always_inline void bpfwire_put16(__u8 *p, __u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static __always_inline void bpfwire_put32(__u8 *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static __always_inline void bpfwire_put64(__u8 *p, __u64 v)
{
	bpfwire_put32(p, v >> 32);
	bpfwire_put32(p + 4, (__u32)v);
}

/* The first 36 bytes, the same in v1 and v2, with check = 0. */
static __always_inline void bpfwire_put_hdr_start(__u8 *b, __u8 version, __u8 type,
						  __u16 hdr_len, __u32 sender_id,
						  __u32 payload_len, __u64 seq, __u64 ts)
{
	bpfwire_put32(b + 0, BPFWIRE_MAGIC);
	b[4] = version;
	b[5] = type;
	bpfwire_put16(b + 6, hdr_len);
	bpfwire_put32(b + 8, sender_id);
	bpfwire_put32(b + 12, payload_len);
	bpfwire_put64(b + 16, seq);
	bpfwire_put64(b + 24, ts);
	bpfwire_put32(b + 32, 0);
}

/* Header with check = 0; bpfwire_seal() fills it in. */
static __always_inline void bpfwire_put_hdr(__u8 *b, __u8 type, __u32 sender_id,
					    __u32 payload_len, __u64 seq, __u64 ts)
{
	bpfwire_put_hdr_start(b, BPFWIRE_VERSION, type, BPFWIRE_HDR_LEN, sender_id,
			      payload_len, seq, ts);
	bpfwire_put32(b + 36, 0);
}

/*
 * v2 header (wire.h) of n_events events, check and tag zero: bpfwire_seal()
 * fills the check, then the signer the tag. key_id 0: unsigned (flags 0),
 * which only a batch without a key sends.
 */
static __always_inline void bpfwire_put_hdr_v2n(__u8 *b, __u8 type, __u32 sender_id,
						__u32 payload_len, __u64 seq, __u64 ts,
						__u8 key_id, __u64 epoch, __u16 n_events)
{
	int i;

	bpfwire_put_hdr_start(b, BPFWIRE_VERSION_2, type, BPFWIRE_HDR_LEN_V2, sender_id,
			      payload_len, seq, ts);
	b[36] = key_id ? BPFWIRE_F_SIGNED : 0;
	b[37] = key_id;
	bpfwire_put16(b + 38, n_events);
	bpfwire_put64(b + 40, epoch);
	for (i = 0; i < BPFWIRE_TAG_LEN; i++)
		b[BPFWIRE_OFF_TAG + i] = 0;
}

/* The signed single-event header. */
static __always_inline void bpfwire_put_hdr_v2(__u8 *b, __u8 type, __u32 sender_id,
					       __u32 payload_len, __u64 seq, __u64 ts,
					       __u8 key_id, __u64 epoch)
{
	bpfwire_put_hdr_v2n(b, type, sender_id, payload_len, seq, ts, key_id, epoch, 1);
}

/* The v3 header (--encrypt): v2's, with version 3 and flags signed|encrypted. */
static __always_inline void bpfwire_put_hdr_v3(__u8 *b, __u8 type, __u32 sender_id,
					       __u32 payload_len, __u64 seq, __u64 ts,
					       __u8 key_id, __u64 epoch)
{
	bpfwire_put_hdr_v2n(b, type, sender_id, payload_len, seq, ts, key_id, epoch, 1);
	b[4] = BPFWIRE_VERSION_3;
	b[36] = BPFWIRE_F_V3;
}

/*
 * Batching (--batch): what an event of type and evlen bytes, at time now,
 * does to the open batch (n events, used bytes, of btype, the first at
 * ts_first). CLOSE_BEFORE: the batch is sent without it (another type,
 * or it would not fit in BPFWIRE_BATCH_PAYLOAD), and it starts the next.
 * CLOSE_AFTER: it joins, then the batch goes (max_n reached, or the first
 * event is age_ns old or more: "flush on the next event after the age").
 * Pure arithmetic: the BPF senders call it under the batch's spin lock.
 */
#define BPFWIRE_CLOSE_BEFORE	1
#define BPFWIRE_CLOSE_AFTER	2

static __always_inline int bpfwire_batch_step(__u32 n, __u32 used, __u32 btype,
					      __u64 ts_first, __u32 type, __u32 evlen,
					      __u64 now, __u32 max_n, __u64 age_ns)
{
	int act = 0;

	if (n && (btype != type || used + evlen > BPFWIRE_BATCH_PAYLOAD)) {
		act = BPFWIRE_CLOSE_BEFORE;
		n = 0;
	}
	if (!n)
		ts_first = now;
	/* Two tasks may take the lock in the other order of their hook times. */
	if (n + 1 >= max_n || (age_ns && now > ts_first && now - ts_first >= age_ns))
		act |= BPFWIRE_CLOSE_AFTER;
	return act;
}

/* The tag as wire.h stores it: the SipHash output, little-endian. */
static __always_inline void bpfwire_put_tag(__u8 *b, __u64 tag)
{
	int i;

	for (i = 0; i < BPFWIRE_TAG_LEN; i++)
		b[BPFWIRE_OFF_TAG + i] = tag >> (8 * i);
}

/* struct bpfwire_event without the path, at b (the payload start). */
static __always_inline void bpfwire_put_event(__u8 *b, __u32 pid, __u32 uid,
					      const char *comm, __u16 path_len)
{
	int i;

	bpfwire_put32(b + 0, pid);
	bpfwire_put32(b + 4, uid);
	for (i = 0; i < BPFWIRE_COMM_LEN; i++)
		b[8 + i] = comm[i];
	bpfwire_put16(b + 24, path_len);
	bpfwire_put16(b + 26, 0);
}

/*
 * FNV-1a over the whole datagram with the check field zero, then stored
 * (v1 and v2 alike; a v2 tag is still zero here). The loop has a constant
 * bound, the longest v2 datagram, so the verifier sees a bounded loop.
 */
static __always_inline __u32 bpfwire_seal(__u8 *b, __u32 len)
{
	__u32 h = BPFWIRE_FNV_OFFSET;
	__u32 i;

	for (i = 0; i < BPFWIRE_DGRAM_MAX_V2; i++) {
		if (i >= len)
			break;
		h ^= b[i];
		h *= BPFWIRE_FNV_PRIME;
	}
	bpfwire_put32(b + 32, h);
	return h;
}

#endif /* BPFWIRE_ENCODE_H */
