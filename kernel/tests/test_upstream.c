// SPDX-License-Identifier: GPL-2.0-only
/*
 * The upstream half: each behaviour of the ksock API as Linux
 * merged it (kernel/patches/upstream), with exact errnos. Built in every
 * build; on a kernel whose BTF says another ksock API every case here is
 * "# SKIP" with the reason (kt_needs()).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kt.h"
#include "ksock_up.bpf.skel.h"
#include "ksock_up_refuse.bpf.skel.h"

/* The merged sizes; ksock_up.bpf.c asserts the kernel's types have them. */
#define C_SZ 4		/* struct bpf_ksock_create_opts */
#define A_SZ 28		/* union bpf_ksock_addr */

struct create_case {
	const char *name;
	__u8 family, type, protocol, reserved;
	__u32 sz;
	int null;
	int err;
};

static const struct create_case create_cases[] = {
	{ "up ksock_create: AF_INET, UDP -> ok", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, 4, 0, 0 },
	{ "up ksock_create: AF_INET6, protocol 0 -> ok", AF_INET6, SOCK_DGRAM, 0, 0, 4, 0, 0 },
	{ "up ksock_create: opts__sz sizeof-1 (3) -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, C_SZ - 1, 0, -EINVAL },
	{ "up ksock_create: opts__sz sizeof+1 (5) -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, C_SZ + 1, 0, -EINVAL },
	{ "up ksock_create: opts__sz 8 (the seed's layout) -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, 8, 0, -EINVAL },
	{ "up ksock_create: opts__sz 0 -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, 0, 0, -EINVAL },
	{ "up ksock_create: NULL opts -> refused at load (trusted arguments)", 0, 0, 0, 0, 0, 1, -EINVAL },
	{ "up ksock_create: reserved 1 -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 1, 4, 0, -EINVAL },
	{ "up ksock_create: family AF_UNIX -> EAFNOSUPPORT", AF_UNIX, SOCK_DGRAM, 0, 0, 4, 0, -EAFNOSUPPORT },
	{ "up ksock_create: family AF_PACKET -> EAFNOSUPPORT", AF_PACKET, SOCK_DGRAM, 0, 0, 4, 0, -EAFNOSUPPORT },
	{ "up ksock_create: family 0 -> EAFNOSUPPORT", 0, SOCK_DGRAM, 0, 0, 4, 0, -EAFNOSUPPORT },
	{ "up ksock_create: SOCK_STREAM -> EPROTONOSUPPORT", AF_INET, SOCK_STREAM, 0, 0, 4, 0, -EPROTONOSUPPORT },
	{ "up ksock_create: SOCK_RAW -> EPROTONOSUPPORT", AF_INET, SOCK_RAW, IPPROTO_UDP, 0, 4, 0, -EPROTONOSUPPORT },
	{ "up ksock_create: protocol TCP -> EPROTONOSUPPORT", AF_INET, SOCK_DGRAM, IPPROTO_TCP, 0, 4, 0, -EPROTONOSUPPORT },
};

static bool up_open(struct ksock_up **skel)
{
	*skel = ksock_up__open_and_load();
	return ASSERT_OK_PTR(*skel, "ksock_up open_and_load");
}

/*
 * NULL opts: a skeleton of its own, whose load the verifier refuses
 * (kt_load_null_arg()): create and connect take trusted arguments, on
 * 7.x by default and on 6.12 by the port's KF_TRUSTED_ARGS.
 */
static void up_create_null(const struct create_case *c)
{
	struct ksock_up *skel = ksock_up__open();

	if (ASSERT_OK_PTR(skel, "ksock_up open") &&
	    KT_LOAD_NULL_ARG(ksock_up, skel, create_null_probe, "R1") &&
	    ASSERT_OK(run_prog(skel->progs.create_null_probe, NULL), "create_null_probe run")) {
		ASSERT_EQ(skel->data->c_err, c->err, "err");
		ASSERT_EQ(skel->bss->c_made, 0, "no socket");
	}
	ksock_up__destroy(skel);
}

KT_TEST(22, test_up_create_input)
{
	struct ksock_up *skel = NULL;
	size_t i;

	if (!kt_needs(KT_NEED_UPSTREAM, "up ksock_create: opts size, reserved, family, type, protocol"))
		return;

	for (i = 0; i < ARRAY_SIZE(create_cases); i++) {
		const struct create_case *c = &create_cases[i];

		if (!tap_case_begin(c->name))
			continue;
		if (c->null) {
			up_create_null(c);
		} else if (skel || up_open(&skel)) {
			skel->bss->c_family = c->family;
			skel->bss->c_type = c->type;
			skel->bss->c_protocol = c->protocol;
			skel->bss->c_reserved = c->reserved;
			skel->data->c_sz = c->sz;
			if (ASSERT_OK(run_prog(skel->progs.create_probe, NULL), "create_probe run")) {
				ASSERT_EQ(skel->data->c_err, c->err, "err");
				ASSERT_EQ(skel->bss->c_made, c->err == 0, "a socket made only on success");
			}
		}
		tap_case_end();
	}
	ksock_up__destroy(skel);
}

struct connect_case {
	const char *name;
	__u8 sock_family;
	__u16 family;		/* of the address */
	__u32 sz;
	int null;
	int err;
};

static const struct connect_case connect_cases[] = {
	{ "up ksock_connect: 127.0.0.1:7777 -> ok", AF_INET, AF_INET, 28, 0, 0 },
	{ "up ksock_connect: [::1]:7777 on AF_INET6 -> ok", AF_INET6, AF_INET6, 28, 0, 0 },
	{ "up ksock_connect: addr__sz sizeof-1 (27) -> EINVAL", AF_INET, AF_INET, A_SZ - 1, 0, -EINVAL },
	{ "up ksock_connect: addr__sz sizeof+1 (29) -> EINVAL", AF_INET, AF_INET, A_SZ + 1, 0, -EINVAL },
	{ "up ksock_connect: addr__sz 16 (sockaddr_in alone) -> EINVAL", AF_INET, AF_INET, 16, 0, -EINVAL },
	{ "up ksock_connect: addr__sz 0 -> EINVAL", AF_INET, AF_INET, 0, 0, -EINVAL },
	{ "up ksock_connect: NULL addr -> refused at load (trusted arguments)", AF_INET, AF_INET, 0, 1, -EINVAL },
	{ "up ksock_connect: family AF_UNIX -> EAFNOSUPPORT", AF_INET, AF_UNIX, 28, 0, -EAFNOSUPPORT },
	{ "up ksock_connect: family 0 -> EAFNOSUPPORT", AF_INET, 0, 28, 0, -EAFNOSUPPORT },
	{ "up ksock_connect: an AF_INET6 address on an AF_INET socket -> EAFNOSUPPORT", AF_INET, AF_INET6, 28, 0, -EAFNOSUPPORT },
};

/* 127.0.0.1 or ::1, port RECV_PORT, of `family` (the BPF side builds it). */
static void set_addr(struct ksock_up *skel, __u16 family)
{
	memset(skel->bss->a_ip6, 0, sizeof(skel->bss->a_ip6));
	skel->bss->a_ip6[15] = 1;
	skel->bss->a_ip4 = htonl(INADDR_LOOPBACK);
	skel->bss->a_port = htons(RECV_PORT);
	skel->bss->a_family = family;
}

/* NULL addr: as up_create_null, on a socket the probe makes first. */
static void up_connect_null(const struct connect_case *c)
{
	struct ksock_up *skel = ksock_up__open();

	if (ASSERT_OK_PTR(skel, "ksock_up open") &&
	    KT_LOAD_NULL_ARG(ksock_up, skel, connect_null_probe, "R2")) {
		skel->data->a_sock_family = c->sock_family;
		if (ASSERT_OK(run_prog(skel->progs.connect_null_probe, NULL), "connect_null_probe run") &&
		    ASSERT_OK(skel->data->a_setup_err, "create"))
			ASSERT_EQ(skel->data->a_err, c->err, "err");
	}
	ksock_up__destroy(skel);
}

KT_TEST(23, test_up_connect_input)
{
	struct ksock_up *skel = NULL;
	struct netns ns = NETNS_INIT;
	size_t i;

	if (!kt_needs(KT_NEED_UPSTREAM, "up ksock_connect: union bpf_ksock_addr size and family"))
		return;

	for (i = 0; i < ARRAY_SIZE(connect_cases); i++) {
		const struct connect_case *c = &connect_cases[i];

		if (!tap_case_begin(c->name))
			continue;
		if (!ns.in && !netns_enter_new(&ns))
			goto end;
		if (c->null) {
			up_connect_null(c);
			goto end;
		}
		if (!skel && !up_open(&skel))
			goto end;
		skel->data->a_sock_family = c->sock_family;
		set_addr(skel, c->family);
		skel->data->a_sz = c->sz;
		if (ASSERT_OK(run_prog(skel->progs.connect_probe, NULL), "connect_probe run") &&
		    ASSERT_OK(skel->data->a_setup_err, "create"))
			ASSERT_EQ(skel->data->a_err, c->err, "err");
end:
		tap_case_end();
	}
	ksock_up__destroy(skel);
	netns_leave(&ns);
}

/* What the kernel sets for SO_RCVBUF 0 on a socket of ours: SOCK_MIN_RCVBUF. */
static int min_rcvbuf(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0), v = 0;
	socklen_t l = sizeof(v);

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) ||
	    getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &l))
		v = -errno;
	close(fd);
	return v;
}

KT_TEST(24, test_up_rcvbuf)
{
	struct ksock_up *skel = NULL;
	int min;

	if (!kt_needs(KT_NEED_UPSTREAM, "up ksock_create: sk_rcvbuf pinned to SOCK_MIN_RCVBUF"))
		return;
	min = min_rcvbuf();

	if (!tap_case_begin("up ksock_create: sk_rcvbuf pinned to SOCK_MIN_RCVBUF (read back)"))
		return;
	if (!ASSERT_GE(min, 1, "SOCK_MIN_RCVBUF via SO_RCVBUF 0 on a user socket") || !up_open(&skel))
		goto out;
	printf("# SOCK_MIN_RCVBUF here: %d\n", min);
	skel->bss->c_family = AF_INET;
	skel->bss->c_type = SOCK_DGRAM;
	if (ASSERT_OK(run_prog(skel->progs.create_probe, NULL), "create_probe run") &&
	    ASSERT_OK(skel->data->c_err, "create"))
		ASSERT_EQ(skel->data->c_rcvbuf, min, "ksock sk_rcvbuf");
out:
	ksock_up__destroy(skel);
	tap_case_end();
}

/* A receiver netns, a skeleton and the slot's ksock connected to it. */
static bool up_send_env(struct ksock_env *env, struct ksock_up **skel)
{
	int ret = -1;

	if (!ksock_env_setup(env) || !up_open(skel))
		return false;
	set_addr(*skel, AF_INET);
	return ASSERT_OK(run_prog((*skel)->progs.setup_slot, &ret), "setup_slot run") &&
	       ASSERT_OK(ret, "create + connect");
}

KT_TEST(25, test_up_send)
{
	struct ksock_env env = KSOCK_ENV_INIT;
	struct ksock_up *skel = NULL;

	if (!kt_needs(KT_NEED_UPSTREAM, "up ksock_send: from SYSCALL"))
		return;

	if (!tap_case_begin("up ksock_send: from SYSCALL -> 24 bytes, received once"))
		return;
	if (!up_send_env(&env, &skel))
		goto out;
	if (ASSERT_OK(run_prog(skel->progs.send_probe, NULL), "send_probe run") &&
	    ASSERT_EQ(skel->data->send_ret, sizeof(skel->data->send_data), "send bytes"))
		ksock_assert_recv_once(&env, skel->data->send_data,
				       sizeof(skel->data->send_data));
out:
	ksock_up__destroy(skel);
	ksock_env_cleanup(&env);
	tap_case_end();
}

KT_TEST(26, test_up_send_from_bind)
{
	struct ksock_env env = KSOCK_ENV_INIT;
	struct sockaddr_in any = { .sin_family = AF_INET };
	struct ksock_up *skel = NULL;
	int tfd = -1;

	if (!kt_needs(KT_NEED_UPSTREAM, "up ksock_send: from lsm.s/socket_bind"))
		return;

	if (!tap_case_begin("up ksock_send: from lsm.s/socket_bind -> 24, received once"))
		return;
	if (!up_send_env(&env, &skel))
		goto out;
	skel->links.bind_send = bpf_program__attach_lsm(skel->progs.bind_send);
	if (!ASSERT_OK_PTR(skel->links.bind_send, "attach socket_bind lsm"))
		goto out;
	tfd = socket(AF_INET, SOCK_DGRAM, 0);
	if (!ASSERT_GE(tfd, 0, "trigger socket"))
		goto out;
	any.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	skel->bss->target_pid = getpid();
	ASSERT_OK(bind(tfd, (struct sockaddr *)&any, sizeof(any)) ? -errno : 0, "trigger bind");
	skel->bss->target_pid = 0;
	if (ASSERT_EQ(skel->data->bind_send_ret, sizeof(skel->data->send_data), "send bytes in the hook"))
		ksock_assert_recv_once(&env, skel->data->send_data,
				       sizeof(skel->data->send_data));
out:
	if (tfd >= 0)
		close(tfd);
	ksock_up__destroy(skel);
	ksock_env_cleanup(&env);
	tap_case_end();
}

/*
 * ksock_up.bpf.c's create_after_addr: 6.12 loads it, 7.3 refuses it, and
 * so does 7.2 the seed's form (verifier_refuse.bpf.c's
 * ksock_create_after_addr): the expectation is 7.x's from 7.0.
 */
static void up_verifier_order(void)
{
	static char vlog[1 << 20];
	const char *want = "slot poisoned by dead code elimination";
	bool refused = kt_kernel_7x();
	struct ksock_up *skel;
	struct bpf_program *p;
	int err;

	if (!tap_case_begin("up verifier: create after building the address -> loads (6.12); "
			    "7.x: refused, stack slot poisoned"))
		return;
	skel = ksock_up__open();
	if (!ASSERT_OK_PTR(skel, "ksock_up open"))
		goto out;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == skel->progs.create_after_addr);
	bpf_program__set_log_level(skel->progs.create_after_addr, 1);
	bpf_program__set_log_buf(skel->progs.create_after_addr, vlog, sizeof(vlog));
	vlog[0] = '\0';
	err = ksock_up__load(skel);
	printf("# create_after_addr: load %d%s; expected here: %s "
	       "(6.12: loads; 7.x: EACCES, \"%s\")\n", err, tap_errname(err),
	       refused ? "7.x's" : "6.12's", want);
	if (refused) {
		ASSERT_EQ(err, -EACCES, "load refused (7.x)");
		ASSERT_HAS(vlog, want, "the verifier's text (7.x)");
	} else {
		ASSERT_OK(err, "load (6.12)");
	}
out:
	ksock_up__destroy(skel);
	tap_case_end();
}

