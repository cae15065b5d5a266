// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-trace, kernel side: follows every bpfwire datagram from the kfunc
 * that sends it to the driver that transmits it.
 *
 * The kfunc probes read the bpfwire header out of the caller's buffer and key
 * the task to (sender_id, seq, path). The probes before the skb exists
 * (socket layer) look the task up; the probe that first sees the datagram's
 * skb (ip_make_skb's return, udp_send_skb, netpoll_send_skb) keys the skb,
 * and every later layer looks the skb up, whatever task or softirq it runs
 * in (qdisc dequeue, netpoll's retry work). consume_skb and kfree_skb end
 * it. Every record is stamped with bpf_ktime_get_ns(), the clock the senders
 * also put in the header.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "wire.h"
#include "record.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20);
} events SEC(".maps");

/* pid_tgid -> the datagram that task is sending right now. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct tr_key);
} by_task SEC(".maps");

/* skb address -> its datagram, until consume_skb/kfree_skb. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct tr_key);
} by_skb SEC(".maps");

__u64 lost;	/* records the ring buffer had no room for */

static __always_inline void emit(__u16 probe, __u8 kind, const struct tr_key *k,
				 struct sk_buff *skb, __s64 ret, __u32 len)
{
	struct tr_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return;
	}
	e->ts = bpf_ktime_get_ns();
	e->skb = (__u64)skb;
	e->seq = k->seq;
	e->ret = ret;
	e->sender_id = k->sender_id;
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->cpu = bpf_get_smp_processor_id();
	e->ifindex = skb ? BPF_CORE_READ(skb, dev, ifindex) : 0;
	e->probe = probe;
	e->kind = kind;
	e->path = k->path;
	e->len = skb ? BPF_CORE_READ(skb, len) : len;
	bpf_ringbuf_submit(e, 0);
}

static __always_inline void kfunc_entry(__u16 probe, __u32 path, const void *data, __u32 sz)
{
	struct bpfwire_hdr h;
	struct tr_key k = {};
	__u64 id = bpf_get_current_pid_tgid();

	if (sz < sizeof(h) || bpf_probe_read_kernel(&h, sizeof(h), data))
		return;
	if (h.magic != bpf_htonl(BPFWIRE_MAGIC))
		return;
	k.seq = bpf_be64_to_cpu(h.seq);
	k.sender_id = bpf_ntohl(h.sender_id);
	k.path = path;
	bpf_map_update_elem(&by_task, &id, &k, BPF_ANY);
	emit(probe, TR_ENTRY, &k, NULL, 0, sz);
}

static __always_inline void kfunc_exit(__u16 probe, __s64 ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct tr_key *k = bpf_map_lookup_elem(&by_task, &id);

	if (!k)
		return;
	emit(probe, TR_EXIT, k, NULL, ret, 0);
	bpf_map_delete_elem(&by_task, &id);
}

/* A probe in the sending task before the skb exists. */
static __always_inline void task_hit(__u16 probe, __u8 kind, __s64 ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct tr_key *k = bpf_map_lookup_elem(&by_task, &id);

	if (k)
		emit(probe, kind, k, NULL, ret, 0);
}

/* A probe that sees the skb; adopt: key it to the task's datagram if new. */
static __always_inline void skb_hit(__u16 probe, __u8 kind, struct sk_buff *skb,
				    __s64 ret, int adopt)
{
	__u64 key = (__u64)skb;
	struct tr_key *k;

	if (!skb)
		return;
	k = bpf_map_lookup_elem(&by_skb, &key);
	if (!k && adopt) {
		__u64 id = bpf_get_current_pid_tgid();

		k = bpf_map_lookup_elem(&by_task, &id);
		if (!k)
			return;
		bpf_map_update_elem(&by_skb, &key, k, BPF_ANY);
	}
	if (k)
		emit(probe, kind, k, skb, ret, 0);
}

static __always_inline void skb_end(__u16 probe, struct sk_buff *skb, __s64 reason)
{
	__u64 key = (__u64)skb;
	struct tr_key *k = bpf_map_lookup_elem(&by_skb, &key);

	if (!k)
		return;
	emit(probe, TR_ENTRY, k, skb, reason, 0);
	bpf_map_delete_elem(&by_skb, &key);
}

static __always_inline __s64 func_ret_int(void *ctx)
{
	__u64 r = 0;

	bpf_get_func_ret(ctx, &r);
	return (int)r;
}

/* ---- the kfuncs ---- */
/*
 * The verifier refuses a direct read of a const void * argument ("arg1 type
 * UNKNOWN is not a struct"): bpf_get_func_arg() reads it as a number.
 */
