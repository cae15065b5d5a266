// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpoll: when a context lets go of its device. Fix 0010: a
 * device moved to another netns while a context is being created; fix
 * 0023: one that joins a bridge then; fix 0011: the device joins a
 * bridge under a live context; fix 0024: a VRF takes it, a bridge join
 * fails after its NETDEV_JOIN; fix 0025: the last reference dropped in
 * NMI (and fix 0026, a ksock's, beside it); fix 0009: senders on 2 CPUs
 * while the device is deleted, detached with RCU instead of 0005's lock.
 * netpoll_detach.bpf.c counts sends by errno and frames by netns.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "errnames.h"
#include "kt.h"
#include "splat.h"
#include "netpoll_detach.bpf.skel.h"
#include "netpoll_nmi.bpf.skel.h"
#include "ksock_nmi.bpf.skel.h"

#define MOVE_DEV "kt-move0"
#define DETACH_PORT 6677

/* window: also load the programs that hold a create in fix 0010's window. */
static struct netpoll_detach *detach_open(const char *dev, bool window)
{
	struct netpoll_detach *skel = netpoll_detach__open();
	/* 6.12's netpoll_setup(); 7.x: __netpoll_setup() then synchronize_rcu() */
	bool has_setup = kt_kernel_has_func("netpoll_setup");

	if (!ASSERT_OK_PTR(skel, "netpoll_detach open"))
		return NULL;
	bpf_program__set_autoload(skel->progs.detach_window, window && has_setup);
	bpf_program__set_autoload(skel->progs.detach_setup_done, window && !has_setup);
	bpf_program__set_autoload(skel->progs.detach_window_rcu, window && !has_setup);
	if (!ASSERT_OK(netpoll_detach__load(skel), "netpoll_detach load")) {
		netpoll_detach__destroy(skel);
		return NULL;
	}
	snprintf(skel->bss->dev_name, sizeof(skel->bss->dev_name), "%s", dev);
	skel->bss->local_ip = inet_addr("192.0.2.1");
	skel->bss->remote_ip = inet_addr("192.0.2.2");
	skel->bss->remote_port = DETACH_PORT;
	set_remote_mac(skel->bss->remote_mac);
	skel->bss->target_pid = getpid();
	skel->bss->home_inum = netns_inum();
	skel->links.detach_send = bpf_program__attach(skel->progs.detach_send);
	skel->links.detach_xmit = bpf_program__attach(skel->progs.detach_xmit);
	if (!ASSERT_OK_PTR(skel->links.detach_send, "attach lsm/file_open") ||
	    !ASSERT_OK_PTR(skel->links.detach_xmit, "attach fentry/dummy_xmit")) {
		netpoll_detach__destroy(skel);
		return NULL;
	}
	return skel;
}

/* Attach what holds a create of target_pid in the window (detach_open(dev, true)). */
static bool window_attach(struct netpoll_detach *skel)
{
	if (kt_kernel_has_func("netpoll_setup")) {
		skel->links.detach_window = bpf_program__attach(skel->progs.detach_window);
		return ASSERT_OK_PTR(skel->links.detach_window, "attach fexit/netpoll_setup");
	}
	printf("# 7.x: no netpoll_setup(); the window is synchronize_rcu() after __netpoll_setup()\n");
	skel->links.detach_setup_done = bpf_program__attach(skel->progs.detach_setup_done);
	skel->links.detach_window_rcu = bpf_program__attach(skel->progs.detach_window_rcu);
	return ASSERT_OK_PTR(skel->links.detach_setup_done, "attach fexit/__netpoll_setup") &&
	       ASSERT_OK_PTR(skel->links.detach_window_rcu, "attach fexit/synchronize_rcu");
}

/* One send from this thread (the LSM hook on open). */
static void detach_send_once(void)
{
	int fd = open("/dev/null", O_RDONLY);

	if (fd >= 0)
		close(fd);
}

static bool detach_create(struct netpoll_detach *skel)
{
	int ret;

	return !run_prog(skel->progs.detach_create, &ret) && !skel->bss->create_status;
}

/* ------------------------------------------------------------------ */
/* Fix 0010: a netns move during create                                */

/*
 * RTM_NEWLINK on nl (a socket of the namespace the device is in): set
 * ifname's attribute attr (a u32: IFLA_NET_NS_FD, IFLA_MASTER) to value,
 * and with up bring the device up in the same request. 0 or -errno.
 */
static int link_set(int nl, const char *ifname, unsigned short attr, __u32 value, bool up)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		char attrs[64];
	} req = {};
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} ack;
	struct rtattr *rta;
	size_t len = strlen(ifname) + 1;

	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.nh.nlmsg_type = RTM_NEWLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_flags = up ? IFF_UP : 0;
	req.ifi.ifi_change = up ? IFF_UP : 0;
	rta = (struct rtattr *)((char *)&req + NLMSG_ALIGN(req.nh.nlmsg_len));
	rta->rta_type = IFLA_IFNAME;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), ifname, len);
	req.nh.nlmsg_len = NLMSG_ALIGN(req.nh.nlmsg_len) + RTA_ALIGN(rta->rta_len);
	rta = (struct rtattr *)((char *)&req + req.nh.nlmsg_len);
	rta->rta_type = attr;
	rta->rta_len = RTA_LENGTH(sizeof(__u32));
	*(__u32 *)RTA_DATA(rta) = value;
	req.nh.nlmsg_len += RTA_ALIGN(rta->rta_len);

	if (send(nl, &req, req.nh.nlmsg_len, 0) < 0)
		return -errno;
	if (recv(nl, &ack, sizeof(ack), 0) < (ssize_t)sizeof(ack))
		return -EIO;
	return ack.nh.nlmsg_type == NLMSG_ERROR ? ack.err.error : -EIO;
}

