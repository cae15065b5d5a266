// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fix 0015: ksock's pernet .exit, bpf_ksock_net_exit(), checks that a
 * netns leaves with its quota count at 0. This watches it run for one
 * netns and reads that count there. Without the exit hook, fentry has
 * nothing to attach to and the object does not load.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
#include "kt_quota.bpf.h"

unsigned int net_id;
int id_err = 1;
__u32 watch_inum;
int exit_calls;
int exit_count = -1;
int exit_err = 1;

SEC("syscall")
int net_id_lookup(void *ctx)
{
	id_err = ksock_net_id_lookup(&net_id);
	return 0;
}

SEC("fentry/bpf_ksock_net_exit")
int BPF_PROG(ksock_net_exit, struct net *net)
{
	int c = -1;

	if (!watch_inum || net->ns.inum != watch_inum)
		return 0;
	exit_err = ksock_net_count_read(net, net_id, &c);
	exit_count = c;
	__sync_fetch_and_add(&exit_calls, 1);
	return 0;
}

char __license[] SEC("license") = "GPL";
