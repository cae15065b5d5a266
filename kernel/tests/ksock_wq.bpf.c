// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cover letter's sixth selftest (ksock_wq, NOTES.md): bpf_ksock_create
 * from a bpf_wq callback, which runs in a kworker with no caller context,
 * must fail with -EOPNOTSUPP.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include "kt_bpf.h"
#include "kt_wq.bpf.h"

static int ksock_wq_cb(void *map, int *key, void *value)
{
	struct bpf_ksock_create_opts opts = {
		.family = AF_INET,
		.type = SOCK_DGRAM,
		.protocol = IPPROTO_UDP,
	};
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&opts, sizeof(opts), &err);
	if (ks) {
		wq_created = 1;
		bpf_ksock_release(ks);
	}
	wq_err = err;
	__sync_fetch_and_add(&wq_done, 1);
	return 0;
}

KT_WQ_START_PROG(ksock_wq_start, ksock_wq_cb)

char __license[] SEC("license") = "GPL";
