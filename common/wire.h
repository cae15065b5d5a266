/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpfwire telemetry wire format, shared by the BPF senders, bpfwire-agent
 * and bpfwire-recv. One datagram = one header + one payload.
 *
 * Every multi-byte field is big-endian (network order). The layout is fixed
 * width with no padding so that BPF, x86 user space and a Wireshark dissector
 * all read the same bytes. bpf/README.md has the byte diagram and the
 * versioning rules.
 */
#ifndef BPFWIRE_WIRE_H
#define BPFWIRE_WIRE_H

#ifdef __BPF__
/* vmlinux.h already provides the __u* types in BPF objects. */
#else
#include <linux/types.h>
#endif

#define BPFWIRE_MAGIC		0x42505757u	/* "BPWW" */
#define BPFWIRE_VERSION		1
#define BPFWIRE_HDR_LEN		40
/* netpoll caps a UDP payload at 1460 bytes: keep every datagram below it. */
#define BPFWIRE_MAX_DATAGRAM	1460
#define BPFWIRE_MAX_PAYLOAD	(BPFWIRE_MAX_DATAGRAM - BPFWIRE_HDR_LEN)

enum bpfwire_event_type {
	BPFWIRE_EV_EXEC		= 1,	/* bprm_check_security */
	BPFWIRE_EV_OPEN		= 2,	/* file_open */
	BPFWIRE_EV_TEST		= 3,	/* synthetic payload (tests, benches) */
};

/*
 * Byte offsets:
 *  0 magic  4 version  5 type  6 hdr_len  8 sender_id  12 payload_len
 * 16 seq   24 timestamp_ns    32 check   36 reserved   40 payload...
 */
struct bpfwire_hdr {
	__u32 magic;		/* BPFWIRE_MAGIC */
	__u8  version;		/* BPFWIRE_VERSION */
	__u8  type;		/* enum bpfwire_event_type */
	__u16 hdr_len;		/* BPFWIRE_HDR_LEN; lets v1 readers skip growth */
	__u32 sender_id;	/* chosen by the agent (--sender-id) */
	__u32 payload_len;	/* bytes after the header */
	__u64 seq;		/* per sender, starts at 1, +1 per datagram */
	__u64 timestamp_ns;	/* sender's bpf_ktime_get_ns() at hook entry */
	__u32 check;		/* FNV-1a 32 over header (check = 0) + payload */
	__u32 reserved;		/* 0 */
} __attribute__((packed));

/*
 * Version 2: the v1 header grown to 56 bytes, with a
 * keyed MAC and room for several events per datagram. bpf/README.md has
 * the diagram. Byte offsets after v1's first 36:
 * 36 flags  37 key_id  38 n_events  40 epoch  48 tag  56 payload...
 *
 * check: FNV-1a over the whole datagram with check = 0 and tag = 0.
 * tag:   SipHash-2-4 (128-bit key) over the whole datagram with tag = 0
 *        (check already filled in), stored little-endian as the algorithm
 *        outputs it. Zero, with BPFWIRE_F_SIGNED clear, when unsigned.
 * epoch: random, chosen when a sender is installed; (epoch, seq) is unique
 *        per sender, so a reinstalled sender is not a replay.
 * n_events: events packed back to back in the payload, 1..BPFWIRE_BATCH_MAX
 *        (1 without --batch). All of them have the header's type (a change
 *        of type closes a batch); timestamp_ns is the first one's.
 * seq:   one per datagram, not per event, so the receiver's loss, duplicate
 *        and replay logic is unchanged; a lost datagram loses n_events
 *        events, which only the sender's counters (events_failed) show.
 * Unsigned v2 (--batch without --key-file): flags 0, key_id 0, tag 0.
 */
#define BPFWIRE_VERSION_2	2
#define BPFWIRE_HDR_LEN_V2	56
#define BPFWIRE_MAX_PAYLOAD_V2	(BPFWIRE_MAX_DATAGRAM - BPFWIRE_HDR_LEN_V2)
#define BPFWIRE_OFF_CHECK	32
#define BPFWIRE_OFF_TAG		48
#define BPFWIRE_TAG_LEN		8
#define BPFWIRE_KEY_LEN		16

