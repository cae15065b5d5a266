// SPDX-License-Identifier: GPL-2.0-only
/* Which ksock API the kernel has; see ksock_api.h. */
#include <errno.h>
#include <sys/utsname.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "ksock_api.h"

int ksock_api_detect(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int api = KSOCK_API_NONE;

	if (!btf)
		return errno ? -errno : -ENOENT;
	/* The seed has bind; upstream dropped it and added the union. */
	if (btf__find_by_name_kind(btf, "bpf_ksock_bind", BTF_KIND_FUNC) > 0)
		api = KSOCK_API_SEED;
	else if (btf__find_by_name_kind(btf, "bpf_ksock_addr", BTF_KIND_UNION) > 0 &&
		 btf__find_by_name_kind(btf, "bpf_ksock_connect", BTF_KIND_FUNC) > 0)
		api = KSOCK_API_UPSTREAM;
	btf__free(btf);
	return api;
}

const char *ksock_api_name(int api)
{
	switch (api) {
	case KSOCK_API_SEED:
		return "seed";
	case KSOCK_API_UPSTREAM:
		return "upstream";
	default:
		return "none";
	}
}

const char *kernel_release(void)
{
	static struct utsname u;

	if (!u.release[0] && uname(&u))
		return "unknown";
	return u.release;
}
