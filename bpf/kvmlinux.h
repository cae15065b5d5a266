/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vmlinux.h without the kfunc API's own types, then bpfwire's kfunc
 * declarations (kfuncs.h). Every BPF object that calls a bpfwire kfunc
 * includes this instead of vmlinux.h, so that it compiles against any
 * kernel's vmlinux.h: one whose ksock API is the seed's, upstream's, one
 * bpfwire does not know, or none, with or without netpoll. The
 * types the kfuncs take are kfuncs.h's copies, named as the kernel names
 * them: libbpf matches a kfunc's pointer argument by kind (struct or
 * union) and a kptr by name, never by layout, and which API the running
 * kernel has is decided at run time from its BTF (kapi/).
 */
#ifndef BPFWIRE_KVMLINUX_H
#define BPFWIRE_KVMLINUX_H

#define bpf_ksock		bpf_ksock___vmlinux
#define bpf_ksock_create_opts	bpf_ksock_create_opts___vmlinux
#define bpf_ksock_addr_opts	bpf_ksock_addr_opts___vmlinux
#define bpf_ksock_addr		bpf_ksock_addr___vmlinux
#define bpf_netpoll		bpf_netpoll___vmlinux
#define bpf_netpoll_opts	bpf_netpoll_opts___vmlinux
#include "vmlinux.h"
#undef bpf_ksock
#undef bpf_ksock_create_opts
#undef bpf_ksock_addr_opts
#undef bpf_ksock_addr
#undef bpf_netpoll
#undef bpf_netpoll_opts

#include "kfuncs.h"

#endif /* BPFWIRE_KVMLINUX_H */
