/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel suite's shared part: how a test registers itself, and the
 * helpers several areas use (netns, shell commands, test runs, sysctl,
 * the per-netns quota counter, the ksock receiver, the verifier runner).
 * Assertions and cases are common/tap.h's.
 */
#ifndef KT_H
#define KT_H

#include <stdbool.h>
#include <stddef.h>
#include <netinet/in.h>
#include <bpf/libbpf.h>

#include "file.h"
#include "tap.h"
#include "timeutil.h"
#include "kapi.h"
#include "kt_uapi.h"

#define IP "/usr/sbin/ip"
#define KSOCK_MAX_SYSCTL "/proc/sys/net/core/bpf_ksock_max"
#define ENOTSUPP 524	/* kernel-internal, what netpoll_setup returns */
#define SEED_RELEASE_SUFFIX "-bpfwire-seed"
#define UPSTREAM_RELEASE_SUFFIX "-bpfwire-up"

#define DUMMY_DEV "dummy0"
#define RECV_PORT 7777

/*
 * A test: one function that runs one case or a table of them. KT_TEST puts
 * a pointer to its descriptor in section kt_cases; main() walks the section
 * (__start_kt_cases..__stop_kt_cases) in order of the key, so the TAP order
 * does not depend on the link order. Keys, by area:
 *   10 netpoll seeds, 20 ksock seeds, 30 quota, 40 wq (41 netpoll),
 *   50 bad input (and netpoll's, 53..56), 57..58 netns teardown,
 *   60 verifier, 70..72 bpf_ksock_max, 73..75 ksock under the LSM,
 *   76 the release race, 77..79 the netpoll detach, 80 the wire MAC in
 *   BPF, 85 netpoll send sizes, 90 post-checks; 1 the flavour, 22..27 and
 *   42..43 the upstream API, 28..29 the cases of both.
 */
struct kt_test {
	int order;
	const char *name;
	void (*run)(void);
};

#define KT_TEST(order_, fn_)						\
	static void fn_(void);						\
	static const struct kt_test kt_test_##fn_ = {			\
		.order = (order_), .name = #fn_, .run = fn_ };		\
	static const struct kt_test *const kt_ptr_##fn_			\
	__attribute__((used, section("kt_cases"))) = &kt_test_##fn_;	\
	static void fn_(void)