KT_TEST(27, test_up_verifier)
{
	if (!kt_needs(KT_NEED_UPSTREAM, "up verifier: acquire, release, send refused on socket_sendmsg"))
		return;
	RUN_VERIFIER_CASES("up verifier", ksock_up_refuse);
	up_verifier_order();
}

KT_TEST(42, test_up_wq)
{
	struct ksock_up *skel = NULL;
	int i;

	if (!kt_needs(KT_NEED_UPSTREAM, "up ksock_create: from a bpf_wq callback -> EOPNOTSUPP"))
		return;

	if (!tap_case_begin("up ksock_create: from a bpf_wq callback (kthread) -> EOPNOTSUPP"))
		return;
	if (!up_open(&skel))
		goto out;
	if (!ASSERT_OK(run_prog(skel->progs.up_wq_start, NULL), "up_wq_start run"))
		goto out;
	/* Upstream polls 1000 x 1 ms; TCG is slower, so 5000 x 1 ms. */
	for (i = 0; i < 5000 && !__atomic_load_n(&skel->bss->wq_done, __ATOMIC_ACQUIRE); i++)
		sleep_ms(1);
	if (ASSERT_EQ(skel->bss->wq_done, 1, "callback ran once")) {
		ASSERT_EQ(skel->data->wq_err, -EOPNOTSUPP, "err");
		ASSERT_EQ(skel->bss->wq_created, 0, "no socket");
	}
out:
	ksock_up__destroy(skel);
	tap_case_end();
}

/*
 * bpf_ksock_has_user_task_context()'s nsproxy half needs a BPF program
 * that runs in task work after exit_task_namespaces(): in 6.12 that is
 * __fput() at exit, and no sleepable LSM hook (which ksock's kfuncs need)
 * runs there (file_release is not sleepable). So no test reaches it.
 */
KT_TEST(43, test_up_nsproxy)
{
	kt_skip("ksock: the nsproxy guard (task work after exit_task_namespaces)",
		"not reachable from BPF on 6.12: no sleepable LSM hook runs in exit task work");
}
