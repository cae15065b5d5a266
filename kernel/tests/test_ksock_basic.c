// SPDX-License-Identifier: GPL-2.0-only
/* Seed 009: ksock_basic, one datagram to a receiver in a fresh netns. */
#define _GNU_SOURCE
#include <stdio.h>

#include "kt.h"
#include "ksock_basic.bpf.skel.h"

KT_TEST(20, test_ksock_basic)
{
	struct ksock_env env = KSOCK_ENV_INIT;
	struct ksock_basic *skel;
	int ret = -1;

	if (!kt_needs(KT_NEED_SEED, "ksock_basic (seed create/connect opts)"))
		return;

	if (!tap_case_begin("ksock_basic"))
		return;
	skel = ksock_basic__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel open_and_load"))
		goto out;
	if (!ksock_env_setup(&env))
		goto out;
	if (!ksock_setup_ctx(skel->progs.ksock_setup, &skel->bss->ipv4_remote,
			     &skel->bss->remote_port))
		goto out;
	if (!ASSERT_OK(run_prog(skel->progs.ksock_send, &ret), "ksock_send run"))
		goto out;
	if (!ASSERT_EQ(ret, sizeof(skel->data->send_data), "sendmsg bytes"))
		goto out;
	ksock_assert_recv_once(&env, skel->data->send_data, sizeof(skel->data->send_data));
out:
	ksock_basic__destroy(skel);
	if (env.ns.in)
		quota_settles(0, "netns quota counter back to 0");
	ksock_env_cleanup(&env);
	tap_case_end();
}
