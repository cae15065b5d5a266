// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bad input, one case each with its exact errno: ksock_create, ksock_bind,
 * ksock_connect and ksock_send (with bpfwire's sndbuf extension when the
 * kernel has it, else those cases SKIP), bpf_ksock_max=0, and
 * netpoll_create (and its CAP_NET_ADMIN check). User space fills the opts
 * in the probes' .bss and reads the errno back.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <unistd.h>

#include "kt.h"
#include "ksock_input.bpf.skel.h"
#include "netpoll_input.bpf.skel.h"

/* want_sndbuf: what sk_sndbuf must read after a successful create */
#define SNDBUF_ANY	0	/* not checked */
#define SNDBUF_DEFAULT	(-1)	/* net.core.wmem_default, no SOCK_SNDBUF_LOCK */
#define SOCK_SNDBUF_LOCK 1	/* include/uapi/linux/socket.h */

struct create_case {
	const char *name;
	__u8 family, type, protocol, reserved;
	int pass;		/* PASS_OPTS: the kernel's size (kt_create_opts_sz()) */
	int expected;
	__u32 sndbuf;		/* the sndbuf extension (kernel/patches/sndbuf) */
	int want_sndbuf;	/* > 0: exact, with SOCK_SNDBUF_LOCK */
	bool no_net_admin;	/* run the probe in a child without CAP_NET_ADMIN */
	bool ext;		/* a case of the sndbuf extension: SKIP without it */
};

