/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the BPF senders and bpfwire-agent share: the configuration the agent
 * writes into .rodata before load, the stats map value, and the info record
 * pinned for `bpfwire-agent status`. Fixed-width types only.
 */
#ifndef BPFWIRE_SENDER_H
#define BPFWIRE_SENDER_H

#ifndef __BPF__
#include <linux/bpf.h>		/* struct bpf_spin_lock */
#include <linux/types.h>
#endif
#include "wire.h"

#define BPFWIRE_PIN_ROOT	"/sys/fs/bpf/bpfwire"

enum bpfwire_via {
	BPFWIRE_VIA_KSOCK	= 1,
	BPFWIRE_VIA_NETPOLL	= 2,
	BPFWIRE_VIA_RINGBUF	= 3,
};

/* cfg.events bits */
#define BPFWIRE_EVF_EXEC	(1u << 0)
#define BPFWIRE_EVF_OPEN	(1u << 1)

/* Largest datagram a sender builds: header + event + the longest path. */
#define BPFWIRE_DGRAM_MAX	(BPFWIRE_HDR_LEN + BPFWIRE_EVENT_FIXED_LEN + BPFWIRE_PATH_MAX)
#define BPFWIRE_DGRAM_MAX_V2	(BPFWIRE_HDR_LEN_V2 + BPFWIRE_EVENT_FIXED_LEN + BPFWIRE_PATH_MAX)

struct bpfwire_cfg {
	__u32 sender_id;
	__u32 events;		/* BPFWIRE_EVF_* */
	__u32 prefix_len;	/* 0: every path */
	__u32 family;		/* AF_INET or AF_INET6 */
	__u8  dst_addr[16];	/* network order; IPv4 in the first 4 bytes */
	__u8  src_addr[16];	/* --bind address, or the route's source */
	__u16 dst_port;		/* host order */
	__u16 src_port;		/* host order; 0: ephemeral (ksock) */
	__u32 scope_id;		/* ifindex for link-local IPv6, else 0 */
	__u32 has_bind;		/* 1: bind to src_addr:src_port (ksock) */
	__u32 sndbuf;		/* ksock: bpf_ksock_create_opts.sndbuf (0004); 0: default */
	char  dev[16];		/* netpoll device */
	__u8  remote_mac[6];	/* netpoll next hop */
	__u8  pad[2];
	char  prefix[BPFWIRE_PATH_MAX];
	__u64 epoch;		/* v2: random, chosen at install (getrandom) */
	__u32 key_id;		/* 1..255: sign, send v2; 0: no key, send v1 */
	__u32 wire_version;	/* 1 or 2, for status */
	__u32 batch;		/* --batch: events per datagram; 0 or 1: one */
	__u32 batch_age_ms;	/* --batch-age-ms; 0: no age limit */
};

/*
 * Failures are counted by errno: slot N is errno N, slot 0 is every errno
 * at or above BPFWIRE_ERRNO_SLOTS (e.g. the kernel-internal ENOTSUPP 524).
 */
#define BPFWIRE_ERRNO_SLOTS	136

/* One per CPU in map "stats" (key 0). For ringbuf the agent keeps the
 * user-space half in map "ustats" with the same layout. */
struct bpfwire_stats {
	__u64 events;		/* events that passed the filters */
	__u64 sent;		/* accepted by the send path (ringbuf: queued) */
	__u64 failed;		/* sum of err[] */
	__u64 bytes;		/* bytes of the datagrams counted in sent */
	/* In events: events = events_sent + events_failed + events pending
	 * in the batch map (status reads it). sent and failed are datagrams
	 * (failed also counts an event refused before any datagram). */
	__u64 events_sent;	/* events in the datagrams counted in sent */
	__u64 events_failed;	/* events lost: in failed datagrams, or refused */
	__u64 events_batched;	/* events that went through the batch map */
	__u64 err[BPFWIRE_ERRNO_SLOTS];
};

/*
 * Map "batch" (array, one entry): the open batch, appended to under lock.
 * data holds the events back to back; an append copies a whole event's
 * worth of 8-byte words, so it runs up to BPFWIRE_BATCH_SLACK bytes past
 * the payload's end.
 */
#define BPFWIRE_EVENT_WORDS	((BPFWIRE_EVENT_FIXED_LEN + BPFWIRE_PATH_MAX + 7) / 8)
#define BPFWIRE_BATCH_SLACK	(BPFWIRE_EVENT_WORDS * 8)
#define BPFWIRE_BATCH_WORDS	((BPFWIRE_BATCH_PAYLOAD + 7) / 8)

struct bpfwire_batch {
	struct bpf_spin_lock lock;
	__u32 n;		/* events in data */
	__u32 used;		/* bytes in data */
	__u32 type;		/* their type */
	__u64 ts_first;		/* the first one's hook time */
	__u8  data[BPFWIRE_BATCH_WORDS * 8 + BPFWIRE_BATCH_SLACK];
};

/* Map "state" (array, one entry): the per-sender sequence. */
struct bpfwire_state {
	__u64 seq;		/* last sequence number handed out */
};

/* Map "info" (array, one entry), written by the agent, read by status. */
struct bpfwire_info {
	__u32 via;		/* enum bpfwire_via */
	__u32 agent_pid;	/* ringbuf: the forwarding agent */
	__u64 installed_unix;	/* time(NULL) at install */
	char  dst[64];		/* as given: [fe80::2%eth0]:7000 */
	char  bind[64];		/* "" when none */
	struct bpfwire_cfg cfg;
};

/* SYSCALL setup programs report which step failed in .bss setup_stage. */
enum bpfwire_stage {
	BPFWIRE_STAGE_NONE	= 0,
	BPFWIRE_STAGE_CREATE	= 1,
	BPFWIRE_STAGE_BIND	= 2,
	BPFWIRE_STAGE_CONNECT	= 3,
	BPFWIRE_STAGE_STORE	= 4,
};

#endif /* BPFWIRE_SENDER_H */
