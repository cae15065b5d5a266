// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpoll sender: a SYSCALL program sets up netpoll on cfg.dev with the
 * next hop's MAC and stores the context as a kptr; the LSM programs send
 * under bpf_rcu_read_lock() (bpf_netpoll_send_udp is KF_RCU). 0 from
 * bpf_netpoll_send_udp means accepted, not transmitted (6.12's
 * netpoll_send_udp returns void and may queue).
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "kfuncs.h"
#include "bpf_defs.h"

struct netpoll_slot {
	struct bpf_netpoll __kptr *np;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct netpoll_slot);
} netpoll_slot SEC(".maps");

int setup_stage;

static __always_inline int bpfwire_xmit(__u8 *buf, __u32 len)
{
	struct netpoll_slot *slot;
	struct bpf_netpoll *np;
	__u32 key = 0;
	int ret;

	slot = bpf_map_lookup_elem(&netpoll_slot, &key);
	if (!slot)
		return -ENOENT;
	bpf_rcu_read_lock();
	np = slot->np;
	if (np)
		ret = bpf_netpoll_send_udp(np, buf, len);
	else
		ret = -ENOTCONN;
	bpf_rcu_read_unlock();
	return ret;
}

/* No --batch: bpf_netpoll_send_udp() is LSM-only, so no SYSCALL program
 * could flush a partial batch on demand or at unload. */
#define BPFWIRE_NO_BATCH
#include "sender.bpf.h"

SEC("syscall")
int bpfwire_netpoll_setup(void *ctx)
{
	struct bpf_netpoll_opts opts = {};
	struct netpoll_slot *slot;
	struct bpf_netpoll *np, *old;
	__u32 key = 0;
	int err = 0;

	setup_stage = BPFWIRE_STAGE_CREATE;
	cfg_copy(opts.dev_name, cfg.dev, sizeof(opts.dev_name));
	opts.local_port = cfg.src_port;
	opts.remote_port = cfg.dst_port;
	cfg_copy(opts.remote_mac, cfg.remote_mac, 6);
	if (cfg.family == AF_INET6) {
		opts.ipv6 = 1;
		cfg_copy(opts.local_ip6, cfg.src_addr, 16);
		cfg_copy(opts.remote_ip6, cfg.dst_addr, 16);
	} else {
		cfg_copy(&opts.local_ip, cfg.src_addr, 4);
		cfg_copy(&opts.remote_ip, cfg.dst_addr, 4);
	}
	np = bpf_netpoll_create(&opts, sizeof(opts), &err);
	if (!np)
		return err ? err : -ENOMEM;

	setup_stage = BPFWIRE_STAGE_STORE;
	slot = bpf_map_lookup_elem(&netpoll_slot, &key);
	if (!slot) {
		bpf_netpoll_release(np);
		return -ENOENT;
	}
	old = bpf_kptr_xchg(&slot->np, np);
	if (old) {
		bpf_netpoll_release(old);
		return -EEXIST;
	}
	setup_stage = BPFWIRE_STAGE_NONE;
	return 0;
}
