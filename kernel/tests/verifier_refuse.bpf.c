// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verifier's refusals, each program with the message it must produce.
 * kernel-tests loads every program alone and matches its log against the
 * __msg tag (the message 6.12's kernel/bpf/verifier.c prints), on 7.x
 * against its __msg_7x tag where 7.x words the refusal otherwise.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
#include "kt_ksock.bpf.h"

char buf[16];

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct bpf_ksock_addr_opts);
	__uint(max_entries, 1);
} addr_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, char[16]);
	__uint(max_entries, 1);
} data_map SEC(".maps");

SEC("lsm.s/file_open")
__failure __msg("calling kernel function bpf_ksock_create is not allowed")
int BPF_PROG(lsm_ksock_create, struct file *file)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (ks)
		bpf_ksock_release(ks);
	return 0;
}

SEC("lsm.s/file_open")
__failure __msg("calling kernel function bpf_ksock_bind is not allowed")
int BPF_PROG(lsm_ksock_bind, struct file *file)
{
	struct bpf_ksock_addr_opts a = { .family = AF_INET };
	struct bpf_ksock *ks = ksock_ctx_acquire();

	if (!ks)
		return 0;
	bpf_ksock_bind(ks, &a, sizeof(a));
	bpf_ksock_release(ks);
	return 0;
}

SEC("lsm.s/file_open")
__failure __msg("calling kernel function bpf_ksock_connect is not allowed")
int BPF_PROG(lsm_ksock_connect, struct file *file)
{
	struct bpf_ksock_addr_opts a = { .family = AF_INET, .port = 9 };
	struct bpf_ksock *ks = ksock_ctx_acquire();

	if (!ks)
		return 0;
	bpf_ksock_connect(ks, &a, sizeof(a));
	bpf_ksock_release(ks);
	return 0;
}

SEC("lsm/file_open")
__failure __msg("program must be sleepable to call sleepable kfunc bpf_ksock_send")
int BPF_PROG(lsm_nonsleepable_ksock_send, struct file *file)
{
	struct bpf_ksock *ks = ksock_ctx_acquire();

	if (!ks)
		return 0;
	bpf_ksock_send(ks, buf, sizeof(buf));
	bpf_ksock_release(ks);
	return 0;
}

/* The RCU pointer itself, so bpf_ksock_send is the first ksock kfunc seen
 * (bpf_ksock_acquire is refused in tracing programs too). */
SEC("fentry/dummy_xmit")
__failure __msg("calling kernel function bpf_ksock_send is not allowed")
int BPF_PROG(fentry_ksock_send, struct sk_buff *skb, struct net_device *dev)
{
	struct __ksock_ctx_value *v = ksock_ctx_value_lookup();
	struct bpf_ksock *ks;

	if (!v)
		return 0;
	bpf_rcu_read_lock();
	ks = v->ctx;
	if (ks)
		bpf_ksock_send(ks, buf, sizeof(buf));
	bpf_rcu_read_unlock();
	return 0;
}

SEC("lsm.s/file_open")
__failure __msg("calling kernel function bpf_netpoll_create is not allowed")
int BPF_PROG(lsm_netpoll_create, struct file *file)
{
	struct bpf_netpoll_opts o = { .dev_name = "dummy0" };
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&o, sizeof(o), &err);
	if (bnp)
		bpf_netpoll_release(bnp);
	return 0;
}

SEC("fentry/dummy_xmit")
__failure __msg("calling kernel function bpf_netpoll_create is not allowed")
int BPF_PROG(fentry_netpoll_create, struct sk_buff *skb, struct net_device *dev)
{
	struct bpf_netpoll_opts o = { .dev_name = "dummy0" };
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&o, sizeof(o), &err);
	if (bnp)
		bpf_netpoll_release(bnp);
	return 0;
}

