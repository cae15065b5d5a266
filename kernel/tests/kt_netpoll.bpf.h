/* SPDX-License-Identifier: GPL-2.0-only */
/* The seed's netpoll_common.h: one netpoll context kept in a kptr map. */
#ifndef KT_NETPOLL_BPF_H
#define KT_NETPOLL_BPF_H

#include "kt_bpf.h"

struct __netpoll_ctx_value {
	struct bpf_netpoll __kptr * ctx;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct __netpoll_ctx_value);
	__uint(max_entries, 1);
} __netpoll_ctx_map SEC(".maps");

static inline struct __netpoll_ctx_value *netpoll_ctx_value_lookup(void)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(&__netpoll_ctx_map, &key);
}

static inline int netpoll_ctx_insert(struct bpf_netpoll *ctx)
{
	struct __netpoll_ctx_value *v;
	struct bpf_netpoll *old;

	v = netpoll_ctx_value_lookup();
	if (!v) {
		bpf_netpoll_release(ctx);
		return -ENOENT;
	}

	old = bpf_kptr_xchg(&v->ctx, ctx);
	if (old) {
		bpf_netpoll_release(old);
		return -EEXIST;
	}
	return 0;
}

#endif /* KT_NETPOLL_BPF_H */
