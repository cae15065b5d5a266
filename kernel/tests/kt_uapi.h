/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kfuncs' opts structs for user space, as in the patched kernel's
 * include/linux/bpf_netpoll.h and include/linux/bpf_ksock.h (they are not
 * UAPI). The skeletons of netpoll_input and ksock_input embed them in .bss;
 * the skeletons' static asserts catch any layout drift.
 */
#ifndef KT_UAPI_H
#define KT_UAPI_H

#include <linux/types.h>

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
 * The posted series' create opts (4 bytes) with bpfwire's sndbuf extension
 * (kernel/patches/sndbuf) after them, as bpf/kfuncs.h has it: a probe
 * passes opts__sz 4 (the posted struct, every kernel) or 8 (the extension,
 * only on a kernel whose BTF has it: kt_api.ksock_sndbuf).
 */
struct bpfwire_ksock_create_opts {
	__u8 family;
	__u8 type;
	__u8 protocol;
	__u8 reserved;
	__u32 sndbuf;	/* kernel/patches/sndbuf */
};

#define BPF_KSOCK_CREATE_OPTS_SZ_V0 4		/* the posted struct */
#define BPF_KSOCK_CREATE_OPTS_SZ_SNDBUF 8	/* with the sndbuf extension */

struct bpf_ksock_addr_opts {
	__u8 family;
	__u8 reserved;
	__u16 port;
	__u32 scope_id;
	union {
		__be32 ipv4_addr;
		__u32 ipv6_addr[4];
	};
};

#endif /* KT_UAPI_H */
