/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the kernel suite's BPF objects: constants vmlinux.h cannot
 * carry, the kfunc declarations, and the expected-verifier-outcome tags
 * (selftests' bpf_misc.h style) that kernel-tests reads back from BTF.
 */
#ifndef KT_BPF_H
#define KT_BPF_H

#include <bpf/bpf_helpers.h>
#include "kernel_series.h"	/* build/kernel: BPFWIRE_KERNEL_UPSTREAM */
/* On the upstream kernel the ksock kfuncs take the merged API's arguments
 * (bpf/kfuncs.h's upstream set); the seed build keeps vmlinux.h's types. */
#if BPFWIRE_KERNEL_UPSTREAM
#define BPFWIRE_KSOCK_UPSTREAM
#endif
#include "kfuncs.h"	/* bpf/kfuncs.h: the bpfwire kfuncs, declared once */

#define __failure	__attribute__((btf_decl_tag("comment:test_expect_failure")))
#define __success	__attribute__((btf_decl_tag("comment:test_expect_success")))
#define __msg(msg)	__attribute__((btf_decl_tag("comment:test_expect_msg=" msg)))
/* Load with CAP_BPF as the only capability in the effective set. */
#define __caps_bpf_only	__attribute__((btf_decl_tag("comment:test_caps=bpf")))
#define __retval(val)	__attribute__((btf_decl_tag("comment:test_retval=" #val)))

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
