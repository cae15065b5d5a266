/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the kernel suite's BPF objects: constants vmlinux.h cannot
 * carry, the kfunc declarations, and the expected-verifier-outcome tags
 * (selftests' bpf_misc.h style) that kernel-tests reads back from BTF.
 */
#ifndef KT_BPF_H
#define KT_BPF_H

#include <bpf/bpf_helpers.h>
/*
 * bpf/kfuncs.h (through kvmlinux.h, which every object includes first):
 * the seed's setup kfuncs, or upstream's where the object defines
 * BPFWIRE_KSOCK_UPSTREAM (ksock_up*.bpf.c). Every object builds on any
 * kernel; kernel-tests loads one only on a kernel of its API (kt_needs()).
 */
#include "kfuncs.h"

#define __failure	__attribute__((btf_decl_tag("comment:test_expect_failure")))
#define __success	__attribute__((btf_decl_tag("comment:test_expect_success")))
#define __msg(msg)	__attribute__((btf_decl_tag("comment:test_expect_msg=" msg)))
/*
 * Linux 7.x's text where it words a refusal otherwise (it names the
 * register, "R2", where 6.12 named the argument, "arg1"): on 7.x the
 * __msg_7x tags replace the __msg ones, and the case prints both.
 */
#define __msg_7x(msg)	__attribute__((btf_decl_tag("comment:test_expect_msg_7x=" msg)))
/* A program 6.12 loads and 7.x refuses, with 7.x's __msg_7x text. */
#define __failure_7x	__attribute__((btf_decl_tag("comment:test_expect_failure_7x")))
/* Load with CAP_BPF as the only capability in the effective set. */
#define __caps_bpf_only	__attribute__((btf_decl_tag("comment:test_caps=bpf")))
#define __retval(val)	__attribute__((btf_decl_tag("comment:test_retval=" #val)))
/*
 * A seed bug: on 6.12's seed-only kernel the case is a TAP # TODO
 * (kt_todo_on_seed). The verifier runner's are all 6.12's missing
 * KF_TRUSTED_ARGS, which no 7.x kernel lacks: not a TODO there.
 */
#define __todo_on_seed(bug)	__attribute__((btf_decl_tag("comment:test_todo_on_seed=" bug)))

#ifndef AF_INET
#define AF_UNIX		1
#define AF_INET		2
#define AF_INET6	10
#define AF_PACKET	17
#endif
#define SOCK_STREAM	1
#define SOCK_DGRAM	2
#define SOCK_RAW	3
#define IPPROTO_TCP	6
#define IPPROTO_UDP	17

#define ENOENT		2
#define EINVAL		22
#define ERANGE		34
#define EEXIST		17
#define EBUSY		16

#ifndef barrier_var
#define barrier_var(var) asm volatile("" : "+r"(var))
#endif

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((void *)(ptr) - __builtin_offsetof(type, member)))
#endif

#endif /* KT_BPF_H */
