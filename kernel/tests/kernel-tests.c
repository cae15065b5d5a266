// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-tests: the bpfwire kernel suite. Runs INSIDE a guest booted on the
 * patched kernel, as root. Each seed selftest is reproduced as its own case,
 * then every bad input with its exact errno, the verifier's refusals, and
 * the post-checks (quota counters, kernel log). One TAP line per case.
 *
 *   kernel-tests [-v] [-l] [FILTER]   -l lists the cases, FILTER is a
 *                                     substring of the case names to run
 *
 * Never run this on a host: it loads BPF programs and creates devices.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kt_uapi.h"
#include "netpoll_sanity.skel.h"
#include "netpoll_basic.skel.h"
#include "netpoll_input.skel.h"
#include "ksock_basic.skel.h"
#include "ksock_recursion.skel.h"
#include "ksock_quota.skel.h"
#include "ksock_wq.skel.h"
#include "ksock_input.skel.h"
#include "ksock_counter.skel.h"
#include "verifier_refuse.skel.h"

#define IP "/usr/sbin/ip"
#define KSOCK_MAX_SYSCTL "/proc/sys/net/core/bpf_ksock_max"
#define ENOTSUPP 524	/* kernel-internal, what netpoll_setup returns */

/* ------------------------------------------------------------------ */
/* TAP and assertions, in the style of selftests' test_progs.h         */

static bool verbose;
static bool list_only;
static const char *filter;
static int tap_n, tap_failed;
static int cur_asserts, cur_fails;
static const char *cur_name;
static const char *cur_todo;	/* a known kernel bug: TAP "# TODO" */

static bool case_begin(const char *name)
{
	if (filter && !strstr(name, filter))
		return false;
	if (list_only) {
		printf("%s\n", name);
		return false;
	}
	cur_name = name;
	cur_todo = NULL;
	cur_asserts = 0;
	cur_fails = 0;
	return true;
}

static void case_end(void)
{
	bool ok = cur_asserts > 0 && cur_fails == 0;

	if (!cur_asserts)
		printf("# %s: no assertion ran\n", cur_name);
	if (cur_todo)
		printf("%sok %d - %s # TODO %s\n", ok ? "" : "not ", ++tap_n,
		       cur_name, cur_todo);
	else
		printf("%sok %d - %s\n", ok ? "" : "not ", ++tap_n, cur_name);
	fflush(stdout);
	/* A TODO case that passes is reported too (meson: unexpected pass). */
	if (!ok != !!cur_todo)
		tap_failed++;
	cur_name = NULL;
}

static const char *errname(long long v)
{
	static char buf[4][48];
	static int i;
	const char *n;

	if (v >= 0 || v < -4095)
		return "";
	if (-v == ENOTSUPP)
		return " (-ENOTSUPP)";
	n = strerrorname_np((int)-v);
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), " (-%s)", n ? n : "?");
	return buf[i];
}

static bool check(bool ok, const char *what, int line)
{
	cur_asserts++;
	if (!ok) {
		cur_fails++;
		printf("# %s:%d: %s: FAIL\n", cur_name ? cur_name : "-", line, what);
	} else if (verbose) {
		printf("#   %s: ok\n", what);
	}
	return ok;
}

#define ASSERT_EQ(actual, expected, name) ({				\
	long long ___a = (actual), ___e = (expected);			\
	bool ___ok = check(___a == ___e, name, __LINE__);		\
	if (!___ok)							\
		printf("#   actual %lld%s != expected %lld%s\n",		\
		       ___a, errname(___a), ___e, errname(___e));	\
	___ok; })
#define ASSERT_OK(actual, name) ASSERT_EQ(actual, 0, name)
#define ASSERT_GE(actual, bound, name) ({				\
	long long ___a = (actual), ___b = (bound);			\
	bool ___ok = check(___a >= ___b, name, __LINE__);		\
	if (!___ok)							\
		printf("#   actual %lld%s < expected >= %lld\n",		\
		       ___a, errname(___a), ___b);			\
	___ok; })
#define ASSERT_TRUE(cond, name) ({					\
	bool ___ok = check(!!(cond), name, __LINE__);			\
	if (!___ok)							\
		printf("#   %s is false\n", #cond);			\
	___ok; })
#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *___p = (ptr);					\
	int ___e = errno;						\
	bool ___ok = check(___p != NULL, name, __LINE__);		\
	if (!___ok)							\
		printf("#   actual NULL (errno %d%s) != expected pointer\n",\
		       ___e, errname(-___e));				\
	___ok; })
#define ASSERT_MEMEQ(actual, expected, len, name) ({			\
	bool ___ok = check(!memcmp(actual, expected, len), name, __LINE__); \
	if (!___ok)							\
		printf("#   actual \"%.*s\" != expected \"%.*s\"\n",	\
		       (int)(len), (const char *)(actual),		\
		       (int)(len), (const char *)(expected));		\
	___ok; })
#define ASSERT_HAS(haystack, needle, name) ({				\
	bool ___ok = check(strstr(haystack, needle) != NULL, name, __LINE__); \
	if (!___ok)							\
		printf("#   expected \"%s\" in the verifier log; its tail:\n%s", \
		       needle, log_tail(haystack));			\
	___ok; })

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (!verbose && level != LIBBPF_WARN)
		return 0;
	if (!verbose)
		return 0;	/* warnings show with -v: failures assert anyway */
	printf("# libbpf: ");
	return vprintf(fmt, ap);
}

/* Runs a shell command; prints it and its status when it fails. */
static int sh(const char *fmt, ...)
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

