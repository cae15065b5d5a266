// SPDX-License-Identifier: GPL-2.0-only
/*
 * The last reference to a netpoll context dropped in NMI: a SYSCALL
 * program keeps a context in a hash map, and an fentry on show_regs(),
 * which SysRq l reaches through nmi_cpu_backtrace() on the other CPUs in
 * NMI, deletes that element once armed, so the kptr's dtor runs there.
 * An fentry on queue_rcu_work() counts the calls made inside that delete
 * (queue_rcu_work() and call_rcu() are not NMI-safe), and those made on
 * that CPU after it: the deferred release (see test_detach.c).
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
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

/* Set by kernel-tests */
char dev_name[16] = {};
__be32 local_ip;
__be32 remote_ip;
__u8 remote_mac[6] = {};
int armed;		/* the next show_regs() deletes the element */

/* Results */
int create_status;
int deleted;		/* show_regs() deleted it: 0, or the delete's -errno + 1000 */
int nmi_cpu = -1;	/* the CPU it ran on */
int deleting_cpu = -1;	/* set during that delete */
__u32 queued_in_nmi;	/* queue_rcu_work() inside that delete */
__u32 queued_after;	/* queue_rcu_work() on that CPU after it */

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
	old = bpf_kptr_xchg(&v->ctx, bnp);
	if (old)
		bpf_netpoll_release(old);
	return 0;
}

SEC("fentry/show_regs")
int BPF_PROG(nmi_show_regs, struct pt_regs *regs)
{
	__u32 key = 0;
	long ret;

	if (!__sync_lock_test_and_set(&armed, 0))
		return 0;
	nmi_cpu = bpf_get_smp_processor_id();
	deleting_cpu = nmi_cpu;
	ret = bpf_map_delete_elem(&nmi_ctx, &key);
	deleting_cpu = -1;
	deleted = ret ? ret + 1000 : 1;
	return 0;
}

SEC("fentry/queue_rcu_work")
int BPF_PROG(nmi_queue_rcu_work, struct workqueue_struct *wq, struct rcu_work *rwork)
{
	int cpu = bpf_get_smp_processor_id();

	if (deleting_cpu == cpu)
		__sync_fetch_and_add(&queued_in_nmi, 1);
	else if (deleted && nmi_cpu == cpu)
		__sync_fetch_and_add(&queued_after, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
