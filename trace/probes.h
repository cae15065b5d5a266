/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The probe table: for each enum tr_probe, the kernel function or
 * tracepoint, the BPF program(s) that watch it, and the layer it belongs
 * to. bpfwire-trace names records with it; bpfwire-path orders, indents and
 * draws with it. trace/README.md lists the same table for readers.
 */
#ifndef BPFWIRE_PROBES_H
#define BPFWIRE_PROBES_H

#include "record.h"

enum tr_layer {
	L_KFUNC, L_SOCKET, L_LSM, L_UDP, L_ROUTE, L_IP, L_NETFILTER,
	L_NEIGH, L_DEV, L_QDISC, L_NETPOLL, L_DRIVER, L_END, L_NLAYERS,
};

static const char *const tr_layer_name[L_NLAYERS] = {
	[L_KFUNC] = "kfunc", [L_SOCKET] = "socket", [L_LSM] = "lsm",
	[L_UDP] = "udp", [L_ROUTE] = "route", [L_IP] = "ip",
	[L_NETFILTER] = "netfilter", [L_NEIGH] = "neighbour", [L_DEV] = "device",
	[L_QDISC] = "qdisc", [L_NETPOLL] = "netpoll", [L_DRIVER] = "driver",
	[L_END] = "end",
};

struct tr_probe_info {
	const char *name;	/* the function or tracepoint, as records name it */
	const char *tp;		/* non-NULL: a tracepoint (tp_btf), this is its name */
	int layer;		/* enum tr_layer */
	int depth;		/* indent in path.txt */
};

static const struct tr_probe_info tr_probes[TR_NPROBES] = {
	[TR_BPF_KSOCK_SEND]		= { "bpf_ksock_send", NULL, L_KFUNC, 0 },
	[TR_KERNEL_SENDMSG]		= { "kernel_sendmsg", NULL, L_SOCKET, 1 },
	[TR_SECURITY_SOCKET_SENDMSG]	= { "security_socket_sendmsg", NULL, L_LSM, 2 },
	[TR_UDP_SENDMSG]		= { "udp_sendmsg", NULL, L_UDP, 2 },
	[TR_UDPV6_SENDMSG]		= { "udpv6_sendmsg", NULL, L_UDP, 2 },
	[TR_IP_ROUTE_OUTPUT_FLOW]	= { "ip_route_output_flow", NULL, L_ROUTE, 3 },
	[TR_IP_MAKE_SKB]		= { "ip_make_skb", NULL, L_IP, 3 },
	[TR_IP6_MAKE_SKB]		= { "ip6_make_skb", NULL, L_IP, 3 },
	[TR_UDP_SEND_SKB]		= { "udp_send_skb", NULL, L_UDP, 3 },
	[TR_UDP_V6_SEND_SKB]		= { "udp_v6_send_skb", NULL, L_UDP, 3 },
	[TR_IP_SEND_SKB]		= { "ip_send_skb", NULL, L_IP, 4 },
	[TR_IP6_SEND_SKB]		= { "ip6_send_skb", NULL, L_IP, 4 },
	[TR_IP_LOCAL_OUT]		= { "ip_local_out", NULL, L_IP, 4 },
	[TR___IP_LOCAL_OUT]		= { "__ip_local_out", NULL, L_NETFILTER, 5 },
	[TR_IP6_LOCAL_OUT]		= { "ip6_local_out", NULL, L_IP, 4 },
	[TR_NF_HOOK_SLOW]		= { "nf_hook_slow", NULL, L_NETFILTER, 6 },
	[TR_IP_OUTPUT]			= { "ip_output", NULL, L_IP, 5 },
	[TR_IP6_OUTPUT]			= { "ip6_output", NULL, L_IP, 5 },
	[TR_IP_FINISH_OUTPUT2]		= { "ip_finish_output2", NULL, L_IP, 6 },
	[TR_IP6_FINISH_OUTPUT2]		= { "ip6_finish_output2", NULL, L_IP, 6 },
	[TR_NEIGH_RESOLVE_OUTPUT]	= { "neigh_resolve_output", NULL, L_NEIGH, 7 },
	[TR_NEIGH_CONNECTED_OUTPUT]	= { "neigh_connected_output", NULL, L_NEIGH, 7 },
	[TR___DEV_QUEUE_XMIT]		= { "__dev_queue_xmit", NULL, L_DEV, 7 },
	[TR_QDISC_ENQUEUE]		= { "qdisc_enqueue", "qdisc_enqueue", L_QDISC, 8 },
	[TR_QDISC_DEQUEUE]		= { "qdisc_dequeue", "qdisc_dequeue", L_QDISC, 8 },
	[TR_SCH_DIRECT_XMIT]		= { "sch_direct_xmit", NULL, L_QDISC, 8 },
	[TR_DEV_HARD_START_XMIT]	= { "dev_hard_start_xmit", NULL, L_DEV, 9 },
	[TR_BPF_NETPOLL_SEND_UDP]	= { "bpf_netpoll_send_udp", NULL, L_KFUNC, 0 },
	[TR_NETPOLL_SEND_UDP]		= { "netpoll_send_udp", NULL, L_NETPOLL, 1 },
	[TR_NETPOLL_SEND_SKB]		= { "netpoll_send_skb", NULL, L_NETPOLL, 2 },
	[TR_NETPOLL_START_XMIT]		= { "netpoll_start_xmit", NULL, L_NETPOLL, 3 },
	[TR_START_XMIT]			= { "start_xmit", NULL, L_DRIVER, 10 },
	[TR_E1000_XMIT_FRAME]		= { "e1000_xmit_frame", NULL, L_DRIVER, 10 },
	[TR_KFREE_SKB]			= { "kfree_skb", "kfree_skb", L_END, 0 },
	[TR_CONSUME_SKB]		= { "consume_skb", "consume_skb", L_END, 0 },
};

static inline int tr_probe_by_name(const char *name)
{
	for (int i = 1; i < TR_NPROBES; i++)
		if (tr_probes[i].name && !strcmp(tr_probes[i].name, name))
			return i;
	return -1;
}

#endif /* BPFWIRE_PROBES_H */