/* Runs a shell command; prints it and its status when it fails. */
int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define SYS(label, fmt, ...) do {					\
	if (!ASSERT_OK(sh(fmt, ##__VA_ARGS__), "cmd: " fmt))		\
		goto label;						\
} while (0)

/* A SYSCALL program's test run: 0 or -errno; its return in *retval. */
int run_prog(struct bpf_program *prog, int *retval);
/* The same with a ctx (a SYSCALL program's argument). */
int run_prog_ctx(struct bpf_program *prog, void *ctx, __u32 size, int *retval);
/* run_prog_ctx in a forked child whose effective set lacks capability
 * `cap`; the child first stores its pid in *pid_slot if given (an mmapped
 * .bss, shared). Returns the program's return value (0 or -errno), or
 * -ECHILD when the child could not run it. */
int run_prog_ctx_without_cap(struct bpf_program *prog, void *ctx, __u32 size,
			     int cap, int *pid_slot);
#define run_prog_without_cap(prog, cap, pid_slot) \
	run_prog_ctx_without_cap(prog, NULL, 0, cap, pid_slot)
/* The ctx of ksock_lsm.bpf.c's hold_one, drop_one and hold_one_nested. */
struct ksock_hold_args {
	__u32 slot;
	__u32 sndbuf;
};
/*
 * ksock_lsm.bpf.c's hold_one: creates a ksock (with sndbuf, unless 0) and
 * holds it in slot; 0 or bpf_ksock_create's -errno (below -2000: the test
 * run failed).
 */
int ksock_hold_slot(struct bpf_program *hold_one, __u32 slot, __u32 sndbuf);
/*
 * ksock_lsm.bpf.c's drop_one: releases the ksock held in slot (~0U: the
 * __ksock_ctx_map's); 0, or -ENOENT when the slot was empty.
 */
#define KSOCK_CTX_SLOT (~0U)
int ksock_drop_slot(struct bpf_program *drop_one, __u32 slot);

/*
 * The seed-only kernel (-Dkernel_fixes=false) is told apart by its release,
 * ...-bpfwire-seed. A case that shows a seed bug calls kt_todo_on_seed()
 * with the bug: there it is a TAP # TODO, on the fixed kernel a normal case.
 */
bool kt_seed_kernel(void);
void kt_todo_on_seed(const char *bug);

/*
 * The booted kernel's kfunc API (kapi/), read by main() from its BTF before
 * any test, so one binary runs on any kernel: the seed's ksock API,
 * upstream's, one bpfwire does not know, or none; with or without netpoll.
 */
extern struct kapi kt_api;
enum kt_need {
	KT_NEED_SEED,		/* the seed's ksock API */
	KT_NEED_UPSTREAM,	/* upstream's */
	KT_NEED_KSOCK,		/* either known ksock API */
	KT_NEED_NETPOLL,	/* netpoll present */
	KT_NEED_SNDBUF,		/* the seed's, with bpfwire's sndbuf extension */
};
/*
 * true when the kernel has what a test needs. Else the test's one line,
 * "ok N - NAME # SKIP REASON" (the reason names the API found: "not
 * applicable on upstream", "ksock API unknown: ...", "no netpoll ..."),
 * and false. With -l, the line as it would be.
 */
bool kt_needs(enum kt_need need, const char *name);
static inline bool kt_upstream(void)
{
	return kt_api.ksock == KAPI_KSOCK_UPSTREAM;
}
/*
 * opts__sz of the kernel's struct bpf_ksock_create_opts, as its create
 * checks it: 8 with bpfwire's sndbuf extension, else the posted 4.
 */
static inline __u32 kt_create_opts_sz(void)
{
	return kt_api.ksock_sndbuf ? BPF_KSOCK_CREATE_OPTS_SZ_SNDBUF : BPF_KSOCK_CREATE_OPTS_SZ_V0;
}
/* A case no test can reach here: "ok N - NAME # SKIP WHY". */
void kt_skip(const char *name, const char *why);

/* Network namespaces: a fresh one per test, as the seeds' netns_new. */
struct netns {
	int orig;	/* the namespace to return to */
	int self;	/* this namespace, to come back to it */
	bool in;
};
#define NETNS_INIT { .orig = -1, .self = -1 }

bool netns_enter_new(struct netns *ns);
void netns_leave(struct netns *ns);
__u32 netns_inum(void);

int sysctl_read_int(const char *path);
int sysctl_write_int(const char *path, int v);

/* The per-netns quota counter, read by ksock_counter.bpf.c. */
bool quota_counter_load(void);
void quota_counter_destroy(void);
int quota_count(void);
/* Waits (bounded, 10 s) for the deferred releases of this netns, then
 * asserts the counter reads `expected`. */
bool quota_settles(int expected, const char *name);
/* The init netns' counter when the suite started (-1: unreadable). */
extern int quota_start_count;

/* netpoll's fixed peer MAC, aa:bb:cc:dd:ee:ff */
void set_remote_mac(__u8 *mac);

/* A netns with a UDP receiver on 127.0.0.1:RECV_PORT (5 s timeout). */
struct ksock_env {
	struct netns ns;
	struct sockaddr_in addr;
	int rfd;
};
#define KSOCK_ENV_INIT { .ns = NETNS_INIT, .rfd = -1 }

bool ksock_env_setup(struct ksock_env *env);
void ksock_env_cleanup(struct ksock_env *env);
/* Exactly one datagram, with exactly that payload, then nothing more. */
void ksock_assert_recv_once(struct ksock_env *env, const char *data, size_t len);
/* Points the seeds' context at the receiver, then runs their setup. */
bool ksock_setup_ctx(struct bpf_program *prog, __be32 *ipv4_remote,
		     __u16 *remote_port);

/* Opts passing in the probes, as in ksock_input.bpf.c. */
enum { PASS_OPTS = 0, PASS_NULL = 1, PASS_SHORT = 2, PASS_LONG = 3,
       PASS_V0 = 4, PASS_SZ6 = 5 };

/* For each program of a skeleton: open it afresh, load only that program,
 * and check the outcome its tags declare. One TAP line per program. */
typedef void *(*skel_open_fn)(void);
typedef int (*skel_load_fn)(void *);
typedef void (*skel_destroy_fn)(void *);

void run_verifier_cases(const char *prefix, skel_open_fn open_fn,
			skel_load_fn load_fn, skel_destroy_fn destroy_fn);

#define RUN_VERIFIER_CASES(prefix, X)					\
	run_verifier_cases(prefix, (skel_open_fn)X##__open,		\
			   (skel_load_fn)X##__load,			\
			   (skel_destroy_fn)X##__destroy)

/* Whether the running kernel's BTF has FUNC name (a tracing target). */
bool kt_kernel_has_func(const char *name);

/* The running kernel's X.Y (uname -r) as KT_KERNEL_VERSION(X, Y); 0 if unreadable. */
#define KT_KERNEL_VERSION(x, y) (((x) << 16) + ((y) << 8))
unsigned int kt_kernel_version(void);
/* Why no bpf_wq callback can be set on this kernel; NULL when one can. */
const char *kt_wq_unusable(void);
/* Linux 7.0 or later: where a case expects 7.x's outcome beside 6.12's. */
bool kt_kernel_7x(void);

/*
 * NULL for a kfunc's pointer argument that is not __nullable: 7.x takes
 * a kfunc's pointer arguments as trusted by default, and 6.12 those of a
 * kfunc with KF_TRUSTED_ARGS, which bpfwire's 6.12 kernels give every
 * ksock and netpoll kfunc that takes a pointer; so the verifier refuses
 * the program at load: -EACCES, "Possibly NULL pointer passed to trusted
 * R<n>" (7.x) or "... trusted arg<n-1>" (6.12). Only 6.12's seed-only
 * kernel loads it, and the kfunc refuses at run time. Such a program is
 * SEC("?...") (refused, it would fail its whole object), and its case
 * names both outcomes. kt_load_null_arg() loads prog alone (load_fn: the
 * skeleton's __load, which maps .bss). Where it is refused it asserts
 * that, for register reg ("R1"), and returns false; else it asserts the
 * load and returns true: the caller runs prog, asserts the errno.
 */
bool kt_null_arg_refused_at_load(void);
bool kt_load_null_arg(void *skel, struct bpf_object *obj, skel_load_fn load_fn,
		      struct bpf_program *prog, const char *reg);
#define KT_LOAD_NULL_ARG(X, skel, prog, reg)				\
	kt_load_null_arg(skel, (skel)->obj, (skel_load_fn)X##__load,	\
			 (skel)->progs.prog, reg)

#endif /* KT_H */
