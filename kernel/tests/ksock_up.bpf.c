// SPDX-License-Identifier: GPL-2.0-only
/*
 * The upstream ksock API (kernel/patches/upstream), built in every
 * build with bpf/kfuncs.h's copies of the merged API's types, so sizeof()
 * here is the size that API checks; loaded only on a kernel whose BTF says
 * upstream. User space sets the inputs in .bss, runs one probe and asserts
 * the errno it records.
 */
#define BPFWIRE_KSOCK_UPSTREAM
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "kt_bpf.h"
#include "kt_wq.bpf.h"

_Static_assert(sizeof(struct bpf_ksock_create_opts) == 4,
	       "the merged create opts are 4 bytes");
_Static_assert(sizeof(union bpf_ksock_addr) == 28,
	       "the merged address union is sockaddr_in6's 28 bytes");

/* Room for sizeof + 1 and more; sizes are masked to it for the verifier. */
#define BUF_MASK 63

/* create_probe: the opts' four fields, passed with c_sz bytes (NULL, 0:
 * create_null_probe). Scalars, not the struct: user space has no copy of
 * the type. */
__u8 c_family, c_type, c_protocol, c_reserved;
__u32 c_sz = sizeof(struct bpf_ksock_create_opts);
int c_err = 1;
int c_made;
int c_rcvbuf = -1;	/* the created socket's sk_rcvbuf */
static char c_buf[BUF_MASK + 1];

SEC("syscall")
int create_probe(void *ctx)
{
	struct bpf_ksock *ks;
	int err = 0;

	c_made = 0;
	c_rcvbuf = -1;
	struct bpf_ksock_create_opts *o = (void *)c_buf;

	o->family = c_family;
	o->type = c_type;
	o->protocol = c_protocol;
	o->reserved = c_reserved;
	ks = bpf_ksock_create((void *)c_buf, c_sz & BUF_MASK, &err);
	c_err = err;
	if (ks) {
		c_made = 1;
		c_rcvbuf = BPF_CORE_READ(ks, sock, sk, sk_rcvbuf);
		bpf_ksock_release(ks);
	}
	return 0;
}

/*
 * The NULL cases load only when asked (kt_load_null_arg): the verifier
 * refuses them (trusted arguments: 7.x's default, KF_TRUSTED_ARGS in the
 * 6.12 port), which would fail the whole object.
 */
SEC("?syscall")
int create_null_probe(void *ctx)
{
	struct bpf_ksock *ks;
	int err = 0;

	c_made = 0;
	ks = bpf_ksock_create(NULL, 0, &err);
	c_err = err;
	if (ks) {
		c_made = 1;
		bpf_ksock_release(ks);
	}
	return 0;
}

/* The address, built in BPF from scalars: family, port, and the IPv4 or
 * IPv6 address by family (anything else: IPv4's layout). */
__u16 a_family;
__u16 a_port;		/* network order */
__u32 a_ip4;		/* network order */
__u8 a_ip6[16];

static __always_inline void fill_addr(union bpf_ksock_addr *a)
{
	__builtin_memset(a, 0, sizeof(*a));
	if (a_family == AF_INET6) {
		a->sin6.sin6_family = AF_INET6;
		a->sin6.sin6_port = a_port;
		__builtin_memcpy(&a->sin6.sin6_addr, a_ip6, 16);
	} else {
		a->sin.sin_family = a_family;
		a->sin.sin_port = a_port;
		a->sin.sin_addr.s_addr = a_ip4;
	}
}

/* connect_probe: a UDP socket of a_sock_family, then the address, a_sz
 * (NULL, 0: connect_null_probe) */
__u32 a_sz = sizeof(union bpf_ksock_addr);
__u8 a_sock_family = AF_INET;
int a_setup_err = 1;
int a_err = 1;
static char a_buf[BUF_MASK + 1];

SEC("syscall")
int connect_probe(void *ctx)
{
	struct bpf_ksock_create_opts o = {};
	struct bpf_ksock *ks;
	int err = 0;

	o.family = a_sock_family;
	o.type = SOCK_DGRAM;
	o.protocol = IPPROTO_UDP;
	ks = bpf_ksock_create((void *)&o, sizeof(o), &err);
	a_setup_err = err;
	if (!ks)
		return 0;
	fill_addr((void *)a_buf);
	a_err = bpf_ksock_connect(ks, (void *)a_buf, a_sz & BUF_MASK);
	bpf_ksock_release(ks);
	return 0;
}

