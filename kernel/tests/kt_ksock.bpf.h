/* SPDX-License-Identifier: GPL-2.0-only */
/* The seed's ksock_common.h: one ksock kept in a kptr map, and the setup
 * that creates it and connects it to ipv4_remote:remote_port. */
#ifndef KT_KSOCK_BPF_H
#define KT_KSOCK_BPF_H

#include "kt_bpf.h"

struct __ksock_ctx_value {
	struct bpf_ksock __kptr * ctx;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct __ksock_ctx_value);
	__uint(max_entries, 1);
} __ksock_ctx_map SEC(".maps");

static inline struct __ksock_ctx_value *ksock_ctx_value_lookup(void)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(&__ksock_ctx_map, &key);
}

/* A reference on the map's ksock, as an LSM program would hold one, or NULL. */
static __always_inline struct bpf_ksock *ksock_ctx_acquire(void)
{
	struct __ksock_ctx_value *v = ksock_ctx_value_lookup();
	struct bpf_ksock *ks = NULL, *tmp;

	if (!v)
		return NULL;
	bpf_rcu_read_lock();
	tmp = v->ctx;
	if (tmp)
		ks = bpf_ksock_acquire(tmp);
	bpf_rcu_read_unlock();
	return ks;
}

static inline int ksock_ctx_insert(struct bpf_ksock *ctx)
{
	struct __ksock_ctx_value *v;
	struct bpf_ksock *old;

	v = ksock_ctx_value_lookup();
	if (!v) {
		bpf_ksock_release(ctx);
		return -ENOENT;
	}

	old = bpf_kptr_xchg(&v->ctx, ctx);
	if (old) {
		bpf_ksock_release(old);
		return -EEXIST;
	}
	return 0;
}

/* Globals for passing config from user space */
__be32 ipv4_remote;
__u16 remote_port;

char send_data[32] = "hello from bpf ksock";

static inline int do_ksock_setup(void)
{
	struct bpf_ksock_create_opts create_opts = {};
	struct bpf_ksock_addr_opts addr_opts = {};
	struct bpf_ksock *ks;
	int err = 0;

	create_opts.family = AF_INET;
	create_opts.type = SOCK_DGRAM;
	create_opts.protocol = IPPROTO_UDP;

	ks = bpf_ksock_create(&create_opts, sizeof(create_opts), &err);
	if (!ks)
		return err;

	addr_opts.family = AF_INET;
	addr_opts.port = remote_port;
	addr_opts.ipv4_addr = ipv4_remote;

	err = bpf_ksock_connect(ks, &addr_opts, sizeof(addr_opts));
	if (err) {
		bpf_ksock_release(ks);
		return err;
	}

	err = ksock_ctx_insert(ks);
	if (err && err != -EEXIST)
		return err;
	return 0;
}

#endif /* KT_KSOCK_BPF_H */