#define SYS(label, fmt, ...) do {					\
	if (!ASSERT_OK(sh(fmt, ##__VA_ARGS__), "cmd: " fmt))		\
		goto label;						\
} while (0)

static int run_prog(struct bpf_program *prog, int *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err)
		err = -errno;
	if (retval)
		*retval = opts.retval;
	return err;
}

static void msleep(int ms)
{
	usleep(ms * 1000);
}

/* ------------------------------------------------------------------ */
/* Network namespaces: a fresh one per test, as the seeds' netns_new   */

struct netns {
	int orig;	/* the namespace to return to */
	int self;	/* this namespace, to come back to it */
	bool in;
};

static bool netns_enter_new(struct netns *ns)
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

static void netns_leave(struct netns *ns)
{
	if (ns->in) {
		if (setns(ns->orig, CLONE_NEWNET))
			printf("# setns back: %s\n", strerror(errno));
		ns->in = false;
	}
	if (ns->orig >= 0)
		close(ns->orig);
	if (ns->self >= 0)
		close(ns->self);
	ns->orig = ns->self = -1;
}

static __u32 netns_inum(void)
{
	struct stat st;

	if (stat("/proc/self/ns/net", &st))
		return 0;
	return (__u32)st.st_ino;
}

/* ------------------------------------------------------------------ */
/* The per-netns quota counter, read by ksock_counter.bpf.c            */

static struct ksock_counter *counter;

static int quota_count(void)
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

/* Waits (bounded, 10 s) for the deferred releases of this netns, then
 * asserts the counter reads `expected`. */
static bool quota_settles(int expected, const char *name)
{
	int c = quota_count(), i;

	for (i = 0; i < 1000 && c != expected && c >= 0; i++) {
		msleep(10);
		c = quota_count();
	}
	return ASSERT_EQ(c, expected, name);
}

static int sysctl_read_int(const char *path)
{
	char buf[32] = {};
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -EIO;
}

static int sysctl_write_int(const char *path, int v)
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
/* Expected verifier outcomes, read from the objects' BTF decl tags    */

static char vlog[4 << 20];

static const char *log_tail(const char *log)
{
	size_t n = strlen(log);

	return n > 1500 ? log + n - 1500 : log;
}

struct expect {
	bool failure, success, has_retval, caps_bpf_only;
	int retval;
	const char *msgs[4];
	int nmsgs;
};

static void read_tags(struct bpf_object *obj, const char *func,
		      struct expect *e)
{
	const struct btf *btf = bpf_object__btf(obj);
	int id, n, i;

	memset(e, 0, sizeof(*e));
	if (!btf)
		return;
	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id < 0)
		return;
	n = btf__type_cnt(btf);
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *tag;

		if (!btf_is_decl_tag(t) || t->type != (__u32)id ||
		    btf_decl_tag(t)->component_idx != -1)
			continue;
		tag = btf__name_by_offset(btf, t->name_off);
		if (!strcmp(tag, "comment:test_expect_failure"))
			e->failure = true;
		else if (!strcmp(tag, "comment:test_expect_success"))
			e->success = true;
		else if (!strncmp(tag, "comment:test_expect_msg=", 24) && e->nmsgs < 4)
			e->msgs[e->nmsgs++] = tag + 24;
		else if (!strcmp(tag, "comment:test_caps=bpf"))
			e->caps_bpf_only = true;
		else if (!strncmp(tag, "comment:test_retval=", 20)) {
			e->has_retval = true;
			e->retval = atoi(tag + 20);
		}
	}
}

/* Keeps CAP_BPF as the only effective capability of this process. */
static int caps_keep_bpf_only(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[0].effective = 0;
	data[1].effective = 1u << (CAP_BPF - 32);
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

/* Runs a SYSCALL program in a child whose effective set lacks
 * CAP_NET_ADMIN; the skeleton's maps are shared, so the parent reads the
 * results. Returns the child's run_prog() result, or -ECHILD. */
static int run_prog_without_net_admin(struct bpf_program *prog)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	int st = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (syscall(SYS_capget, &hdr, data))
			_exit(100);
		data[CAP_NET_ADMIN / 32].effective &= ~(1u << (CAP_NET_ADMIN % 32));
		if (syscall(SYS_capset, &hdr, data))
			_exit(101);
		_exit(-run_prog(prog, NULL) & 0x7f);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -ECHILD;
	if (WEXITSTATUS(st) >= 100)
		printf("#   child could not drop CAP_NET_ADMIN (exit %d)\n", WEXITSTATUS(st));
	return -WEXITSTATUS(st);
}

typedef void *(*skel_open_fn)(void);
typedef int (*skel_load_fn)(void *);
typedef void (*skel_destroy_fn)(void *);

static struct bpf_object *skel_obj(void *skel)
{
	/* Every bpftool skeleton starts with `skeleton` then `obj`. */
	return *(struct bpf_object **)((char *)skel + sizeof(void *));
}

/* For each program of a skeleton: open it afresh, load only that program,
 * and check the outcome its tags declare. One TAP line per program. */
static void run_verifier_cases(const char *prefix, skel_open_fn open_fn,
			       skel_load_fn load_fn, skel_destroy_fn destroy_fn)
{
	char names[32][64];
	int nprogs = 0, i;
	struct bpf_program *p;
	void *skel;

	skel = open_fn();
	if (!skel) {
		char name[96];

		snprintf(name, sizeof(name), "%s: skeleton open", prefix);
		if (case_begin(name)) {
			ASSERT_OK_PTR(skel, "skeleton open");
			case_end();
		}
		return;
	}
	bpf_object__for_each_program(p, skel_obj(skel))
		if (nprogs < 32)
			snprintf(names[nprogs++], 64, "%s", bpf_program__name(p));
	destroy_fn(skel);

	for (i = 0; i < nprogs; i++) {
		struct bpf_program *target = NULL;
		struct expect e;
		char name[128];
		int err, k;

		snprintf(name, sizeof(name), "%.40s: %.60s", prefix, names[i]);
		if (!case_begin(name))
			continue;
		skel = open_fn();
		if (!ASSERT_OK_PTR(skel, "skeleton open"))
			goto next;
		bpf_object__for_each_program(p, skel_obj(skel)) {
			bool me = !strcmp(bpf_program__name(p), names[i]);

			bpf_program__set_autoload(p, me);
			if (me)
				target = p;
		}
		read_tags(skel_obj(skel), names[i], &e);
		if (!ASSERT_TRUE(e.failure != e.success, "one of __success/__failure tagged"))
			goto next;
		vlog[0] = '\0';
		if (e.failure) {
			bpf_program__set_log_level(target, 1);
			bpf_program__set_log_buf(target, vlog, sizeof(vlog));
		}
		if (e.caps_bpf_only) {
			/* Load in a child whose only capability is CAP_BPF; it
			 * asserts and prints on its own, and exits 0 on success. */
			pid_t pid;
			int st = -1;

			fflush(stdout);
			pid = fork();
			if (pid == 0) {
				cur_asserts = cur_fails = 0;
				if (ASSERT_OK(caps_keep_bpf_only(), "keep only CAP_BPF")) {
					err = load_fn(skel);
					if (ASSERT_TRUE(err != 0, "verifier refuses the program"))
						for (k = 0; k < e.nmsgs; k++)
							ASSERT_HAS(vlog, e.msgs[k], e.msgs[k]);
				}
				fflush(stdout);
				_exit(cur_fails || !cur_asserts ? 1 : 0);
			}
			if (ASSERT_GE(pid, 0, "fork") && waitpid(pid, &st, 0) == pid)
				ASSERT_EQ(st, 0, "CAP_BPF-only child's checks (exit status)");
			goto next;
		}
		err = load_fn(skel);
		if (e.failure) {
			if (!ASSERT_TRUE(err != 0, "verifier refuses the program"))
				goto next;
			for (k = 0; k < e.nmsgs; k++)
				ASSERT_HAS(vlog, e.msgs[k], e.msgs[k]);
		} else {
			int retval = -1;

			if (!ASSERT_OK(err, "load"))
				goto next;
			if (e.has_retval) {
				if (ASSERT_OK(run_prog(target, &retval), "test run"))
					ASSERT_EQ(retval, e.retval, "retval");
			}
		}
next:
		if (skel)
			destroy_fn(skel);
		skel = NULL;
		case_end();
	}
}

