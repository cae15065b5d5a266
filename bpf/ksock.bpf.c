// SPDX-License-Identifier: GPL-2.0-only
/*
 * ksock sender: a SYSCALL program creates, binds and connects a kernel UDP
 * socket and stores it as a kptr; the LSM programs take a reference, send
 * (MSG_DONTWAIT: -EAGAIN when the send buffer is full) and release it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "kfuncs.h"
#include "bpf_defs.h"

struct ksock_slot {
	struct bpf_ksock __kptr *ks;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ksock_slot);
} ksock_slot SEC(".maps");

/* Which setup step failed (enum bpfwire_stage), for the agent's message. */
int setup_stage;

static __always_inline int bpfwire_xmit(__u8 *buf, __u32 len)
{
	struct bpf_ksock *ks = NULL, *rcu_ks;
	struct ksock_slot *slot;
	__u32 key = 0;
	int ret;

	slot = bpf_map_lookup_elem(&ksock_slot, &key);
	if (!slot)
		return -ENOENT;
	bpf_rcu_read_lock();
	rcu_ks = slot->ks;
	if (rcu_ks)
		ks = bpf_ksock_acquire(rcu_ks);
	bpf_rcu_read_unlock();
	if (!ks)
		return -ENOTCONN;
	ret = bpf_ksock_send(ks, buf, len);
	bpf_ksock_release(ks);
	return ret;
}

#include "sender.bpf.h"

static __always_inline void fill_addr(struct bpf_ksock_addr_opts *a,
				      const volatile __u8 *addr, __u16 port)
{
	a->family = cfg.family;
	a->port = port;
	if (cfg.family == AF_INET) {
		cfg_copy(&a->ipv4_addr, addr, 4);
	} else {
		cfg_copy(a->ipv6_addr, addr, 16);
		a->scope_id = cfg.scope_id;
	}
}

SEC("syscall")
int bpfwire_ksock_setup(void *ctx)
{
	struct bpf_ksock_create_opts copts = {};
	struct bpf_ksock_addr_opts aopts = {};
	struct ksock_slot *slot;
	struct bpf_ksock *ks, *old;
	__u32 key = 0;
	int err = 0;	/* 6.12 honours __uninit only for dynptrs */

	setup_stage = BPFWIRE_STAGE_CREATE;
	copts.family = cfg.family;
	copts.type = SOCK_DGRAM;
	copts.protocol = IPPROTO_UDP;
	copts.sndbuf = cfg.sndbuf;	/* 0: the default buffer */
	ks = bpf_ksock_create(&copts, sizeof(copts), &err);
	if (!ks)
		return err ? err : -ENOMEM;

	if (cfg.has_bind) {
		setup_stage = BPFWIRE_STAGE_BIND;
		fill_addr(&aopts, cfg.src_addr, cfg.src_port);
		err = bpf_ksock_bind(ks, &aopts, sizeof(aopts));
		if (err)
			goto out_release;
	}

	setup_stage = BPFWIRE_STAGE_CONNECT;
	__builtin_memset(&aopts, 0, sizeof(aopts));
	fill_addr(&aopts, cfg.dst_addr, cfg.dst_port);
	err = bpf_ksock_connect(ks, &aopts, sizeof(aopts));
	if (err)
		goto out_release;

	setup_stage = BPFWIRE_STAGE_STORE;
	slot = bpf_map_lookup_elem(&ksock_slot, &key);
	if (!slot) {
		err = -ENOENT;
		goto out_release;
	}
	old = bpf_kptr_xchg(&slot->ks, ks);
	if (old) {
		bpf_ksock_release(old);
		return -EEXIST;
	}
	setup_stage = BPFWIRE_STAGE_NONE;
	return 0;

out_release:
	bpf_ksock_release(ks);
	return err;
}