SEC("?syscall")
int connect_null_probe(void *ctx)
{
	struct bpf_ksock_create_opts o = {};
	struct bpf_ksock *ks;
	int err = 0;

	o.family = a_sock_family;
	o.type = SOCK_DGRAM;
	o.protocol = IPPROTO_UDP;
	ks = bpf_ksock_create((void *)&o, sizeof(o), &err);
	a_setup_err = err;
	if (!ks)
		return 0;
	a_err = bpf_ksock_connect(ks, NULL, 0);
	bpf_ksock_release(ks);
	return 0;
}

/* One ksock in a kptr slot, connected to peer: what the hooks send on. */
struct up_slot {
	struct bpf_ksock __kptr *ks;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct up_slot);
	__uint(max_entries, 1);
} up_map SEC(".maps");

char send_data[24] = "hello from upstream";
int send_ret = 1;

SEC("syscall")
int setup_slot(void *ctx)
{
	struct bpf_ksock_create_opts o = {};
	struct bpf_ksock *ks, *old;
	struct up_slot *slot;
	int err = 0, key = 0;

	union bpf_ksock_addr peer;

	o.family = a_family;
	o.type = SOCK_DGRAM;
	ks = bpf_ksock_create((void *)&o, sizeof(o), &err);
	if (!ks)
		return err;
	/* After the create: 7.3 refuses the other order (create_after_addr). */
	fill_addr(&peer);
	err = bpf_ksock_connect(ks, (void *)&peer, sizeof(peer));
	if (err) {
		bpf_ksock_release(ks);
		return err;
	}
	slot = bpf_map_lookup_elem(&up_map, &key);
	if (!slot) {
		bpf_ksock_release(ks);
		return -ENOENT;
	}
	old = bpf_kptr_xchg(&slot->ks, ks);
	if (old)
		bpf_ksock_release(old);
	return 0;
}

/*
 * setup_slot's first order: the address built, then the create. 6.12
 * loads it; 7.3's verifier refuses it where it reads err (written by the
 * kfunc) after the call: "slot poisoned by dead code elimination", its
 * static stack liveness. Only with fill_addr first (an if/else, one arm
 * copying 16 bytes); without it the same loads. Loaded alone by
 * test_upstream.c's up_verifier_order().
 */
SEC("?syscall")
int create_after_addr(void *ctx)
{
	struct bpf_ksock_create_opts o = {};
	union bpf_ksock_addr peer;
	struct bpf_ksock *ks;
	int err = 0;

	fill_addr(&peer);
	o.family = a_family;
	o.type = SOCK_DGRAM;
	ks = bpf_ksock_create((void *)&o, sizeof(o), &err);
	if (!ks)
		return err;
	err = bpf_ksock_connect(ks, (void *)&peer, sizeof(peer));
	bpf_ksock_release(ks);
	return err;
}

static __always_inline int send_from_slot(void)
{
	struct bpf_ksock *ks = NULL, *tmp;
	struct up_slot *slot;
	int key = 0, r;

	slot = bpf_map_lookup_elem(&up_map, &key);
	if (!slot)
		return -ENOENT;
	bpf_rcu_read_lock();
	tmp = slot->ks;
	if (tmp)
		ks = bpf_ksock_acquire(tmp);
	bpf_rcu_read_unlock();
	if (!ks)
		return -ENOENT;
	r = bpf_ksock_send(ks, send_data, sizeof(send_data));
	bpf_ksock_release(ks);
	return r;
}

SEC("syscall")
int send_probe(void *ctx)
{
	send_ret = send_from_slot();
	return 0;
}

/* A send from an LSM hook other than socket_sendmsg: allowed. */
int target_pid;
int bind_send_ret = 1;

SEC("lsm.s/socket_bind")
int BPF_PROG(bind_send, struct socket *sock, struct sockaddr *address,
	     int addrlen, int ret)
{
	if (ret || !target_pid || (bpf_get_current_pid_tgid() >> 32) != target_pid)
		return ret;
	target_pid = 0;
	bind_send_ret = send_from_slot();
	return ret;
}

/* The guard: a bpf_wq callback runs in a kworker (PF_KTHREAD). */
static int up_wq_cb(void *map, int *key, void *value)
{
	struct bpf_ksock_create_opts o = {};
	struct bpf_ksock *ks;
	int err = 0;

	o.family = AF_INET;
	o.type = SOCK_DGRAM;
	o.protocol = IPPROTO_UDP;
	ks = bpf_ksock_create((void *)&o, sizeof(o), &err);
	if (ks) {
		wq_created = 1;
		bpf_ksock_release(ks);
	}
	wq_err = err;
	__sync_fetch_and_add(&wq_done, 1);
	return 0;
}

KT_WQ_START_PROG(up_wq_start, up_wq_cb)

char __license[] SEC("license") = "GPL";