SEC("syscall")
__failure __msg("calling kernel function bpf_netpoll_send_udp is not allowed")
int syscall_netpoll_send_udp(void *ctx)
{
	struct bpf_netpoll_opts o = { .dev_name = "dummy0" };
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&o, sizeof(o), &err);
	if (!bnp)
		return err;
	bpf_netpoll_send_udp(bnp, buf, sizeof(buf));
	bpf_netpoll_release(bnp);
	return 0;
}

SEC("syscall")
__failure __msg("Unreleased reference")
int ksock_unreleased(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	return bpf_ksock_send(ks, buf, sizeof(buf));
}

/* The release turns every copy of the pointer into a scalar, which no
 * kfunc accepts where a struct bpf_ksock * is expected. */
SEC("syscall")
__failure __msg("arg#0 pointer type STRUCT bpf_ksock must point to scalar, or struct with scalar")
__msg_7x("R1 pointer type STRUCT bpf_ksock must point to scalar, or struct with scalar")
int ksock_use_after_release(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	bpf_ksock_release(ks);
	return bpf_ksock_send(ks, buf, sizeof(buf));
}

SEC("syscall")
__failure __msg("arg#0 pointer type STRUCT bpf_ksock must point to scalar, or struct with scalar")
__msg_7x("release kfunc bpf_ksock_release expects referenced PTR_TO_BTF_ID passed to R1")
int ksock_double_release(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	bpf_ksock_release(ks);
	bpf_ksock_release(ks);
	return 0;
}

/*
 * err left uninitialised. 6.12 honours the __uninit suffix only for
 * dynptrs, so the verifier checks *err as memory it reads: refused without
 * CAP_PERFMON, accepted as root, whose allow_uninit_stack covers it.
 */
SEC("syscall")
__failure __caps_bpf_only __msg("invalid indirect read from stack R3")
__msg_7x("invalid read from stack R3")
int ksock_create_uninit_err(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	bpf_ksock_release(ks);
	return 0;
}

SEC("syscall")
__success __retval(0)
int ksock_create_uninit_err_root(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	bpf_ksock_release(ks);
	return 0;
}

SEC("syscall")
__success __retval(0)
int ksock_create_release(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	bpf_ksock_release(ks);
	return 0;
}

/*
 * Fix 0014: bind, connect and send take trusted arguments (KF_TRUSTED_ARGS,
 * bpf-next's default). On 6.12 without it, NULL or maybe-NULL opts and
 * data reach the kfuncs, where bpf-next refuses them at load: bind and
 * connect return -EINVAL, send copies from the pointer.
 * The ksock pointer itself is checked either way: a maybe-NULL or
 * untrusted one fails the argument's type check, an RCU one is refused as
 * a sleepable call under bpf_rcu_read_lock(), and no kernel struct has a
 * struct bpf_ksock * to walk to.
 */
#define TRUSTED_ARGS_BUG "seed bug: bind, connect and send lack KF_TRUSTED_ARGS on 6.12 (fixed by 0014)"

SEC("syscall")
__failure __todo_on_seed(TRUSTED_ARGS_BUG)
__msg("Possibly NULL pointer passed to trusted arg1")
__msg_7x("Possibly NULL pointer passed to trusted R2")
int ksock_bind_null_opts(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	err = bpf_ksock_bind(ks, NULL, 0);
	bpf_ksock_release(ks);
	return err;
}

SEC("syscall")
__failure __todo_on_seed(TRUSTED_ARGS_BUG)
__msg("Possibly NULL pointer passed to trusted arg1")
__msg_7x("Possibly NULL pointer passed to trusted R2")
int ksock_connect_null_opts(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	err = bpf_ksock_connect(ks, NULL, 0);
	bpf_ksock_release(ks);
	return err;
}

SEC("syscall")
__failure __todo_on_seed(TRUSTED_ARGS_BUG)
__msg("Possibly NULL pointer passed to trusted arg1")
__msg_7x("Possibly NULL pointer passed to trusted R2")
int ksock_send_null_data(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	err = bpf_ksock_send(ks, NULL, 0);
	bpf_ksock_release(ks);
	return err;
}

