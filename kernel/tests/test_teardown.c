// SPDX-License-Identifier: GPL-2.0-only
/*
 * netns teardown: a netns whose last task has left, while a
 * context in a map still holds it (ksock: the socket's netns reference;
 * netpoll: the device's). netns_watch.bpf.c sees the netns really go
 * (its inode number freed, after its devices are).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kt.h"
#include "netns_watch.bpf.skel.h"
#include "ksock_lsm.bpf.skel.h"
#include "ksock_netexit.bpf.skel.h"
#include "netpoll_sanity.bpf.skel.h"

/*
 * Forks a child that enters a new netns, brings lo up and runs setup(arg)
 * (which must make a context that holds the netns). The watch is armed
 * with the netns' inode number before the child exits. Returns the inum,
 * or 0 if the child failed (its exit status is printed).
 */
static __u32 netns_child(struct netns_watch *w, bool (*setup)(void *), void *arg)
{
	int to_parent[2], to_child[2], st = -1;
	__u32 inum = 0;
	char go = 0;
	pid_t pid;

	if (pipe(to_parent) || pipe(to_child))
		return 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(to_parent[0]);
		close(to_child[1]);
		if (unshare(CLONE_NEWNET) || system(IP " link set lo up") || !setup(arg))
			_exit(1);
		inum = netns_inum();
		if (write(to_parent[1], &inum, sizeof(inum)) != sizeof(inum))
			_exit(2);
		/* Leave only once the watch is armed. */
		_exit(read(to_child[0], &go, 1) == 1 ? 0 : 3);
	}
	close(to_parent[1]);
	close(to_child[0]);
	if (pid > 0 && read(to_parent[0], &inum, sizeof(inum)) == sizeof(inum)) {
		w->bss->seen = 0;
		w->bss->watch_inum = inum;
		if (write(to_child[1], &go, 1) != 1)
			inum = 0;
	}
	close(to_parent[0]);
	close(to_child[1]);
	if (pid > 0 && (waitpid(pid, &st, 0) != pid || st != 0)) {
		printf("#   netns child exited with status %d\n", st);
		inum = 0;
	}
	return inum;
}

static bool netns_gone_within(struct netns_watch *w, int ms)
{
	int i;

	for (i = 0; i < ms / 10 && !__atomic_load_n(&w->bss->seen, __ATOMIC_ACQUIRE); i++)
		sleep_ms(10);
	return w->bss->seen;
}

/* fentry/net_ns_net_exit on 6.12, fentry/__ns_common_free on 7.x */
static struct netns_watch *watch_open(void)
{
	struct netns_watch *w = netns_watch__open();
	bool has_exit = kt_kernel_has_func("net_ns_net_exit");
	struct bpf_program *p;
	struct bpf_link **l;

	if (!ASSERT_OK_PTR(w, "netns_watch open"))
		return NULL;
	p = has_exit ? w->progs.netns_exit : w->progs.ns_common_free;
	l = has_exit ? &w->links.netns_exit : &w->links.ns_common_free;
	bpf_program__set_autoload(p, true);
	if (!ASSERT_OK(netns_watch__load(w), "netns_watch load") ||
	    !ASSERT_OK_PTR(*l = bpf_program__attach(p), has_exit ? "attach fentry/net_ns_net_exit"
								  : "attach fentry/__ns_common_free")) {
		netns_watch__destroy(w);
		return NULL;
	}
	return w;
}

static bool ksock_child_setup(void *arg)
{
	struct ksock_lsm *skel = arg;
	int ret = -1;

	skel->bss->ipv4_remote = inet_addr("127.0.0.1");
	skel->bss->remote_port = RECV_PORT;
	return !run_prog(skel->progs.ksock_setup, &ret) && ret == 0;
}

KT_TEST(57, test_ksock_netns_teardown)
{
	struct netns_watch *w = NULL;
	struct ksock_lsm *skel = NULL;

	if (!kt_needs(KT_NEED_SEED, "ksock: netns teardown with a map's ksock (seed setup)"))
		return;

	if (!tap_case_begin("ksock: a netns whose last task left lives while a map's ksock holds it, "
			    "and goes within 5 s of the map's release"))
		return;
	w = watch_open();
	skel = ksock_lsm__open_and_load();
	if (!w || !ASSERT_OK_PTR(skel, "ksock_lsm open_and_load"))
		goto out;
	if (!ASSERT_NEQ(netns_child(w, ksock_child_setup, skel), 0, "child netns with a ksock"))
		goto out;
	sleep_ms(1000);
	ASSERT_EQ(w->bss->seen, 0, "netns still there 1 s after its last task left");
	ksock_lsm__destroy(skel);
	skel = NULL;
	ASSERT_TRUE(netns_gone_within(w, 5000), "netns gone within 5 s of the map's release");
out:
	ksock_lsm__destroy(skel);
	netns_watch__destroy(w);
	tap_case_end();
}

