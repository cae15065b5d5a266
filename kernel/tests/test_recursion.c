// SPDX-License-Identifier: GPL-2.0-only
/* Seed 010: ksock_lsm_recursion, a send from socket_sendmsg's LSM hook. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kt.h"
#include "ksock_recursion.bpf.skel.h"

KT_TEST(21, test_ksock_lsm_recursion)
{
	struct ksock_env env = KSOCK_ENV_INIT;
	struct ksock_recursion *skel;
	char trigger = 'x';
	int tfd = -1;

	if (!kt_needs(KT_NEED_SEED, "ksock_lsm_recursion: runtime -EBUSY guard"))
		return;

	ssize_t n;

	if (!tap_case_begin("ksock_lsm_recursion"))
		return;
	skel = ksock_recursion__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel open_and_load"))
		goto out;
	if (!ksock_env_setup(&env))
		goto out;
	if (!ksock_setup_ctx(skel->progs.ksock_setup, &skel->bss->ipv4_remote,
			     &skel->bss->remote_port))
		goto out;

	skel->links.ksock_socket_sendmsg =
		bpf_program__attach_lsm(skel->progs.ksock_socket_sendmsg);
	if (!ASSERT_OK_PTR(skel->links.ksock_socket_sendmsg, "attach socket_sendmsg lsm"))
		goto out;

	tfd = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (!ASSERT_GE(tfd, 0, "trigger socket"))
		goto out;
	/* The trigger goes to port RECV_PORT + 1, where nobody listens, so
	 * the receiver sees only what the BPF program sent. */
	env.addr.sin_port = htons(RECV_PORT + 1);
	skel->bss->target_pid = getpid();
	skel->bss->trigger_send = 1;
	n = sendto(tfd, &trigger, sizeof(trigger), 0,
		   (struct sockaddr *)&env.addr, sizeof(env.addr));
	skel->bss->target_pid = 0;
	skel->bss->trigger_send = 0;
	env.addr.sin_port = htons(RECV_PORT);
	if (!ASSERT_EQ(n, sizeof(trigger), "trigger sendto"))
		goto out;

	if (!ASSERT_EQ(skel->bss->rec_count, 2, "socket_sendmsg recursion count"))
		goto out;
	ASSERT_EQ(skel->data->rec_kfunc_rets[0], -EBUSY, "recursive send status");
	ASSERT_EQ(skel->data->rec_kfunc_rets[1], sizeof(skel->data->send_data),
		  "outer send bytes");
	ksock_assert_recv_once(&env, skel->data->send_data, sizeof(skel->data->send_data));
out:
	if (tfd >= 0)
		close(tfd);
	ksock_recursion__destroy(skel);
	if (env.ns.in)
		quota_settles(0, "netns quota counter back to 0");
	ksock_env_cleanup(&env);
	tap_case_end();
}
