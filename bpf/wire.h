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

#endif /* BPFWIRE_WIRE_H */
