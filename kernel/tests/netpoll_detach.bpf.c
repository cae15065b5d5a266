// SPDX-License-Identifier: GPL-2.0-only
/*
 * The netpoll context's device lifetime: a SYSCALL program
 * creates a context on dev_name and keeps it in the map (the previous one
 * is released), an LSM file_open program sends through it and counts the
 * results by errno, and an fentry on dummy_xmit counts the test's frames
 * by the netns they leave in (dev_net(skb->dev)). xmit_spin makes the
 * driver slow, the stand-in for a busy TX queue (see test_detach.c).
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_core_read.h>
#include "kt_netpoll.bpf.h"

#define ETH_P_IP	0x0800
#define ENODEV		19
#define ENETDOWN	100

/* Set by kernel-tests */
char dev_name[16] = {};
__be32 local_ip;
__be32 remote_ip;
__u16 remote_port;
__u8 remote_mac[6] = {};
int target_pid;
int send_on;
__u32 home_inum;	/* the netns the sends must leave in */
__u32 xmit_spin;	/* bpf_loop rounds in dummy_xmit */
int window_on;		/* hold target_pid's create after netpoll_setup() */
/* Writable: the verifier takes a kfunc's memory argument as written to. */
char payload[8] = "detach";

/* Results */
int create_status;
__u32 creates_ok, creates_nodev, creates_other;
__u32 sends_ok, sends_nodev, sends_down, sends_other, sends_noctx;
int last_send, other_send;
__u64 max_send_ns;
__u32 in_xmit, max_in_xmit;	/* the test's frames inside dummy_xmit at once */
__u32 frames_home, frames_away, away_inum;
int in_window;		/* a create waits after netpoll_setup() */
int move_entered;	/* a netns move or a bridge join has started (RTNL held) */
__u32 moves_in_window;

SEC("syscall")
int detach_create(void *ctx)
{
	struct bpf_netpoll_opts opts = {};
	struct bpf_netpoll *bnp;
	int err = 0;

	__builtin_memcpy(opts.dev_name, dev_name, 16);
	opts.local_ip = local_ip;
	opts.remote_ip = remote_ip;
	opts.local_port = 5555;
	opts.remote_port = remote_port;
	__builtin_memcpy(opts.remote_mac, remote_mac, 6);

	bnp = bpf_netpoll_create(&opts, sizeof(opts), &err);
	create_status = bnp ? 0 : err;
	if (!bnp) {
		if (err == -ENODEV)
			__sync_fetch_and_add(&creates_nodev, 1);
		else
			__sync_fetch_and_add(&creates_other, 1);
		return 0;
	}
	__sync_fetch_and_add(&creates_ok, 1);
	netpoll_ctx_insert(bnp);	/* -EEXIST: the old one is released */
	return 0;
}

