// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 004 (netpoll_basic): create then release loads and runs to 0; create
 * then acquire, with one reference never released, is refused by the
 * verifier. kernel-tests loads each program alone and checks its tags.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include "kt_bpf.h"

SEC("syscall")
__success __retval(0)
int netpoll_release(void *ctx)
{
	struct bpf_netpoll_opts opts = { .dev_name = "dummy0" };
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&opts, sizeof(opts), &err);
	if (!bnp)
		return err;

	bpf_netpoll_release(bnp);

	return 0;
}

SEC("syscall")
__failure __msg("Unreleased reference")
int netpoll_acquire(void *ctx)
{
	struct bpf_netpoll_opts opts = { .dev_name = "dummy0" };
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&opts, sizeof(opts), &err);
	if (!bnp)
		return err;

	bnp = bpf_netpoll_acquire(bnp);
	if (!bnp)
		return -EINVAL;

	bpf_netpoll_release(bnp);

	return 0;
}

char __license[] SEC("license") = "GPL";
