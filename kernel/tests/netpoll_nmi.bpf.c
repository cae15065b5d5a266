// SPDX-License-Identifier: GPL-2.0-only
/*
 * The last reference to a netpoll context dropped in NMI: a SYSCALL
 * program keeps a context in a hash map, which kt_nmi.bpf.h's fentry on
 * show_regs() deletes in NMI (see test_detach.c).
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include "kt_bpf.h"

struct nmi_value {
	struct bpf_netpoll __kptr * ctx;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct nmi_value);
	__uint(max_entries, 1);
} nmi_ctx SEC(".maps");

#define NMI_MAP nmi_ctx
#include "kt_nmi.bpf.h"

/* Set by kernel-tests */
char dev_name[16] = {};
__be32 local_ip;
__be32 remote_ip;
__u8 remote_mac[6] = {};

int create_status;

SEC("syscall")
int nmi_create(void *ctx)
{
	struct bpf_netpoll_opts opts = {};
	struct nmi_value zero = {}, *v;
	struct bpf_netpoll *bnp, *old;
	__u32 key = 0;
	int err = 0;

	__builtin_memcpy(opts.dev_name, dev_name, 16);
	opts.local_ip = local_ip;
	opts.remote_ip = remote_ip;
	opts.local_port = 5555;
	opts.remote_port = 6688;
	__builtin_memcpy(opts.remote_mac, remote_mac, 6);

	if (bpf_map_update_elem(&nmi_ctx, &key, &zero, BPF_ANY))
		return 0;
	v = bpf_map_lookup_elem(&nmi_ctx, &key);
	if (!v)
		return 0;
	bnp = bpf_netpoll_create(&opts, sizeof(opts), &err);
	create_status = bnp ? 0 : err;
	if (!bnp)
		return 0;
	obj_addr = (__u64)bnp;
	obj_size = bpf_core_type_size(struct bpf_netpoll);
	old = bpf_kptr_xchg(&v->ctx, bnp);
	if (old)
		bpf_netpoll_release(old);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
