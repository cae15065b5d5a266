// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verifier runner (expected outcomes read from the objects' BTF decl
 * tags, as selftests' RUN_TESTS) and the verifier's refusals.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "kt.h"
#include "verifier_refuse.bpf.skel.h"

static char vlog[4 << 20];

static const char *log_tail(const char *log)
{
	size_t n = strlen(log);

	return n > 1500 ? log + n - 1500 : log;
}

/*
 * The verifier's own complaint in a refused load's log: its last line
 * that is not the closing statistics ("processed N insns ...").
 */
static void log_error_line(const char *log, char *out, size_t len)
{
	const char *end = log + strlen(log), *b, *e = end;

	out[0] = 0;
	while (e > log) {
		while (e > log && e[-1] == '\n')
			e--;
		for (b = e; b > log && b[-1] != '\n'; b--)
			;
		if (e > b && strncmp(b, "processed ", 10) && strncmp(b, "verification time", 17) &&
		    strncmp(b, "stack depth", 11) && strncmp(b, "-- END PROG LOAD LOG --", 23)) {
			snprintf(out, len, "%.*s", (int)(e - b), b);
			return;
		}
		e = b;
	}
}

/*
 * The expected text (6.12's, from the program's __msg tag) must be in the
 * verifier log. When the load was refused with another text, as a kernel
 * whose verifier words it differently would, the failure is classified
 * "# verifier text differs" and says both texts, expected and got, then
 * the log's tail.
 */
static bool log_has(const char *prog, const char *log, const char *expected, bool v7x, int line)
{
	char got[512], x7[128];
	int arg;

	/*
	 * 6.12 names a NULL kfunc argument by its index, 7.x by its
	 * register: "trusted arg2" there is "trusted R3" here.
	 */
	if (kt_kernel_7x() &&
	    sscanf(expected, "Possibly NULL pointer passed to trusted arg%d", &arg) == 1) {
		snprintf(x7, sizeof(x7), "Possibly NULL pointer passed to trusted R%d", arg + 1);
		expected = x7;
	}

	if (strstr(log, expected))
		return tap_check(true, expected, line, "%s", "");
	log_error_line(log, got, sizeof(got));
	printf("# verifier text differs (%s): expected (%s): \"%s\"\n", prog,
	       v7x || expected == x7 ? "7.x" : "6.12", expected);
	printf("# verifier text differs (%s): got:             \"%s\"\n", prog, got);
	return tap_check(false, expected, line,
			 "verifier text differs: expected \"%s\", got \"%s\"; the log's tail:\n%s",
			 expected, got, log_tail(log));
}
#define ASSERT_LOG_HAS(prog, log, needle, v7x) log_has((prog), (log), (needle), (v7x), __LINE__)

struct expect {
	const char *prog;
	const char *todo_on_seed;
	bool failure, success, has_retval, caps_bpf_only;
	int retval;
	const char *msgs[4];
	int nmsgs;
	const char *msgs_7x[4];	/* __msg_7x: 7.x's wording, used from 7.0 */
	int nmsgs_7x;
	bool failure_7x;	/* __failure_7x: 7.x refuses what 6.12 loads */
	bool v7x;		/* msgs are the __msg_7x ones */
};

/*
 * On 7.x a program tagged __msg_7x expects 7.x's texts instead of 6.12's;
 * the case says both and which one this kernel is held to (the release
 * decides, not a probe of the kernel, so the case can fail either way).
 */
static void pick_msgs(struct expect *e)
{
	unsigned int v = kt_kernel_version();
	int k;

	if (!e->nmsgs_7x && !e->failure_7x)
		return;
	if (e->failure_7x)
		printf("# %s: 6.12: %s; 7.x: refused\n", e->prog, e->failure ? "refused" : "loads");
	for (k = 0; k < e->nmsgs || k < e->nmsgs_7x; k++)
		printf("# %s: 6.12: \"%s\"; 7.x: \"%s\"\n", e->prog, k < e->nmsgs ? e->msgs[k] : "",
		       k < e->nmsgs_7x ? e->msgs_7x[k] : "");
	printf("# %s: on Linux %u.%u expected: %s's text\n", e->prog, v >> 16, (v >> 8) & 0xff,
	       kt_kernel_7x() ? "7.x" : "6.12");
	if (!kt_kernel_7x())
		return;
	memcpy(e->msgs, e->msgs_7x, sizeof(e->msgs));
	e->nmsgs = e->nmsgs_7x;
	e->v7x = true;
	if (e->failure_7x) {
		e->failure = true;
		e->success = false;
		e->has_retval = false;
	}
}

static void read_tags(struct bpf_object *obj, const char *func,
		      struct expect *e)
{
	const struct btf *btf = bpf_object__btf(obj);
	int id, n, i;

