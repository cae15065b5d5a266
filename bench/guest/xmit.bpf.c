// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hook-to-wire latency probe: fentry on the NIC driver's transmit function
 * (virtio_net's start_xmit by default). ksock, the ringbuf agent's send()
 * and netpoll all reach the driver through it, so one probe times every
 * sender the same way: the header's timestamp_ns (bpf_ktime_get_ns() at
 * the LSM hook) against bpf_ktime_get_ns() here.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "frame.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u16 port = 0;		/* UDP destination, host order */
const volatile __u32 ifindex = 0;	/* 0: any device */

/* Resized by bpfwire-bench-guest to hold a whole run. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} recs SEC(".maps");

__u64 verdicts[BG_V__COUNT];	/* frames by enum bg_verdict */
__u64 lost;			/* matches the ring buffer had no room for */

SEC("fentry/start_xmit")
int BPF_PROG(bg_xmit, struct sk_buff *skb)
{
	/* First, so the parse below is not part of the latency. */
	__u64 now = bpf_ktime_get_ns();
	struct bg_xmit_rec r = {};
	const __u8 *data;
	__u32 dev_ifindex, headlen;
	int v;

	dev_ifindex = BPF_CORE_READ(skb, dev, ifindex);
	if (ifindex && dev_ifindex != ifindex)
		return 0;
	data = BPF_CORE_READ(skb, data);
	headlen = BPF_CORE_READ(skb, len) - BPF_CORE_READ(skb, data_len);
	v = bg_frame_parse(data, headlen, port, &r);
	if (v >= 0 && v < BG_V__COUNT)
		__sync_fetch_and_add(&verdicts[v], 1);
	if (v != BG_V_OK)
		return 0;
	r.ifindex = dev_ifindex;
	r.ts_xmit = now;
	/* No wake-up: user space polls, so the sender's path pays no IPI. */
	if (bpf_ringbuf_output(&recs, &r, sizeof(r), BPF_RB_NO_WAKEUP))
		__sync_fetch_and_add(&lost, 1);
	return 0;
}