/*
 * data from a map lookup, not tested for NULL: without the flag it loads,
 * and a missed lookup would have kernel_sendmsg() copy 16 bytes from NULL.
 */
SEC("syscall")
__failure __todo_on_seed(TRUSTED_ARGS_BUG)
__msg("Possibly NULL pointer passed to trusted arg1")
__msg_7x("Possibly NULL pointer passed to trusted R2")
int ksock_send_maybe_null_data(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	__u32 key = 0;
	char *d;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	d = bpf_map_lookup_elem(&data_map, &key);
	err = bpf_ksock_send(ks, d, 16);
	bpf_ksock_release(ks);
	return err;
}

/* opts from a map lookup, not tested for NULL */
SEC("syscall")
__failure __todo_on_seed(TRUSTED_ARGS_BUG)
__msg("Possibly NULL pointer passed to trusted arg1")
__msg_7x("Possibly NULL pointer passed to trusted R2")
int ksock_connect_maybe_null_opts(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock_addr_opts *a;
	struct bpf_ksock *ks;
	__u32 key = 0;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	a = bpf_map_lookup_elem(&addr_map, &key);
	err = bpf_ksock_connect(ks, a, sizeof(*a));
	bpf_ksock_release(ks);
	return err;
}

/*
 * Fix 0018: create takes trusted arguments too. It stores through err on
 * every path, success included, and 0014 left it out: on 6.12 without the
 * flag a NULL or maybe-NULL err loads, and the run writes to address 0.
 * Loaded only, never run.
 */
#define CREATE_TRUSTED_ARGS_BUG "seed bug: bpf_ksock_create lacks KF_TRUSTED_ARGS on 6.12, " \
	"so a NULL err loads and is written through (fixed by 0018)"

SEC("syscall")
__failure __caps_bpf_only __todo_on_seed(CREATE_TRUSTED_ARGS_BUG)
__msg("Possibly NULL pointer passed to trusted arg2")
int ksock_create_null_err(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;

	ks = bpf_ksock_create(&o, sizeof(o), NULL);
	if (ks)
		bpf_ksock_release(ks);
	return 0;
}

/* err from a map lookup, not tested for NULL */
SEC("syscall")
__failure __todo_on_seed(CREATE_TRUSTED_ARGS_BUG)
__msg("Possibly NULL pointer passed to trusted arg2")
int ksock_create_maybe_null_err(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	__u32 key = 0;
	int *e;

	e = bpf_map_lookup_elem(&data_map, &key);
	ks = bpf_ksock_create(&o, sizeof(o), e);
	if (ks)
		bpf_ksock_release(ks);
	return 0;
}

/*
 * The address built (an if/else whose IPv6 arm copies 16 bytes), then
 * bpf_ksock_create(..., &err), then err read: the seed's form of
 * ksock_up.bpf.c's create_after_addr. 6.12 loads it; 7.2's verifier, as
 * 7.3's does the upstream form, refuses the read of err after the call:
 * its static stack liveness takes the earlier err = 0 for dead and
 * poisons the slot, and the kfunc's write through err__uninit does not
 * clear the poison.
 */
__u8 ca_family = AF_INET;
__u16 ca_port = 7000;
__be32 ca_ip4;
__u32 ca_ip6[4];

SEC("syscall")
__success __failure_7x __msg_7x("slot poisoned by dead code elimination")
int ksock_create_after_addr(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock_addr_opts a;
	struct bpf_ksock *ks;
	int err = 0;

	__builtin_memset(&a, 0, sizeof(a));
	if (ca_family == AF_INET6) {
		a.family = AF_INET6;
		a.port = ca_port;
		__builtin_memcpy(a.ipv6_addr, ca_ip6, 16);
	} else {
		a.family = ca_family;
		a.port = ca_port;
		a.ipv4_addr = ca_ip4;
	}
	o.family = a.family;
	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	err = bpf_ksock_connect(ks, &a, sizeof(a));
	bpf_ksock_release(ks);
	return err;
}

char __license[] SEC("license") = "GPL";
