// SPDX-License-Identifier: GPL-2.0-only
/* The cover letter's sixth selftest (NOTES.md): ksock_wq, no socket from a
 * bpf_wq callback. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>

#include "kt.h"
#include "ksock_wq.bpf.skel.h"

KT_TEST(40, test_ksock_wq)
{
	struct ksock_wq *skel;
	int ret = -1, i;

	if (!tap_case_begin("ksock_wq"))
		return;
	skel = ksock_wq__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel open_and_load"))
		goto out;
	if (!ASSERT_OK(run_prog(skel->progs.ksock_wq_start, &ret), "ksock_wq_start run"))
		goto out;
	if (!ASSERT_OK(ret, "ksock_wq_start retval"))
		goto out;
	/* Upstream waits 1000 x 1 ms; TCG is slower, so 5000 x 1 ms. */
	for (i = 0; i < 5000 && !__atomic_load_n(&skel->bss->wq_done, __ATOMIC_ACQUIRE); i++)
		sleep_ms(1);
	if (!ASSERT_EQ(skel->bss->wq_done, 1, "wq callback done"))
		goto out;
	ASSERT_EQ(skel->data->wq_err, -EOPNOTSUPP, "bpf_ksock_create from bpf_wq");
	ASSERT_EQ(skel->bss->wq_created, 0, "no socket from bpf_wq");
out:
	ksock_wq__destroy(skel);
	tap_case_end();
}
