/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpfwire-trace: one record per probe hit on a tracked datagram, shared by
 * trace.bpf.c and the user side (trace.c, and path.c through probes.h).
 * Fixed-width types only. A header of its own name, not trace.h, so that
 * bpfwire-path, which reads the records, does not lean on the tracer.
 */
#ifndef BPFWIRE_TRACE_RECORD_H
#define BPFWIRE_TRACE_RECORD_H

#ifndef __BPF__
#include <linux/types.h>
#endif

/* Probe ids. probes.h maps each to its function, layer and order. */
enum tr_probe {
	TR_NONE = 0,
	/* ksock: socket layer */
	TR_BPF_KSOCK_SEND,
	TR_KERNEL_SENDMSG,
	TR_SECURITY_SOCKET_SENDMSG,
	TR_UDP_SENDMSG,
	TR_UDPV6_SENDMSG,
	TR_IP_ROUTE_OUTPUT_FLOW,
	TR_IP_MAKE_SKB,
	TR_IP6_MAKE_SKB,
	TR_UDP_SEND_SKB,
	TR_UDP_V6_SEND_SKB,
	/* IP, netfilter, neighbour */
	TR_IP_SEND_SKB,
	TR_IP6_SEND_SKB,
	TR_IP_LOCAL_OUT,
	TR___IP_LOCAL_OUT,
	TR_IP6_LOCAL_OUT,
	TR_NF_HOOK_SLOW,
	TR_IP_OUTPUT,
	TR_IP6_OUTPUT,
	TR_IP_FINISH_OUTPUT2,
	TR_IP6_FINISH_OUTPUT2,
	TR_NEIGH_RESOLVE_OUTPUT,
	TR_NEIGH_CONNECTED_OUTPUT,
	/* device and qdisc */
	TR___DEV_QUEUE_XMIT,
	TR_QDISC_ENQUEUE,
	TR_QDISC_DEQUEUE,
	TR_SCH_DIRECT_XMIT,
	TR_DEV_HARD_START_XMIT,
	/* netpoll */
	TR_BPF_NETPOLL_SEND_UDP,
	TR_NETPOLL_SEND_UDP,
	TR_NETPOLL_SEND_SKB,
	TR_NETPOLL_START_XMIT,
	/* drivers */
	TR_START_XMIT,
	TR_E1000_XMIT_FRAME,
	/* ends */
	TR_KFREE_SKB,
	TR_CONSUME_SKB,
	TR_NPROBES,
};

enum tr_kind { TR_ENTRY = 0, TR_EXIT = 1 };
enum tr_path { TR_PATH_NONE = 0, TR_PATH_KSOCK = 1, TR_PATH_NETPOLL = 2 };

/* What a tracked datagram is known by: from its bpfwire header. */
struct tr_key {
	__u64 seq;
	__u32 sender_id;
	__u32 path;		/* enum tr_path */
};

struct tr_event {
	__u64 ts;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC, the sender's clock */
	__u64 skb;		/* 0 before the skb exists */
	__u64 seq;
	__s64 ret;		/* TR_EXIT: the return value; kfree_skb: the drop reason */
	__u32 sender_id;
	__u32 pid;		/* tgid of the task the probe ran in */
	__u32 cpu;
	__u32 ifindex;		/* skb->dev at the device layers, else 0 */
	__u16 probe;		/* enum tr_probe */
	__u8  kind;		/* enum tr_kind */
	__u8  path;		/* enum tr_path */
	__u32 len;		/* skb->len, or the datagram length at the kfunc */
};

#endif /* BPFWIRE_TRACE_RECORD_H */