#define RUN_VERIFIER_CASES(prefix, X)					\
	run_verifier_cases(prefix, (skel_open_fn)X##__open,		\
			   (skel_load_fn)X##__load,			\
			   (skel_destroy_fn)X##__destroy)

/* ------------------------------------------------------------------ */
/* Seeds 002/003: netpoll_sanity, netpoll_sanity_ipv6                  */

#define DUMMY_DEV "dummy0"

static bool netpoll_env(struct netns *ns, bool ipv6)
{
	if (!netns_enter_new(ns))
		return false;
	SYS(fail, IP " link add " DUMMY_DEV " type dummy");
	if (ipv6)
		SYS(fail, IP " addr add 2001:db8::1/64 dev " DUMMY_DEV " nodad");
	else
		SYS(fail, IP " addr add 192.0.2.1/24 dev " DUMMY_DEV);
	SYS(fail, IP " link set " DUMMY_DEV " up");
	return true;
fail:
	return false;
}

static void set_remote_mac(__u8 *mac)
{
	static const __u8 m[6] = { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };

	memcpy(mac, m, 6);
}

/* Sets up a context in a fresh netns, attaches both hooks, sends len bytes
 * once from file_open. Leaves the skeleton for the caller's assertions. */
static struct netpoll_sanity *netpoll_send_once(struct netns *ns, bool ipv6,
						__u32 len)
{
	struct netpoll_sanity *skel;
	int fd, ret;

	skel = netpoll_sanity__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel open_and_load"))
		return NULL;
	if (!netpoll_env(ns, ipv6))
		goto fail;

	snprintf(skel->bss->dev_name, sizeof(skel->bss->dev_name), "%s", DUMMY_DEV);
	if (ipv6) {
		struct in6_addr a;

		inet_pton(AF_INET6, "2001:db8::2", &a);
		memcpy(&skel->bss->remote_ip6, &a, sizeof(a));
		skel->bss->ipv6 = 1;
	} else {
		skel->bss->remote_ip = inet_addr("192.0.2.2");
	}
	skel->bss->local_port = 5555;
	skel->bss->remote_port = 6666;
	set_remote_mac(skel->bss->remote_mac);
	skel->data->send_len = len;

	if (!ASSERT_OK(run_prog(skel->progs.netpoll_setup_test, &ret), "netpoll_setup_test run"))
		goto fail;
	if (!ASSERT_OK(skel->bss->status, "netpoll_setup_test status"))
		goto fail;

	skel->links.netpoll_dummy_xmit = bpf_program__attach(skel->progs.netpoll_dummy_xmit);
	if (!ASSERT_OK_PTR(skel->links.netpoll_dummy_xmit, "attach netpoll_dummy_xmit"))
		goto fail;
	skel->links.netpoll_send_test = bpf_program__attach(skel->progs.netpoll_send_test);
	if (!ASSERT_OK_PTR(skel->links.netpoll_send_test, "attach netpoll_send_test"))
		goto fail;

	skel->bss->target_pid = getpid();
	skel->bss->trigger_send = 1;
	fd = open("/dev/null", O_RDONLY);
	if (!ASSERT_GE(fd, 0, "open /dev/null"))
		goto fail;
	close(fd);
	if (!ASSERT_EQ(skel->bss->send_calls, 1, "file_open program sent once"))
		goto fail;
	return skel;
fail:
	netpoll_sanity__destroy(skel);
	return NULL;
}

static void test_netpoll_sanity(bool ipv6)
{
	struct netpoll_sanity *skel;
	struct netns ns = { .orig = -1, .self = -1 };

	if (!case_begin(ipv6 ? "netpoll_sanity_ipv6" : "netpoll_sanity"))
		return;
	skel = netpoll_send_once(&ns, ipv6, 64);
	if (skel) {
		/* 6.12: 0 means netpoll accepted the packet. */
		ASSERT_OK(skel->bss->send_status, "netpoll_send_udp status");
		ASSERT_EQ(skel->bss->xmit_udp_len, 8 + 64, "dummy_xmit UDP length");
		ASSERT_MEMEQ(skel->bss->driver_xmit, skel->data->send_data,
			     sizeof(skel->bss->driver_xmit), "dummy_xmit received");
		netpoll_sanity__destroy(skel);
	}
	netns_leave(&ns);
	case_end();
}

static void test_netpoll_send_size(__u32 len, int expected)
{
	struct netpoll_sanity *skel;
	struct netns ns = { .orig = -1, .self = -1 };
	char name[96];

	snprintf(name, sizeof(name), "netpoll_send_udp: %u-byte payload -> %s",
		 len, expected ? "E2BIG" : "sent");
	if (!case_begin(name))
		return;
	skel = netpoll_send_once(&ns, false, len);
	if (skel) {
		ASSERT_EQ(skel->bss->send_status, expected, "netpoll_send_udp status");
		/* A refused payload never reaches the driver. */
		ASSERT_EQ(skel->bss->xmit_udp_len, expected ? 0 : 8 + len,
			  "dummy_xmit UDP length");
		netpoll_sanity__destroy(skel);
	}
	netns_leave(&ns);
	case_end();
}

/* ------------------------------------------------------------------ */
/* netpoll: the device goes away while a context holds it              */

/*
 * netconsole drops its device on NETDEV_UNREGISTER; the seed's bpf_netpoll
 * has no notifier, so a live context (e.g. one pinned in a map) keeps its
 * netdev reference and unregistering the device waits for it: `ip link del`
 * hangs, and a dying netns logs "unregister_netdevice: waiting for".
 * The first case states the wanted behaviour and is a TODO until the kernel
 * handles it; the second checks that releasing the context ends the wait.
 */
static void test_netpoll_device_removal(void)
{
	const char *todo_name = "netpoll: deleting the device is not held up by a live context";
	const char *done_name = "netpoll: device deletion completes once the context is released";
	struct netns ns = { .orig = -1, .self = -1 };
	struct netpoll_sanity *skel = NULL;
	int st = -1, i;
	pid_t pid = -1;

	if (list_only) {
		case_begin(todo_name);
		case_begin(done_name);
		return;
	}
	if (!case_begin(todo_name))
		return;
	cur_todo = "bpf_netpoll has no NETDEV_UNREGISTER handling (kernel/patches 0001)";
	skel = netpoll_send_once(&ns, false, 64);
	if (skel) {
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			execl(IP, "ip", "link", "del", DUMMY_DEV, (char *)NULL);
			_exit(127);
		}
		for (i = 0; i < 300 && pid > 0 && waitpid(pid, &st, WNOHANG) == 0; i++)
			msleep(10);
		if (ASSERT_TRUE(i < 300, "ip link del returned within 3 s"))
			pid = -1;
	}
	case_end();

	if (!case_begin(done_name))
		goto out;
	if (!ASSERT_OK_PTR(skel, "context set up"))
		goto done;
	netpoll_sanity__destroy(skel);
	skel = NULL;
	if (pid > 0) {
		for (i = 0; i < 1000 && waitpid(pid, &st, WNOHANG) == 0; i++)
			msleep(10);
		if (ASSERT_TRUE(i < 1000, "ip link del returned within 10 s of the release"))
			pid = -1;
	}
	ASSERT_EQ(st, 0, "ip link del exit status");
done:
	case_end();
out:
	netpoll_sanity__destroy(skel);
	if (pid > 0)
		waitpid(pid, &st, 0);
	netns_leave(&ns);
}

