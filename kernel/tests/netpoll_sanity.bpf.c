// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seeds 002 and 003 (netpoll_sanity, netpoll_sanity_ipv6): a SYSCALL program
 * creates a netpoll context on a dummy device, an LSM file_open program sends
 * through it, and an fentry program on dummy_xmit reads the frame back.
 * Additions: the send is limited to target_pid, and send_len lets the suite
 * probe the 1460-byte limit through the same program.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>
#include "kt_netpoll.bpf.h"

#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86DD
#define SEND_BUF_LEN	1600

/* Globals for passing config from user space */
char dev_name[16] = {};
__be32 remote_ip;
struct in6_addr remote_ip6;
__u16 local_port;
__u16 remote_port;
__u8 remote_mac[6] = {};
int ipv6;
int target_pid;
__u32 send_len = 64;	/* bytes of send_data to send */

/* Results */
int status;
int send_status;
int trigger_send;
int send_calls;
char driver_xmit[64];
__u32 xmit_udp_len;

char send_data[SEND_BUF_LEN] = "hello from bpf netpoll";

SEC("syscall")
int netpoll_setup_test(void *ctx)
{
	struct bpf_netpoll_opts opts = {};
	struct bpf_netpoll *bnp;
	int err = 0;

	status = 0;

	__builtin_memcpy(opts.dev_name, dev_name, 16);
	if (ipv6)
		__builtin_memcpy(&opts.remote_ip6, &remote_ip6, sizeof(remote_ip6));
	else
		opts.remote_ip = remote_ip;
	opts.local_port = local_port;
	opts.remote_port = remote_port;
	__builtin_memcpy(opts.remote_mac, remote_mac, 6);
	opts.ipv6 = ipv6;

	bnp = bpf_netpoll_create(&opts, sizeof(opts), &err);
	if (!bnp) {
		status = err;
		return 0;
	}

	err = netpoll_ctx_insert(bnp);
	if (err && err != -EEXIST)
		status = err;
	return 0;
}

SEC("lsm/file_open")
int BPF_PROG(netpoll_send_test, struct file *file)
{
	struct __netpoll_ctx_value *v;
	struct bpf_netpoll *bnp;
	__u32 len = send_len;

	if (!trigger_send || (bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;

	trigger_send = 0;
	send_status = -ENOENT;

	v = netpoll_ctx_value_lookup();
	if (!v)
		return 0;

	if (len > SEND_BUF_LEN)
		len = SEND_BUF_LEN;

	bpf_rcu_read_lock();
	bnp = v->ctx;
	if (!bnp) {
		bpf_rcu_read_unlock();
		return 0;
	}

	send_calls++;
	send_status = bpf_netpoll_send_udp(bnp, send_data, len);
	bpf_rcu_read_unlock();
	return 0;
}

SEC("fentry/dummy_xmit")
int BPF_PROG(netpoll_dummy_xmit, struct sk_buff *skb, struct net_device *dev)
{
	unsigned char *data;
	struct ethhdr eth;
	struct iphdr ip;
	struct ipv6hdr ip6;
	struct udphdr udp;
	unsigned int offset;

	if (bpf_probe_read_kernel(&data, sizeof(data), &skb->data) < 0)
		return 0;
	if (!data)
		return 0;

	if (bpf_probe_read_kernel(&eth, sizeof(eth), data) < 0)
		return 0;

	if (eth.h_proto == bpf_htons(ETH_P_IP)) {
		if (bpf_probe_read_kernel(&ip, sizeof(ip), data + sizeof(struct ethhdr)) < 0)
			return 0;
		if (ip.protocol != IPPROTO_UDP)
			return 0;
		offset = sizeof(struct ethhdr) + (ip.ihl * 4);
	} else if (eth.h_proto == bpf_htons(ETH_P_IPV6)) {
		if (bpf_probe_read_kernel(&ip6, sizeof(ip6), data + sizeof(struct ethhdr)) < 0)
			return 0;
		if (ip6.nexthdr != IPPROTO_UDP)
			return 0;
		offset = sizeof(struct ethhdr) + sizeof(struct ipv6hdr);
	} else {
		return 0;
	}

	if (bpf_probe_read_kernel(&udp, sizeof(udp), data + offset) < 0)
		return 0;
	if (udp.dest != bpf_htons(remote_port))
		return 0;
	xmit_udp_len = bpf_ntohs(udp.len);
	if (bpf_probe_read_kernel(&driver_xmit, sizeof(driver_xmit),
				  data + offset + sizeof(struct udphdr)) < 0)
		return 0;

	return 0;
}

char __license[] SEC("license") = "GPL";
