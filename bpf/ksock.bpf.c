// SPDX-License-Identifier: GPL-2.0-only
/*
 * ksock sender: a SYSCALL program creates, binds and connects a kernel UDP
 * socket and stores it as a kptr; the LSM programs take a reference, send
 * (MSG_DONTWAIT: -EAGAIN when the send buffer is full) and release it.
 * Built twice: as is for the seed API (bpfwire_ksock), and through
 * ksock_up.bpf.c with BPFWIRE_KSOCK_UPSTREAM for the API Linux merged
 * (bpfwire_ksock_up). Only the setup program differs; the agent picks the
 * object from the kernel's BTF (kapi/).
 */
#ifndef BPFWIRE_KSOCK_UPSTREAM
#define BPFWIRE_KSOCK_SEED
#endif
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>
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

#ifdef BPFWIRE_KSOCK_SEED
static __always_inline void fill_addr(struct bpfwire_ksock_addr_opts *a,
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

/*
 * Seed: create, bind when asked, connect. The posted 4-byte opts, unless
 * --sndbuf asks for a send buffer: then the sndbuf extension's 8 (the
 * agent refused --sndbuf on a kernel without it).
 */
static __always_inline struct bpf_ksock *ksock_open(int *err)
{
	struct bpfwire_ksock_create_opts copts = {};
	struct bpfwire_ksock_addr_opts aopts = {};
	struct bpf_ksock *ks;

	setup_stage = BPFWIRE_STAGE_CREATE;
	copts.family = cfg.family;
	copts.type = SOCK_DGRAM;
	copts.protocol = IPPROTO_UDP;
	copts.sndbuf = cfg.sndbuf;
	ks = bpf_ksock_create(&copts, cfg.sndbuf ? BPFWIRE_KSOCK_CREATE_OPTS_SZ_SNDBUF :
			      BPFWIRE_KSOCK_CREATE_OPTS_SZ_V0, err);
	if (!ks)
		return NULL;

	if (cfg.has_bind) {
		setup_stage = BPFWIRE_STAGE_BIND;
		fill_addr(&aopts, cfg.src_addr, cfg.src_port);
		*err = bpf_ksock_bind(ks, &aopts, sizeof(aopts));
		if (*err)
			goto out_release;
	}

	setup_stage = BPFWIRE_STAGE_CONNECT;
	__builtin_memset(&aopts, 0, sizeof(aopts));
	fill_addr(&aopts, cfg.dst_addr, cfg.dst_port);
	*err = bpf_ksock_connect(ks, &aopts, sizeof(aopts));
	if (!*err)
		return ks;
out_release:
	bpf_ksock_release(ks);
	return NULL;
}
#else
/*
 * Upstream: create with the 4-byte opts, connect to a sockaddr in the
 * union (its size exactly). No bind and no send buffer: the agent refuses
 * --bind, and --sndbuf (no sndbuf extension), before loading anything.
 */
static __always_inline struct bpf_ksock *ksock_open(int *err)
{
	struct bpfwire_ksock_create_opts copts = {};
	union bpfwire_ksock_addr a = {};
	struct bpf_ksock *ks;

	setup_stage = BPFWIRE_STAGE_CREATE;
	copts.family = cfg.family;
	copts.type = SOCK_DGRAM;
	copts.protocol = IPPROTO_UDP;
	ks = bpf_ksock_create(&copts, BPFWIRE_KSOCK_CREATE_OPTS_SZ_V0, err);
	if (!ks)
		return NULL;

	setup_stage = BPFWIRE_STAGE_CONNECT;
	if (cfg.family == AF_INET) {
		a.sin.family = AF_INET;
		a.sin.port = bpf_htons(cfg.dst_port);
		cfg_copy(&a.sin.addr, cfg.dst_addr, 4);
	} else {
		a.sin6.family = AF_INET6;
		a.sin6.port = bpf_htons(cfg.dst_port);
		cfg_copy(a.sin6.addr, cfg.dst_addr, 16);
		a.sin6.scope_id = cfg.scope_id;
	}
	*err = bpf_ksock_connect(ks, &a, BPFWIRE_KSOCK_ADDR_SZ);
	if (!*err)
		return ks;
	bpf_ksock_release(ks);
	return NULL;
}
#endif

SEC("syscall")
int bpfwire_ksock_setup(void *ctx)
{
	struct ksock_slot *slot;
	struct bpf_ksock *ks, *old;
	__u32 key = 0;
	int err = 0;	/* 6.12 honours __uninit only for dynptrs */

	ks = ksock_open(&err);
	if (!ks)
		return err ? err : -ENOMEM;

	setup_stage = BPFWIRE_STAGE_STORE;
	slot = bpf_map_lookup_elem(&ksock_slot, &key);
	if (!slot) {
		bpf_ksock_release(ks);
		return -ENOENT;
	}
	old = bpf_kptr_xchg(&slot->ks, ks);
	if (old) {
		bpf_ksock_release(old);
		return -EEXIST;
	}
	setup_stage = BPFWIRE_STAGE_NONE;
	return 0;
}
