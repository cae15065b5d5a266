// SPDX-License-Identifier: GPL-2.0-only
/*
 * The last reference to a ksock dropped in NMI, as netpoll_nmi.bpf.c does
 * it for a netpoll context: a SYSCALL program keeps a socket in a hash
 * map, an fentry on show_regs() (SysRq l, nmi_cpu_backtrace() on the other
 * CPUs) deletes it once armed, and an fentry on queue_rcu_work() counts
 * the calls inside that delete and those on that CPU after it. The 4-byte
 * create options are the seed's and the merged API's alike.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
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

int armed;		/* set by kernel-tests: the next show_regs() deletes */

/* Results */
int create_status = 1;	/* create's err: in .data, 7.x refuses a read of a stack err after it */
int deleted;		/* 1, or the delete's -errno + 1000 */
int nmi_cpu = -1;
int deleting_cpu = -1;
__u32 queued_in_nmi;	/* queue_rcu_work() inside that delete */
__u32 queued_after;	/* queue_rcu_work() on that CPU after it */

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
	old = bpf_kptr_xchg(&v->ctx, ks);
	if (old)
		bpf_ksock_release(old);
	return 0;
}

SEC("fentry/show_regs")
int BPF_PROG(ksock_nmi_show_regs, struct pt_regs *regs)
{
	__u32 key = 0;
	long ret;

	if (!__sync_lock_test_and_set(&armed, 0))
		return 0;
	nmi_cpu = bpf_get_smp_processor_id();
	deleting_cpu = nmi_cpu;
	ret = bpf_map_delete_elem(&nmi_ks, &key);
	deleting_cpu = -1;
	deleted = ret ? ret + 1000 : 1;
	return 0;
}

SEC("fentry/queue_rcu_work")
int BPF_PROG(ksock_nmi_queue_rcu_work, struct workqueue_struct *wq, struct rcu_work *rwork)
{
	int cpu = bpf_get_smp_processor_id();

	if (deleting_cpu == cpu)
		__sync_fetch_and_add(&queued_in_nmi, 1);
	else if (deleted && nmi_cpu == cpu)
		__sync_fetch_and_add(&queued_after, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
