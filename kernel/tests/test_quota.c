// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 011: ksock_net_quota. net.core.bpf_ksock_max applies per netns, a
 * release gives the charge back (deferred, through a work item), and the
 * real counters follow.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "kt.h"
#include "ksock_quota.bpf.skel.h"

#define KSOCK_QUOTA_NS_SLOTS 3
#define KSOCK_QUOTA_NS1_OFFSET 0
#define KSOCK_QUOTA_NS2_OFFSET KSOCK_QUOTA_NS_SLOTS

static unsigned long long prog_misses(struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return ~0ULL;
	return info.recursion_misses;
}

static __u64 quota_release_completed(struct ksock_quota *skel)
{
	return __atomic_load_n(&skel->bss->quota_release_completed, __ATOMIC_ACQUIRE);
}

static unsigned long long quota_misses(struct ksock_quota *skel)
{
	return prog_misses(skel->progs.ksock_release_work_enter) +
	       prog_misses(skel->progs.ksock_release_work_exit);
}

/*
 * Releases the slots of netns `ns` and waits, with a bound (10 s), until
 * the deferred release work has returned every charge: that netns' real
 * counter reads 0. Returns how many were released.
 * The seed waits, without a bound, on its fentry/fexit count of
 * ksock_release_work_fn instead, and hung in 4 of 98 runs with
 * recursion_misses 1 on the fexit program: the releases run on the
 * unbound system_dfl_wq, two kworkers can share a CPU, and under PREEMPT a
 * tracing program runs with migration, not preemption, disabled, so one
 * kworker preempted inside the program leaves the program's per-CPU
 * recursion guard taken and the other's run is skipped (README.md, "The
 * seed's ksock_net_quota hang"). Here the count is not the verdict; a
 * count short of the releases must be accounted for by recursion misses,
 * or the programs lost events some other way.
 */
static int ksock_release_quota_slots(struct ksock_quota *skel, int offset, struct netns *ns)
{
	__u64 completed = quota_release_completed(skel), count;
	unsigned long long misses = quota_misses(skel);
	int cur, ok;

	skel->bss->quota_slot_offset = offset;
	if (!ASSERT_OK(run_prog(skel->progs.ksock_quota_release, NULL), "ksock_quota_release"))
		return -1;
	cur = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (!ASSERT_GE(cur, 0, "open /proc/self/ns/net"))
		return -1;
	ok = ASSERT_OK(setns(ns->self, CLONE_NEWNET) ? -errno : 0, "enter the slots' netns") &&
	     quota_settles(0, "deferred releases completed: netns counter 0");
	if (setns(cur, CLONE_NEWNET))
		ok = ASSERT_OK(-errno, "setns back");
	close(cur);
	/* the counter drops inside the work function, before its fexit runs */
	for (int i = 0; i < 1000; i++) {
		count = quota_release_completed(skel) - completed;
		if (count + (quota_misses(skel) - misses) >= skel->bss->quota_released)
			break;
		sleep_ms(10);
	}
	misses = quota_misses(skel) - misses;
	printf("# released %u, fexit count %llu, recursion misses %llu/%llu (%llu in this release)\n",
	       skel->bss->quota_released, (unsigned long long)count,
	       prog_misses(skel->progs.ksock_release_work_enter),
	       prog_misses(skel->progs.ksock_release_work_exit), misses);
	if (ok && !ASSERT_GE(count + misses, skel->bss->quota_released,
			     "fexit count + recursion misses cover every release"))
		ok = false;
	return ok ? (int)skel->bss->quota_released : -1;
}

static bool ksock_expect_quota(struct ksock_quota *skel, int offset, const char *name)
{
	char what[96];

	skel->bss->quota_slot_offset = offset;
	snprintf(what, sizeof(what), "%s: create run", name);
	if (!ASSERT_OK(run_prog(skel->progs.ksock_quota_create, NULL), what))
		return false;
	snprintf(what, sizeof(what), "%s: created", name);
	if (!ASSERT_EQ(skel->bss->quota_created, 2, what))
		return false;
	snprintf(what, sizeof(what), "%s: third create", name);
	return ASSERT_EQ(skel->bss->quota_err, -ENOSPC, what);
}

