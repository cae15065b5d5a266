// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two cases that show how the seed and the upstream ksock differ, from
 * one source that builds against either kernel's vmlinux.h:
 *  - create_many: up to 64 ksocks in the caller's netns, each kept in a
 *    slot of a kptr map (upstream has no quota; the seed's
 *    net.core.bpf_ksock_max refuses one more with -ENOSPC);
 *  - sendmsg_send: a send from lsm.s/socket_sendmsg (the seed runs it and
 *    the nested send gets -EBUSY; upstream refuses it at load).
 * create's opts go with opts__sz 4, the posted layout, which both APIs
 * take (and the seed with bpfwire's sndbuf extension too).
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
#include "kt_bpf.h"

#define MANY_MAX 64

struct many_slot {
	struct bpf_ksock __kptr *ks;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct many_slot);
	__uint(max_entries, MANY_MAX);
} many_map SEC(".maps");

__u32 many_n = MANY_MAX;	/* how many to try */
__u32 many_made;
int many_err;			/* the first failure's errno, 0: none */
__u32 many_err_at = ~0u;	/* and its index */

static int create_one(__u32 i)
{
	struct bpf_ksock_create_opts opts = {};
	struct many_slot *slot;
	struct bpf_ksock *ks, *old;
	int err = 0;

	opts.family = AF_INET;
	opts.type = SOCK_DGRAM;
	opts.protocol = IPPROTO_UDP;
	ks = bpf_ksock_create((void *)&opts, BPFWIRE_KSOCK_CREATE_OPTS_SZ_V0, &err);
	if (!ks)
		return err ? err : -EINVAL;
	slot = bpf_map_lookup_elem(&many_map, &i);
	if (!slot) {
		bpf_ksock_release(ks);
		return -ENOENT;
	}
	old = bpf_kptr_xchg(&slot->ks, ks);
	if (old)
		bpf_ksock_release(old);
	return 0;
}

SEC("syscall")
int create_many(void *ctx)
{
	__u32 i;
	int err;

	many_made = 0;
	many_err = 0;
	many_err_at = ~0u;
	for (i = 0; i < MANY_MAX && i < many_n; i++) {
		err = create_one(i);
		if (err) {
			many_err = err;
			many_err_at = i;
			break;
		}
		many_made++;
	}
	return 0;
}

int target_pid;
__u32 sendmsg_calls;
int sendmsg_rets[2] = { 1, 1 };	/* [0] the nested send, [1] the outer */
char send_data[16] = "socket_sendmsg";

SEC("lsm.s/socket_sendmsg")
int BPF_PROG(sendmsg_send, struct socket *sock, struct msghdr *msg, int size,
	     int ret)
{
	struct bpf_ksock *ks = NULL, *tmp;
	struct many_slot *slot;
	__u32 key = 0, n;
	int r;

	if (ret || !target_pid || (bpf_get_current_pid_tgid() >> 32) != target_pid)
		return ret;
	n = __sync_fetch_and_add(&sendmsg_calls, 1);
	if (n >= 2)
		return ret;
	slot = bpf_map_lookup_elem(&many_map, &key);
	if (!slot)
		return ret;
	bpf_rcu_read_lock();
	tmp = slot->ks;
	if (tmp)
		ks = bpf_ksock_acquire(tmp);
	bpf_rcu_read_unlock();
	if (!ks)
		return ret;
	/* The first call (the user's sendto) sends, which runs this hook
	 * again: that nested call's result is stored first, in [0]. */
	r = bpf_ksock_send(ks, send_data, sizeof(send_data));
	bpf_ksock_release(ks);
	sendmsg_rets[n == 0 ? 1 : 0] = r;
	return ret;
}

char __license[] SEC("license") = "GPL";
