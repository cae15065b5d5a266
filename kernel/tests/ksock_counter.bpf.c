// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reads the per-netns ksock quota counter of the caller's netns, i.e.
 * net_generic(net, bpf_ksock_net_id)->count, so the suite can check that
 * every charge was returned.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_core_read.h>
#include "kt_bpf.h"

int count = -1;
int lookup_err = 1;

SEC("syscall")
int ksock_count(void *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct net_generic *gen;
	__u64 id_addr = 0;
	unsigned int id = 0;
	void *slot = NULL;
	struct net *net;
	int c = -1;

	count = -1;
	lookup_err = bpf_kallsyms_lookup_name("bpf_ksock_net_id",
					      sizeof("bpf_ksock_net_id"), 0,
					      &id_addr);
	if (lookup_err)
		return 0;
	lookup_err = bpf_probe_read_kernel(&id, sizeof(id), (void *)id_addr);
	if (lookup_err)
		return 0;

	net = BPF_CORE_READ(task, nsproxy, net_ns);
	gen = BPF_CORE_READ(net, gen);
	if (!gen || id == 0 || id > 256) {
		lookup_err = -ENOENT;
		return 0;
	}
	lookup_err = bpf_probe_read_kernel(&slot, sizeof(slot),
					   (void *)gen + id * sizeof(void *));
	if (lookup_err || !slot)
		return 0;
	/* struct bpf_ksock_net { atomic_t count; } */
	lookup_err = bpf_probe_read_kernel(&c, sizeof(c), slot);
	if (!lookup_err)
		count = c;
	return 0;
}

char __license[] SEC("license") = "GPL";
