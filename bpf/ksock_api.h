/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which ksock API the running kernel has, read from its BTF: the seed's
 * (kernel/patches: bpf_ksock_bind exists) or the one Linux merged (no bind,
 * connect takes union bpf_ksock_addr). The agent loads the matching object.
 */
#ifndef BPFWIRE_KSOCK_API_H
#define BPFWIRE_KSOCK_API_H

enum ksock_api {
	KSOCK_API_NONE		= 0,	/* neither: no ksock kfuncs */
	KSOCK_API_SEED		= 1,
	KSOCK_API_UPSTREAM	= 2,
};

/* KSOCK_API_*, or -errno when the kernel's BTF cannot be read. */
int ksock_api_detect(void);
/* "seed", "upstream", "none" */
const char *ksock_api_name(int api);
/* The running kernel's release (uname -r), for messages. */
const char *kernel_release(void);

#endif /* BPFWIRE_KSOCK_API_H */