static const struct create_case create_cases[] = {
	{ "ksock_create: AF_INET UDP (control) -> ok", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 0, SNDBUF_DEFAULT, false, false },
	{ "ksock_create: AF_INET6 protocol 0 (control) -> ok", AF_INET6, SOCK_DGRAM, 0, 0, PASS_OPTS, 0, 0, SNDBUF_DEFAULT, false, false },
	{ "ksock_create: opts NULL -> refused at load (trusted arguments); EINVAL at run on the seed-only 6.12 kernel", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_NULL, -EINVAL, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: opts__sz too short -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_SHORT, -EINVAL, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: opts__sz too long -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_LONG, -EINVAL, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: reserved=1 -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 1, PASS_OPTS, -EINVAL, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: family AF_UNIX -> EAFNOSUPPORT", AF_UNIX, SOCK_DGRAM, 0, 0, PASS_OPTS, -EAFNOSUPPORT, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: family AF_PACKET -> EAFNOSUPPORT", AF_PACKET, SOCK_DGRAM, 0, 0, PASS_OPTS, -EAFNOSUPPORT, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: family 0 -> EAFNOSUPPORT", 0, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, -EAFNOSUPPORT, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: type SOCK_STREAM -> EPROTONOSUPPORT", AF_INET, SOCK_STREAM, IPPROTO_UDP, 0, PASS_OPTS, -EPROTONOSUPPORT, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: type SOCK_RAW -> EPROTONOSUPPORT", AF_INET6, SOCK_RAW, IPPROTO_UDP, 0, PASS_OPTS, -EPROTONOSUPPORT, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: protocol TCP -> EPROTONOSUPPORT", AF_INET, SOCK_DGRAM, IPPROTO_TCP, 0, PASS_OPTS, -EPROTONOSUPPORT, 0, SNDBUF_ANY, false, false },
	{ "ksock_create: protocol ICMP -> EPROTONOSUPPORT", AF_INET, SOCK_DGRAM, IPPROTO_ICMP, 0, PASS_OPTS, -EPROTONOSUPPORT, 0, SNDBUF_ANY, false, false },
	/* The sndbuf extension. A caller of the posted 4 bytes has its sndbuf
	 * bytes never read, so an out-of-range value there must still give the
	 * default buffer. opts__sz 6 is refused with or without it. */
	{ "ksock_create: opts__sz 4 (layout before sndbuf) -> ok, default sndbuf", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_V0, 0, 0xffffffff, SNDBUF_DEFAULT, false, true },
	{ "ksock_create: opts__sz 6 -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_SZ6, -EINVAL, 65536, SNDBUF_ANY, false, false },
	{ "ksock_create: sndbuf 0 -> ok, default sndbuf", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 0, SNDBUF_DEFAULT, false, true },
	{ "ksock_create: sndbuf 65536 -> ok, sk_sndbuf 131072", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 65536, 131072, false, true },
	{ "ksock_create: AF_INET6 sndbuf 65536 -> ok, sk_sndbuf 131072", AF_INET6, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 65536, 131072, false, true },
	{ "ksock_create: sndbuf 8M (over wmem_max, forced) -> ok, sk_sndbuf 16M", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 8 << 20, 16 << 20, false, true },
	{ "ksock_create: sndbuf INT_MAX/2 -> ok, sk_sndbuf INT_MAX-1", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 0x3fffffff, 0x7ffffffe, false, true },
	{ "ksock_create: sndbuf INT_MAX/2+1 -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, -EINVAL, 0x40000000, SNDBUF_ANY, false, true },
	{ "ksock_create: sndbuf 0xffffffff -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, -EINVAL, 0xffffffff, SNDBUF_ANY, false, true },
	{ "ksock_create: sndbuf 65536 without CAP_NET_ADMIN -> EPERM", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, -EPERM, 65536, SNDBUF_ANY, true, true },
	{ "ksock_create: sndbuf 0 without CAP_NET_ADMIN (control) -> ok", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 0, SNDBUF_DEFAULT, true, true },
};

enum { OP_BIND = 0, OP_CONNECT = 1 };

struct addr_case {
	const char *name;
	int op;
	__u8 sock_family;	/* family of the socket created first */
	__u8 family;		/* addr opts */
	const char *addr;
	__u16 port;
	int scope;		/* 1: ifindex of dummy0, 2: the raw value 1 */
	__u8 reserved;
	int pass;
	int expected;
	int hold_port;		/* a user socket binds 127.0.0.1:port first */
	int twice;		/* the same bind or connect again */
	int drop_cap;		/* > 0: run without this capability */
};

static const struct addr_case addr_cases[] = {
	/* invalid opts, for both bind and connect */
	{ "ksock_bind: opts__sz too short -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_SHORT, -EINVAL, 0, 0, 0 },
	{ "ksock_connect: opts__sz too short -> EINVAL", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_SHORT, -EINVAL, 0, 0, 0 },
	{ "ksock_bind: opts__sz too long -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_LONG, -EINVAL, 0, 0, 0 },
	{ "ksock_connect: opts__sz too long -> EINVAL", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_LONG, -EINVAL, 0, 0, 0 },
	{ "ksock_bind: reserved=1 -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 1, PASS_OPTS, -EINVAL, 0, 0, 0 },
	{ "ksock_connect: reserved=1 -> EINVAL", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 1, PASS_OPTS, -EINVAL, 0, 0, 0 },
	{ "ksock_bind: family AF_UNIX -> EAFNOSUPPORT", OP_BIND, AF_INET, AF_UNIX, "127.0.0.1", 7000, 0, 0, PASS_OPTS, -EAFNOSUPPORT, 0, 0, 0 },
	{ "ksock_connect: family AF_UNIX -> EAFNOSUPPORT", OP_CONNECT, AF_INET, AF_UNIX, "127.0.0.1", 7000, 0, 0, PASS_OPTS, -EAFNOSUPPORT, 0, 0, 0 },
	{ "ksock_bind: scope_id with AF_INET -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7000, 2, 0, PASS_OPTS, -EINVAL, 0, 0, 0 },
	{ "ksock_connect: scope_id with AF_INET -> EINVAL", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 2, 0, PASS_OPTS, -EINVAL, 0, 0, 0 },
	/* what the kernel's bind and connect return */
	{ "ksock_bind: 127.0.0.1:7001 (control) -> ok", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7001, 0, 0, PASS_OPTS, 0, 0, 0, 0 },
	{ "ksock_bind: port in use -> EADDRINUSE", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7002, 0, 0, PASS_OPTS, -EADDRINUSE, 1, 0, 0 },
	{ "ksock_bind: non-local IPv4 address -> EADDRNOTAVAIL", OP_BIND, AF_INET, AF_INET, "198.51.100.1", 7000, 0, 0, PASS_OPTS, -EADDRNOTAVAIL, 0, 0, 0 },
	{ "ksock_bind: non-local IPv6 address -> EADDRNOTAVAIL", OP_BIND, AF_INET6, AF_INET6, "2001:db8:ffff::1", 7000, 0, 0, PASS_OPTS, -EADDRNOTAVAIL, 0, 0, 0 },
	{ "ksock_bind: IPv6 address on an IPv4 socket -> EAFNOSUPPORT", OP_BIND, AF_INET, AF_INET6, "2001:db8::1", 7000, 0, 0, PASS_OPTS, -EAFNOSUPPORT, 0, 0, 0 },
	{ "ksock_bind: link-local with scope_id (control) -> ok", OP_BIND, AF_INET6, AF_INET6, "fe80::1", 7000, 1, 0, PASS_OPTS, 0, 0, 0, 0 },
	{ "ksock_bind: link-local without scope_id -> EINVAL", OP_BIND, AF_INET6, AF_INET6, "fe80::1", 7000, 0, 0, PASS_OPTS, -EINVAL, 0, 0, 0 },
	{ "ksock_connect: 127.0.0.1:7000 (control) -> ok", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_OPTS, 0, 0, 0, 0 },
	{ "ksock_connect: unroutable IPv4 -> ENETUNREACH", OP_CONNECT, AF_INET, AF_INET, "198.51.100.1", 7000, 0, 0, PASS_OPTS, -ENETUNREACH, 0, 0, 0 },
	{ "ksock_connect: unroutable IPv6 -> ENETUNREACH", OP_CONNECT, AF_INET6, AF_INET6, "2001:db8:ffff::1", 7000, 0, 0, PASS_OPTS, -ENETUNREACH, 0, 0, 0 },
	{ "ksock_connect: link-local with scope_id (control) -> ok", OP_CONNECT, AF_INET6, AF_INET6, "fe80::2", 7000, 1, 0, PASS_OPTS, 0, 0, 0, 0 },
	{ "ksock_connect: link-local without scope_id -> EINVAL", OP_CONNECT, AF_INET6, AF_INET6, "fe80::2", 7000, 0, 0, PASS_OPTS, -EINVAL, 0, 0, 0 },
	/* bind and connect beyond the seed's selftests */
	{ "ksock_bind: link-local, scope_id of a missing interface -> ENODEV", OP_BIND, AF_INET6, AF_INET6, "fe80::1", 7000, 3, 0, PASS_OPTS, -ENODEV, 0, 0, 0 },
	{ "ksock_connect: v4-mapped IPv6 address on an IPv4 socket -> EAFNOSUPPORT", OP_CONNECT, AF_INET, AF_INET6, "::ffff:127.0.0.1", 7000, 0, 0, PASS_OPTS, -EAFNOSUPPORT, 0, 0, 0 },
	{ "ksock_bind: second bind of the same socket -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7003, 0, 0, PASS_OPTS, -EINVAL, 0, 1, 0 },
	{ "ksock_bind: port 80 without CAP_NET_BIND_SERVICE -> EACCES", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 80, 0, 0, PASS_OPTS, -EACCES, 0, 0, CAP_NET_BIND_SERVICE },
	{ "ksock_connect: broadcast without SO_BROADCAST -> EACCES", OP_CONNECT, AF_INET, AF_INET, "192.0.2.255", 7000, 0, 0, PASS_OPTS, -EACCES, 0, 0, 0 },
};

struct send_case {
	const char *name;
	__u32 len;
	int expected;	/* 0: the byte count */
	const char *dst;	/* NULL: 127.0.0.1 (lo) */
	__u32 sndbuf;		/* non-zero: a case of the sndbuf extension, SKIP without it */
	int udp_calls;		/* udp_sendmsg() calls: -1 not checked */
	int no_connect;		/* send on an unconnected socket */
};

/*
 * Over dummy0 (MTU 1500) a 30000-byte datagram is built as ~21 fragments
 * before any leaves, and ip_append_data refuses a fragment once they pass
 * 2 * sk_sndbuf: deterministic, so it shows that the send path uses the
 * size the sndbuf extension set (sndbuf 1 is raised to SOCK_MIN_SNDBUF,
 * about 4.6 kB).
 */
static const struct send_case send_cases[] = {
	{ "ksock_send: 1000 bytes (control) -> 1000", 1000, 0, NULL, 0, 1, 0 },
	/* Both refusals are -EMSGSIZE; only the kfunc's check never reaches UDP. */
	{ "ksock_send: 65536 bytes (> IP_MAX_MTU) -> EMSGSIZE before udp_sendmsg", 65536, -EMSGSIZE, NULL, 0, 0, 0 },
	{ "ksock_send: 65535 bytes (> UDP maximum) -> EMSGSIZE from udp_sendmsg", 65535, -EMSGSIZE, NULL, 0, 1, 0 },
	{ "ksock_send: 30000 bytes over MTU 1500 (control) -> 30000", 30000, 0, "192.0.2.2", 0, -1, 0 },
	{ "ksock_send: 30000 bytes over MTU 1500, sndbuf 1 -> ENOBUFS", 30000, -ENOBUFS, "192.0.2.2", 1, -1, 0 },
	{ "ksock_send: unconnected socket -> EDESTADDRREQ", 100, -EDESTADDRREQ, NULL, 0, 1, 1 },
	{ "ksock_send: 0 bytes (a legal empty datagram) -> 0", 0, 0, NULL, 0, 1, 0 },
};

static void fill_addr(struct bpf_ksock_addr_opts *a, __u8 family,
		      const char *addr, __u16 port)
{
	memset(a, 0, sizeof(*a));
	a->family = family;
	a->port = port;
	if (strchr(addr, ':'))
		inet_pton(AF_INET6, addr, a->ipv6_addr);
	else
		inet_pton(AF_INET, addr, &a->ipv4_addr);
}

/* ------------------------------------------------------------------ */
/* ksock: one skeleton and one netns for every case, set up by the     */
/* first case that runs and asserted in each                           */

static struct {
	struct netns ns;
	struct ksock_input *skel;
	int env;	/* 0 not set up, 1 ok, -1 failed */
} ki = { .ns = NETNS_INIT };

static bool ksock_input_env(struct netns *ns)
{
	if (!netns_enter_new(ns))
		return false;
	return !sh(IP " link add dummy0 type dummy") &&
	       !sh(IP " addr add 192.0.2.1/24 dev dummy0") &&
	       !sh(IP " addr add 2001:db8::1/64 dev dummy0 nodad") &&
	       !sh(IP " addr add fe80::1/64 dev dummy0 nodad") &&
	       !sh(IP " link set dummy0 up");
}

/* ksock_input, its create_opts_sz the kernel's (the sndbuf extension's 8, or 4). */
static struct ksock_input *ksock_input_open(void)
{
	struct ksock_input *skel = ksock_input__open();

	if (!skel)
		return NULL;
	skel->rodata->create_opts_sz = kt_create_opts_sz();
	if (ksock_input__load(skel)) {
		ksock_input__destroy(skel);
		return NULL;
	}
	return skel;
}

static bool ksock_input_ready(void)
{
	int env;

	if (!ki.env) {
		ki.skel = ksock_input_open();
		if (ki.skel) {
			ki.skel->bss->probe_pid = getpid();
			ki.skel->links.count_udp_sendmsg =
				bpf_program__attach(ki.skel->progs.count_udp_sendmsg);
		}
		ki.env = ki.skel && ki.skel->links.count_udp_sendmsg &&
			 ksock_input_env(&ki.ns) ? 1 : -1;
	}
	env = ki.env;
	return ASSERT_TRUE(env == 1, "skeleton and netns with dummy0");
}

/* NULL opts: a skeleton of its own, whose load is refused but on the seed-only kernel. */
static void ksock_create_null_case(const struct create_case *c)
{
	struct ksock_input *skel = ksock_input__open();

	if (!ASSERT_OK_PTR(skel, "skel open"))
		return;
	skel->rodata->create_opts_sz = kt_create_opts_sz();
	if (KT_LOAD_NULL_ARG(ksock_input, skel, ksock_create_null, "R1") &&
	    ASSERT_OK(run_prog(skel->progs.ksock_create_null, NULL), "probe run")) {
		ASSERT_EQ(skel->data->create_err, c->expected, "bpf_ksock_create err");
		ASSERT_EQ(skel->bss->created, 0, "socket returned");
	}
	ksock_input__destroy(skel);
}

static void create_case(const struct create_case *c)
{
	struct ksock_input *skel = ki.skel;

	if (c->pass == PASS_NULL) {
		ksock_create_null_case(c);
		return;
	}

	skel->bss->create_opts.family = c->family;
	skel->bss->create_opts.type = c->type;
	skel->bss->create_opts.protocol = c->protocol;
	skel->bss->create_opts.reserved = c->reserved;
	skel->bss->create_opts.sndbuf = c->sndbuf;
	skel->bss->create_pass = c->pass;
	skel->data->create_err = 1;
	if (c->no_net_admin) {
		if (!ASSERT_OK(run_prog_without_cap(skel->progs.create_probe, CAP_NET_ADMIN, NULL),
			       "probe run without CAP_NET_ADMIN"))
			return;
	} else if (!ASSERT_OK(run_prog(skel->progs.create_probe, NULL), "probe run")) {
		return;
	}
	ASSERT_EQ(skel->data->create_err, c->expected, "bpf_ksock_create err");
	ASSERT_EQ(skel->bss->created, c->expected == 0, "socket returned");
	if (c->expected || c->want_sndbuf == SNDBUF_ANY || !skel->bss->created)
		return;
	if (c->want_sndbuf == SNDBUF_DEFAULT) {
		ASSERT_EQ(skel->data->created_sndbuf,
			  sysctl_read_int("/proc/sys/net/core/wmem_default"),
			  "sk_sndbuf is net.core.wmem_default");
		ASSERT_EQ(skel->data->created_userlocks & SOCK_SNDBUF_LOCK, 0,
			  "no SOCK_SNDBUF_LOCK");
	} else {
		ASSERT_EQ(skel->data->created_sndbuf, c->want_sndbuf, "sk_sndbuf");
		ASSERT_EQ(skel->data->created_userlocks & SOCK_SNDBUF_LOCK,
			  SOCK_SNDBUF_LOCK, "SOCK_SNDBUF_LOCK set");
	}
}

static void addr_case(const struct addr_case *c)
{
	struct ksock_input *skel = ki.skel;
	int hold = -1;

	if (c->hold_port) {
		struct sockaddr_in sin = { .sin_family = AF_INET,
			.sin_port = htons(c->port),
			.sin_addr.s_addr = inet_addr("127.0.0.1") };

		hold = socket(AF_INET, SOCK_DGRAM, 0);
		if (!ASSERT_OK(bind(hold, (struct sockaddr *)&sin, sizeof(sin)) ? -errno : 0,
			       "user socket holds the port"))
			goto out;
	}
	skel->data->sock_family = c->sock_family;
	fill_addr(&skel->bss->addr_opts, c->family, c->addr, c->port);
	if (c->scope == 1)
		skel->bss->addr_opts.scope_id = if_nametoindex("dummy0");
	else if (c->scope == 2)
		skel->bss->addr_opts.scope_id = 1;
	else if (c->scope == 3)
		skel->bss->addr_opts.scope_id = 9999;	/* no such ifindex */
	skel->bss->addr_opts.reserved = c->reserved;
	skel->bss->addr_pass = c->pass;
	skel->bss->addr_op = c->op;
	skel->bss->addr_twice = c->twice;
	skel->data->addr_err = 1;
	if (c->drop_cap) {
		if (!ASSERT_OK(run_prog_without_cap(skel->progs.addr_probe, c->drop_cap, NULL),
			       "probe run without the capability"))
			goto out;
	} else if (!ASSERT_OK(run_prog(skel->progs.addr_probe, NULL), "probe run")) {
		goto out;
	}
	if (!ASSERT_OK(skel->data->addr_setup_err, "create the socket"))
		goto out;
	ASSERT_EQ(skel->data->addr_err, c->expected,
		  c->op == OP_BIND ? "bpf_ksock_bind err" : "bpf_ksock_connect err");
out:
	if (hold >= 0)
		close(hold);
}

static void send_case(const struct send_case *c)
{
	struct ksock_input *skel = ki.skel;

	fill_addr(&skel->bss->send_dst, AF_INET, c->dst ? c->dst : "127.0.0.1", 7009);
	skel->bss->send_len = c->len;
	skel->bss->send_sndbuf = c->sndbuf;
	skel->data->send_connect = !c->no_connect;
	skel->data->send_ret = 1;
	skel->bss->udp_sendmsg_calls = 0;
	if (!ASSERT_OK(run_prog(skel->progs.send_probe, NULL), "probe run"))
		return;
	if (!ASSERT_OK(skel->data->send_setup_err, "create and connect"))
		return;
	ASSERT_EQ(skel->data->send_ret, c->expected ? c->expected : (int)c->len,
		  "bpf_ksock_send ret");
	if (c->udp_calls >= 0)
		ASSERT_EQ(skel->bss->udp_sendmsg_calls, c->udp_calls, "udp_sendmsg calls");
}

/* Each table in turn; one TAP line per row, then the netns' counter. */
KT_TEST(50, test_ksock_input)
{
	const char *quota_name = "ksock bad input: netns quota counter back to 0";
	size_t i;

	if (!kt_needs(KT_NEED_SEED, "ksock_create/bind/connect/send: the seed opts' bad input"))
		return;

	for (i = 0; i < ARRAY_SIZE(create_cases); i++) {
		if (create_cases[i].ext && !kt_needs(KT_NEED_SNDBUF, create_cases[i].name))
			continue;
		if (!tap_case_begin(create_cases[i].name))
			continue;
		if (ksock_input_ready())
			create_case(&create_cases[i]);
		tap_case_end();
	}
	for (i = 0; i < ARRAY_SIZE(addr_cases); i++) {
		if (!tap_case_begin(addr_cases[i].name))
			continue;
		if (ksock_input_ready())
			addr_case(&addr_cases[i]);
		tap_case_end();
	}
	for (i = 0; i < ARRAY_SIZE(send_cases); i++) {
		if (send_cases[i].sndbuf && !kt_needs(KT_NEED_SNDBUF, send_cases[i].name))
			continue;
		if (!tap_case_begin(send_cases[i].name))
			continue;
		if (ksock_input_ready())
			send_case(&send_cases[i]);
		tap_case_end();
	}

	if (ki.skel)
		ksock_input__destroy(ki.skel);
	ki.skel = NULL;
	/* Listed always; run only in the netns the cases above made. */
	if ((tap_opts.list_only || ki.ns.in) && tap_case_begin(quota_name)) {
		quota_settles(0, "netns quota counter");
		tap_case_end();
	}
	netns_leave(&ki.ns);
}

/* bpf_ksock_max=0 disables creation in every netns (sysctl in init netns). */
KT_TEST(51, test_ksock_max_zero)
{
	struct ksock_input *skel;
	int old_max;

	if (!kt_needs(KT_NEED_SEED, "ksock_create: bpf_ksock_max=0 -> ENOSPC"))
		return;

	if (!tap_case_begin("ksock_create: bpf_ksock_max=0 -> ENOSPC"))
		return;
	skel = ksock_input_open();
	if (!ASSERT_OK_PTR(skel, "skel open_and_load"))
		goto out;
	old_max = sysctl_read_int(KSOCK_MAX_SYSCTL);
	if (!ASSERT_GE(old_max, 0, "read bpf_ksock_max"))
		goto out;
	if (!ASSERT_OK(sysctl_write_int(KSOCK_MAX_SYSCTL, 0), "bpf_ksock_max=0"))
		goto out;
	skel->bss->create_opts.family = AF_INET;
	skel->bss->create_opts.type = SOCK_DGRAM;
	skel->bss->create_opts.protocol = IPPROTO_UDP;
	if (ASSERT_OK(run_prog(skel->progs.create_probe, NULL), "probe run")) {
		ASSERT_EQ(skel->data->create_err, -ENOSPC, "bpf_ksock_create err");
		ASSERT_EQ(skel->bss->created, 0, "socket returned");
	}
	ASSERT_OK(sysctl_write_int(KSOCK_MAX_SYSCTL, old_max), "restore bpf_ksock_max");
	ASSERT_EQ(sysctl_read_int(KSOCK_MAX_SYSCTL), old_max, "bpf_ksock_max restored");
out:
	ksock_input__destroy(skel);
	tap_case_end();
}

/* ------------------------------------------------------------------ */
/* netpoll_create                                                      */

struct netpoll_case {
	const char *name;
	const char *dev;
	int pass;
	__u8 reserved, ipv6;
	int expected;
	int drop_cap;		/* run the probe in a child without it; -1: with every one */
	const char *todo;	/* the seed bug this case shows, if any */
};

#define NETPOLL_CAP_BUG "seed bug: bpf_netpoll_create asks no capability; with CAP_BPF " \
	"alone it opens a down device and sends past netfilter (fixed by 0012)"
#define NETPOLL_RAW_BUG "seed bug: bpf_netpoll_create asks CAP_NET_ADMIN only; without " \
	"CAP_NET_RAW it still sends frames of the program's own addresses and MAC (fixed by 0022)"
#define NETPOLL_ENOTSUPP_BUG "seed bug: netpoll_setup's kernel-internal ENOTSUPP (524) " \
	"reaches the program (fixed by 0013)"

static const struct netpoll_case netpoll_cases[] = {
	{ "netpoll_create: dummy0 (control) -> ok", "dummy0", PASS_OPTS, 0, 0, 0, -1, NULL },
	{ "netpoll_create: opts NULL -> refused at load (trusted arguments); EINVAL at run on the seed-only 6.12 kernel", "dummy0", PASS_NULL, 0, 0, -EINVAL, -1, NULL },
	{ "netpoll_create: opts__sz too short -> EINVAL", "dummy0", PASS_SHORT, 0, 0, -EINVAL, -1, NULL },
	{ "netpoll_create: opts__sz too long -> EINVAL", "dummy0", PASS_LONG, 0, 0, -EINVAL, -1, NULL },
	{ "netpoll_create: reserved=1 -> EINVAL", "dummy0", PASS_OPTS, 1, 0, -EINVAL, -1, NULL },
	{ "netpoll_create: unknown device -> ENODEV", "kt-nosuchdev", PASS_OPTS, 0, 0, -ENODEV, -1, NULL },
	{ "netpoll_create: empty device name -> ENODEV", "", PASS_OPTS, 0, 0, -ENODEV, -1, NULL },
	{ "netpoll_create: device without IPv4 address -> EDESTADDRREQ", "dummy1", PASS_OPTS, 0, 0, -EDESTADDRREQ, -1, NULL },
	{ "netpoll_create: device without IPv6 address -> EDESTADDRREQ", "dummy1", PASS_OPTS, 0, 1, -EDESTADDRREQ, -1, NULL },
	{ "netpoll_create: veth (IFF_DISABLE_NETPOLL) -> EOPNOTSUPP, not the internal ENOTSUPP",
	  "veth0", PASS_OPTS, 0, 0, -EOPNOTSUPP, -1, NETPOLL_ENOTSUPP_BUG },
	/* dummy2 is down: netpoll_setup() would open it. */
	{ "netpoll_create: without CAP_NET_ADMIN -> EPERM, the down device stays down",
	  "dummy2", PASS_OPTS, 0, 0, -EPERM, CAP_NET_ADMIN, NETPOLL_CAP_BUG },
	/* dummy3 is down as well: a create that passes would open it. */
	{ "netpoll_create: with CAP_NET_ADMIN, without CAP_NET_RAW -> EPERM, the down device stays down",
	  "dummy3", PASS_OPTS, 0, 0, -EPERM, CAP_NET_RAW, NETPOLL_RAW_BUG },
};

static bool netpoll_input_env(struct netns *ns)
{
	if (!netns_enter_new(ns))
		return false;
	return !sh(IP " link add dummy0 type dummy") &&
	       !sh(IP " addr add 192.0.2.1/24 dev dummy0") &&
	       !sh(IP " link set dummy0 up") &&
	       !sh(IP " link add dummy1 type dummy") &&
	       !sh("echo 1 > /proc/sys/net/ipv6/conf/dummy1/disable_ipv6") &&
	       !sh(IP " link set dummy1 up") &&
	       !sh(IP " link add veth0 type veth peer name veth1") &&
	       !sh(IP " addr add 198.51.100.1/24 dev veth0") &&
	       !sh(IP " link set veth1 up") &&
	       !sh(IP " link set veth0 up") &&
	       !sh(IP " link add dummy2 type dummy") &&
	       !sh(IP " addr add 203.0.113.1/24 dev dummy2") &&
	       !sh(IP " link add dummy3 type dummy") &&
	       !sh(IP " addr add 198.51.100.7/24 dev dummy3");
}

/* IFF_UP of a device of the current netns; -1 when it cannot be read. */
static int link_is_up(const char *dev)
{
	struct ifreq ifr = {};
	int fd, up = -1;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr))
		up = !!(ifr.ifr_flags & IFF_UP);
	close(fd);
	return up;
}

/* NULL opts: a skeleton of its own, whose load 7.x refuses (kt_load_null_arg()). */
static void netpoll_null_case(const struct netpoll_case *c)
{
	struct netpoll_input *skel = netpoll_input__open();

	if (!ASSERT_OK_PTR(skel, "skel open"))
		return;
	if (KT_LOAD_NULL_ARG(netpoll_input, skel, netpoll_create_null, "R1") &&
	    ASSERT_OK(run_prog(skel->progs.netpoll_create_null, NULL), "probe run")) {
		ASSERT_EQ(skel->data->create_err, c->expected, "bpf_netpoll_create err");
		ASSERT_EQ(skel->bss->created, 0, "context returned");
	}
	netpoll_input__destroy(skel);
}

static void netpoll_case(struct netpoll_input *skel, const struct netpoll_case *c)
{
	int ret;

	if (c->pass == PASS_NULL) {
		netpoll_null_case(c);
		return;
	}
	memset(&skel->bss->opts, 0, sizeof(skel->bss->opts));
	snprintf(skel->bss->opts.dev_name, sizeof(skel->bss->opts.dev_name), "%s", c->dev);
	skel->bss->opts.ipv6 = c->ipv6;
	if (c->ipv6)
		inet_pton(AF_INET6, "2001:db8::2", skel->bss->opts.remote_ip6);
	else
		skel->bss->opts.remote_ip = inet_addr("192.0.2.2");
	skel->bss->opts.local_port = 5555;
	skel->bss->opts.remote_port = 6666;
	set_remote_mac(skel->bss->opts.remote_mac);
	skel->bss->opts.reserved = c->reserved;
	skel->bss->pass = c->pass;
	skel->data->create_err = 1;
	if (c->todo)
		kt_todo_on_seed(c->todo);
	if (c->drop_cap >= 0) {
		if (!ASSERT_OK(run_prog_without_cap(skel->progs.netpoll_create_probe,
						    c->drop_cap, NULL),
			       "probe run without the capability"))
			return;
	} else if (!ASSERT_OK(run_prog(skel->progs.netpoll_create_probe, &ret), "probe run")) {
		return;
	}
	ASSERT_EQ(skel->data->create_err, c->expected, "bpf_netpoll_create err");
	ASSERT_EQ(skel->bss->created, c->expected == 0, "context returned");
	if (c->drop_cap >= 0)
		ASSERT_EQ(link_is_up(c->dev), 0, "device still down");
}

/* The shared environment is asserted inside the first case that runs. */
KT_TEST(52, test_netpoll_input)
{
	struct netns ns = NETNS_INIT;
	struct netpoll_input *skel = NULL;
	bool env_ok = false;
	size_t i;

	if (!kt_needs(KT_NEED_NETPOLL, "netpoll_create: the bad-input table"))
		return;

	if (tap_opts.list_only) {
		for (i = 0; i < ARRAY_SIZE(netpoll_cases); i++)
			tap_case_begin(netpoll_cases[i].name);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(netpoll_cases); i++) {
		if (!tap_case_begin(netpoll_cases[i].name))
			continue;
		if (!skel) {
			skel = netpoll_input__open_and_load();
			if (!ASSERT_OK_PTR(skel, "skel open_and_load"))
				goto end;
			env_ok = netpoll_input_env(&ns);
			if (!ASSERT_TRUE(env_ok, "netns with dummy0, dummy1, veth0, dummy2"))
				goto end;
		}
		if (!env_ok) {
			ASSERT_TRUE(env_ok, "environment");
			goto end;
		}
		netpoll_case(skel, &netpoll_cases[i]);
end:
		tap_case_end();
	}
	if (skel)
		netpoll_input__destroy(skel);
	netns_leave(&ns);
}
