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

struct bpf_ksock_create_opts {
	__u8 family;
	__u8 type;
	__u8 protocol;
	__u8 reserved;
	__u32 sndbuf;	/* patch 0004 */
};

/* opts__sz of the layout before sndbuf (patch 0004) */
#define BPF_KSOCK_CREATE_OPTS_SZ_V0 4

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
