/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bpfwire kfuncs, declared once. Debian's pahole 1.24 does not emit
 * kfunc prototypes into vmlinux.h, so every BPF object includes this after
 * vmlinux.h (which provides the opts structs and struct bpf_ksock/netpoll).
 * Signatures follow kernel/patches (seeds 001 and 008).
 */
#ifndef BPFWIRE_KFUNCS_H
#define BPFWIRE_KFUNCS_H

#ifndef __ksym
#define __ksym __attribute__((section(".ksyms")))
#endif

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
extern struct bpf_ksock *bpf_ksock_acquire(struct bpf_ksock *ks) __ksym;
extern void bpf_ksock_release(struct bpf_ksock *ks) __ksym;
/* MSG_DONTWAIT: -EAGAIN when the send buffer is full; -EBUSY on recursion. */
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