/* ------------------------------------------------------------------ */
/* Seed 004: netpoll_basic                                             */

static void test_netpoll_basic(void)
{
	struct netns ns = { .orig = -1, .self = -1 };
	bool ok = true;

	/* The programs create on dummy0, so they run in a netns that has it. */
	if (case_begin("netpoll_basic: netns with dummy0")) {
		ok = netpoll_env(&ns, false);
		case_end();
	}
	if (ok)
		RUN_VERIFIER_CASES("netpoll_basic", netpoll_basic);
	netns_leave(&ns);
}

/* ------------------------------------------------------------------ */
/* netpoll bad input                                                   */

enum { PASS_OPTS = 0, PASS_NULL = 1, PASS_SHORT = 2, PASS_LONG = 3,
       PASS_V0 = 4, PASS_SZ6 = 5 };	/* as in ksock_input.bpf.c */

struct netpoll_case {
	const char *name;
	const char *dev;
	int pass;
	__u8 reserved, ipv6;
	int expected;
};

static const struct netpoll_case netpoll_cases[] = {
	{ "netpoll_create: dummy0 (control) -> ok", "dummy0", PASS_OPTS, 0, 0, 0 },
	{ "netpoll_create: opts NULL -> EINVAL", "dummy0", PASS_NULL, 0, 0, -EINVAL },
	{ "netpoll_create: opts__sz too short -> EINVAL", "dummy0", PASS_SHORT, 0, 0, -EINVAL },
	{ "netpoll_create: opts__sz too long -> EINVAL", "dummy0", PASS_LONG, 0, 0, -EINVAL },
	{ "netpoll_create: reserved=1 -> EINVAL", "dummy0", PASS_OPTS, 1, 0, -EINVAL },
	{ "netpoll_create: unknown device -> ENODEV", "kt-nosuchdev", PASS_OPTS, 0, 0, -ENODEV },
	{ "netpoll_create: empty device name -> ENODEV", "", PASS_OPTS, 0, 0, -ENODEV },
	{ "netpoll_create: device without IPv4 address -> EDESTADDRREQ", "dummy1", PASS_OPTS, 0, 0, -EDESTADDRREQ },
	{ "netpoll_create: device without IPv6 address -> EDESTADDRREQ", "dummy1", PASS_OPTS, 0, 1, -EDESTADDRREQ },
	{ "netpoll_create: veth (IFF_DISABLE_NETPOLL) -> ENOTSUPP", "veth0", PASS_OPTS, 0, 0, -ENOTSUPP },
};

