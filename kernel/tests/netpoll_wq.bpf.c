// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_netpoll_create from a bpf_wq callback (fix 0006). The SYSCALL program
 * runs in a child netns; the callback runs in a kworker, whose netns is
 * init_net. On the seed it gets a context on a device of the initial netns;
 * with the fix, -EOPNOTSUPP. A context that does come back is released.
 * direct_probe is the control: the same opts from the program itself.
 */
#include "vmlinux.h"
#include "kt_bpf.h"

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
		int (callback_fn)(void *map, int *key, void *value),
		unsigned int flags, void *aux__ign) __ksym;

struct elem {
	struct bpf_wq w;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} wq_map SEC(".maps");

struct bpf_netpoll_opts opts = {};
int wq_err = 1;
int wq_created;
__u32 wq_done;
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

SEC("syscall")
int netpoll_wq_start(void *ctx)
{
	struct elem *val;
	int key = 0;

	val = bpf_map_lookup_elem(&wq_map, &key);
	if (!val)
		return -ENOENT;
	if (bpf_wq_init(&val->w, &wq_map, 0))
		return -1;
	if (bpf_wq_set_callback_impl(&val->w, netpoll_wq_cb, 0, NULL))
		return -2;
	if (bpf_wq_start(&val->w, 0))
		return -3;
	return 0;
}

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
