// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reads the per-netns ksock quota counter of the caller's netns, i.e.
 * net_generic(net, bpf_ksock_net_id)->count, so the suite can check that
 * every charge was returned.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include "kt_quota.bpf.h"

int count = -1;
int lookup_err = 1;

SEC("syscall")
int ksock_count(void *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	unsigned int id = 0;
	int c = -1;

	count = -1;
	lookup_err = ksock_net_id_lookup(&id);
	if (lookup_err)
		return 0;
	lookup_err = ksock_net_count_read(BPF_CORE_READ(task, nsproxy, net_ns), id, &c);
	if (!lookup_err)
		count = c;
	return 0;
}

char __license[] SEC("license") = "GPL";