#define BPFWIRE_F_SIGNED	0x01	/* tag is a SipHash-2-4 MAC */
/* v2 knows no other flag: BPFWIRE_F_ENCRYPTED (below) is v3's. */

struct bpfwire_hdr_v2 {
	__u32 magic;		/* BPFWIRE_MAGIC */
	__u8  version;		/* BPFWIRE_VERSION_2 */
	__u8  type;		/* enum bpfwire_event_type */
	__u16 hdr_len;		/* BPFWIRE_HDR_LEN_V2 */
	__u32 sender_id;
	__u32 payload_len;
	__u64 seq;
	__u64 timestamp_ns;	/* of the first event */
	__u32 check;
	__u8  flags;		/* BPFWIRE_F_* */
	__u8  key_id;		/* which key signed it; 0 when unsigned */
	__u16 n_events;
	__u64 epoch;
	__u8  tag[BPFWIRE_TAG_LEN];
} __attribute__((packed));

/*
 * Version 3: v2's header, byte for byte, over an encrypted
 * payload. bpf/README.md has the design and the threat model.
 *  version 3; flags = BPFWIRE_F_SIGNED | BPFWIRE_F_ENCRYPTED, exactly (a
 *  v3 reader refuses any other bit: a flag it does not know may change
 *  what the payload means); key_id != 0; the top 16 bits of seq are 0.
 * Encrypt-then-MAC: the payload (hdr_len..end) is AES-128-CTR ciphertext
 * under the encryption key; check and tag are computed as in v2 over the
 * header and the ciphertext, the tag under the MAC key, a distinct key.
 * Counter block of 16 bytes, big-endian, bpfwire_ctr_block():
 *  0..7 epoch   8..13 seq (its low 48 bits)   14..15 block index from 0
 * The payload is at most BPFWIRE_MAX_PAYLOAD_V2 bytes, 88 blocks, so the
 * index never carries into seq: a standard 128-bit CTR increment (the
 * kernel's crypto_inc, OpenSSL's) and this layout give the same blocks.
 */
#define BPFWIRE_VERSION_3	3
#define BPFWIRE_F_ENCRYPTED	0x02	/* v3: the payload is AES-128-CTR */
#define BPFWIRE_F_V3		(BPFWIRE_F_SIGNED | BPFWIRE_F_ENCRYPTED)
#define BPFWIRE_ENC_KEY_LEN	16	/* AES-128 */
#define BPFWIRE_CTR_BLOCK_LEN	16
/* The seq a v3 counter block can hold; a sender stops encrypting past it. */
#define BPFWIRE_SEQ_MAX_V3	((1ULL << 48) - 1)
#define BPFWIRE_MAX_PAYLOAD_V3	BPFWIRE_MAX_PAYLOAD_V2

/* The counter block of a v3 payload's block index blk (wire.h's layout). */
static inline void bpfwire_ctr_block(__u8 out[BPFWIRE_CTR_BLOCK_LEN], __u64 epoch,
				     __u64 seq, __u16 blk)
{
	int i;

	for (i = 0; i < 8; i++)
		out[i] = (__u8)(epoch >> (56 - 8 * i));
	for (i = 0; i < 6; i++)
		out[8 + i] = (__u8)(seq >> (40 - 8 * i));
	out[14] = (__u8)(blk >> 8);
	out[15] = (__u8)blk;
}

/*
 * Batching: no batched datagram exceeds BPFWIRE_BATCH_DGRAM, a
 * 1500-byte MTU less IPv6's 40 and UDP's 8 (IPv4's would be 1472), below
 * netpoll's 1460 too. A batch closes early when the next event would not
 * fit, so only the count is bounded: BPFWIRE_BATCH_MAX shortest events
 * (a 1-byte path, "/") fill the payload.
 */
#define BPFWIRE_BATCH_DGRAM	1452
#define BPFWIRE_BATCH_PAYLOAD	(BPFWIRE_BATCH_DGRAM - BPFWIRE_HDR_LEN_V2)
#define BPFWIRE_EVENT_MIN_LEN	(28 + 1)
#define BPFWIRE_BATCH_MAX	(BPFWIRE_BATCH_PAYLOAD / BPFWIRE_EVENT_MIN_LEN)

