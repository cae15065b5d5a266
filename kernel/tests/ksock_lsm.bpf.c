// SPDX-License-Identifier: GPL-2.0-only
/*
 * ksock under an LSM, for test_ksock_max.c, test_ksock_lsm.c and test_race.c:
 * - socket_create refused for target_pid: bpf_ksock_create fails and gives
 *   its quota slot back (err_uncharge);
 * - socket_post_create counted for target_pid: a create refused for
 *   CAP_NET_ADMIN must not have made a socket (fix 0008);
 * - socket_setsockopt(SOL_SOCKET, SO_SNDBUFFORCE) refused: the sndbuf of
 *   bpf_ksock_create (the sndbuf extension) passes the LSM (fix 0008);
 * - hold_one test-run from another SYSCALL program through bpf_sys_bpf(),
 *   which 6.12 refuses, so no ksock_create runs with current->bpf_ctx
 *   set (fix 0008);
 * - lsm.s/socket_bind sends through the map's ksock: the main case of the
 *   upstream version;
 * - lsm.s/file_open sends through the map's ksock while user space
 *   replaces and deletes it (the release race).
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
#include "kt_ksock.bpf.h"

#define EACCES		13
#define EAGAIN		11
#define SOL_SOCKET	1
#define SO_SNDBUFFORCE	32

int target_pid;
int deny_create;
int deny_setsockopt;
__u32 post_create_calls;
__u32 setsockopt_calls;

/* socket_bind sender */
int bind_send = -1000;
__u32 bind_calls;

/* file_open sender (the race) */
int race_on;
__u32 race_sent, race_nosock, race_again, race_bad;
int race_bad_ret;

static __always_inline bool is_target(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == target_pid;
}

SEC("syscall")
int ksock_setup(void *ctx)
{
	return do_ksock_setup();
}

/* Sockets held for the quota tests, one per slot. */
#define HELD_SLOTS 16
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct __ksock_ctx_value);
	__uint(max_entries, HELD_SLOTS);
} held SEC(".maps");

/* The ctx of hold_one: threads each pass their own. */
struct hold_args {
	__u32 slot;
	__u32 sndbuf;
};

/*
 * Creates an AF_INET UDP ksock into held[slot]; returns 0 or -errno. The
 * posted 4-byte opts, or with a sndbuf the extension's 8 (user space asks
 * for one only on a kernel that has it).
 */
/* hold_one's err per slot, not on the stack (below) */
int hold_err[HELD_SLOTS];

SEC("syscall")
int hold_one(struct hold_args *args)
{
	struct bpfwire_ksock_create_opts o = {
		.family = AF_INET,
		.type = SOCK_DGRAM,
		.protocol = IPPROTO_UDP,
	};
	struct __ksock_ctx_value *v;
	struct bpf_ksock *ks, *old;
	__u32 slot = args->slot;
	int *err;

	o.sndbuf = args->sndbuf;
	v = bpf_map_lookup_elem(&held, &slot);
	if (!v || slot >= HELD_SLOTS)
		return -ENOENT;
	/*
	 * err in .bss, not on the stack: 7.x's verifier refuses a read of a
	 * stack err after this create, whose size is picked by a branch
	 * ("slot poisoned by dead code elimination"; verifier_refuse.bpf.c's
	 * ksock_create_after_addr shows it).
	 */
	err = &hold_err[slot];
	barrier_var(err);
	*err = 0;
	ks = bpf_ksock_create((void *)&o, o.sndbuf ? BPFWIRE_KSOCK_CREATE_OPTS_SZ_SNDBUF :
			      BPFWIRE_KSOCK_CREATE_OPTS_SZ_V0, err);
	if (!ks)
		return *err;
	old = bpf_kptr_xchg(&v->ctx, ks);
	if (old)
		bpf_ksock_release(old);
	return 0;
}