/*
 * Fix 0015: ksock's pernet exit runs for a netns once the map's ksock that
 * held it is released, and finds its quota count at 0 (a count left there
 * would be a WARN, a splat of the console scan). Before 0015 there is no
 * exit hook: the fentry does not load.
 */
KT_TEST(59, test_ksock_netns_exit_quota)
{
	struct ksock_netexit *x = NULL;
	struct netns_watch *w = NULL;
	struct ksock_lsm *skel = NULL;
	__u32 inum;
	int ret = -1;

	if (!kt_needs(KT_NEED_SEED, "ksock: the quota count at the pernet exit (seed setup)"))
		return;

	if (!tap_case_begin("ksock: a netns held by a map's ksock exits, once released, "
			    "with its quota count at 0"))
		return;
	kt_todo_on_seed("seed bug: ksock's pernet operations have no .exit to check the "
			"quota count (fixed by 0015)");
	x = ksock_netexit__open();
	if (!ASSERT_OK_PTR(x, "ksock_netexit open") ||
	    !ASSERT_OK(ksock_netexit__load(x), "load fentry/bpf_ksock_net_exit (ksock's pernet .exit)"))
		goto out;
	if (!ASSERT_OK(run_prog(x->progs.net_id_lookup, &ret), "run net_id_lookup") ||
	    !ASSERT_OK(x->data->id_err, "bpf_ksock_net_id looked up") ||
	    !ASSERT_OK(ksock_netexit__attach(x), "attach fentry/bpf_ksock_net_exit"))
		goto out;
	w = watch_open();
	skel = ksock_lsm__open_and_load();
	if (!w || !ASSERT_OK_PTR(skel, "ksock_lsm open_and_load"))
		goto out;
	inum = netns_child(w, ksock_child_setup, skel);
	if (!ASSERT_NEQ(inum, 0, "child netns with a ksock"))
		goto out;
	x->bss->watch_inum = inum;
	ASSERT_EQ(x->bss->exit_calls, 0, "no exit while the map's ksock holds the netns");
	ksock_lsm__destroy(skel);
	skel = NULL;
	if (!ASSERT_TRUE(netns_gone_within(w, 5000), "netns gone within 5 s of the map's release"))
		goto out;
	ASSERT_EQ(x->bss->exit_calls, 1, "bpf_ksock_net_exit calls for that netns");
	ASSERT_OK(x->data->exit_err, "quota count read at the exit");
	ASSERT_EQ(x->data->exit_count, 0, "quota count at the exit");
out:
	ksock_lsm__destroy(skel);
	netns_watch__destroy(w);
	ksock_netexit__destroy(x);
	tap_case_end();
}

static bool netpoll_child_setup(void *arg)
{
	struct netpoll_sanity *skel = arg;
	int ret = -1;

	if (system(IP " link add " DUMMY_DEV " type dummy") ||
	    system(IP " addr add 192.0.2.1/24 dev " DUMMY_DEV) ||
	    system(IP " link set " DUMMY_DEV " up"))
		return false;
	snprintf(skel->bss->dev_name, sizeof(skel->bss->dev_name), "%s", DUMMY_DEV);
	skel->bss->remote_ip = inet_addr("192.0.2.2");
	skel->bss->local_port = 5555;
	skel->bss->remote_port = 6666;
	set_remote_mac(skel->bss->remote_mac);
	return !run_prog(skel->progs.netpoll_setup_test, &ret) && !skel->bss->status;
}

KT_TEST(58, test_netpoll_netns_teardown)
{
	if (!kt_needs(KT_NEED_NETPOLL, "netpoll: netns teardown with a live context"))
		return;
	const char *live_name = "netpoll: a netns whose last task left goes within 5 s "
				"despite a live context on its device";
	const char *rel_name = "netpoll: that netns is gone once the context is released";
	struct netns_watch *w = NULL;
	struct netpoll_sanity *skel = NULL;
	bool started = false;

	if (tap_opts.list_only) {
		tap_case_begin(live_name);
		tap_case_begin(rel_name);
		return;
	}
	if (tap_case_begin(live_name)) {
		kt_todo_on_seed("seed bug: cleanup_net waits for the context's dummy0 "
				"reference (unregister_netdevice: waiting for dummy0), "
				"fixed by 0005");
		w = watch_open();
		skel = netpoll_sanity__open_and_load();
		if (w && ASSERT_OK_PTR(skel, "netpoll_sanity open_and_load") &&
		    ASSERT_NEQ(netns_child(w, netpoll_child_setup, skel), 0,
			       "child netns with dummy0 and a context")) {
			started = true;
			ASSERT_TRUE(netns_gone_within(w, 5000), "netns gone within 5 s");
		}
		tap_case_end();
	}
	/* Released before the kernel's 10 s "waiting for" warning. */
	netpoll_sanity__destroy(skel);
	if (tap_case_begin(rel_name)) {
		if (ASSERT_TRUE(started, "netns set up"))
			ASSERT_TRUE(netns_gone_within(w, 10000),
				    "netns gone within 10 s of the release");
		tap_case_end();
	}
	netns_watch__destroy(w);
}