/* Payload of BPFWIRE_EV_EXEC and BPFWIRE_EV_OPEN. */
#define BPFWIRE_COMM_LEN	16
#define BPFWIRE_PATH_MAX	256

struct bpfwire_event {
	__u32 pid;		/* tgid */
	__u32 uid;
	char  comm[BPFWIRE_COMM_LEN];
	__u16 path_len;		/* bytes of path that follow, no NUL */
	__u16 reserved;
	char  path[];		/* up to BPFWIRE_PATH_MAX bytes */
} __attribute__((packed));

#define BPFWIRE_EVENT_FIXED_LEN	28

#define BPFWIRE_FNV_OFFSET	2166136261u
#define BPFWIRE_FNV_PRIME	16777619u

/*
 * FNV-1a: cheap enough for a bounded BPF loop and still catches any
 * single-byte corruption. It is an integrity check, not authentication.
 */
static inline __u32 bpfwire_fnv1a(__u32 h, const void *buf, __u32 len)
{
	const __u8 *p = (const __u8 *)buf;
	__u32 i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= BPFWIRE_FNV_PRIME;
	}
	return h;
}

/*
 * SipHash-2-4 (Aumasson and Bernstein), 64-bit output, key k0 || k1 read
 * little-endian from 16 bytes. Plain C that user space and the tests use;
 * a BPF sender may need a verifier-friendly copy, which must agree with
 * this one on the published vectors.
 */
#define BPFWIRE_ROTL64(x, b)	(((x) << (b)) | ((x) >> (64 - (b))))

/* Big-endian reads: the header's fields, and the receiver's packet headers. */
static inline __u32 bpfwire_be32(const __u8 *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

static inline __u64 bpfwire_be64(const __u8 *p)
{
	return (__u64)bpfwire_be32(p) << 32 | bpfwire_be32(p + 4);
}

static inline __u64 bpfwire_le64(const __u8 *p)
{
	return (__u64)p[0] | (__u64)p[1] << 8 | (__u64)p[2] << 16 |
	       (__u64)p[3] << 24 | (__u64)p[4] << 32 | (__u64)p[5] << 40 |
	       (__u64)p[6] << 48 | (__u64)p[7] << 56;
}

#define BPFWIRE_SIPROUND(v0, v1, v2, v3) do {				\
	v0 += v1; v1 = BPFWIRE_ROTL64(v1, 13); v1 ^= v0;		\
	v0 = BPFWIRE_ROTL64(v0, 32);					\
	v2 += v3; v3 = BPFWIRE_ROTL64(v3, 16); v3 ^= v2;		\
	v0 += v3; v3 = BPFWIRE_ROTL64(v3, 21); v3 ^= v0;		\
	v2 += v1; v1 = BPFWIRE_ROTL64(v1, 17); v1 ^= v2;		\
	v2 = BPFWIRE_ROTL64(v2, 32);					\
} while (0)

static inline __u64 bpfwire_siphash24(const __u8 key[BPFWIRE_KEY_LEN],
				      const void *buf, __u32 len)
{
	const __u8 *p = (const __u8 *)buf;
	__u64 k0 = bpfwire_le64(key), k1 = bpfwire_le64(key + 8);
	__u64 v0 = 0x736f6d6570736575ULL ^ k0;
	__u64 v1 = 0x646f72616e646f6dULL ^ k1;
	__u64 v2 = 0x6c7967656e657261ULL ^ k0;
	__u64 v3 = 0x7465646279746573ULL ^ k1;
	__u64 m, b = (__u64)len << 56;
	__u32 i, left = len & 7;

	for (i = 0; i + 8 <= len; i += 8) {
		m = bpfwire_le64(p + i);
		v3 ^= m;
		BPFWIRE_SIPROUND(v0, v1, v2, v3);
		BPFWIRE_SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	for (; left; left--)
		b |= (__u64)p[i + left - 1] << (8 * (left - 1));
	v3 ^= b;
	BPFWIRE_SIPROUND(v0, v1, v2, v3);
	BPFWIRE_SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	BPFWIRE_SIPROUND(v0, v1, v2, v3);
	BPFWIRE_SIPROUND(v0, v1, v2, v3);
	BPFWIRE_SIPROUND(v0, v1, v2, v3);
	BPFWIRE_SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

#endif /* BPFWIRE_WIRE_H */
