// SPDX-License-Identifier: GPL-2.0-only
/*
 * The release race: lsm.s/file_open sends through the map's
 * ksock (acquire under RCU, send, release) while one thread replaces it
 * 500 times (the old one released) and another clears the slot 500 times
 * (the destructor runs), with a third thread opening the hooked file.
 * Run on 2 vCPUs with PREEMPT (topology/lone-smp.topo), under lockdep:
 * the post-checks and the console scan catch a splat.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "kt.h"
#include "ksock_lsm.bpf.skel.h"

#define RACE_ROUNDS 500

struct race {
	struct ksock_lsm *skel;
	int running;		/* replacer and deleter still going */
	int setup_fail, clear_fail, opens;
	int last_setup_err;
};

static void *race_replace(void *arg)
{
	struct race *r = arg;
	int i, ret;

	for (i = 0; i < RACE_ROUNDS; i++) {
		ret = -1;
		if (run_prog(r->skel->progs.ksock_setup, &ret) || ret) {
			r->setup_fail++;
			r->last_setup_err = ret;
		}
	}
	__atomic_sub_fetch(&r->running, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *race_delete(void *arg)
{
	struct race *r = arg;
	int i, ret;

	for (i = 0; i < RACE_ROUNDS; i++) {
		/* an empty slot (-ENOENT) is a lost race, not a failure */
		ret = ksock_drop_slot(r->skel->progs.drop_one, KSOCK_CTX_SLOT);
		if (ret && ret != -ENOENT)
			r->clear_fail++;
		if (i % 8 == 0)
			sched_yield();
	}
	__atomic_sub_fetch(&r->running, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *race_open(void *arg)
{
	struct race *r = arg;
	int fd;

	while (__atomic_load_n(&r->running, __ATOMIC_ACQUIRE) > 0) {
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			close(fd);
			r->opens++;
		}
	}
	return NULL;
}

KT_TEST(76, test_ksock_release_race)
{
	struct ksock_env env = KSOCK_ENV_INIT;
	struct race r = { .running = 2 };
	pthread_t th[3];
	int n = 0, i;

	if (!kt_needs(KT_NEED_SEED, "ksock: release race (seed setup)"))
		return;

	if (!tap_case_begin("ksock: release race, 500 replaces and 500 deletes of the map's "
			    "ksock while file_open sends through it (3 threads)"))
		return;
	r.skel = ksock_lsm__open_and_load();
	if (!ASSERT_OK_PTR(r.skel, "skel open_and_load") || !ksock_env_setup(&env))
		goto out;
	if (!ksock_setup_ctx(r.skel->progs.ksock_setup, &r.skel->bss->ipv4_remote,
			     &r.skel->bss->remote_port))
		goto out;
	r.skel->links.race_send = bpf_program__attach(r.skel->progs.race_send);
	if (!ASSERT_OK_PTR(r.skel->links.race_send, "attach lsm.s/file_open"))
		goto out;
	r.skel->bss->target_pid = getpid();
	r.skel->bss->race_on = 1;
	n += !pthread_create(&th[n], NULL, race_open, &r);
	n += !pthread_create(&th[n], NULL, race_replace, &r);
	n += !pthread_create(&th[n], NULL, race_delete, &r);
	if (n < 3)
		__atomic_store_n(&r.running, 0, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	r.skel->bss->race_on = 0;
	if (!ASSERT_EQ(n, 3, "threads started"))
		goto out;
	printf("# race: %d opens; sent %u, no socket %u, EAGAIN %u, other %u\n", r.opens,
	       r.skel->bss->race_sent, r.skel->bss->race_nosock, r.skel->bss->race_again,
	       r.skel->bss->race_bad);
	ASSERT_EQ(r.setup_fail, 0, "ksock_setup failures (replacer)");
	if (r.setup_fail)
		printf("#   last ksock_setup result %d\n", r.last_setup_err);
	ASSERT_EQ(r.clear_fail, 0, "drop_one failures (deleter)");
	ASSERT_GE(r.skel->bss->race_sent, 1, "sends that went through");
	ASSERT_EQ(r.skel->bss->race_bad, 0, "sends that got neither the length nor EAGAIN");
	if (r.skel->bss->race_bad)
		printf("#   last bad send %d\n", r.skel->bss->race_bad_ret);
out:
	ksock_lsm__destroy(r.skel);
	if (env.ns.in)
		quota_settles(0, "netns counter back to 0");
	ksock_env_cleanup(&env);
	tap_case_end();
}
