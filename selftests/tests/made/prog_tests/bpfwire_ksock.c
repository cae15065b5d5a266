// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire's own ksock selftest: the tagged programs through test_loader,
 * then one run read back through the skeleton (ASSERT_MEMEQ) and a sysctl
 * written back as it was (sysctl_set), the two helpers 6.12 lacks.
 */
#include <test_progs.h>
#include "sysctl_helpers.h"
#include "bpfwire_ksock.skel.h"

static void readback(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct bpfwire_ksock *skel;
	int err;

	skel = bpfwire_ksock__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return;
	/* the verifier must refuse this one: test_loader checks that */
	bpf_program__set_autoload(skel->progs.ksock_unreleased, false);
	if (!ASSERT_OK(bpfwire_ksock__load(skel), "load"))
		goto out;
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.ksock_create_release), &topts);
	if (ASSERT_OK(err, "test_run") && ASSERT_EQ(topts.retval, 0, "retval"))
		ASSERT_MEMEQ(skel->bss->tag, "ksock ok", 8, "tag");
out:
	bpfwire_ksock__destroy(skel);
}

static void sysctl_same(void)
{
	char old[128];

	/* The tree's contract (7.x's sysctl_helpers.c): the file's path. */
	if (!ASSERT_OK(sysctl_set("/proc/sys/net/core/somaxconn", old, "4096"), "somaxconn"))
		return;
	ASSERT_OK(sysctl_set("/proc/sys/net/core/somaxconn", NULL, old), "somaxconn back");
}

void test_bpfwire_ksock(void)
{
	RUN_TESTS(bpfwire_ksock);
	if (test__start_subtest("readback"))
		readback();
	if (test__start_subtest("sysctl"))
		sysctl_same();
}
