// SPDX-License-Identifier: GPL-2.0-only
/* The helpers of kt.h that several areas of the kernel suite share. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "errnames.h"
#include "kt.h"
#include "ksock_counter.bpf.skel.h"

int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fflush(stdout);
	st = system(cmd);
	if (st != 0)
		printf("#   command failed (status %d): %s\n", st, cmd);
	return st;
}

int run_prog_ctx(struct bpf_program *prog, void *ctx, __u32 size, int *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = ctx, .ctx_size_in = size);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err)
		err = -errno;
	if (retval)
		*retval = opts.retval;
	return err;
}

/* No context: the same run, with ctx_in NULL and size 0. */
int run_prog(struct bpf_program *prog, int *retval)
{
	return run_prog_ctx(prog, NULL, 0, retval);
}

int run_prog_ctx_without_cap(struct bpf_program *prog, void *ctx, __u32 size,
			     int cap, int *pid_slot)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	int st = -1, ret = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (pid_slot)
			*pid_slot = getpid();
		if (syscall(SYS_capget, &hdr, data))
			_exit(100);
		data[cap / 32].effective &= ~(1u << (cap % 32));
		if (syscall(SYS_capset, &hdr, data))
			_exit(101);
		if (run_prog_ctx(prog, ctx, size, &ret))
			_exit(102);
		_exit(-ret & 0x7f);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -ECHILD;
	if (WEXITSTATUS(st) >= 100) {
		printf("#   child without capability %d failed (exit %d)\n", cap, WEXITSTATUS(st));
		return -ECHILD;
	}
	return -WEXITSTATUS(st);
}

/* A ksock_hold_args program's return, or its test run's -errno less 2000. */
static int ksock_slot_run(struct bpf_program *prog, __u32 slot, __u32 sndbuf)
{
	struct ksock_hold_args a = { .slot = slot, .sndbuf = sndbuf };
	int ret = -1000, err;

	err = run_prog_ctx(prog, &a, sizeof(a), &ret);
	return err ? err - 2000 : ret;
}

int ksock_hold_slot(struct bpf_program *hold_one, __u32 slot, __u32 sndbuf)
{
	return ksock_slot_run(hold_one, slot, sndbuf);
}

int ksock_drop_slot(struct bpf_program *drop_one, __u32 slot)
{
	return ksock_slot_run(drop_one, slot, 0);
}

bool kt_seed_kernel(void)
{
	static int seed = -1;
	struct utsname u;
	size_t n, k = strlen(SEED_RELEASE_SUFFIX);

	if (seed < 0) {
		seed = !uname(&u) && (n = strlen(u.release)) >= k &&
		       !strcmp(u.release + n - k, SEED_RELEASE_SUFFIX);
	}
	return seed;
}

void kt_todo_on_seed(const char *bug)
{
	if (kt_seed_kernel())
		tap_case_todo(bug);
}

bool kt_kernel_has_func(const char *name)
{
	static struct btf *vmlinux;

	if (!vmlinux)
		vmlinux = btf__load_vmlinux_btf();
	return vmlinux && btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC) > 0;
}

unsigned int kt_kernel_version(void)
{
	static unsigned int v = ~0u;
	unsigned int x, y;
	struct utsname u;

	if (v == ~0u)
		v = !uname(&u) && sscanf(u.release, "%u.%u", &x, &y) == 2 ?
		    KT_KERNEL_VERSION(x, y) : 0;
	return v;
}

/*
 * bpf_wq_set_callback is KF_IMPLICIT_ARGS on 7.x: the verifier takes its
 * real prototype from bpf_wq_set_callback_impl, which 7.3 declares in its
 * source and 7.2 leaves to resolve_btfids, which adds it only for kfuncs
 * that pahole tagged bpf_kfunc (pahole 1.25 on; Debian 12 has 1.24).
 * Without it no program can set a bpf_wq callback.
 */
const char *kt_wq_unusable(void)
{
	if (kt_kernel_has_func("bpf_wq_set_callback") &&
	    !kt_kernel_has_func("bpf_wq_set_callback_impl"))
		return "no bpf_wq_set_callback_impl in BTF (built with pahole < 1.25): "
		       "no bpf_wq callback can be set";
	return NULL;
}

bool kt_kernel_7x(void)
{
	return kt_kernel_version() >= KT_KERNEL_VERSION(7, 0);
}

/*
 * 7.x: every kfunc's pointer arguments are trusted unless marked
 * otherwise. 6.12: those of a kfunc with KF_TRUSTED_ARGS, which every
 * ksock and netpoll kfunc that takes a pointer has on bpfwire's kernels
 * (fixes 0014, 0018, 0019; the upstream port's 0003), but not on the
 * seed-only one.
 */
