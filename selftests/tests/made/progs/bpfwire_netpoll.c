// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire's own netpoll selftest, in the selftests' style (test_loader
 * tags). It calls the kfuncs with no declaration of its own: on 6.12 they
 * come from bpfwire-kfunc-decls, as a newer pahole's vmlinux.h has them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

SEC("syscall")
__success __retval(-19)	/* -ENODEV */
int netpoll_no_device(void *ctx)
{
	struct bpf_netpoll_opts opts = { .dev_name = "bpfwire-none0" };
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&opts, sizeof(opts), &err);
	if (bnp) {
		bpf_netpoll_release(bnp);
		return 0;
	}
	return err;
}

SEC("syscall")
__failure __msg("Unreleased reference")
int netpoll_unreleased(void *ctx)
{
	struct bpf_netpoll_opts opts = { .dev_name = "lo" };
	struct bpf_netpoll *bnp;
	int err = 0;

	bnp = bpf_netpoll_create(&opts, sizeof(opts), &err);
	return bnp ? 0 : err;
}

char _license[] SEC("license") = "GPL";
