// SPDX-License-Identifier: GPL-2.0-only
/*
 * net.core.bpf_ksock_max, the seed's limit of live ksocks per netns: a bad
 * write leaves it as it was; lowered below the live count, it refuses the
 * next create and keeps the live sockets; in 3 netns at once, each netns
 * counts its own. Seed 011's case of the same limit is test_quota.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kt.h"
#include "ksock_lsm.bpf.skel.h"

/* Writes a raw string; 0 or -errno. */
static int sysctl_write_str(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY), n;

	if (fd < 0)
		return -errno;
	n = write(fd, v, strlen(v));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

KT_TEST(70, test_ksock_max_writes)
{
	static const char *const bad[] = { "-1", "abc", "99999999999", "2147483648" };
	char name[96];
	size_t i;
	int before;

	if (!kt_needs(KT_NEED_SEED, "ksock quota: bpf_ksock_max sysctl writes"))
		return;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(name, sizeof(name),
			 "sysctl bpf_ksock_max: write '%s' -> EINVAL, value unchanged", bad[i]);
		if (!tap_case_begin(name))
			continue;
		before = sysctl_read_int(KSOCK_MAX_SYSCTL);
		ASSERT_GE(before, 0, "read bpf_ksock_max");
		ASSERT_EQ(sysctl_write_str(KSOCK_MAX_SYSCTL, bad[i]), -EINVAL, "write");
		ASSERT_EQ(sysctl_read_int(KSOCK_MAX_SYSCTL), before, "value unchanged");
		tap_case_end();
	}
}

/* net.core.bpf_ksock_max exists in the initial netns only: write it there
 * and come back to ns. */
static int ksock_max_write_from(struct netns *ns, int v)
{
	int err;

	if (setns(ns->orig, CLONE_NEWNET))
		return -errno;
	err = sysctl_write_int(KSOCK_MAX_SYSCTL, v);
	if (setns(ns->self, CLONE_NEWNET))
		return -errno;
	return err;
}

/* Three live sockets, then bpf_ksock_max=2: no fourth, the three stay. */
KT_TEST(71, test_ksock_max_lowered)
{
	struct ksock_lsm *skel = NULL;
	struct netns ns = NETNS_INIT;
	int old_max = -1, i;

	if (!kt_needs(KT_NEED_SEED, "ksock quota: bpf_ksock_max lowered below the live count"))
		return;

	if (!tap_case_begin("ksock quota: bpf_ksock_max lowered below the live count -> "
			    "ENOSPC, the live sockets kept"))
		return;
	old_max = sysctl_read_int(KSOCK_MAX_SYSCTL);
	skel = ksock_lsm__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel open_and_load") ||
	    !ASSERT_GE(old_max, 0, "read bpf_ksock_max") || !netns_enter_new(&ns))
		goto out;
	for (i = 0; i < 3; i++)
		ASSERT_OK(ksock_hold_slot(skel->progs.hold_one, i, 0), "create a live socket");
	ASSERT_EQ(quota_count(), 3, "netns counter");
	if (!ASSERT_OK(ksock_max_write_from(&ns, 2), "bpf_ksock_max=2"))
		goto out;
	ASSERT_EQ(ksock_hold_slot(skel->progs.hold_one, 3, 0), -ENOSPC, "a fourth create");
	ASSERT_EQ(quota_count(), 3, "netns counter: the three are kept");
	ASSERT_OK(ksock_drop_slot(skel->progs.drop_one, 0), "release one");
	quota_settles(2, "netns counter after one release");
	ASSERT_EQ(ksock_hold_slot(skel->progs.hold_one, 3, 0), -ENOSPC, "at the new maximum");
out:
	ksock_lsm__destroy(skel);
	if (ns.in)
		quota_settles(0, "netns counter back to 0");
	netns_leave(&ns);
	if (old_max >= 0) {
		ASSERT_OK(sysctl_write_int(KSOCK_MAX_SYSCTL, old_max), "restore bpf_ksock_max");
		ASSERT_EQ(sysctl_read_int(KSOCK_MAX_SYSCTL), old_max, "bpf_ksock_max restored");
	}
	tap_case_end();
}

/* ------------------------------------------------------------------ */
/* The quota in 3 netns at once: a thread each, bpf_ksock_max=2        */

#define QUOTA_NS 3
static pthread_mutex_t quota_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t quota_barrier;