bool kt_null_arg_refused_at_load(void)
{
	return kt_kernel_7x() || !kt_seed_kernel();
}

static char null_vlog[1 << 20];

bool kt_load_null_arg(void *skel, struct bpf_object *obj, skel_load_fn load_fn,
		      struct bpf_program *prog, const char *reg)
{
	unsigned int v = kt_kernel_version();
	struct bpf_program *p;
	char want[64];
	int err;

	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog);
	bpf_program__set_log_level(prog, 1);
	bpf_program__set_log_buf(prog, null_vlog, sizeof(null_vlog));
	null_vlog[0] = '\0';
	err = load_fn(skel);
	/* 7.x names the register (R1), 6.12 the argument's index (arg0). */
	if (v >= KT_KERNEL_VERSION(7, 0))
		snprintf(want, sizeof(want), "Possibly NULL pointer passed to trusted %s", reg);
	else
		snprintf(want, sizeof(want), "Possibly NULL pointer passed to trusted arg%d",
			 atoi(reg + 1) - 1);
	printf("# %s passes NULL in %s; on Linux %u.%u%s expected: %s\n",
	       bpf_program__name(prog), reg, v >> 16, (v >> 8) & 0xff,
	       kt_seed_kernel() ? " (seed only)" : "",
	       kt_null_arg_refused_at_load() ? "refused at load (trusted arguments)" :
	       "loads, the kfunc's errno at run (6.12's seed-only kernel: no KF_TRUSTED_ARGS)");
	if (kt_null_arg_refused_at_load()) {
		ASSERT_EQ(err, -EACCES, "load refused (trusted arguments)");
		ASSERT_HAS(null_vlog, want, "the verifier's text");
		return false;
	}
	return ASSERT_OK(err, "load (seed-only 6.12: the kfunc checks at run time)");
}

struct kapi kt_api;

/* Why the kernel lacks what a test needs; NULL when it has it. */
static const char *kt_lacks(enum kt_need need)
{
	bool ks = need != KT_NEED_NETPOLL;

	if (ks && kt_api.ksock == KAPI_KSOCK_ABSENT)
		return "no ksock kfuncs in this kernel's BTF (ksock API absent)";
	if (ks && kt_api.ksock == KAPI_KSOCK_UNKNOWN)
		return "ksock API unknown: a bpf_ksock_* prototype matches neither seed nor upstream (see the prototypes at the top)";
	if ((need == KT_NEED_SEED || need == KT_NEED_SNDBUF) && kt_api.ksock != KAPI_KSOCK_SEED)
		return "not applicable on upstream";
	if (need == KT_NEED_SNDBUF && !kt_api.ksock_sndbuf)
		return "kernel lacks bpfwire's sndbuf extension (kernel/patches/sndbuf)";
	if (need == KT_NEED_UPSTREAM && kt_api.ksock != KAPI_KSOCK_UPSTREAM)
		return "not applicable on seed";
	if (need == KT_NEED_NETPOLL && kt_api.netpoll == KAPI_NETPOLL_ABSENT)
		return "no netpoll kfuncs in this kernel's BTF (netpoll absent)";
	if (need == KT_NEED_NETPOLL && kt_api.netpoll == KAPI_NETPOLL_UNKNOWN)
		return "netpoll unknown: a bpf_netpoll_* prototype is not 0001's (see the prototypes at the top)";
	return NULL;
}

bool kt_needs(enum kt_need need, const char *name)
{
	const char *why = kt_lacks(need);
	char full[384];

	if (!why)
		return true;
	snprintf(full, sizeof(full), "%s # SKIP %s", name, why);
	if (tap_case_begin(full)) {
		/* The reason comes from the kernel's BTF, read before any test. */
		ASSERT_TRUE(kt_lacks(need) == why, "the kfunc API read from BTF decides");
		tap_case_end();
	}
	return false;
}

void kt_skip(const char *name, const char *why)
{
	char full[256];

	snprintf(full, sizeof(full), "%s # SKIP %s", name, why);
	if (!tap_case_begin(full))
		return;
	ASSERT_TRUE(kt_api.source[0] != 0, "the kernel's kfunc API was read");
	tap_case_end();
}

/* ------------------------------------------------------------------ */
/* Network namespaces                                                  */

