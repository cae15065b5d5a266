/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The NMI half of netpoll_nmi.bpf.c and ksock_nmi.bpf.c, which define
 * NMI_MAP (a hash map whose one element holds the kptr) first: an fentry
 * on show_regs(), which SysRq l reaches through nmi_cpu_backtrace() on
 * the other CPUs in NMI, deletes the element once armed, so the kptr's
 * dtor runs there; an fentry on queue_rcu_work() counts the calls for
 * the object itself (its rcu_work lies within [obj_addr, obj_addr +
 * obj_size), which the create program records) made inside that delete
 * (queue_rcu_work() and call_rcu() are not NMI-safe) and after it.
 */
#ifndef KT_NMI_BPF_H
#define KT_NMI_BPF_H

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

int armed;		/* set by kernel-tests: the next show_regs() deletes */
__u64 obj_addr, obj_size;	/* the object in the map, set by its create */

/* Results */
int deleted;		/* 1, or the delete's -errno + 1000 */
int nmi_cpu = -1;	/* the CPU it ran on */
int deleting_cpu = -1;	/* set during that delete */
__u32 queued_in_nmi;	/* queue_rcu_work() inside that delete */
__u32 queued_after;	/* queue_rcu_work() after it */

SEC("fentry/show_regs")
int BPF_PROG(nmi_show_regs, struct pt_regs *regs)
{
	__u32 key = 0;
	long ret;

	if (!__sync_lock_test_and_set(&armed, 0))
		return 0;
	nmi_cpu = bpf_get_smp_processor_id();
	deleting_cpu = nmi_cpu;
	ret = bpf_map_delete_elem(&NMI_MAP, &key);
	deleting_cpu = -1;
	deleted = ret ? ret + 1000 : 1;
	return 0;
}

SEC("fentry/queue_rcu_work")
int BPF_PROG(nmi_queue_rcu_work, struct workqueue_struct *wq, struct rcu_work *rwork)
{
	__u64 a = (__u64)rwork;

	if (a < obj_addr || a >= obj_addr + obj_size)
		return 0;
	if (deleting_cpu == bpf_get_smp_processor_id())
		__sync_fetch_and_add(&queued_in_nmi, 1);
	else
		__sync_fetch_and_add(&queued_after, 1);
	return 0;
}

#endif /* KT_NMI_BPF_H */