/*
 * Move ifname to the namespace of nsfd and bring it up there, under one
 * RTNL hold, so that no create sees it down (netpoll_setup() would open
 * it and wait for its carrier).
 */
static int link_move_up(int nl, const char *ifname, int nsfd)
{
	return link_set(nl, ifname, IFLA_NET_NS_FD, nsfd, true);
}

struct mover {
	struct netpoll_detach *skel;
	int nl;			/* rtnetlink socket at home */
	int away;		/* the other namespace */
	int err;
};

/* Waits (10 s at most) for a create in the window, then moves the device. */
static void *mover_run(void *arg)
{
	struct mover *m = arg;
	int i;

	m->err = -ETIMEDOUT;
	for (i = 0; i < 10000; i++) {
		if (__atomic_load_n(&m->skel->bss->in_window, __ATOMIC_ACQUIRE)) {
			m->err = link_move_up(m->nl, MOVE_DEV, m->away);
			break;
		}
		sleep_ms(1);
	}
	return NULL;
}

/* A netlink socket of the namespace nsfd; the thread comes back to home. */
static int nl_socket_in(int nsfd, int home)
{
	int fd;

	if (setns(nsfd, CLONE_NEWNET))
		return -1;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (setns(home, CLONE_NEWNET)) {
		printf("# setns home: %s\n", errno_str(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

#define MOVE_BUG "seed bug: a context follows its device into another netns; " \
	"0005's re-check misses a move during create (fixed by 0010)"
#define MOVE_ROUNDS 4

/*
 * Each round: a create of MOVE_DEV at home is held (netpoll_detach.bpf.c's
 * fexit on netpoll_setup(); on 7.x on the synchronize_rcu() after
 * __netpoll_setup()) until the mover thread's move to the other
 * netns has started, then sends once; the device is moved back before the
 * next round. Each frame of the test's port is counted by the netns of the
 * device it leaves on.
 */
KT_TEST(77, test_netpoll_netns_move)
{
	const char *name = "netpoll detach: create races a netns move of the device, "
			   "no send leaves in the other netns";
	struct netpoll_detach *skel = NULL;
	struct netns ns = NETNS_INIT;
	struct mover m = { .nl = -1, .away = -1 };
	int nl_away = -1, round, moved = 0, back_err = 0;
	double t0 = now_s();
	pthread_t th;

	if (!kt_needs(KT_NEED_NETPOLL, name) || !tap_case_begin(name))
		return;
	kt_todo_on_seed(MOVE_BUG);
	if (!netns_enter_new(&ns))
		goto out;
	SYS(out, IP " link add " MOVE_DEV " type dummy");
	SYS(out, IP " link set " MOVE_DEV " up");
	/* The other namespace: made, kept by an fd, left again. */
	if (!ASSERT_OK(unshare(CLONE_NEWNET) ? -errno : 0, "unshare the other netns"))
		goto out;
	m.away = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (!ASSERT_OK(setns(ns.self, CLONE_NEWNET) ? -errno : 0, "setns home"))
		goto out;
	m.nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	nl_away = m.away >= 0 ? nl_socket_in(m.away, ns.self) : -1;
	if (!ASSERT_GE(m.nl, 0, "netlink socket home") ||
	    !ASSERT_GE(nl_away, 0, "netlink socket away"))
		goto out;
	skel = detach_open(MOVE_DEV, true);
	if (!skel)
		goto out;
	m.skel = skel;
	skel->links.detach_move_start = bpf_program__attach(skel->progs.detach_move_start);
	if (!ASSERT_OK_PTR(skel->links.detach_move_start,
			   "attach fentry/__dev_change_net_namespace"))
		goto out;
	if (!window_attach(skel))
		goto out;

	for (round = 0; round < MOVE_ROUNDS; round++) {
		if (!ASSERT_OK(pthread_create(&th, NULL, mover_run, &m), "mover thread"))
			break;
		skel->bss->window_on = 1;
		detach_create(skel);
		skel->bss->window_on = 0;
		pthread_join(th, NULL);
		if (m.err)
			break;
		moved++;
		skel->bss->send_on = 1;
		detach_send_once();
		skel->bss->send_on = 0;
		back_err = link_move_up(nl_away, MOVE_DEV, ns.self);
		if (back_err)
			break;
	}

	printf("# %d rounds in %.1f s: %u moves in the window; creates %u ok, %u ENODEV, "
	       "%u other; sends %u ok, %u ENODEV, %u ENETDOWN, %u no context; "
	       "frames %u home, %u away\n",
	       round, now_s() - t0, skel->bss->moves_in_window, skel->bss->creates_ok,
	       skel->bss->creates_nodev, skel->bss->creates_other, skel->bss->sends_ok,
	       skel->bss->sends_nodev, skel->bss->sends_down, skel->bss->sends_noctx,
	       skel->bss->frames_home, skel->bss->frames_away);
	ASSERT_OK(m.err, "move to the other netns");
	ASSERT_OK(back_err, "move back home");
	ASSERT_EQ(moved, MOVE_ROUNDS, "rounds");
	ASSERT_EQ(skel->bss->moves_in_window, MOVE_ROUNDS, "moves that began in the window");
	ASSERT_EQ(skel->bss->frames_away, 0, "frames that left in the other netns");
	ASSERT_EQ(skel->bss->sends_other, 0, "sends other than 0/ENODEV/ENETDOWN");
out:
	/* Contexts first: on the seed one holds the device until released. */
	netpoll_detach__destroy(skel);
	if (m.nl >= 0)
		close(m.nl);
	if (nl_away >= 0)
		close(nl_away);
	if (m.away >= 0)
		close(m.away);
	netns_leave(&ns);
	tap_case_end();
}

/* ------------------------------------------------------------------ */
/* Fix 0023: a bridge join during create                               */

#define JOIN_DEV "kt-join0"
#define JOIN_BR "kt-br1"

struct joiner {
	struct netpoll_detach *skel;
	int nl, master, err;
};

/* Waits (10 s at most) for a create in the window, then joins the bridge. */
static void *joiner_run(void *arg)
{
	struct joiner *j = arg;
	int i;

	j->err = -ETIMEDOUT;
	for (i = 0; i < 10000; i++) {
		if (__atomic_load_n(&j->skel->bss->in_window, __ATOMIC_ACQUIRE)) {
			j->err = link_set(j->nl, JOIN_DEV, IFLA_MASTER, j->master, false);
			break;
		}
		sleep_ms(1);
	}
	return NULL;
}

#define JOIN_RACE_BUG "seed bug: a bridge join while create waits between netpoll_setup() " \
	"and its re-check is missed, and create succeeds on a port (fixed by 0023)"

/*
 * A create of JOIN_DEV is held after netpoll_setup() (as in the netns move
 * case) until the joiner thread's br_add_if() has started under RTNL, so
 * its re-check comes after the whole join: the device is a port by then.
 */
KT_TEST(87, test_netpoll_join_race)
{
	const char *name = "netpoll_create: the device joins a bridge while create waits -> EBUSY";
	struct netpoll_detach *skel = NULL;
	struct netns ns = NETNS_INIT;
	struct joiner j = { .nl = -1 };
	pthread_t th;

	if (!kt_needs(KT_NEED_NETPOLL, name) || !tap_case_begin(name))
		return;
	kt_todo_on_seed(JOIN_RACE_BUG);
	if (!netns_enter_new(&ns))
		goto out;
	SYS(out, IP " link add " JOIN_DEV " type dummy");
	SYS(out, IP " link set " JOIN_DEV " up");
	SYS(out, IP " link add " JOIN_BR " type bridge");
	j.master = if_nametoindex(JOIN_BR);
	j.nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (!ASSERT_GE(j.master, 1, "the bridge's ifindex") || !ASSERT_GE(j.nl, 0, "netlink socket"))
		goto out;
	skel = detach_open(JOIN_DEV, true);
	if (!skel)
		goto out;
	j.skel = skel;
	skel->links.detach_join_start = bpf_program__attach(skel->progs.detach_join_start);
	if (!ASSERT_OK_PTR(skel->links.detach_join_start, "attach fentry/br_add_if"))
		goto out;
	if (!window_attach(skel))
		goto out;
	if (!ASSERT_OK(pthread_create(&th, NULL, joiner_run, &j), "joiner thread"))
		goto out;
	skel->bss->window_on = 1;
	detach_create(skel);
	skel->bss->window_on = 0;
	pthread_join(th, NULL);
	printf("# create: %s; joins in the window %u; contexts made %u\n",
	       errno_str(-skel->bss->create_status), skel->bss->moves_in_window,
	       skel->bss->creates_ok);
	ASSERT_OK(j.err, "join the bridge");
	ASSERT_EQ(skel->bss->moves_in_window, 1, "joins that began in the window");
	ASSERT_EQ(skel->bss->create_status, -EBUSY, "bpf_netpoll_create err");
	ASSERT_EQ(skel->bss->creates_ok, 0, "contexts made");
out:
	netpoll_detach__destroy(skel);
	if (j.nl >= 0)
		close(j.nl);
	netns_leave(&ns);
	tap_case_end();
}

/*
 * A context on DUMMY_DEV, up, in a new netns, after setup (ip commands
 * joined by &&) made the other links. NULL on failure.
 */
static struct netpoll_detach *upper_open(struct netns *ns, const char *setup)
{
	struct netpoll_detach *skel;

	if (!netns_enter_new(ns))
		return NULL;
	if (!ASSERT_OK(sh(IP " link add " DUMMY_DEV " type dummy && " IP " link set " DUMMY_DEV
			  " up && %s", setup), setup))
		return NULL;
	skel = detach_open(DUMMY_DEV, false);
	if (skel && !ASSERT_TRUE(detach_create(skel), "create on " DUMMY_DEV)) {
		netpoll_detach__destroy(skel);
		return NULL;
	}
	return skel;
}

/* One send after a master change; its status, and the frames it left. */
static int upper_send(struct netpoll_detach *skel, int *frames)
{
	skel->bss->frames_home = skel->bss->frames_away = 0;
	skel->bss->send_on = 1;
	skel->bss->last_send = 1;
	detach_send_once();
	skel->bss->send_on = 0;
	*frames = skel->bss->frames_home + skel->bss->frames_away;
	return skel->bss->last_send;
}

/* ------------------------------------------------------------------ */
/* Fix 0011: NETDEV_JOIN                                               */

#define JOIN_BUG "seed bug: NETDEV_JOIN is ignored, a context keeps sending " \
	"on a bridge port past the bridge (fixed by 0011)"

/* lab.config has no CONFIG_BONDING; br_add_if() sends the same event. */
KT_TEST(78, test_netpoll_join)
{
	const char *name = "netpoll detach: send after the device joins a bridge -> ENODEV";
	struct netpoll_detach *skel = NULL;
	struct netns ns = NETNS_INIT;
	int frames;

	if (!kt_needs(KT_NEED_NETPOLL, name) || !tap_case_begin(name))
		return;
	kt_todo_on_seed(JOIN_BUG);
	skel = upper_open(&ns, IP " link add kt-br0 type bridge");
	if (!skel)
		goto out;
	SYS(out, IP " link set " DUMMY_DEV " master kt-br0");
	ASSERT_EQ(upper_send(skel, &frames), -ENODEV, "send after the join");
	ASSERT_EQ(frames, 0, "frames that left on the port");
out:
	netpoll_detach__destroy(skel);
	netns_leave(&ns);
	tap_case_end();
}

/* ------------------------------------------------------------------ */
/* Fix 0024: a master of any kind, and only one that took the device   */

#define UPPER_BUG "seed bug: only NETDEV_JOIN detaches: a VRF (team, openvswitch) " \
	"never sends it, a bridge sends it before a join that can still fail " \
	"(fixed by 0024)"

/* A VRF enslaves with netdev_master_upper_dev_link() alone: no JOIN. */
KT_TEST(88, test_netpoll_vrf)
{
	const char *name = "netpoll detach: send after the device joins a VRF -> ENODEV";
	struct netpoll_detach *skel = NULL;
	struct netns ns = NETNS_INIT;
	int frames;

	if (!kt_needs(KT_NEED_NETPOLL, name))
		return;
	if (!kt_kernel_has_func("vrf_xmit")) {
		kt_skip(name, "no VRF in this kernel (CONFIG_NET_VRF, lab.config)");
		return;
	}
	if (!tap_case_begin(name))
		return;
	kt_todo_on_seed(UPPER_BUG);
	skel = upper_open(&ns, IP " link add kt-vrf0 type vrf table 10 && "
			  IP " link set kt-vrf0 up");
	if (!skel)
		goto out;
	SYS(out, IP " link set " DUMMY_DEV " master kt-vrf0");
	ASSERT_EQ(upper_send(skel, &frames), -ENODEV, "send after the VRF took the device");
	ASSERT_EQ(frames, 0, "frames that left on the VRF's port");
out:
	netpoll_detach__destroy(skel);
	netns_leave(&ns);
	tap_case_end();
}

/*
 * br_add_if() sends NETDEV_JOIN, then fails to take a device whose
 * rx_handler is macvlan's (-EBUSY): the device never became a port.
 */
KT_TEST(89, test_netpoll_join_fails)
{
	const char *name = "netpoll detach: a bridge join that fails after its JOIN "
			   "(macvlan holds the rx_handler) -> the context still sends";
	struct netpoll_detach *skel = NULL;
	struct netns ns = NETNS_INIT;
	int frames;

	if (!kt_needs(KT_NEED_NETPOLL, name))
		return;
	if (!kt_kernel_has_func("macvlan_start_xmit")) {
		kt_skip(name, "no macvlan in this kernel (CONFIG_MACVLAN, lab.config)");
		return;
	}
	if (!tap_case_begin(name))
		return;
	kt_todo_on_seed(UPPER_BUG);
	skel = upper_open(&ns, IP " link add kt-br0 type bridge && "
			  IP " link add kt-mv0 link " DUMMY_DEV " type macvlan");
	if (!skel)
		goto out;
	ASSERT_NEQ(sh(IP " link set " DUMMY_DEV " master kt-br0 2>/dev/null"), 0,
		   "the join fails (macvlan's rx_handler: EBUSY)");
	ASSERT_NEQ(sh(IP " -o link show " DUMMY_DEV " | grep -q ' master '"), 0,
		   DUMMY_DEV " has no master");
	ASSERT_EQ(upper_send(skel, &frames), 0, "send after the failed join");
	ASSERT_EQ(frames, 1, "the frame left on " DUMMY_DEV);
out:
	netpoll_detach__destroy(skel);
	netns_leave(&ns);
	tap_case_end();
}

/* ------------------------------------------------------------------ */
/* Fix 0025: the last reference dropped in NMI                         */

#define NMI_BUG "seed bug: a kptr's dtor in NMI queues the release with " \
	"queue_rcu_work(), which is not NMI-safe (fixed by 0025)"

/*
 * SysRq l prints every CPU's backtrace, which the console scan takes for
 * a splat: kernel-nmi-release runs these cases alone in a lab run that
 * fails for those lines alone; the kernel suite names them as SKIP.
 */
static bool nmi_case_runs(const char *name)
{
	if (!getenv("BPFWIRE_KT_NMI")) {
		kt_skip(name, "run alone by kernel-nmi-release: SysRq l's backtraces are splats to the console scan");
		return false;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		kt_skip(name, "one CPU: SysRq l sends no NMI");
		return false;
	}
	return true;
}

/*
 * Arms the fentry on show_regs(), presses SysRq l and checks what the
 * skeleton counted for its object: the delete ran in NMI, queued no RCU
 * work there, and the release was queued once the NMI was over. On 7.x a
 * preallocated hash map's delete leaves the kptr in the element, freed
 * only with the map (free_htab_elem() cancels the fields, 6.12's freed
 * them), so no release runs in NMI there, nor after it.
 */
static void nmi_press(int *armed, int *deleted, int *nmi_cpu, __u32 *queued_in_nmi,
		      __u32 *queued_after)
{
	int fd, i;

	__atomic_store_n(armed, 1, __ATOMIC_SEQ_CST);
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	ASSERT_EQ(fd >= 0 ? write(fd, "l", 1) : -1, 1, "SysRq l");
	if (fd >= 0)
		close(fd);
	for (i = 0; i < 100 && !__atomic_load_n(deleted, __ATOMIC_SEQ_CST); i++)
		usleep(100000);
	printf("# show_regs() deleted the element on CPU %d\n", *nmi_cpu);
	ASSERT_EQ(*deleted, 1, "show_regs() deleted the element, in NMI");
	ASSERT_EQ(*queued_in_nmi, 0, "queue_rcu_work() calls inside that delete");
	for (i = 0; i < 50 && !__atomic_load_n(queued_after, __ATOMIC_SEQ_CST); i++)
		usleep(100000);
	if (kt_kernel_7x()) {
		printf("# 7.x: the delete keeps the kptr in the element until the map is freed "
		       "(6.12's released it in the delete): %u releases queued after the NMI, 6.12: 1\n",
		       *queued_after);
		ASSERT_EQ(*queued_after, 0, "queue_rcu_work() calls after the NMI (7.x: none)");
	} else {
		ASSERT_GE(*queued_after, 1, "queue_rcu_work() calls after the NMI");
	}
}

KT_TEST(92, test_netpoll_nmi_release)
{
	const char *name = "netpoll: the last reference dropped in NMI (a map delete in "
			   "fentry/show_regs, SysRq l) is deferred, not queued from NMI";
	struct netpoll_nmi *skel = NULL;
	struct netns ns = NETNS_INIT;
	int ret;

	if (!kt_needs(KT_NEED_NETPOLL, name) || !nmi_case_runs(name))
		return;
	if (!tap_case_begin(name))
		return;
	kt_todo_on_seed(NMI_BUG);
	if (!netns_enter_new(&ns))
		goto out;
	SYS(out, IP " link add " DUMMY_DEV " type dummy");
	SYS(out, IP " link set " DUMMY_DEV " up");
	skel = netpoll_nmi__open_and_load();
	if (!ASSERT_OK_PTR(skel, "netpoll_nmi open and load"))
		goto out;
	snprintf(skel->bss->dev_name, sizeof(skel->bss->dev_name), "%s", DUMMY_DEV);
	skel->bss->local_ip = inet_addr("192.0.2.1");
	skel->bss->remote_ip = inet_addr("192.0.2.2");
	set_remote_mac(skel->bss->remote_mac);
	if (!ASSERT_OK(netpoll_nmi__attach(skel), "attach fentry/show_regs, fentry/queue_rcu_work"))
		goto out;
	ASSERT_OK(run_prog(skel->progs.nmi_create, &ret), "run nmi_create");
	if (!ASSERT_EQ(skel->bss->create_status, 0, "create on " DUMMY_DEV))
		goto out;
	nmi_press(&skel->bss->armed, &skel->bss->deleted, &skel->data->nmi_cpu,
		  &skel->bss->queued_in_nmi, &skel->bss->queued_after);
	/* and the context let the device go: no unregister wait */
	ASSERT_OK(sh("timeout 20 " IP " link del " DUMMY_DEV), "delete " DUMMY_DEV " within 20 s");
out:
	netpoll_nmi__destroy(skel);
	netns_leave(&ns);
	tap_case_end();
}

#define KSOCK_NMI_BUG "seed bug: a kptr's dtor in NMI queues the socket's release " \
	"with queue_rcu_work(), which is not NMI-safe (fixed by 0026)"
#define KSOCK_NMI_MERGED "Linux's merged bpf_ksock_release() queues call_rcu() from NMI " \
	"as well: the 6.12 upstream flavour carries it as merged"

KT_TEST(93, test_ksock_nmi_release)
{
	const char *name = "ksock: the last reference dropped in NMI (a map delete in "
			   "fentry/show_regs, SysRq l) is deferred, not queued from NMI";
	struct ksock_nmi *skel = NULL;
	int ret;

	if (!kt_needs(KT_NEED_KSOCK, name) || !nmi_case_runs(name))
		return;
	if (!tap_case_begin(name))
		return;
	kt_todo_on_seed(KSOCK_NMI_BUG);
	/* 7.x's delete keeps the kptr: no release runs in NMI (nmi_press()) */
	if (kt_upstream() && !kt_kernel_7x())
		tap_case_todo(KSOCK_NMI_MERGED);
	skel = ksock_nmi__open_and_load();
	if (!ASSERT_OK_PTR(skel, "ksock_nmi open and load"))
		goto out;
	if (!ASSERT_OK(ksock_nmi__attach(skel), "attach fentry/show_regs, fentry/queue_rcu_work"))
		goto out;
	ASSERT_OK(run_prog(skel->progs.ksock_nmi_create, &ret), "run ksock_nmi_create");
	if (!ASSERT_EQ(skel->data->create_status, 0, "create a UDP ksock"))
		goto out;
	nmi_press(&skel->bss->armed, &skel->bss->deleted, &skel->data->nmi_cpu,
		  &skel->bss->queued_in_nmi, &skel->bss->queued_after);
out:
	ksock_nmi__destroy(skel);
	tap_case_end();
}

/* ------------------------------------------------------------------ */
/* Fix 0009: senders against the detach                                */

#define SENDERS 4
#define XMIT_SPIN 5000		/* bpf_loop rounds: a slow driver */

struct senders {
	int stop;
	int opens;
};

static void *sender_run(void *arg)
{
	struct senders *s = arg;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		detach_send_once();
		__atomic_add_fetch(&s->opens, 1, __ATOMIC_RELAXED);
		/* Paced: unpaced, the 4 starve `ip link del` of both vCPUs. */
		usleep(500);
	}
	return NULL;
}

/* The kernel log written since fd was opened at its end: splat lines. */
static int kmsg_splats(int fd)
{
	char rec[8192];
	ssize_t n;
	int found = 0;

	if (fd < 0)
		return -1;
	while ((n = read(fd, rec, sizeof(rec))) > 0 || (n < 0 && errno == EPIPE))
		if (n > 0)
			found += splat_scan(rec, n, stdout, "kernel log");
	return found;
}

/*
 * 0005 held a spinlock (IRQs off) across the whole send; 0009 detaches
 * with RCU. No user-space knob stops a dummy's (or veth's) TX queue on
 * 6.12, so the fentry on dummy_xmit spins (bpf_loop) to make each xmit
 * slow, as a busy queue makes netpoll retry with IRQs off. The longest
 * send is printed as a figure: under 0005's lock it includes the wait
 * for another CPU's send. What tells the two apart: 0005's lock let one
 * xmit of the context run at a time (a dummy takes no TX lock), RCU lets
 * the senders on both vCPUs be in dummy_xmit at once. Both: only 0,
 * ENETDOWN (between the close and the detach) or ENODEV; ENODEV once
 * deleted.
 */
KT_TEST(79, test_netpoll_detach_senders)
{
	const char *name = "netpoll detach: 4 senders on a slow xmit, then the device is deleted";
	struct netpoll_detach *skel = NULL;
	struct netns ns = NETNS_INIT;
	struct senders s = {};
	pthread_t th[SENDERS];
	double t0, del_s, start = now_s();
	int n = 0, i, del_rc, kmsg = -1;

	if (!kt_needs(KT_NEED_NETPOLL, name))
		return;
	if (kt_seed_kernel()) {
		kt_skip(name, "seed: no detach at all, the deletion waits for the context "
			"(0005's cases)");
		return;
	}
	if (!tap_case_begin(name))
		return;
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (!ASSERT_GE(kmsg, 0, "open /dev/kmsg") || lseek(kmsg, 0, SEEK_END) < 0)
		goto out;
	if (!netns_enter_new(&ns))
		goto out;
	SYS(out, IP " link add " DUMMY_DEV " type dummy");
	SYS(out, IP " link set " DUMMY_DEV " up");
	skel = detach_open(DUMMY_DEV, false);
	if (!skel || !ASSERT_TRUE(detach_create(skel), "create on " DUMMY_DEV))
		goto out;
	skel->bss->xmit_spin = XMIT_SPIN;
	skel->bss->send_on = 1;
	for (i = 0; i < SENDERS; i++)
		n += !pthread_create(&th[n], NULL, sender_run, &s);
	sleep_ms(300);
	t0 = now_s();
	del_rc = sh(IP " link del " DUMMY_DEV);
	del_s = now_s() - t0;
	sleep_ms(200);
	__atomic_store_n(&s.stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	skel->bss->last_send = 1;
	detach_send_once();
	skel->bss->send_on = 0;

	printf("# %d opens; sends %u ok, %u ENETDOWN, %u ENODEV, %u other; "
	       "longest send %.3f ms (IRQs off); at most %u xmits at once; "
	       "ip link del %.3f s; case %.1f s\n",
	       s.opens, skel->bss->sends_ok, skel->bss->sends_down, skel->bss->sends_nodev,
	       skel->bss->sends_other, skel->bss->max_send_ns / 1e6, skel->bss->max_in_xmit,
	       del_s, now_s() - start);
	ASSERT_EQ(n, SENDERS, "sender threads");
	ASSERT_OK(del_rc, "ip link del " DUMMY_DEV);
	/* 10 s: when the kernel starts to log "waiting for dummy0". */
	ASSERT_LE(del_s, 10.0, "ip link del seconds");
	ASSERT_GE(skel->bss->sends_ok, SENDERS, "sends before the deletion");
	ASSERT_GE(skel->bss->max_in_xmit, 2, "xmits of the context at once (1: a lock serializes the sends)");
	ASSERT_EQ(skel->bss->sends_other, 0, "sends other than 0/ENETDOWN/ENODEV");
	if (skel->bss->sends_other)
		printf("#   last other send %d\n", skel->bss->other_send);
	ASSERT_EQ(skel->bss->last_send, -ENODEV, "a send after the deletion");
	ASSERT_EQ(kmsg_splats(kmsg), 0, "splat lines (lockdep) in the kernel log");
out:
	netpoll_detach__destroy(skel);
	netns_leave(&ns);
	if (kmsg >= 0)
		close(kmsg);
	tap_case_end();
}