static bool attach_release_work(struct ksock_quota *skel)
{
	skel->links.ksock_release_work_enter =
		bpf_program__attach_trace(skel->progs.ksock_release_work_enter);
	if (!ASSERT_OK_PTR(skel->links.ksock_release_work_enter, "attach release work entry"))
		return false;
	skel->links.ksock_release_work_exit =
		bpf_program__attach_trace(skel->progs.ksock_release_work_exit);
	return ASSERT_OK_PTR(skel->links.ksock_release_work_exit, "attach release work exit");
}

KT_TEST(30, test_ksock_net_quota)
{
	struct netns ns1 = NETNS_INIT, ns2 = NETNS_INIT;
	struct ksock_quota *skel;
	int old_max = -1, released;

	if (!kt_needs(KT_NEED_SEED, "ksock_net_quota: net.core.bpf_ksock_max"))
		return;

	if (!tap_case_begin("ksock_net_quota"))
		return;
	skel = ksock_quota__open_and_load();
	if (!ASSERT_OK_PTR(skel, "ksock quota skeleton"))
		goto out;
	if (!attach_release_work(skel))
		goto out;

	/* The sysctl lives in the initial netns only. */
	old_max = sysctl_read_int(KSOCK_MAX_SYSCTL);
	if (!ASSERT_GE(old_max, 0, "read bpf_ksock_max"))
		goto out;
	if (!ASSERT_OK(sysctl_write_int(KSOCK_MAX_SYSCTL, 2), "bpf_ksock_max=2"))
		goto out;

	if (!netns_enter_new(&ns1))
		goto out;
	skel->bss->target_netns_inum[0] = netns_inum();
	if (!ksock_expect_quota(skel, KSOCK_QUOTA_NS1_OFFSET, "first netns quota"))
		goto out;
	if (!ASSERT_EQ(quota_count(), 2, "first netns counter"))
		goto out;

	/* The host-wide setting grants the full allowance to each netns. */
	if (!netns_enter_new(&ns2))
		goto out;
	skel->bss->target_netns_inum[1] = netns_inum();
	if (!ksock_expect_quota(skel, KSOCK_QUOTA_NS2_OFFSET, "second netns quota"))
		goto out;

	released = ksock_release_quota_slots(skel, KSOCK_QUOTA_NS2_OFFSET, &ns2);
	if (!ASSERT_EQ(released, 2, "second netns quota released"))
		goto out;
	if (!ASSERT_EQ(quota_count(), 0, "second netns counter after release"))
		goto out;

	/* Both released slots must become available again. */
	ksock_expect_quota(skel, KSOCK_QUOTA_NS2_OFFSET, "recovered quota");
out:
	if (skel && ns2.self >= 0)
		ksock_release_quota_slots(skel, KSOCK_QUOTA_NS2_OFFSET, &ns2);
	if (skel && ns1.self >= 0)
		ksock_release_quota_slots(skel, KSOCK_QUOTA_NS1_OFFSET, &ns1);
	if (ns2.in) {
		ASSERT_EQ(quota_count(), 0, "second netns counter back to 0");
		if (ns1.self >= 0 && !setns(ns1.self, CLONE_NEWNET))
			ASSERT_EQ(quota_count(), 0, "first netns counter back to 0");
		ns2.in = false;	/* ns2.orig is ns1 */
	}
	netns_leave(&ns2);
	netns_leave(&ns1);
	if (old_max >= 0)
		ASSERT_OK(sysctl_write_int(KSOCK_MAX_SYSCTL, old_max), "restore bpf_ksock_max");
	ksock_quota__destroy(skel);
	tap_case_end();
}