/*
 * Releases held[slot]'s socket, or __ksock_ctx_map's with slot ~0: 0, or
 * -ENOENT when the slot is empty. A map update from user space does this
 * on 6.12, but 7.x's keeps a kptr (bpf_obj_cancel_fields() frees only
 * timers and work items), so only a program can drop the reference.
 */
SEC("syscall")
int drop_one(struct hold_args *args)
{
	struct __ksock_ctx_value *v;
	struct bpf_ksock *old;
	__u32 slot = args->slot;

	if (slot == ~0U)
		v = ksock_ctx_value_lookup();
	else
		v = bpf_map_lookup_elem(&held, &slot);
	if (!v)
		return -ENOENT;
	old = bpf_kptr_xchg(&v->ctx, NULL);
	if (!old)
		return -ENOENT;
	bpf_ksock_release(old);
	return 0;
}

/* hold_one's fd, for hold_one_nested; what the helper and hold_one returned */
int nested_prog_fd;
int nested_err = 1;
int nested_ret = 1;

/*
 * Asks bpf_sys_bpf(BPF_PROG_TEST_RUN) to run hold_one, as kern_sys_bpf()
 * does for the in-kernel light skeleton loader, with current->bpf_ctx set.
 * Returns hold_one's return, or the helper's error.
 */
SEC("syscall")
int hold_one_nested(struct hold_args *args)
{
	struct hold_args inner = { .slot = args->slot, .sndbuf = args->sndbuf };
	union bpf_attr attr = {};
	int err;

	attr.test.prog_fd = nested_prog_fd;
	attr.test.ctx_in = (__u64)(unsigned long)&inner;
	attr.test.ctx_size_in = sizeof(inner);
	err = bpf_sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr));
	nested_err = err;
	nested_ret = attr.test.retval;
	return err ?: (int)attr.test.retval;
}

SEC("lsm/socket_create")
int BPF_PROG(deny_socket_create, int family, int type, int protocol, int kern, int ret)
{
	if (ret || !deny_create || !is_target())
		return ret;
	return -EACCES;
}

SEC("lsm/socket_post_create")
int BPF_PROG(count_post_create, struct socket *sock, int family, int type,
	     int protocol, int kern, int ret)
{
	if (is_target())
		__sync_fetch_and_add(&post_create_calls, 1);
	return ret;
}

SEC("lsm/socket_setsockopt")
int BPF_PROG(deny_sndbufforce, struct socket *sock, int level, int optname, int ret)
{
	if (ret || !is_target() || level != SOL_SOCKET || optname != SO_SNDBUFFORCE)
		return ret;
	__sync_fetch_and_add(&setsockopt_calls, 1);
	return deny_setsockopt ? -EACCES : 0;
}

SEC("lsm.s/socket_bind")
int BPF_PROG(send_on_bind, struct socket *sock, struct sockaddr *address,
	     int addrlen, int ret)
{
	struct bpf_ksock *ks;

	if (ret || !is_target())
		return ret;
	__sync_fetch_and_add(&bind_calls, 1);
	ks = ksock_ctx_acquire();
	if (!ks) {
		bind_send = -ENOENT;
		return 0;
	}
	bind_send = bpf_ksock_send(ks, send_data, sizeof(send_data));
	bpf_ksock_release(ks);
	return 0;
}

SEC("lsm.s/file_open")
int BPF_PROG(race_send, struct file *file, int ret)
{
	struct bpf_ksock *ks;
	int r;

	if (ret || !race_on || !is_target())
		return ret;
	ks = ksock_ctx_acquire();
	if (!ks) {
		__sync_fetch_and_add(&race_nosock, 1);
		return 0;
	}
	r = bpf_ksock_send(ks, send_data, sizeof(send_data));
	bpf_ksock_release(ks);
	if (r == sizeof(send_data))
		__sync_fetch_and_add(&race_sent, 1);
	else if (r == -EAGAIN)
		__sync_fetch_and_add(&race_again, 1);
	else {
		race_bad_ret = r;
		__sync_fetch_and_add(&race_bad, 1);
	}
	return 0;
}

char __license[] SEC("license") = "GPL";