SEC("lsm/file_open")
int BPF_PROG(detach_send, struct file *file)
{
	struct __netpoll_ctx_value *v;
	struct bpf_netpoll *bnp;
	__u64 t0, d;
	int ret;

	if (!send_on || (bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;
	v = netpoll_ctx_value_lookup();
	if (!v)
		return 0;
	bpf_rcu_read_lock();
	bnp = v->ctx;
	if (!bnp) {
		bpf_rcu_read_unlock();
		__sync_fetch_and_add(&sends_noctx, 1);
		return 0;
	}
	t0 = bpf_ktime_get_ns();
	ret = bpf_netpoll_send_udp(bnp, payload, 6);
	d = bpf_ktime_get_ns() - t0;
	bpf_rcu_read_unlock();

	if (d > max_send_ns)	/* a figure: a lost update only lowers it */
		max_send_ns = d;
	last_send = ret;
	if (ret == 0) {
		__sync_fetch_and_add(&sends_ok, 1);
	} else if (ret == -ENODEV) {
		__sync_fetch_and_add(&sends_nodev, 1);
	} else if (ret == -ENETDOWN) {
		__sync_fetch_and_add(&sends_down, 1);
	} else {
		__sync_fetch_and_add(&sends_other, 1);
		other_send = ret;
	}
	return 0;
}

static long spin_cb(__u64 i, void *ctx)
{
	return 0;
}

SEC("fentry/dummy_xmit")
int BPF_PROG(detach_xmit, struct sk_buff *skb, struct net_device *dev)
{
	unsigned char *data = skb->data;
	struct udphdr udp;
	struct iphdr ip;
	struct ethhdr eth;
	__u32 inum;

	if (bpf_probe_read_kernel(&eth, sizeof(eth), data) < 0 ||
	    eth.h_proto != bpf_htons(ETH_P_IP))
		return 0;
	if (bpf_probe_read_kernel(&ip, sizeof(ip), data + sizeof(eth)) < 0 ||
	    ip.protocol != IPPROTO_UDP)
		return 0;
	if (bpf_probe_read_kernel(&udp, sizeof(udp), data + sizeof(eth) + ip.ihl * 4) < 0 ||
	    udp.dest != bpf_htons(remote_port))
		return 0;

	inum = BPF_CORE_READ(dev, nd_net.net, ns.inum);
	if (inum == home_inum) {
		__sync_fetch_and_add(&frames_home, 1);
	} else {
		__sync_fetch_and_add(&frames_away, 1);
		away_inum = inum;
	}
	if (xmit_spin) {
		__u32 now = __sync_fetch_and_add(&in_xmit, 1) + 1;

		if (now > max_in_xmit)	/* a lost update: a later frame sets it again */
			max_in_xmit = now;
		bpf_loop(xmit_spin, spin_cb, NULL, 0);
		__sync_fetch_and_sub(&in_xmit, 1);
	}
	return 0;
}

/*
 * The window of fix 0010: netpoll_setup() has dropped RTNL, the create has
 * not yet taken it again for its re-check. A create of target_pid waits
 * here (bounded) until a netns move has started; the move holds RTNL and
 * waits in synchronize_net() for this program to leave, so the re-check
 * comes after the whole move, always.
 */
SEC("fentry/__dev_change_net_namespace")
int BPF_PROG(detach_move_start, struct net_device *dev)
{
	if (in_window)
		move_entered = 1;
	return 0;
}

/* Fix 0023's window: the same wait, ended by a bridge join of the device. */
SEC("fentry/br_add_if")
int BPF_PROG(detach_join_start, void *br, struct net_device *dev)
{
	if (in_window)
		move_entered = 1;
	return 0;
}

static long window_cb(__u64 i, void *ctx)
{
	return *(volatile int *)&move_entered ? 1 : 0;
}

static __always_inline void window_wait(void)
{
	move_entered = 0;
	in_window = 1;
	bpf_loop(1 << 23, window_cb, NULL, 0);
	in_window = 0;
	if (move_entered)
		moves_in_window++;
}

/* 6.12 (test_detach.c loads one of the two ways, by the kernel's BTF). */
SEC("?fexit/netpoll_setup")
int BPF_PROG(detach_window, struct netpoll *np, int ret)
{
	if (!window_on || ret || (bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;
	window_wait();
	return 0;
}

/*
 * 7.x: netpoll_setup() moved into netconsole, and the series' own copy,
 * bpf_netpoll_setup(), is static and inlined. Its tail is the same
 * window: __netpoll_setup() succeeds under RTNL, RTNL is dropped, and
 * synchronize_rcu() waits for NAPI polls; the re-check follows.
 */
int setup_done;

SEC("?fexit/__netpoll_setup")
int BPF_PROG(detach_setup_done, struct netpoll *np, struct net_device *ndev, int ret)
{
	if (window_on && !ret && (bpf_get_current_pid_tgid() >> 32) == target_pid)
		setup_done = 1;
	return 0;
}

SEC("?fexit/synchronize_rcu")
int BPF_PROG(detach_window_rcu)
{
	if (!setup_done || (bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;
	setup_done = 0;
	window_wait();
	return 0;
}

char __license[] SEC("license") = "GPL";