struct quota_thread {
	struct ksock_lsm *skel;
	int idx;
	int rets[3];
	int count;	/* this netns' counter after the creates */
	int settled;	/* after its sockets were released */
	int err;
};

static void *quota_thread_fn(void *arg)
{
	struct quota_thread *t = arg;
	int k;

	/* Every thread meets every barrier, even after a failure. */
	t->err = unshare(CLONE_NEWNET) ? -errno : 0;
	pthread_barrier_wait(&quota_barrier);
	for (k = 0; k < 3 && !t->err; k++)
		t->rets[k] = ksock_hold_slot(t->skel->progs.hold_one, t->idx * 3 + k, 0);
	pthread_barrier_wait(&quota_barrier);
	/* quota_count() runs one shared program: one thread at a time. */
	pthread_mutex_lock(&quota_lock);
	t->count = quota_count();
	pthread_mutex_unlock(&quota_lock);
	pthread_barrier_wait(&quota_barrier);	/* main releases the sockets */
	pthread_barrier_wait(&quota_barrier);
	for (k = 0; k < 1000 && !t->err; k++) {
		pthread_mutex_lock(&quota_lock);
		t->settled = quota_count();
		pthread_mutex_unlock(&quota_lock);
		if (t->settled == 0)
			break;
		sleep_ms(10);
	}
	return NULL;
}

KT_TEST(72, test_ksock_quota_3netns)
{
	struct quota_thread t[QUOTA_NS] = {};
	struct ksock_lsm *skel = NULL;
	pthread_t th[QUOTA_NS];
	int old_max = -1, i, k, started = 0;
	char name[96];

	if (!kt_needs(KT_NEED_SEED, "ksock quota: 3 netns at once"))
		return;

	/* Listed, or skipped when FILTER matches none of the three. */
	for (i = 0, k = 0; i < QUOTA_NS; i++) {
		snprintf(name, sizeof(name), "ksock quota: netns %d of 3 at once, "
			 "bpf_ksock_max=2: 2 sockets, the third -> ENOSPC", i + 1);
		if (tap_opts.list_only)
			tap_case_begin(name);
		k += !tap_opts.filter || strstr(name, tap_opts.filter);
	}
	if (tap_opts.list_only || !k)
		return;
	skel = ksock_lsm__open_and_load();
	old_max = sysctl_read_int(KSOCK_MAX_SYSCTL);
	if (skel && !sysctl_write_int(KSOCK_MAX_SYSCTL, 2)) {
		pthread_barrier_init(&quota_barrier, NULL, QUOTA_NS + 1);
		for (i = 0; i < QUOTA_NS; i++) {
			t[i].skel = skel;
			t[i].idx = i;
			if (pthread_create(&th[i], NULL, quota_thread_fn, &t[i]))
				break;
		}
		started = i;
		if (started == QUOTA_NS) {
			pthread_barrier_wait(&quota_barrier);
			pthread_barrier_wait(&quota_barrier);
			pthread_barrier_wait(&quota_barrier);
			for (k = 0; k < QUOTA_NS * 3; k++)
				ksock_drop_slot(skel->progs.drop_one, k);
			pthread_barrier_wait(&quota_barrier);
		}
		for (i = 0; i < started; i++)
			pthread_join(th[i], NULL);
		pthread_barrier_destroy(&quota_barrier);
	}
	for (i = 0; i < QUOTA_NS; i++) {
		snprintf(name, sizeof(name), "ksock quota: netns %d of 3 at once, "
			 "bpf_ksock_max=2: 2 sockets, the third -> ENOSPC", i + 1);
		if (!tap_case_begin(name))
			continue;
		if (ASSERT_OK_PTR(skel, "skel open_and_load") &&
		    ASSERT_EQ(started, QUOTA_NS, "threads started") &&
		    ASSERT_OK(t[i].err, "unshare(CLONE_NEWNET) in the thread")) {
			ASSERT_OK(t[i].rets[0], "first create");
			ASSERT_OK(t[i].rets[1], "second create");
			ASSERT_EQ(t[i].rets[2], -ENOSPC, "third create");
			ASSERT_EQ(t[i].count, 2, "this netns' counter");
			ASSERT_EQ(t[i].settled, 0, "this netns' counter after the release");
		}
		tap_case_end();
	}
	if (old_max >= 0)
		sysctl_write_int(KSOCK_MAX_SYSCTL, old_max);
	ksock_lsm__destroy(skel);
}