static __always_inline void kfunc_entry_ctx(void *ctx, __u16 probe, __u32 path)
{
	__u64 data = 0, sz = 0;

	bpf_get_func_arg(ctx, 1, &data);
	bpf_get_func_arg(ctx, 2, &sz);
	kfunc_entry(probe, path, (const void *)data, (__u32)sz);
}

SEC("fentry/bpf_ksock_send")
int BPF_PROG(e_bpf_ksock_send)
{
	kfunc_entry_ctx(ctx, TR_BPF_KSOCK_SEND, TR_PATH_KSOCK);
	return 0;
}

SEC("fexit/bpf_ksock_send")
int BPF_PROG(x_bpf_ksock_send)
{
	kfunc_exit(TR_BPF_KSOCK_SEND, func_ret_int(ctx));
	return 0;
}

SEC("fentry/bpf_netpoll_send_udp")
int BPF_PROG(e_bpf_netpoll_send_udp)
{
	kfunc_entry_ctx(ctx, TR_BPF_NETPOLL_SEND_UDP, TR_PATH_NETPOLL);
	return 0;
}

SEC("fexit/bpf_netpoll_send_udp")
int BPF_PROG(x_bpf_netpoll_send_udp)
{
	kfunc_exit(TR_BPF_NETPOLL_SEND_UDP, func_ret_int(ctx));
	return 0;
}

