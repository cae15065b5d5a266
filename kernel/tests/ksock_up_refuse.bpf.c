// SPDX-License-Identifier: GPL-2.0-only
/*
 * The upstream kfunc filter: in an LSM program attached to socket_sendmsg
 * each of acquire, release and send is refused when the program loads
 * (a send there would run the hook again). Each program calls exactly one
 * ksock kfunc first, so the verifier's message names that one. The control
 * is the same send on socket_bind, which loads. Loaded on upstream only.
 *
 * Then NULL and maybe-NULL pointers where create writes and send reads:
 * refused at load since 6.12's port has KF_TRUSTED_ARGS (7.x's default);
 * without it they loaded, and a run would write to or copy from address
 * 0. Loaded only, never run.
 */
#define BPFWIRE_KSOCK_UPSTREAM
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_tracing.h>
#include "kt_bpf.h"

struct refuse_slot {
	struct bpf_ksock __kptr *ks;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct refuse_slot);
	__uint(max_entries, 1);
} refuse_map SEC(".maps");

char payload[8] = "refused";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, char[16]);
	__uint(max_entries, 1);
} up_data_map SEC(".maps");

SEC("lsm.s/socket_sendmsg")
__failure __msg("calling kernel function bpf_ksock_acquire is not allowed")
int BPF_PROG(sendmsg_acquire, struct socket *sock, struct msghdr *msg, int size)
{
	struct refuse_slot *s;
	struct bpf_ksock *ks = NULL, *tmp;
	int key = 0;

	s = bpf_map_lookup_elem(&refuse_map, &key);
	if (!s)
		return 0;
	bpf_rcu_read_lock();
	tmp = s->ks;
	if (tmp)
		ks = bpf_ksock_acquire(tmp);
	bpf_rcu_read_unlock();
	if (ks)
		bpf_ksock_release(ks);
	return 0;
}

SEC("lsm.s/socket_sendmsg")
__failure __msg("calling kernel function bpf_ksock_release is not allowed")
int BPF_PROG(sendmsg_release, struct socket *sock, struct msghdr *msg, int size)
{
	struct refuse_slot *s;
	struct bpf_ksock *ks;
	int key = 0;

	s = bpf_map_lookup_elem(&refuse_map, &key);
	if (!s)
		return 0;
	/* An owned reference without acquire: take the map's. */
	ks = bpf_kptr_xchg(&s->ks, NULL);
	if (ks)
		bpf_ksock_release(ks);
	return 0;
}

SEC("lsm.s/socket_sendmsg")
__failure __msg("calling kernel function bpf_ksock_send is not allowed")
int BPF_PROG(sendmsg_send, struct socket *sock, struct msghdr *msg, int size)
{
	struct refuse_slot *s;
	struct bpf_ksock *ks;
	int key = 0;

	s = bpf_map_lookup_elem(&refuse_map, &key);
	if (!s)
		return 0;
	bpf_rcu_read_lock();
	ks = s->ks;
	if (ks)
		bpf_ksock_send(ks, payload, sizeof(payload));
	bpf_rcu_read_unlock();
	return 0;
}

SEC("lsm.s/socket_bind")
__success
int BPF_PROG(bind_send_loads, struct socket *sock, struct sockaddr *address,
	     int addrlen)
{
	struct refuse_slot *s;
	struct bpf_ksock *ks = NULL, *tmp;
	int key = 0;

	s = bpf_map_lookup_elem(&refuse_map, &key);
	if (!s)
		return 0;
	bpf_rcu_read_lock();
	tmp = s->ks;
	if (tmp)
		ks = bpf_ksock_acquire(tmp);
	bpf_rcu_read_unlock();
	if (!ks)
		return 0;
	bpf_ksock_send(ks, payload, sizeof(payload));
	bpf_ksock_release(ks);
	return 0;
}

SEC("syscall")
__failure __caps_bpf_only __msg("Possibly NULL pointer passed to trusted arg2")
int up_create_null_err(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;

	ks = bpf_ksock_create((void *)&o, sizeof(o), NULL);
	if (ks)
		bpf_ksock_release(ks);
	return 0;
}

/* data from a map lookup, not tested for NULL (0014's example) */
SEC("syscall")
__failure __msg("Possibly NULL pointer passed to trusted arg1")
int up_send_maybe_null_data(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	__u32 key = 0;
	int err = 0;
	char *d;

	ks = bpf_ksock_create((void *)&o, sizeof(o), &err);
	if (!ks)
		return err;
	d = bpf_map_lookup_elem(&up_data_map, &key);
	err = bpf_ksock_send(ks, d, 16);
	bpf_ksock_release(ks);
	return err;
}

char __license[] SEC("license") = "GPL";
