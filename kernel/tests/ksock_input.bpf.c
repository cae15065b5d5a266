// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bad input for the ksock kfuncs. User space fills the opts and the way to
 * pass them in .bss, runs one probe, and asserts the errno it records.
 * Every socket a probe creates is released before it returns.
 */
#include "kvmlinux.h"	/* vmlinux.h, then bpfwire's kfuncs for any API */
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "kt_bpf.h"

/*
 * PASS_OPTS: create_opts_sz, the kernel's own size (user space sets it
 * before load from BTF: 8 with bpfwire's sndbuf extension, else the posted
 * 4); PASS_SHORT and PASS_LONG: one less or more. PASS_V0: 4, the posted
 * layout; PASS_SZ6: inside the extension's sndbuf.
 */
enum { PASS_OPTS = 0, PASS_NULL = 1, PASS_SHORT = 2, PASS_LONG = 3,
       PASS_V0 = 4, PASS_SZ6 = 5 };
enum { OP_BIND = 0, OP_CONNECT = 1 };

#define BIG_LEN 65544	/* > IP_MAX_MTU (65535) */

/* create_probe */
const volatile __u32 create_opts_sz = 4;
struct bpfwire_ksock_create_opts create_opts = {};
int create_pass = PASS_OPTS;
int create_err = 1;
int created;
/* what the created socket ended up with (the sndbuf extension) */
int created_sndbuf = -1;
int created_userlocks = -1;

/* addr_probe: a valid socket of sock_family, then bind or connect */
__u8 sock_family = AF_INET;
struct bpf_ksock_addr_opts addr_opts = {};
int addr_pass = PASS_OPTS;
int addr_op = OP_BIND;
int addr_setup_err = 1;
int addr_err = 1;
int addr_twice;		/* bind (or connect) once more with the same opts */

/* send_probe: connect to send_dst, then send send_len bytes */
struct bpf_ksock_addr_opts send_dst = {};
__u32 send_len;
__u32 send_sndbuf;
int send_connect = 1;	/* 0: send on an unconnected socket */
int send_setup_err = 1;
int send_ret = 1;
char send_buf[BIG_LEN];

static char big[sizeof(struct bpf_ksock_addr_opts) + 8];

/* udp_sendmsg() calls by probe_pid: tells the kfunc's own refusal (no
 * call) from UDP's (one call). */
int probe_pid;
__u32 udp_sendmsg_calls;

SEC("fentry/udp_sendmsg")
int BPF_PROG(count_udp_sendmsg, struct sock *sk, struct msghdr *msg, size_t len)
{
	if ((bpf_get_current_pid_tgid() >> 32) == probe_pid)
		__sync_fetch_and_add(&udp_sendmsg_calls, 1);
	return 0;
}

SEC("syscall")
int create_probe(void *ctx)
{
	struct bpf_ksock *ks;

	created = 0;
	/*
	 * err in .data, not on the stack: 7.x's verifier refuses a read of
	 * a stack err after this create, whose size is picked by a branch
	 * ("slot poisoned by dead code elimination"; verifier_refuse.bpf.c's
	 * ksock_create_after_addr shows it).
	 */
	create_err = 0;
	created_sndbuf = -1;
	created_userlocks = -1;
	/* PASS_NULL is ksock_create_null's, a program of its own */
	if (create_pass == PASS_SHORT)
		ks = bpf_ksock_create((void *)&create_opts, create_opts_sz - 1, &create_err);
	else if (create_pass == PASS_LONG) {
		__builtin_memcpy(big, &create_opts, sizeof(create_opts));
		ks = bpf_ksock_create((void *)big, create_opts_sz + 1, &create_err);
	} else if (create_pass == PASS_V0)
		ks = bpf_ksock_create((void *)&create_opts, 4, &create_err);
	else if (create_pass == PASS_SZ6)
		ks = bpf_ksock_create((void *)&create_opts, 6, &create_err);
	else
		ks = bpf_ksock_create((void *)&create_opts, create_opts_sz, &create_err);

	if (ks) {
		created = 1;
		/* The size the kernel really gave the socket, not what we asked. */
		created_sndbuf = BPF_CORE_READ(ks, sock, sk, sk_sndbuf);
		created_userlocks = BPF_CORE_READ(ks, sock, sk, sk_userlocks);
		bpf_ksock_release(ks);
	}
	return 0;
}

/*
 * NULL opts, in a program that loads only when asked (kt_load_null_arg):
 * create takes trusted arguments (fix 0018), so the verifier refuses it
 * but on the seed-only kernel, where the kfunc says -EINVAL.
 */
SEC("?syscall")
int ksock_create_null(void *ctx)
{
	struct bpf_ksock *ks;
	int err = 0;

	created = 0;
	ks = bpf_ksock_create(NULL, 0, &err);
	create_err = err;
	if (ks) {
		created = 1;
		bpf_ksock_release(ks);
	}
	return 0;
}

/* sndbuf: only on a kernel with the extension (create_opts_sz 8). */
static __always_inline struct bpf_ksock *make_sock(__u8 family, __u32 sndbuf,
						    int *err)
{
	struct bpfwire_ksock_create_opts o = {
		.family = family,
		.type = SOCK_DGRAM,
		.protocol = IPPROTO_UDP,
		.sndbuf = sndbuf,
	};

	*err = 0;
	return bpf_ksock_create((void *)&o, create_opts_sz, err);
}

SEC("syscall")
int addr_probe(void *ctx)
{
	struct bpf_ksock_addr_opts a = addr_opts;
	struct bpf_ksock *ks;
	int err = 0;

	ks = make_sock(sock_family, 0, &err);
	addr_setup_err = err;
	if (!ks)
		return 0;

	if (addr_op == OP_BIND) {
		/* NULL opts: a verifier refusal since fix 0014 (verifier_refuse.bpf.c). */
		if (addr_pass == PASS_SHORT)
			err = bpf_ksock_bind(ks, &a, sizeof(a) - 1);
		else if (addr_pass == PASS_LONG) {
			__builtin_memcpy(big, &a, sizeof(a));
			err = bpf_ksock_bind(ks, (void *)big, sizeof(a) + 1);
		} else
			err = bpf_ksock_bind(ks, &a, sizeof(a));
		if (!err && addr_twice)
			err = bpf_ksock_bind(ks, &a, sizeof(a));
	} else {
		if (addr_pass == PASS_SHORT)
			err = bpf_ksock_connect(ks, &a, sizeof(a) - 1);
		else if (addr_pass == PASS_LONG) {
			__builtin_memcpy(big, &a, sizeof(a));
			err = bpf_ksock_connect(ks, (void *)big, sizeof(a) + 1);
		} else
			err = bpf_ksock_connect(ks, &a, sizeof(a));
	}
	addr_err = err;
	bpf_ksock_release(ks);
	return 0;
}

SEC("syscall")
int send_probe(void *ctx)
{
	struct bpf_ksock_addr_opts a = send_dst;
	struct bpf_ksock *ks;
	__u32 len = send_len;
	int err = 0;

	ks = make_sock(a.family, send_sndbuf, &err);
	send_setup_err = err;
	if (!ks)
		return 0;
	if (send_connect)
		err = bpf_ksock_connect(ks, &a, sizeof(a));
	send_setup_err = err;
	if (err) {
		bpf_ksock_release(ks);
		return 0;
	}
	if (len > BIG_LEN)
		len = BIG_LEN;
	send_ret = bpf_ksock_send(ks, send_buf, len);
	bpf_ksock_release(ks);
	return 0;
}

char __license[] SEC("license") = "GPL";
