// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cover letter's sixth selftest (ksock_wq, NOTES.md): bpf_ksock_create
 * from a bpf_wq callback, which runs in a kworker with no caller context,
 * must fail with -EOPNOTSUPP.
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

int wq_err = 1;
int wq_created;
__u32 wq_done;

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

SEC("syscall")
int ksock_wq_start(void *ctx)
{
	struct elem *val;
	int key = 0;

	val = bpf_map_lookup_elem(&wq_map, &key);
	if (!val)
		return -ENOENT;
	if (bpf_wq_init(&val->w, &wq_map, 0))
		return -1;
	if (bpf_wq_set_callback_impl(&val->w, ksock_wq_cb, 0, NULL))
		return -2;
	if (bpf_wq_start(&val->w, 0))
		return -3;
	return 0;
}

char __license[] SEC("license") = "GPL";