	memset(e, 0, sizeof(*e));
	e->prog = func;
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
		else if (!strcmp(tag, "comment:test_expect_failure_7x"))
			e->failure_7x = true;
		else if (!strncmp(tag, "comment:test_expect_msg_7x=", 27) && e->nmsgs_7x < 4)
			e->msgs_7x[e->nmsgs_7x++] = tag + 27;
		else if (!strncmp(tag, "comment:test_todo_on_seed=", 26))
			e->todo_on_seed = tag + 26;
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

static struct bpf_object *skel_obj(void *skel)
{
	/* Every bpftool skeleton starts with `skeleton` then `obj`. */
	return *(struct bpf_object **)((char *)skel + sizeof(void *));
}

/* Loads in a child whose only capability is CAP_BPF. The child asserts
 * and prints on its own (inside the current case) and exits 0 when every
 * assertion held; the parent asserts that exit status. */
static void load_with_bpf_cap_only(void *skel, skel_load_fn load_fn,
				   const struct expect *e)
{
	int st = -1, k;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		bool ok = ASSERT_OK(caps_keep_bpf_only(), "keep only CAP_BPF") &&
			  ASSERT_TRUE(load_fn(skel) != 0, "verifier refuses the program");
		bool refused = ok;

		for (k = 0; refused && k < e->nmsgs; k++)
			if (!ASSERT_LOG_HAS(e->prog, vlog, e->msgs[k], e->v7x))
				ok = false;
		fflush(stdout);
		_exit(ok ? 0 : 1);
	}
	if (ASSERT_GE(pid, 0, "fork") && waitpid(pid, &st, 0) == pid)
		ASSERT_EQ(st, 0, "CAP_BPF-only child's checks (exit status)");
}

/* The body of one verifier case: program `name` of a fresh skeleton. */
static void verifier_case(const char *name, skel_open_fn open_fn,
			  skel_load_fn load_fn, skel_destroy_fn destroy_fn)
{
	struct bpf_program *p, *target = NULL;
	struct expect e;
	int err, k, retval = -1;
	void *skel;

	skel = open_fn();
	if (!ASSERT_OK_PTR(skel, "skeleton open"))
		return;
	bpf_object__for_each_program(p, skel_obj(skel)) {
		bool me = !strcmp(bpf_program__name(p), name);

		bpf_program__set_autoload(p, me);
		if (me)
			target = p;
	}
	read_tags(skel_obj(skel), name, &e);
	pick_msgs(&e);
	/* Each such bug is 6.12's missing KF_TRUSTED_ARGS: 7.x's seed-only kernel refuses too. */
	if (e.todo_on_seed && !kt_kernel_7x())
		kt_todo_on_seed(e.todo_on_seed);
	if (!ASSERT_TRUE(e.failure != e.success, "one of __success/__failure tagged"))
		goto out;
	vlog[0] = '\0';
	if (e.failure) {
		bpf_program__set_log_level(target, 1);
		bpf_program__set_log_buf(target, vlog, sizeof(vlog));
	}
	if (e.caps_bpf_only) {
		load_with_bpf_cap_only(skel, load_fn, &e);
		goto out;
	}
	err = load_fn(skel);
	if (e.failure) {
		if (!ASSERT_TRUE(err != 0, "verifier refuses the program"))
			goto out;
		for (k = 0; k < e.nmsgs; k++)
			ASSERT_LOG_HAS(name, vlog, e.msgs[k], e.v7x);
	} else if (ASSERT_OK(err, "load") && e.has_retval) {
		if (ASSERT_OK(run_prog(target, &retval), "test run"))
			ASSERT_EQ(retval, e.retval, "retval");
	}
out:
	destroy_fn(skel);
}

void run_verifier_cases(const char *prefix, skel_open_fn open_fn,
			skel_load_fn load_fn, skel_destroy_fn destroy_fn)
{
	char names[32][64], name[128];
	int nprogs = 0, i;
	struct bpf_program *p;
	void *skel;

	skel = open_fn();
	if (!skel) {
		snprintf(name, sizeof(name), "%s: skeleton open", prefix);
		if (tap_case_begin(name)) {
			ASSERT_OK_PTR(skel, "skeleton open");
			tap_case_end();
		}
		return;
	}
	bpf_object__for_each_program(p, skel_obj(skel))
		if (nprogs < 32)
			snprintf(names[nprogs++], 64, "%s", bpf_program__name(p));
	destroy_fn(skel);

	for (i = 0; i < nprogs; i++) {
		snprintf(name, sizeof(name), "%.40s: %.60s", prefix, names[i]);
		if (!tap_case_begin(name))
			continue;
		verifier_case(names[i], open_fn, load_fn, destroy_fn);
		tap_case_end();
	}
}

KT_TEST(60, test_verifier_refuse)
{
	if (!kt_needs(KT_NEED_SEED, "verifier: the seed objects' refusals (ksock and netpoll, seed types)"))
		return;
	RUN_VERIFIER_CASES("verifier", verifier_refuse);
}