/* ---- socket layer, in the sending task ---- */
#define TASK_ENTRY(fn, id)						\
SEC("fentry/" #fn)							\
int BPF_PROG(e_##fn) { task_hit(id, TR_ENTRY, 0); return 0; }
#define TASK_EXIT_INT(fn, id)						\
SEC("fexit/" #fn)							\
int BPF_PROG(x_##fn) { task_hit(id, TR_EXIT, func_ret_int(ctx)); return 0; }

TASK_ENTRY(kernel_sendmsg, TR_KERNEL_SENDMSG)
TASK_EXIT_INT(kernel_sendmsg, TR_KERNEL_SENDMSG)
TASK_ENTRY(security_socket_sendmsg, TR_SECURITY_SOCKET_SENDMSG)
TASK_EXIT_INT(security_socket_sendmsg, TR_SECURITY_SOCKET_SENDMSG)
TASK_ENTRY(udp_sendmsg, TR_UDP_SENDMSG)
TASK_EXIT_INT(udp_sendmsg, TR_UDP_SENDMSG)
TASK_ENTRY(udpv6_sendmsg, TR_UDPV6_SENDMSG)
TASK_EXIT_INT(udpv6_sendmsg, TR_UDPV6_SENDMSG)
TASK_ENTRY(ip_route_output_flow, TR_IP_ROUTE_OUTPUT_FLOW)
TASK_ENTRY(ip_make_skb, TR_IP_MAKE_SKB)
TASK_ENTRY(ip6_make_skb, TR_IP6_MAKE_SKB)
TASK_ENTRY(netpoll_send_udp, TR_NETPOLL_SEND_UDP)

/* The skb is born: ip_make_skb returns it. */
#define MAKE_SKB_EXIT(fn, id)						\
SEC("fexit/" #fn)							\
int BPF_PROG(x_##fn)							\
{									\
	__u64 r = 0;							\
									\
	bpf_get_func_ret(ctx, &r);					\
	if (r && r < (__u64)-4095)					\
		skb_hit(id, TR_EXIT, (struct sk_buff *)r, 0, 1);	\
	return 0;							\
}
MAKE_SKB_EXIT(ip_make_skb, TR_IP_MAKE_SKB)
MAKE_SKB_EXIT(ip6_make_skb, TR_IP6_MAKE_SKB)

/* ---- probes that carry the skb ---- */
#define SKB_ENTRY(fn, id, adopt, args, skbarg)				\
SEC("fentry/" #fn)							\
int BPF_PROG(e_##fn, args) { skb_hit(id, TR_ENTRY, skbarg, 0, adopt); return 0; }

/* fexit reads the skb again from the saved arguments. */
#define SKB_EXIT_INT(fn, id, args, skbarg)				\
SEC("fexit/" #fn)							\
int BPF_PROG(x_##fn, args) { skb_hit(id, TR_EXIT, skbarg, func_ret_int(ctx), 0); return 0; }

#define A_SKB struct sk_buff *skb
#define A_NET_SK_SKB struct net *net, struct sock *sk, struct sk_buff *skb
#define COMMA ,

SKB_ENTRY(udp_send_skb, TR_UDP_SEND_SKB, 1, A_SKB, skb)
SKB_ENTRY(udp_v6_send_skb, TR_UDP_V6_SEND_SKB, 1, A_SKB, skb)
SKB_ENTRY(ip_send_skb, TR_IP_SEND_SKB, 0, struct net *net COMMA A_SKB, skb)
SKB_ENTRY(ip6_send_skb, TR_IP6_SEND_SKB, 0, A_SKB, skb)
/* ip_send_skb's call to ip_local_out is inlined: seen only from other callers. */
SKB_ENTRY(ip_local_out, TR_IP_LOCAL_OUT, 0, A_NET_SK_SKB, skb)
SKB_EXIT_INT(ip_local_out, TR_IP_LOCAL_OUT, A_NET_SK_SKB, skb)
SKB_ENTRY(__ip_local_out, TR___IP_LOCAL_OUT, 0, A_NET_SK_SKB, skb)
SKB_ENTRY(ip6_local_out, TR_IP6_LOCAL_OUT, 0, A_NET_SK_SKB, skb)
SKB_EXIT_INT(ip6_local_out, TR_IP6_LOCAL_OUT, A_NET_SK_SKB, skb)
SKB_ENTRY(nf_hook_slow, TR_NF_HOOK_SLOW, 0, A_SKB, skb)
SKB_EXIT_INT(nf_hook_slow, TR_NF_HOOK_SLOW, A_SKB, skb)
SKB_ENTRY(ip_output, TR_IP_OUTPUT, 0, A_NET_SK_SKB, skb)
SKB_ENTRY(ip6_output, TR_IP6_OUTPUT, 0, A_NET_SK_SKB, skb)
SKB_ENTRY(ip_finish_output2, TR_IP_FINISH_OUTPUT2, 0, A_NET_SK_SKB, skb)
SKB_ENTRY(ip6_finish_output2, TR_IP6_FINISH_OUTPUT2, 0, A_NET_SK_SKB, skb)
SKB_ENTRY(neigh_resolve_output, TR_NEIGH_RESOLVE_OUTPUT, 0, struct neighbour *n COMMA A_SKB, skb)
SKB_ENTRY(neigh_connected_output, TR_NEIGH_CONNECTED_OUTPUT, 0, struct neighbour *n COMMA A_SKB, skb)
SKB_ENTRY(__dev_queue_xmit, TR___DEV_QUEUE_XMIT, 0, A_SKB, skb)
SKB_EXIT_INT(__dev_queue_xmit, TR___DEV_QUEUE_XMIT, A_SKB, skb)
SKB_ENTRY(sch_direct_xmit, TR_SCH_DIRECT_XMIT, 0, A_SKB, skb)
SKB_ENTRY(dev_hard_start_xmit, TR_DEV_HARD_START_XMIT, 0, A_SKB, skb)
SKB_ENTRY(netpoll_send_skb, TR_NETPOLL_SEND_SKB, 1, struct netpoll *np COMMA A_SKB, skb)
SKB_ENTRY(netpoll_start_xmit, TR_NETPOLL_START_XMIT, 0, A_SKB, skb)
SKB_EXIT_INT(netpoll_start_xmit, TR_NETPOLL_START_XMIT, A_SKB, skb)
/* The drivers: virtio-net's start_xmit, e1000's e1000_xmit_frame. */
SKB_ENTRY(start_xmit, TR_START_XMIT, 0, A_SKB, skb)
SKB_EXIT_INT(start_xmit, TR_START_XMIT, A_SKB, skb)
SKB_ENTRY(e1000_xmit_frame, TR_E1000_XMIT_FRAME, 0, A_SKB, skb)
SKB_EXIT_INT(e1000_xmit_frame, TR_E1000_XMIT_FRAME, A_SKB, skb)

/* ---- tracepoints ---- */
SEC("tp_btf/qdisc_enqueue")
int BPF_PROG(tp_qdisc_enqueue, struct Qdisc *q, struct netdev_queue *txq, struct sk_buff *skb)
{
	skb_hit(TR_QDISC_ENQUEUE, TR_ENTRY, skb, 0, 0);
	return 0;
}

SEC("tp_btf/qdisc_dequeue")
int BPF_PROG(tp_qdisc_dequeue, struct Qdisc *q, struct netdev_queue *txq, int packets,
	     struct sk_buff *skb)
{
	skb_hit(TR_QDISC_DEQUEUE, TR_ENTRY, skb, 0, 0);
	return 0;
}

SEC("tp_btf/kfree_skb")
int BPF_PROG(tp_kfree_skb, struct sk_buff *skb, void *location, enum skb_drop_reason reason)
{
	skb_end(TR_KFREE_SKB, skb, reason);
	return 0;
}

SEC("tp_btf/consume_skb")
int BPF_PROG(tp_consume_skb, struct sk_buff *skb)
{
	skb_end(TR_CONSUME_SKB, skb, 0);
	return 0;
}
