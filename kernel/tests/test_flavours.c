// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cases meaningful on both kernels, each showing its kernel's
 * behaviour; the scenarios recursion-guard and quota-gone run them with
 * `kernel-tests -v NAME`. Also the flavour check: this binary was built
 * for one kernel flavour, and uname -r must say the guest booted it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kt.h"
#include "ksock_flavours.bpf.skel.h"

/*
 * Which API the kernel has is read from its BTF (kt_api); a release that
 * names a shipped flavour must agree with it, any other release (a series
 * under review) is only reported.
 */
static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

KT_TEST(1, test_flavour)
{
	char name[160];
	struct utsname u;

	snprintf(name, sizeof(name), "kernel API from BTF: ksock %s, netpoll %s; uname -r agrees",
		 kapi_ksock_name(kt_api.ksock), kapi_netpoll_name(kt_api.netpoll));
	if (!tap_case_begin(name))
		return;
	if (ASSERT_OK(uname(&u) ? -errno : 0, "uname")) {
		printf("# uname -r: %s\n", u.release);
		if (ends_with(u.release, UPSTREAM_RELEASE_SUFFIX))
			ASSERT_TRUE(kt_api.ksock == KAPI_KSOCK_UPSTREAM, "-bpfwire-up has the upstream ksock API");
		else if (ends_with(u.release, "-bpfwire") || ends_with(u.release, SEED_RELEASE_SUFFIX))
			ASSERT_TRUE(kt_api.ksock == KAPI_KSOCK_SEED, "-bpfwire and -bpfwire-seed have the seed's ksock API");
		else
			ASSERT_TRUE(kt_api.source[0] != 0, "another release: its API is what its BTF says");
	}
	tap_case_end();
}

#define SENDMSG_CASE (kt_upstream() ? "ksock_send_in_socket_sendmsg: upstream -> refused at load" : \
		      "ksock_send_in_socket_sendmsg: seed -> EBUSY at run time")
#define MANY_CASE (kt_upstream() ? "ksock_create_64_in_one_netns: upstream -> all 64, no quota" : \
		   "ksock_create_64_in_one_netns: seed -> ENOSPC at the third (bpf_ksock_max 2)")

static char vlog[1 << 20];

/* The verifier's line that names the refusal, for the TAP comment. */
static void print_refusal(const char *log)
{
	const char *l = strstr(log, "calling kernel function");
	const char *e = l ? strchr(l, '\n') : NULL;

	if (l)
		printf("# verifier: %.*s\n", e ? (int)(e - l) : (int)strlen(l), l);
}

/* Seed: the nested send (the hook runs again inside the program's own
 * send) gets -EBUSY at run time, the outer one gets past the guard. */
static void sendmsg_seed(struct ksock_flavours *skel)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	int fd = -1, ret = -1;
	ssize_t n;

	if (!ASSERT_OK(ksock_flavours__load(skel), "load (seed: accepted)"))
		return;
	skel->data->many_n = 1;
	if (!ASSERT_OK(run_prog(skel->progs.create_many, &ret), "create_many run") ||
	    !ASSERT_EQ(skel->bss->many_made, 1, "one ksock in slot 0"))
		return;
	skel->links.sendmsg_send = bpf_program__attach_lsm(skel->progs.sendmsg_send);
	if (!ASSERT_OK_PTR(skel->links.sendmsg_send, "attach socket_sendmsg lsm"))
		return;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (!ASSERT_GE(fd, 0, "trigger socket"))
		return;
	dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	dst.sin_port = htons(RECV_PORT + 1);
	skel->bss->target_pid = getpid();
	n = sendto(fd, "x", 1, 0, (struct sockaddr *)&dst, sizeof(dst));
	skel->bss->target_pid = 0;
	close(fd);
	ASSERT_EQ(n, 1, "trigger sendto");
	ASSERT_EQ(skel->bss->sendmsg_calls, 2, "hook calls (outer, nested)");
	ASSERT_EQ(skel->data->sendmsg_rets[0], -EBUSY, "nested send, at run time");
	ASSERT_NEQ(skel->data->sendmsg_rets[1], -EBUSY, "outer send passed the guard");
	printf("# seed: nested send %d%s, outer send %d\n", skel->data->sendmsg_rets[0],
	       tap_errname(skel->data->sendmsg_rets[0]), skel->data->sendmsg_rets[1]);
}

