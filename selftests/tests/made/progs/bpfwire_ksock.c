// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire's own ksock selftest: create and release a UDP socket, a family
 * the kfunc refuses, a reference never released. Only what the seed's and
 * the merged API share, so it runs on either kernel.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

#define AF_INET		2
#define SOCK_DGRAM	2

char tag[8];

SEC("syscall")
__success __retval(0)
int ksock_create_release(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (!ks)
		return err;
	bpf_ksock_release(ks);
	__builtin_memcpy(tag, "ksock ok", sizeof(tag));
	return 0;
}

SEC("syscall")
__success __retval(-97)	/* -EAFNOSUPPORT */
int ksock_bad_family(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = 99, .type = SOCK_DGRAM };
	struct bpf_ksock *ks;
	int err = 0;

	ks = bpf_ksock_create(&o, sizeof(o), &err);
	if (ks) {
		bpf_ksock_release(ks);
		return 0;
	}
	return err;
}

SEC("syscall")
__failure __msg("Unreleased reference")
int ksock_unreleased(void *ctx)
{
	struct bpf_ksock_create_opts o = { .family = AF_INET, .type = SOCK_DGRAM };
	int err = 0;

	return bpf_ksock_create(&o, sizeof(o), &err) ? 0 : err;
}

char _license[] SEC("license") = "GPL";
