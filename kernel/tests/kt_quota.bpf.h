/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-netns ksock quota counter, net_generic(net, bpf_ksock_net_id)->
 * count, as ksock_counter.bpf.c (the caller's netns) and
 * ksock_netexit.bpf.c (a netns at its pernet exit) read it.
 */
#ifndef KT_QUOTA_BPF_H
#define KT_QUOTA_BPF_H

#include <bpf/bpf_core_read.h>
#include "kt_bpf.h"

/* bpf_ksock_net_id's value; 0 or -errno. SYSCALL programs only (kallsyms). */
static __always_inline int ksock_net_id_lookup(unsigned int *id)
{
	__u64 id_addr = 0;
	int err;

	err = bpf_kallsyms_lookup_name("bpf_ksock_net_id", sizeof("bpf_ksock_net_id"), 0,
				       &id_addr);
	return err ?: bpf_probe_read_kernel(id, sizeof(*id), (void *)id_addr);
}

/* net's counter into *count; 0 or -errno. */
static __always_inline int ksock_net_count_read(struct net *net, unsigned int id, int *count)
{
	struct net_generic *gen = BPF_CORE_READ(net, gen);
	void *slot = NULL;
	int err;

	if (!gen || id == 0 || id > 256)
		return -ENOENT;
	err = bpf_probe_read_kernel(&slot, sizeof(slot), (void *)gen + id * sizeof(void *));
	if (err || !slot)
		return err ?: -ENOENT;
	/* struct bpf_ksock_net { atomic_t count; } */
	return bpf_probe_read_kernel(count, sizeof(*count), slot);
}

#endif /* KT_QUOTA_BPF_H */