/* Upstream: the same program is refused when it loads. (Load through the
 * skeleton, never bpf_object__load(): only the skeleton maps .data/.bss.) */
static void sendmsg_upstream(struct ksock_flavours *skel)
{
	int err;

	bpf_program__set_autoload(skel->progs.create_many, false);
	bpf_program__set_log_level(skel->progs.sendmsg_send, 1);
	bpf_program__set_log_buf(skel->progs.sendmsg_send, vlog, sizeof(vlog));
	vlog[0] = '\0';
	err = ksock_flavours__load(skel);
	if (!ASSERT_TRUE(err != 0, "load refused (upstream)"))
		return;
	ASSERT_HAS(vlog, "calling kernel function bpf_ksock_acquire is not allowed",
		   "the verifier names the first ksock kfunc");
	print_refusal(vlog);
}

KT_TEST(28, test_ksock_send_in_socket_sendmsg)
{
	struct ksock_flavours *skel = NULL;
	struct netns ns = NETNS_INIT;

	if (!kt_needs(KT_NEED_KSOCK, "ksock_send_in_socket_sendmsg") || !tap_case_begin(SENDMSG_CASE))
		return;
	if (!netns_enter_new(&ns))
		goto out;
	skel = ksock_flavours__open();
	if (!ASSERT_OK_PTR(skel, "ksock_flavours open"))
		goto out;
	if (kt_upstream())
		sendmsg_upstream(skel);
	else
		sendmsg_seed(skel);
out:
	ksock_flavours__destroy(skel);
	netns_leave(&ns);
	tap_case_end();
}

/* Seed: net.core.bpf_ksock_max 2 (restored after); upstream: no sysctl. */
static int quota_prepare(int *old)
{
	*old = -1;
	if (kt_upstream())
		return access(KSOCK_MAX_SYSCTL, F_OK) ? -errno : 0;
	*old = sysctl_read_int(KSOCK_MAX_SYSCTL);
	if (*old < 0)
		return *old;
	return sysctl_write_int(KSOCK_MAX_SYSCTL, 2);
}

KT_TEST(29, test_ksock_create_64_in_one_netns)
{
	struct ksock_flavours *skel = NULL;
	struct netns ns = NETNS_INIT;
	int old = -1, ret = -1, p;

	if (!kt_needs(KT_NEED_KSOCK, "ksock_create_64_in_one_netns") || !tap_case_begin(MANY_CASE))
		return;
	p = quota_prepare(&old);
	if (kt_upstream())
		ASSERT_EQ(p, -ENOENT, KSOCK_MAX_SYSCTL " is absent");
	else if (!ASSERT_OK(p, "bpf_ksock_max = 2"))
		goto out;
	if (!netns_enter_new(&ns))
		goto out;
	skel = ksock_flavours__open();
	if (!ASSERT_OK_PTR(skel, "ksock_flavours open"))
		goto out;
	bpf_program__set_autoload(skel->progs.sendmsg_send, false);
	if (!ASSERT_OK(ksock_flavours__load(skel), "load create_many"))
		goto out;
	skel->data->many_n = 64;
	if (!ASSERT_OK(run_prog(skel->progs.create_many, &ret), "create_many run"))
		goto out;
	printf("# %s: %u of 64 made in netns %u, first error %d%s at %d\n", kapi_ksock_name(kt_api.ksock),
	       skel->bss->many_made, netns_inum(), skel->bss->many_err,
	       tap_errname(skel->bss->many_err), (int)skel->data->many_err_at);
	if (kt_upstream()) {
		ASSERT_EQ(skel->bss->many_made, 64, "ksocks made");
		ASSERT_OK(skel->bss->many_err, "no error");
	} else {
		ASSERT_EQ(skel->bss->many_made, 2, "ksocks made");
		ASSERT_EQ(skel->bss->many_err, -ENOSPC, "the third");
		ASSERT_EQ(skel->data->many_err_at, 2, "at index");
	}
out:
	ksock_flavours__destroy(skel);
	if (!kt_upstream() && ns.in)
		quota_settles(0, "netns quota counter back to 0");
	netns_leave(&ns);
	if (old >= 0)
		ASSERT_OK(sysctl_write_int(KSOCK_MAX_SYSCTL, old), "bpf_ksock_max restored");
	tap_case_end();
}