bool netns_enter_new(struct netns *ns)
{
	ns->in = false;
	ns->self = -1;
	ns->orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (!ASSERT_GE(ns->orig, 0, "open /proc/self/ns/net"))
		return false;
	if (!ASSERT_OK(unshare(CLONE_NEWNET) ? -errno : 0, "unshare(CLONE_NEWNET)")) {
		close(ns->orig);
		return false;
	}
	ns->in = true;
	ns->self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	return ASSERT_OK(sh(IP " link set lo up"), "lo up");
}

void netns_leave(struct netns *ns)
{
	if (ns->in) {
		if (setns(ns->orig, CLONE_NEWNET))
			printf("# setns back: %s\n", errno_str(errno));
		ns->in = false;
	}
	if (ns->orig >= 0)
		close(ns->orig);
	if (ns->self >= 0)
		close(ns->self);
	ns->orig = ns->self = -1;
}

__u32 netns_inum(void)
{
	struct stat st;

	if (stat("/proc/self/ns/net", &st))
		return 0;
	return (__u32)st.st_ino;
}

/* ------------------------------------------------------------------ */
/* sysctl                                                              */

int sysctl_read_int(const char *path)
{
	char buf[32] = {};
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -EIO;
}

int sysctl_write_int(const char *path, int v)
{
	char buf[32];
	int fd = open(path, O_WRONLY), n, len;

	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%d\n", v);
	n = write(fd, buf, len);
	close(fd);
	return n == len ? 0 : -errno;
}

/* ------------------------------------------------------------------ */
/* The per-netns quota counter                                         */

/* Loaded on the seed only: upstream has no quota, and quota_count() says -1000. */
static struct ksock_counter *counter;
int quota_start_count = -1;

bool quota_counter_load(void)
{
	counter = ksock_counter__open_and_load();
	return counter != NULL;
}

void quota_counter_destroy(void)
{
	ksock_counter__destroy(counter);
	counter = NULL;
}

int quota_count(void)
{
	int err;

	if (!counter)
		return -1000;
	err = run_prog(counter->progs.ksock_count, NULL);
	if (err)
		return -1000 + err;
	if (counter->data->lookup_err)
		return -2000 + counter->data->lookup_err;
	return counter->data->count;
}

bool quota_settles(int expected, const char *name)
{
	int c = quota_count(), i;

	for (i = 0; i < 1000 && c != expected && c >= 0; i++) {
		sleep_ms(10);
		c = quota_count();
	}
	return ASSERT_EQ(c, expected, name);
}

void set_remote_mac(__u8 *mac)
{
	static const __u8 m[6] = { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };

	memcpy(mac, m, 6);
}

/* ------------------------------------------------------------------ */
/* The ksock seeds' receiver                                           */

bool ksock_env_setup(struct ksock_env *env)
{
	struct timeval tv = { .tv_sec = 5 };

	env->rfd = -1;
	if (!netns_enter_new(&env->ns))
		return false;
	env->rfd = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (!ASSERT_GE(env->rfd, 0, "receiver socket"))
		return false;
	env->addr.sin_family = AF_INET;
	env->addr.sin_addr.s_addr = inet_addr("127.0.0.1");
	env->addr.sin_port = htons(RECV_PORT);
	if (!ASSERT_OK(bind(env->rfd, (struct sockaddr *)&env->addr, sizeof(env->addr)) ? -errno : 0,
		       "bind receiver"))
		return false;
	return ASSERT_OK(setsockopt(env->rfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ? -errno : 0,
			 "set rcvtimeo");
}

void ksock_env_cleanup(struct ksock_env *env)
{
	if (env->rfd >= 0)
		close(env->rfd);
	env->rfd = -1;
	netns_leave(&env->ns);
}

void ksock_assert_recv_once(struct ksock_env *env, const char *data, size_t len)
{
	char buf[64] = {};
	ssize_t n;

	n = recvfrom(env->rfd, buf, sizeof(buf), 0, NULL, NULL);
	if (!ASSERT_EQ(n, (long long)len, "recvfrom len"))
		return;
	ASSERT_MEMEQ(buf, data, len, "payload match");
	n = recvfrom(env->rfd, buf, sizeof(buf), MSG_DONTWAIT, NULL, NULL);
	ASSERT_EQ(n < 0 ? -errno : n, -EAGAIN, "no second datagram");
}

bool ksock_setup_ctx(struct bpf_program *prog, __be32 *ipv4_remote,
		     __u16 *remote_port)
{
	int ret = -1;

	*ipv4_remote = inet_addr("127.0.0.1");
	*remote_port = RECV_PORT;
	if (!ASSERT_OK(run_prog(prog, &ret), "ksock_setup run"))
		return false;
	return ASSERT_OK(ret, "ksock_setup retval");
}
