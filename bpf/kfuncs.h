/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bpfwire kfuncs, declared once. Debian's pahole 1.24 does not emit
 * kfunc prototypes into vmlinux.h, so every BPF object that calls one
 * includes this through kvmlinux.h (which keeps vmlinux.h's own kfunc
 * types out of the way: these are bpfwire's copies).
 * Signatures follow kernel/patches (seeds 001 and 008) and, for
 * BPFWIRE_KSOCK_UPSTREAM, the API Linux merged (net/core/bpf_ksock.c).
 */
#ifndef BPFWIRE_KFUNCS_H
#define BPFWIRE_KFUNCS_H

#ifndef __ksym
#define __ksym __attribute__((section(".ksyms")))
#endif

/*
 * The kfuncs' own types, bpfwire's copies (kvmlinux.h took vmlinux.h's out
 * of the way, so these compile whatever the kernel's vmlinux.h has):
 *  - struct bpf_ksock and struct bpf_netpoll: kptr and argument types,
 *    matched by name. The ksock's fields are 0003's (both APIs'): tests
 *    read its socket (CO-RE) and find it from its rwork (container_of);
 *  - struct bpf_netpoll_opts: 0001's layout.
 */
struct bpf_ksock {
	struct socket *sock;
	refcount_t usage;
	struct rcu_work rwork;
} __attribute__((preserve_access_index));
struct bpf_netpoll {
	int unused__;
};
struct bpf_netpoll_opts {
	char dev_name[16];
	__be32 local_ip;
	__be32 remote_ip;
	__u16 local_port;
	__u16 remote_port;
	__u8 remote_mac[6];
	__u8 ipv6;
	__u8 reserved;
	__u8 local_ip6[16];
	__u8 remote_ip6[16];
};

/*
 * The setup kfuncs differ between the two ksock APIs (bpf/README.md, "Two
 * kernels"), so a translation unit declares one set:
 *  - BPFWIRE_KSOCK_SEED: the agent's seed object (the posted series,
 *    0003): create, bind, connect(struct addr opts);
 *  - BPFWIRE_KSOCK_UPSTREAM: as merged: create, connect(union of
 *    sockaddr_in/sockaddr_in6, its size exactly), no bind; kernel-tests'
 *    upstream objects use its kernel-named types;
 *  - neither: the seed's, with the kernel's names (kernel-tests' seed
 *    objects, and objects that call no ksock setup kfunc).
 * An object is built once and loaded only on a kernel whose API (kapi/,
 * at run time) is its own.
 *
 * Both APIs' create opts are the posted series' 4 bytes. bpfwire's sndbuf
 * extension (kernel/patches/sndbuf, seed only) appends a __u32 sndbuf:
 * struct bpfwire_ksock_create_opts has it, and a caller passes its size
 * (BPFWIRE_KSOCK_CREATE_OPTS_SZ_SNDBUF) only to set a send buffer on a
 * kernel whose BTF has the extension (kapi.h, ksock_sndbuf). The extended
 * kernel still takes 4 and then reads no sndbuf.
 */
struct bpf_ksock_create_opts {
	__u8 family;
	__u8 type;
	__u8 protocol;
	__u8 reserved;
};
#define BPFWIRE_KSOCK_CREATE_OPTS_SZ_V0		4	/* every kernel */
#define BPFWIRE_KSOCK_CREATE_OPTS_SZ_SNDBUF	8	/* kernel/patches/sndbuf only */
struct bpfwire_ksock_create_opts {
	__u8  family;
	__u8  type;
	__u8  protocol;
	__u8  reserved;
	__u32 sndbuf;	/* kernel/patches/sndbuf */
};

#ifdef BPFWIRE_KSOCK_UPSTREAM
union bpf_ksock_addr {
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
};
#else
struct bpf_ksock_addr_opts {
	__u8 family;
	__u8 reserved;
	__u16 port;		/* host order */
	__u32 scope_id;
	union {
		__be32 ipv4_addr;
		__u32 ipv6_addr[4];
	};
};
#endif

#if defined(BPFWIRE_KSOCK_SEED) || defined(BPFWIRE_KSOCK_UPSTREAM)
extern struct bpf_ksock *
bpf_ksock_create(const struct bpfwire_ksock_create_opts *opts, __u32 opts__sz,
		 int *err__uninit) __ksym;
#endif

#ifdef BPFWIRE_KSOCK_SEED
struct bpfwire_ksock_addr_opts {
	__u8  family;
	__u8  reserved;
	__u16 port;		/* host order */
	__u32 scope_id;
	union {
		__be32 ipv4_addr;
		__u32  ipv6_addr[4];
	};
};

extern int bpf_ksock_bind(struct bpf_ksock *ks,
			  const struct bpfwire_ksock_addr_opts *opts,
			  __u32 opts__sz) __ksym;
extern int bpf_ksock_connect(struct bpf_ksock *ks,
			     const struct bpfwire_ksock_addr_opts *opts,
			     __u32 opts__sz) __ksym;
#elif defined(BPFWIRE_KSOCK_UPSTREAM)
/* sockaddr_in and sockaddr_in6 (port and addresses in network order). */
struct bpfwire_sockaddr_in {
	__u16  family;
	__be16 port;
	__be32 addr;
	__u8   zero[8];
};

struct bpfwire_sockaddr_in6 {
	__u16  family;
	__be16 port;
	__be32 flowinfo;
	__u8   addr[16];
	__u32  scope_id;
};

union bpfwire_ksock_addr {
	struct bpfwire_sockaddr_in  sin;
	struct bpfwire_sockaddr_in6 sin6;
};
/* The kernel refuses any other addr__sz with -EINVAL. */
#define BPFWIRE_KSOCK_ADDR_SZ	28

extern int bpf_ksock_connect(struct bpf_ksock *ks,
			     const union bpfwire_ksock_addr *addr,
			     __u32 addr__sz) __ksym;
#else
/* net/core/bpf_ksock.c: create/bind/connect are SYSCALL-only. */
extern struct bpf_ksock *
bpf_ksock_create(const struct bpf_ksock_create_opts *opts, __u32 opts__sz,
		 int *err__uninit) __ksym;
extern int bpf_ksock_bind(struct bpf_ksock *ks,
			  const struct bpf_ksock_addr_opts *opts,
			  __u32 opts__sz) __ksym;
extern int bpf_ksock_connect(struct bpf_ksock *ks,
			     const struct bpf_ksock_addr_opts *opts,
			     __u32 opts__sz) __ksym;
#endif
extern struct bpf_ksock *bpf_ksock_acquire(struct bpf_ksock *ks) __ksym;
extern void bpf_ksock_release(struct bpf_ksock *ks) __ksym;
/*
 * MSG_DONTWAIT: -EAGAIN when the send buffer is full; the seed's -EBUSY on
 * recursion. Upstream refuses acquire, release and send at load time in an
 * LSM program on socket_sendmsg.
 */
extern int bpf_ksock_send(struct bpf_ksock *ks, const void *data,
			  __u32 data__sz) __ksym;

/* net/core/bpf_netpoll.c: create/acquire/release are SYSCALL-only,
 * send_udp is LSM-only and takes an RCU pointer (KF_RCU). */
extern struct bpf_netpoll *
bpf_netpoll_create(const struct bpf_netpoll_opts *opts, __u32 opts__sz,
		   int *err) __ksym;
extern struct bpf_netpoll *bpf_netpoll_acquire(struct bpf_netpoll *bnp) __ksym;
extern void bpf_netpoll_release(struct bpf_netpoll *bnp) __ksym;
/* 0 means accepted by netpoll (it may still sit in netpoll's queue). */
extern int bpf_netpoll_send_udp(struct bpf_netpoll *bnp, const void *data,
				__u32 data__sz) __ksym;

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

#endif /* BPFWIRE_KFUNCS_H */
