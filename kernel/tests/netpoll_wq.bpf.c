// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_netpoll_create from a bpf_wq callback (fix 0006). The SYSCALL program
 * runs in a child netns; the callback runs in a kworker, whose netns is
 * init_net. On the seed it gets a context on a device of the initial netns;
 * with the fix, -EOPNOTSUPP. A context that does come back is released.
 * direct_probe is the control: the same opts from the program itself.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include "kt_bpf.h"
#include "kt_wq.bpf.h"

struct bpf_netpoll_opts opts = {};
int direct_err = 1;
int direct_created;

static int netpoll_wq_cb(void *map, int *key, void *value)
{
	struct bpf_netpoll_opts o = opts;
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&o, sizeof(o), &err);
	if (bnp) {
		wq_created = 1;
		bpf_netpoll_release(bnp);
	}
	wq_err = err;
	__sync_fetch_and_add(&wq_done, 1);
	return 0;
}

KT_WQ_START_PROG(netpoll_wq_start, netpoll_wq_cb)

SEC("syscall")
int direct_probe(void *ctx)
{
	struct bpf_netpoll_opts o = opts;
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&o, sizeof(o), &err);
	if (bnp) {
		direct_created = 1;
		bpf_netpoll_release(bnp);
	}
	direct_err = err;
	return 0;
}

char __license[] SEC("license") = "GPL";
