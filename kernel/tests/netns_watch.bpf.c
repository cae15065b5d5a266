// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tells when a netns really goes away: cleanup_net() frees its inode
 * number only after the namespace's devices have been unregistered and
 * freed, so a netdev reference that is never dropped keeps that from ever
 * happening for that netns. 6.12 frees it in net_ns_net_exit() (nsfs's
 * pernet exit); 7.x has no such pernet op and frees it in
 * __ns_common_free(), after the pernet exits. test_teardown.c loads the
 * program of the kernel it runs on (by its BTF).
 */
#include "vmlinux.h"
#include <bpf/bpf_tracing.h>

__u32 watch_inum;
int seen;

SEC("?fentry/net_ns_net_exit")
int BPF_PROG(netns_exit, struct net *net)
{
	if (watch_inum && net->ns.inum == watch_inum)
		seen = 1;
	return 0;
}

SEC("?fentry/__ns_common_free")
int BPF_PROG(ns_common_free, struct ns_common *ns)
{
	if (watch_inum && ns->inum == watch_inum)
		seen = 1;
	return 0;
}

char __license[] SEC("license") = "GPL";
