// SPDX-License-Identifier: GPL-2.0-only
/*
 * The last reference to a ksock dropped in NMI, as netpoll_nmi.bpf.c does
 * it for a netpoll context: a SYSCALL program keeps a UDP socket in a hash
 * map, which kt_nmi.bpf.h's fentry on show_regs() deletes in NMI. The
 * 4-byte create options are the seed's and the merged API's alike.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include "kt_bpf.h"

struct nmi_value {
	struct bpf_ksock __kptr * ctx;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct nmi_value);
	__uint(max_entries, 1);
} nmi_ks SEC(".maps");

#define NMI_MAP nmi_ks
#include "kt_nmi.bpf.h"

int create_status = 1;	/* create's err: in .data, 7.x refuses a read of a stack err after it */

SEC("syscall")
int ksock_nmi_create(void *ctx)
{
	struct bpf_ksock_create_opts opts = {
		.family = AF_INET, .type = SOCK_DGRAM, .protocol = IPPROTO_UDP,
	};
	struct nmi_value zero = {}, *v;
	struct bpf_ksock *ks, *old;
	__u32 key = 0;

	if (bpf_map_update_elem(&nmi_ks, &key, &zero, BPF_ANY))
		return 0;
	v = bpf_map_lookup_elem(&nmi_ks, &key);
	if (!v)
		return 0;
	ks = bpf_ksock_create(&opts, sizeof(opts), &create_status);
	if (!ks)
		return 0;
	create_status = 0;
	obj_addr = (__u64)ks;
	obj_size = bpf_core_type_size(struct bpf_ksock);
	old = bpf_kptr_xchg(&v->ctx, ks);
	if (old)
		bpf_ksock_release(old);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
