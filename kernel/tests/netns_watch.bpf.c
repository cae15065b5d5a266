// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tells when a netns really goes away: net_ns_net_exit() (nsfs's pernet
 * exit) runs in cleanup_net() only after the namespace's devices have been
 * unregistered and freed, so a netdev reference that is never dropped
 * keeps it from ever running for that netns.
 */
#include "vmlinux.h"
#include <bpf/bpf_tracing.h>

__u32 watch_inum;
int seen;

SEC("fentry/net_ns_net_exit")
int BPF_PROG(netns_exit, struct net *net)
{
	if (watch_inum && net->ns.inum == watch_inum)
		seen = 1;
	return 0;
}

char __license[] SEC("license") = "GPL";
