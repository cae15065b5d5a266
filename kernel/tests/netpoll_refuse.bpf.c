// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verifier's refusals of bpf_netpoll_create() arguments, on every
 * flavour with netpoll (seed and upstream): each program is loaded alone,
 * never run, and its log matched against the __msg tag (6.12's words; the
 * runner reads "trusted arg<n>" as 7.x's "trusted R<n+1>").
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include "kt_bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, int);
	__uint(max_entries, 1);
} err_map SEC(".maps");

/*
 * create stores through err on every path, the first (-EOPNOTSUPP,
 * -EPERM) before it looks at the caller's capabilities: without
 * KF_TRUSTED_ARGS on 6.12 a CAP_BPF-only loader's NULL err loads, and the
 * run writes to address 0. Loaded only, never run.
 */
#define NETPOLL_TRUSTED_ARGS_BUG "seed bug: bpf_netpoll_create lacks KF_TRUSTED_ARGS on 6.12, " \
	"so a NULL err loads and is written through (fixed by 0019)"

SEC("syscall")
__failure __caps_bpf_only __todo_on_seed(NETPOLL_TRUSTED_ARGS_BUG)
__msg("Possibly NULL pointer passed to trusted arg2")
int netpoll_create_null_err(void *ctx)
{
	struct bpf_netpoll_opts o = { .dev_name = "lo" };
	struct bpf_netpoll *bnp;

	bnp = bpf_netpoll_create(&o, sizeof(o), NULL);
	if (bnp)
		bpf_netpoll_release(bnp);
	return 0;
}

/* err from a map lookup, not tested for NULL */
SEC("syscall")
__failure __todo_on_seed(NETPOLL_TRUSTED_ARGS_BUG)
__msg("Possibly NULL pointer passed to trusted arg2")
int netpoll_create_maybe_null_err(void *ctx)
{
	struct bpf_netpoll_opts o = { .dev_name = "lo" };
	struct bpf_netpoll *bnp;
	__u32 key = 0;
	int *e;

	e = bpf_map_lookup_elem(&err_map, &key);
	bnp = bpf_netpoll_create(&o, sizeof(o), e);
	if (bnp)
		bpf_netpoll_release(bnp);
	return 0;
}

/* The control: the same call with an err of its own loads. */
SEC("syscall")
__success
int netpoll_create_err_loads(void *ctx)
{
	struct bpf_netpoll_opts o = { .dev_name = "lo" };
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&o, sizeof(o), &err);
	if (bnp)
		bpf_netpoll_release(bnp);
	return 0;
}

char __license[] SEC("license") = "GPL";