static void test_netpoll_input(void)
{
	struct netns ns = { .orig = -1, .self = -1 };
	struct netpoll_input *skel = NULL;
	bool env_ok = false;
	size_t i;

	if (list_only) {
		for (i = 0; i < sizeof(netpoll_cases) / sizeof(netpoll_cases[0]); i++)
			case_begin(netpoll_cases[i].name);
		return;
	}
	/* Shared environment: asserted inside the first case that runs. */
	for (i = 0; i < sizeof(netpoll_cases) / sizeof(netpoll_cases[0]); i++) {
		const struct netpoll_case *c = &netpoll_cases[i];
		int ret;

		if (!case_begin(c->name))
			continue;
		if (!skel) {
			skel = netpoll_input__open_and_load();
			if (!ASSERT_OK_PTR(skel, "skel open_and_load"))
				goto end;
			env_ok = netns_enter_new(&ns);
			if (env_ok) {
				env_ok = !sh(IP " link add dummy0 type dummy") &&
					 !sh(IP " addr add 192.0.2.1/24 dev dummy0") &&
					 !sh(IP " link set dummy0 up") &&
					 !sh(IP " link add dummy1 type dummy") &&
					 !sh("echo 1 > /proc/sys/net/ipv6/conf/dummy1/disable_ipv6") &&
					 !sh(IP " link set dummy1 up") &&
					 !sh(IP " link add veth0 type veth peer name veth1") &&
					 !sh(IP " addr add 198.51.100.1/24 dev veth0") &&
					 !sh(IP " link set veth1 up") &&
					 !sh(IP " link set veth0 up");
			}
			if (!ASSERT_TRUE(env_ok, "netns with dummy0, dummy1, veth0"))
				goto end;
		}
		if (!env_ok) {
			ASSERT_TRUE(env_ok, "environment");
			goto end;
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
		if (!ASSERT_OK(run_prog(skel->progs.netpoll_create_probe, &ret), "probe run"))
			goto end;
		ASSERT_EQ(skel->data->create_err, c->expected, "bpf_netpoll_create err");
		ASSERT_EQ(skel->bss->created, c->expected == 0, "context returned");
end:
		case_end();
	}
	if (skel)
		netpoll_input__destroy(skel);
	netns_leave(&ns);
}

/* ------------------------------------------------------------------ */
/* Seeds 009/010: ksock_basic, ksock_lsm_recursion                     */

#define RECV_PORT 7777

struct ksock_env {
	struct netns ns;
	struct sockaddr_in addr;
	int rfd;
};

static bool ksock_env_setup(struct ksock_env *env)
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

static void ksock_env_cleanup(struct ksock_env *env)
{
	if (env->rfd >= 0)
		close(env->rfd);
	env->rfd = -1;
	netns_leave(&env->ns);
}

/* Exactly one datagram, with exactly that payload, then nothing more. */
static void ksock_assert_recv_once(struct ksock_env *env, const char *data,
				   size_t len)
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

static bool ksock_setup_ctx(struct bpf_program *prog, __be32 *ipv4_remote,
			    __u16 *remote_port)
{
	int ret = -1;

	*ipv4_remote = inet_addr("127.0.0.1");
	*remote_port = RECV_PORT;
	if (!ASSERT_OK(run_prog(prog, &ret), "ksock_setup run"))
		return false;
	return ASSERT_OK(ret, "ksock_setup retval");
}

static void test_ksock_basic(void)
{
	struct ksock_env env = { .ns = { .orig = -1, .self = -1 }, .rfd = -1 };
	struct ksock_basic *skel;
	int ret = -1;

	if (!case_begin("ksock_basic"))
		return;
	skel = ksock_basic__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel open_and_load"))
		goto out;
	if (!ksock_env_setup(&env))
		goto out;
	if (!ksock_setup_ctx(skel->progs.ksock_setup, &skel->bss->ipv4_remote,
			     &skel->bss->remote_port))
		goto out;
	if (!ASSERT_OK(run_prog(skel->progs.ksock_send, &ret), "ksock_send run"))
		goto out;
	if (!ASSERT_EQ(ret, sizeof(skel->data->send_data), "sendmsg bytes"))
		goto out;
	ksock_assert_recv_once(&env, skel->data->send_data, sizeof(skel->data->send_data));
out:
	ksock_basic__destroy(skel);
	if (env.ns.in)
		quota_settles(0, "netns quota counter back to 0");
	ksock_env_cleanup(&env);
	case_end();
}

static void test_ksock_lsm_recursion(void)
{
	struct ksock_env env = { .ns = { .orig = -1, .self = -1 }, .rfd = -1 };
	struct ksock_recursion *skel;
	char trigger = 'x';
	int tfd = -1;
	ssize_t n;

	if (!case_begin("ksock_lsm_recursion"))
		return;
	skel = ksock_recursion__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel open_and_load"))
		goto out;
	if (!ksock_env_setup(&env))
		goto out;
	if (!ksock_setup_ctx(skel->progs.ksock_setup, &skel->bss->ipv4_remote,
			     &skel->bss->remote_port))
		goto out;

	skel->links.ksock_socket_sendmsg =
		bpf_program__attach_lsm(skel->progs.ksock_socket_sendmsg);
	if (!ASSERT_OK_PTR(skel->links.ksock_socket_sendmsg, "attach socket_sendmsg lsm"))
		goto out;

	tfd = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	if (!ASSERT_GE(tfd, 0, "trigger socket"))
		goto out;
	/* The trigger goes to port RECV_PORT + 1, where nobody listens, so
	 * the receiver sees only what the BPF program sent. */
	env.addr.sin_port = htons(RECV_PORT + 1);
	skel->bss->target_pid = getpid();
	skel->bss->trigger_send = 1;
	n = sendto(tfd, &trigger, sizeof(trigger), 0,
		   (struct sockaddr *)&env.addr, sizeof(env.addr));
	skel->bss->target_pid = 0;
	skel->bss->trigger_send = 0;
	env.addr.sin_port = htons(RECV_PORT);
	if (!ASSERT_EQ(n, sizeof(trigger), "trigger sendto"))
		goto out;

	if (!ASSERT_EQ(skel->bss->rec_count, 2, "socket_sendmsg recursion count"))
		goto out;
	ASSERT_EQ(skel->data->rec_kfunc_rets[0], -EBUSY, "recursive send status");
	ASSERT_EQ(skel->data->rec_kfunc_rets[1], sizeof(skel->data->send_data),
		  "outer send bytes");
	ksock_assert_recv_once(&env, skel->data->send_data, sizeof(skel->data->send_data));
out:
	if (tfd >= 0)
		close(tfd);
	ksock_recursion__destroy(skel);
	if (env.ns.in)
		quota_settles(0, "netns quota counter back to 0");
	ksock_env_cleanup(&env);
	case_end();
}

/* ------------------------------------------------------------------ */
/* Seed 011: ksock_net_quota                                           */

#define KSOCK_QUOTA_NS_SLOTS 3
#define KSOCK_QUOTA_NS1_OFFSET 0
#define KSOCK_QUOTA_NS2_OFFSET KSOCK_QUOTA_NS_SLOTS

static __u64 quota_release_completed(struct ksock_quota *skel)
{
	return __atomic_load_n(&skel->bss->quota_release_completed, __ATOMIC_ACQUIRE);
}

/* Releases the slots and waits, with a bound (10 s), until the deferred
 * release work has returned every charge. Returns how many were released. */
static int ksock_release_quota_slots(struct ksock_quota *skel, int offset)
{
	__u64 completed = quota_release_completed(skel);
	int i;

	skel->bss->quota_slot_offset = offset;
	if (!ASSERT_OK(run_prog(skel->progs.ksock_quota_release, NULL), "ksock_quota_release"))
		return -1;
	for (i = 0; i < 10000; i++) {
		if (quota_release_completed(skel) - completed >= skel->bss->quota_released)
			break;
		msleep(1);
	}
	if (!ASSERT_EQ(quota_release_completed(skel) - completed,
		       skel->bss->quota_released, "deferred releases completed"))
		return -1;
	return skel->bss->quota_released;
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

static void test_ksock_net_quota(void)
{
	struct netns ns1 = { .orig = -1, .self = -1 }, ns2 = { .orig = -1, .self = -1 };
	struct ksock_quota *skel;
	int old_max = -1, released;

	if (!case_begin("ksock_net_quota"))
		return;
	skel = ksock_quota__open_and_load();
	if (!ASSERT_OK_PTR(skel, "ksock quota skeleton"))
		goto out;
	skel->links.ksock_release_work_enter =
		bpf_program__attach_trace(skel->progs.ksock_release_work_enter);
	if (!ASSERT_OK_PTR(skel->links.ksock_release_work_enter, "attach release work entry"))
		goto out;
	skel->links.ksock_release_work_exit =
		bpf_program__attach_trace(skel->progs.ksock_release_work_exit);
	if (!ASSERT_OK_PTR(skel->links.ksock_release_work_exit, "attach release work exit"))
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

	released = ksock_release_quota_slots(skel, KSOCK_QUOTA_NS2_OFFSET);
	if (!ASSERT_EQ(released, 2, "second netns quota released"))
		goto out;
	if (!ASSERT_EQ(quota_count(), 0, "second netns counter after release"))
		goto out;

	/* Both released slots must become available again. */
	ksock_expect_quota(skel, KSOCK_QUOTA_NS2_OFFSET, "recovered quota");
out:
	if (skel) {
		ksock_release_quota_slots(skel, KSOCK_QUOTA_NS2_OFFSET);
		ksock_release_quota_slots(skel, KSOCK_QUOTA_NS1_OFFSET);
	}
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
	case_end();
}

/* ------------------------------------------------------------------ */
/* NOTES.md: ksock_wq                                                  */

static void test_ksock_wq(void)
{
	struct ksock_wq *skel;
	int ret = -1, i;

	if (!case_begin("ksock_wq"))
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
		msleep(1);
	if (!ASSERT_EQ(skel->bss->wq_done, 1, "wq callback done"))
		goto out;
	ASSERT_EQ(skel->data->wq_err, -EOPNOTSUPP, "bpf_ksock_create from bpf_wq");
	ASSERT_EQ(skel->bss->wq_created, 0, "no socket from bpf_wq");
out:
	ksock_wq__destroy(skel);
	case_end();
}

/* ------------------------------------------------------------------ */
/* ksock bad input                                                     */

/* want_sndbuf: what sk_sndbuf must read after a successful create */
#define SNDBUF_ANY	0	/* not checked */
#define SNDBUF_DEFAULT	(-1)	/* net.core.wmem_default, no SOCK_SNDBUF_LOCK */
#define SOCK_SNDBUF_LOCK 1	/* include/uapi/linux/socket.h */

struct create_case {
	const char *name;
	__u8 family, type, protocol, reserved;
	int pass;
	int expected;
	__u32 sndbuf;		/* patch 0004 */
	int want_sndbuf;	/* > 0: exact, with SOCK_SNDBUF_LOCK */
	bool no_net_admin;	/* run the probe in a child without CAP_NET_ADMIN */
};

/* The 0004 rows give only the fields they need. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

static const struct create_case create_cases[] = {
	{ "ksock_create: AF_INET UDP (control) -> ok", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 0, SNDBUF_DEFAULT },
	{ "ksock_create: AF_INET6 protocol 0 (control) -> ok", AF_INET6, SOCK_DGRAM, 0, 0, PASS_OPTS, 0, 0, SNDBUF_DEFAULT },
	{ "ksock_create: opts NULL -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_NULL, -EINVAL },
	{ "ksock_create: opts__sz too short -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_SHORT, -EINVAL },
	{ "ksock_create: opts__sz too long -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_LONG, -EINVAL },
	{ "ksock_create: reserved=1 -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 1, PASS_OPTS, -EINVAL },
	{ "ksock_create: family AF_UNIX -> EAFNOSUPPORT", AF_UNIX, SOCK_DGRAM, 0, 0, PASS_OPTS, -EAFNOSUPPORT },
	{ "ksock_create: family AF_PACKET -> EAFNOSUPPORT", AF_PACKET, SOCK_DGRAM, 0, 0, PASS_OPTS, -EAFNOSUPPORT },
	{ "ksock_create: family 0 -> EAFNOSUPPORT", 0, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, -EAFNOSUPPORT },
	{ "ksock_create: type SOCK_STREAM -> EPROTONOSUPPORT", AF_INET, SOCK_STREAM, IPPROTO_UDP, 0, PASS_OPTS, -EPROTONOSUPPORT },
	{ "ksock_create: type SOCK_RAW -> EPROTONOSUPPORT", AF_INET6, SOCK_RAW, IPPROTO_UDP, 0, PASS_OPTS, -EPROTONOSUPPORT },
	{ "ksock_create: protocol TCP -> EPROTONOSUPPORT", AF_INET, SOCK_DGRAM, IPPROTO_TCP, 0, PASS_OPTS, -EPROTONOSUPPORT },
	{ "ksock_create: protocol ICMP -> EPROTONOSUPPORT", AF_INET, SOCK_DGRAM, IPPROTO_ICMP, 0, PASS_OPTS, -EPROTONOSUPPORT },
	/* patch 0004: sndbuf. A V0 caller's sndbuf bytes are never read, so
	 * an out-of-range value there must still give the default buffer. */
	{ "ksock_create: opts__sz 4 (layout before sndbuf) -> ok, default sndbuf", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_V0, 0, 0xffffffff, SNDBUF_DEFAULT },
	{ "ksock_create: opts__sz 6 -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_SZ6, -EINVAL, 65536 },
	{ "ksock_create: sndbuf 0 -> ok, default sndbuf", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 0, SNDBUF_DEFAULT },
	{ "ksock_create: sndbuf 65536 -> ok, sk_sndbuf 131072", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 65536, 131072 },
	{ "ksock_create: AF_INET6 sndbuf 65536 -> ok, sk_sndbuf 131072", AF_INET6, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 65536, 131072 },
	{ "ksock_create: sndbuf 8M (over wmem_max, forced) -> ok, sk_sndbuf 16M", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 8 << 20, 16 << 20 },
	{ "ksock_create: sndbuf INT_MAX/2 -> ok, sk_sndbuf INT_MAX-1", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 0x3fffffff, 0x7ffffffe },
	{ "ksock_create: sndbuf INT_MAX/2+1 -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, -EINVAL, 0x40000000 },
	{ "ksock_create: sndbuf 0xffffffff -> EINVAL", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, -EINVAL, 0xffffffff },
	{ "ksock_create: sndbuf 65536 without CAP_NET_ADMIN -> EPERM", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, -EPERM, 65536, SNDBUF_ANY, true },
	{ "ksock_create: sndbuf 0 without CAP_NET_ADMIN (control) -> ok", AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PASS_OPTS, 0, 0, SNDBUF_DEFAULT, true },
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
};

/* hold_port is given only where it is set (pragma above). */
static const struct addr_case addr_cases[] = {
	/* invalid opts, for both bind and connect */
	{ "ksock_bind: opts NULL -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_NULL, -EINVAL },
	{ "ksock_connect: opts NULL -> EINVAL", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_NULL, -EINVAL },
	{ "ksock_bind: opts__sz too short -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_SHORT, -EINVAL },
	{ "ksock_connect: opts__sz too short -> EINVAL", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_SHORT, -EINVAL },
	{ "ksock_bind: opts__sz too long -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_LONG, -EINVAL },
	{ "ksock_connect: opts__sz too long -> EINVAL", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_LONG, -EINVAL },
	{ "ksock_bind: reserved=1 -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 1, PASS_OPTS, -EINVAL },
	{ "ksock_connect: reserved=1 -> EINVAL", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 1, PASS_OPTS, -EINVAL },
	{ "ksock_bind: family AF_UNIX -> EAFNOSUPPORT", OP_BIND, AF_INET, AF_UNIX, "127.0.0.1", 7000, 0, 0, PASS_OPTS, -EAFNOSUPPORT },
	{ "ksock_connect: family AF_UNIX -> EAFNOSUPPORT", OP_CONNECT, AF_INET, AF_UNIX, "127.0.0.1", 7000, 0, 0, PASS_OPTS, -EAFNOSUPPORT },
	{ "ksock_bind: scope_id with AF_INET -> EINVAL", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7000, 2, 0, PASS_OPTS, -EINVAL },
	{ "ksock_connect: scope_id with AF_INET -> EINVAL", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 2, 0, PASS_OPTS, -EINVAL },
	/* what the kernel's bind and connect return */
	{ "ksock_bind: 127.0.0.1:7001 (control) -> ok", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7001, 0, 0, PASS_OPTS, 0 },
	{ "ksock_bind: port in use -> EADDRINUSE", OP_BIND, AF_INET, AF_INET, "127.0.0.1", 7002, 0, 0, PASS_OPTS, -EADDRINUSE, 1 },
	{ "ksock_bind: non-local IPv4 address -> EADDRNOTAVAIL", OP_BIND, AF_INET, AF_INET, "198.51.100.1", 7000, 0, 0, PASS_OPTS, -EADDRNOTAVAIL },
	{ "ksock_bind: non-local IPv6 address -> EADDRNOTAVAIL", OP_BIND, AF_INET6, AF_INET6, "2001:db8:ffff::1", 7000, 0, 0, PASS_OPTS, -EADDRNOTAVAIL },
	{ "ksock_bind: IPv6 address on an IPv4 socket -> EAFNOSUPPORT", OP_BIND, AF_INET, AF_INET6, "2001:db8::1", 7000, 0, 0, PASS_OPTS, -EAFNOSUPPORT },
	{ "ksock_bind: link-local with scope_id (control) -> ok", OP_BIND, AF_INET6, AF_INET6, "fe80::1", 7000, 1, 0, PASS_OPTS, 0 },
	{ "ksock_bind: link-local without scope_id -> EINVAL", OP_BIND, AF_INET6, AF_INET6, "fe80::1", 7000, 0, 0, PASS_OPTS, -EINVAL },
	{ "ksock_connect: 127.0.0.1:7000 (control) -> ok", OP_CONNECT, AF_INET, AF_INET, "127.0.0.1", 7000, 0, 0, PASS_OPTS, 0 },
	{ "ksock_connect: unroutable IPv4 -> ENETUNREACH", OP_CONNECT, AF_INET, AF_INET, "198.51.100.1", 7000, 0, 0, PASS_OPTS, -ENETUNREACH },
	{ "ksock_connect: unroutable IPv6 -> ENETUNREACH", OP_CONNECT, AF_INET6, AF_INET6, "2001:db8:ffff::1", 7000, 0, 0, PASS_OPTS, -ENETUNREACH },
	{ "ksock_connect: link-local with scope_id (control) -> ok", OP_CONNECT, AF_INET6, AF_INET6, "fe80::2", 7000, 1, 0, PASS_OPTS, 0 },
	{ "ksock_connect: link-local without scope_id -> EINVAL", OP_CONNECT, AF_INET6, AF_INET6, "fe80::2", 7000, 0, 0, PASS_OPTS, -EINVAL },
};

struct send_case {
	const char *name;
	__u32 len;
	int expected;	/* 0: the byte count */
	const char *dst;	/* NULL: 127.0.0.1 (lo) */
	__u32 sndbuf;
};

/*
 * Over dummy0 (MTU 1500) a 30000-byte datagram is built as ~21 fragments
 * before any leaves, and ip_append_data refuses a fragment once they pass
 * 2 * sk_sndbuf: deterministic, so it shows that the send path uses the
 * size 0004 set (sndbuf 1 is raised to SOCK_MIN_SNDBUF, about 4.6 kB).
 */
static const struct send_case send_cases[] = {
	{ "ksock_send: 1000 bytes (control) -> 1000", 1000, 0 },
	{ "ksock_send: 65536 bytes (> IP_MAX_MTU) -> EMSGSIZE", 65536, -EMSGSIZE },
	{ "ksock_send: 65535 bytes (> UDP maximum) -> EMSGSIZE", 65535, -EMSGSIZE },
	{ "ksock_send: 30000 bytes over MTU 1500 (control) -> 30000", 30000, 0, "192.0.2.2" },
	{ "ksock_send: 30000 bytes over MTU 1500, sndbuf 1 -> ENOBUFS", 30000, -ENOBUFS, "192.0.2.2", 1 },
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

static void test_ksock_input(void)
{
	struct netns ns = { .orig = -1, .self = -1 };
	struct ksock_input *skel = NULL;
	int env = 0;	/* 0 not set up, 1 ok, -1 failed */
	size_t i;

#define ENSURE_ENV() do {						\
	if (!env) {							\
		skel = ksock_input__open_and_load();			\
		env = skel && ksock_input_env(&ns) ? 1 : -1;		\
	}								\
	if (!ASSERT_TRUE(env == 1, "skeleton and netns with dummy0"))	\
		goto end;						\
} while (0)

	for (i = 0; i < sizeof(create_cases) / sizeof(create_cases[0]); i++) {
		const struct create_case *c = &create_cases[i];

		if (!case_begin(c->name))
			continue;
		ENSURE_ENV();
		skel->bss->create_opts.family = c->family;
		skel->bss->create_opts.type = c->type;
		skel->bss->create_opts.protocol = c->protocol;
		skel->bss->create_opts.reserved = c->reserved;
		skel->bss->create_opts.sndbuf = c->sndbuf;
		skel->bss->create_pass = c->pass;
		skel->data->create_err = 1;
		if (c->no_net_admin) {
			if (!ASSERT_OK(run_prog_without_net_admin(skel->progs.create_probe),
				       "probe run without CAP_NET_ADMIN"))
				goto end;
		} else if (!ASSERT_OK(run_prog(skel->progs.create_probe, NULL), "probe run")) {
			goto end;
		}
		ASSERT_EQ(skel->data->create_err, c->expected, "bpf_ksock_create err");
		ASSERT_EQ(skel->bss->created, c->expected == 0, "socket returned");
		if (c->expected || c->want_sndbuf == SNDBUF_ANY || !skel->bss->created)
			goto end;
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
end:
		case_end();
	}

	for (i = 0; i < sizeof(addr_cases) / sizeof(addr_cases[0]); i++) {
		const struct addr_case *c = &addr_cases[i];
		int hold = -1;

		if (!case_begin(c->name))
			continue;
		ENSURE_ENV();
		if (c->hold_port) {
			struct sockaddr_in sin = { .sin_family = AF_INET,
				.sin_port = htons(c->port),
				.sin_addr.s_addr = inet_addr("127.0.0.1") };

			hold = socket(AF_INET, SOCK_DGRAM, 0);
			if (!ASSERT_OK(bind(hold, (struct sockaddr *)&sin, sizeof(sin)) ? -errno : 0,
				       "user socket holds the port"))
				goto end2;
		}
		skel->data->sock_family = c->sock_family;
		fill_addr(&skel->bss->addr_opts, c->family, c->addr, c->port);
		if (c->scope == 1)
			skel->bss->addr_opts.scope_id = if_nametoindex("dummy0");
		else if (c->scope == 2)
			skel->bss->addr_opts.scope_id = 1;
		skel->bss->addr_opts.reserved = c->reserved;
		skel->bss->addr_pass = c->pass;
		skel->bss->addr_op = c->op;
		skel->data->addr_err = 1;
		if (!ASSERT_OK(run_prog(skel->progs.addr_probe, NULL), "probe run"))
			goto end2;
		if (!ASSERT_OK(skel->data->addr_setup_err, "create the socket"))
			goto end2;
		ASSERT_EQ(skel->data->addr_err, c->expected,
			  c->op == OP_BIND ? "bpf_ksock_bind err" : "bpf_ksock_connect err");
end2:
		if (hold >= 0)
			close(hold);
		case_end();
	}

	for (i = 0; i < sizeof(send_cases) / sizeof(send_cases[0]); i++) {
		const struct send_case *c = &send_cases[i];

		if (!case_begin(c->name))
			continue;
		ENSURE_ENV();
		fill_addr(&skel->bss->send_dst, AF_INET, c->dst ? c->dst : "127.0.0.1", 7009);
		skel->bss->send_len = c->len;
		skel->bss->send_sndbuf = c->sndbuf;
		skel->data->send_ret = 1;
		if (!ASSERT_OK(run_prog(skel->progs.send_probe, NULL), "probe run"))
			goto end3;
		if (!ASSERT_OK(skel->data->send_setup_err, "create and connect"))
			goto end3;
		ASSERT_EQ(skel->data->send_ret, c->expected ? c->expected : (int)c->len,
			  "bpf_ksock_send ret");
end3:
		case_end();
	}
#undef ENSURE_ENV

	if (skel)
		ksock_input__destroy(skel);
	if (ns.in && case_begin("ksock bad input: netns quota counter back to 0")) {
		quota_settles(0, "netns quota counter");
		case_end();
	}
	netns_leave(&ns);
}

/* bpf_ksock_max=0 disables creation in every netns (sysctl in init netns). */
static void test_ksock_max_zero(void)
{
	struct ksock_input *skel;
	int old_max;

	if (!case_begin("ksock_create: bpf_ksock_max=0 -> ENOSPC"))
		return;
	skel = ksock_input__open_and_load();
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
	case_end();
}

/* ------------------------------------------------------------------ */
/* Post-checks                                                         */

static const char *const splats[] = {
	"BUG:", "WARNING:", "Oops", "Call Trace:",
	"possible recursive locking", "possible circular locking",
	"inconsistent lock state", "suspicious RCU usage",
	"DEBUG_LOCKS_WARN_ON", "lockdep is turned off",
	"sleeping function called from invalid context",
	"unregister_netdevice: waiting for",
};

static void test_console_clean(void)
{
	static char buf[1 << 21];
	int n, found = 0;
	size_t k;
	char *line, *save;

	if (!case_begin("post: kernel log has no splat"))
		return;
	n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (n <= 0 || n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	if (!ASSERT_GE(n, 1, "read the kernel log"))
		goto out;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (k = 0; k < sizeof(splats) / sizeof(splats[0]); k++) {
			if (strstr(line, splats[k])) {
				if (found++ < 20)
					printf("#   %s\n", line);
				break;
			}
		}
	}
	ASSERT_EQ(found, 0, "splat lines in the kernel log");
out:
	case_end();
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	int start_count = -1, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			verbose = true;
		else if (!strcmp(argv[i], "-l"))
			list_only = true;
		else
			filter = argv[i];
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
	libbpf_set_print(libbpf_print);

	if (!list_only) {
		if (geteuid() != 0) {
			printf("1..0 # SKIP kernel-tests must run as root inside a bpfwire guest\n");
			return 0;
		}
		counter = ksock_counter__open_and_load();
		if (!counter)
			printf("# couldn't load ksock_counter: %s (%d)\n", strerror(errno), -errno);
		start_count = quota_count();
		printf("# init netns ksock quota counter at start: %d\n", start_count);
	}

	/* The seed selftests */
	test_netpoll_sanity(false);
	test_netpoll_sanity(true);
	test_netpoll_basic();
	test_ksock_basic();
	test_ksock_lsm_recursion();
	test_ksock_net_quota();
	test_ksock_wq();

	/* Bad input, one case each */
	test_ksock_input();
	test_ksock_max_zero();
	test_netpoll_input();
	test_netpoll_send_size(1460, 0);
	test_netpoll_send_size(1461, -E2BIG);
	test_netpoll_device_removal();

	/* The verifier's refusals */
	RUN_VERIFIER_CASES("verifier", verifier_refuse);

	/* Afterwards */
	if (case_begin("post: init netns quota counter back to its start")) {
		if (ASSERT_GE(start_count, 0, "counter readable at start"))
			quota_settles(start_count, "init netns quota counter");
		case_end();
	}
	test_console_clean();

	if (list_only)
		return 0;
	ksock_counter__destroy(counter);
	printf("1..%d\n", tap_n);
	if (tap_failed)
		printf("# %d of %d cases failed\n", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}
