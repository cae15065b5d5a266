// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 010 (ksock_lsm_recursion): lsm.s/socket_sendmsg sends through the
 * ksock, whose kernel_sendmsg() runs the same hook again; the nested send
 * must get -EBUSY from the recursion guard.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
#include "kt_ksock.bpf.h"

int target_pid;
int trigger_send;

unsigned int rec_count;
int rec_kfunc_rets[] = { -1, -1 };

SEC("syscall")
int ksock_setup(void *ctx)
{
	return do_ksock_setup();
}

SEC("lsm.s/socket_sendmsg")
int BPF_PROG(ksock_socket_sendmsg, struct socket *sock, struct msghdr *msg,
	     int size, int ret)
{
	struct __ksock_ctx_value *v;
	struct bpf_ksock *ks, *tmp;
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	int kfunc_ret;

	if (ret || !trigger_send || pid != target_pid)
		return ret;

	v = ksock_ctx_value_lookup();
	if (!v) {
		kfunc_ret = -ENOENT;
		goto out;
	}

	ks = NULL;
	bpf_rcu_read_lock();
	tmp = v->ctx;
	if (tmp)
		ks = bpf_ksock_acquire(tmp);
	bpf_rcu_read_unlock();

	if (!ks) {
		kfunc_ret = -ENOENT;
		goto out;
	}

	kfunc_ret = bpf_ksock_send(ks, send_data, sizeof(send_data));
	bpf_ksock_release(ks);

out:
	rec_kfunc_rets[rec_count & 1] = kfunc_ret;
	__sync_fetch_and_add(&rec_count, 1);

	if (kfunc_ret != -EBUSY)
		trigger_send = 0;

	return ret;
}

char __license[] SEC("license") = "GPL";
