// SPDX-License-Identifier: GPL-2.0-only
/*
 * TAP: proc.h's children. A deadline ends a child that sleeps past it; a
 * captured output over the cap is cut, read to its end and the child's
 * status kept; a command or a netns that does not exist is an errno and
 * a line; exit statuses and signals come through as they were.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "tap.h"
#include "timeutil.h"

#define NO_SUCH "bpfwire-no-such-command"

static void test_deadline(void)
{
	char *argv[] = { "sleep", "5", NULL };
	struct spawn_opts so = { 0 };
	double t0;
	pid_t pid;
	int st;

	if (!tap_case_begin("a deadline kills a child that sleeps past it and says -ETIMEDOUT"))
		return;
	printf("# tried: sleep 5, waited for 300 ms\n");
	pid = spawn(argv, &so);
	if (ASSERT_GE(pid, 1, "spawn sleep")) {
		t0 = now_s();
		st = proc_wait(pid, 300, NULL);
		ASSERT_EQ(st, -ETIMEDOUT, "proc_wait says the deadline passed");
		ASSERT_LE((long long)((now_s() - t0) * 1000), 3000, "in about 300 ms, not 5 s");
		ASSERT_EQ(proc_poll(pid, NULL), -ECHILD, "the child is killed and reaped");
	}
	pid = spawn(argv, &so);
	if (ASSERT_GE(pid, 1, "spawn sleep again")) {
		ASSERT_EQ(proc_poll(pid, NULL), -EAGAIN, "proc_poll: it still runs");
		kill(pid, SIGKILL);
		ASSERT_EQ(proc_wait(pid, 3000, NULL), 128 + SIGKILL, "ended before its deadline: its status");
	}
	tap_case_end();
}

static void test_capture_cap(void)
{
	char *big[] = { "sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x; echo err >&2; exit 3", NULL };
	char *both[] = { "sh", "-c", "echo out; echo err >&2", NULL };
	char *only[] = { "sh", "-c", "echo out; echo '# stderr, not captured' >&2", NULL };
	char out[64], line[64];
	size_t n;

	if (!tap_case_begin("captured output over the cap is cut, read to the end, the status kept"))
		return;
	printf("# tried: 100000 bytes into a 64-byte buffer, exit 3\n");
	ASSERT_EQ(run_cmd(big, NULL, out, sizeof(out)), 3, "run_cmd: the child's status, not stuck on a full pipe");
	n = strspn(out, "x");
	ASSERT_EQ(strlen(out), sizeof(out) - 1, "the first 63 bytes kept, NUL-terminated");
	ASSERT_EQ(n, sizeof(out) - 1, "all of them the child's");
	ASSERT_EQ(run_cmd(both, NULL, line, sizeof(line)), 0, "run_cmd exit 0");
	ASSERT_STREQ(line, "out\nerr", "stdout and stderr, the trailing newline cut");
	fflush(stdout);
	ASSERT_EQ(proc_capture(only, line, sizeof(line)), 0, "proc_capture exit 0");
	ASSERT_STREQ(line, "out", "proc_capture: stdout only");
	tap_case_end();
}

static int fail_setup(void *arg)
{
	(void)arg;
	return -EPERM;
}

static void test_missing(void)
{
	char *argv[] = { NO_SUCH, "x", NULL };
	char *abs[] = { "/nonexistent/" NO_SUCH, NULL };
	char *ok[] = { "true", NULL };
	enum spawn_step step = SPAWN_PIPE;
	struct spawn_opts so = { .failed = &step };
	char out[256];

	if (!tap_case_begin("a command, a netns or a setup that fails is an errno, the step and a line"))
		return;
	printf("# tried: %s, /nonexistent/%s, netns bpfwire-no-such-netns, a setup's -EPERM\n",
	       NO_SUCH, NO_SUCH);
	ASSERT_EQ(spawn(argv, &so), -ENOENT, "spawn: -ENOENT");
	ASSERT_EQ(step, SPAWN_EXEC, "at the exec");
	so.no_path = true;
	ASSERT_EQ(spawn(abs, &so), -ENOENT, "no_path: -ENOENT");
	so.no_path = false;
	ASSERT_EQ(run_cmd(argv, NULL, out, sizeof(out)), 127, "run_cmd: 127");
	ASSERT_STREQ(out, "couldn't run " NO_SUCH ": No such file or directory (ENOENT, -2)",
		     "run_cmd: the line names the command and the errno");
	so.netns = "bpfwire-no-such-netns";
	ASSERT_EQ(spawn(ok, &so), -ENOENT, "netns: -ENOENT");
	ASSERT_EQ(step, SPAWN_NETNS, "at the netns");
	so.netns = NULL;
	ASSERT_EQ(run_cmd(ok, "bpfwire-no-such-netns", out, sizeof(out)), 126, "run_cmd: 126");
	ASSERT_STREQ(out, "couldn't enter netns bpfwire-no-such-netns", "run_cmd: the netns line");
	so.child_setup = fail_setup;
	ASSERT_EQ(spawn(ok, &so), -EPERM, "child_setup: its -errno");
	ASSERT_EQ(step, SPAWN_SETUP, "at the setup");
	ASSERT_EQ(spawn(NULL, &so), -EPERM, "no exec: the setup's -errno");
	ASSERT_EQ(proc_poll(-1, NULL), -ECHILD, "every failed child reaped");
	tap_case_end();
}

static int ok_setup(void *arg)
{
	return *(int *)arg = 0;
}

static void test_status(void)
{
	char *exit42[] = { "sh", "-c", "exit 42", NULL };
	char *term[] = { "sh", "-c", "kill -TERM $$", NULL };
	int ran = 1, ws = 0;
	struct spawn_opts so = { .child_setup = ok_setup, .child_arg = &ran };
	char out[64];
	pid_t pid;

	if (!tap_case_begin("exit statuses and signals come through"))
		return;
	printf("# tried: exit 42, kill -TERM $$, a setup with no exec\n");
	ASSERT_EQ(run_cmd(exit42, NULL, out, sizeof(out)), 42, "run_cmd: 42");
	ASSERT_EQ(run_cmd(term, NULL, out, sizeof(out)), 128 + SIGTERM, "run_cmd: 128+SIGTERM");
	pid = spawn(exit42, &so);
	if (ASSERT_GE(pid, 1, "spawn"))
		ASSERT_EQ(proc_wait(pid, 5000, &ws), 42, "proc_wait with a deadline: 42");
	ASSERT_TRUE(WIFEXITED(ws) && WEXITSTATUS(ws) == 42, "waitpid's status");
	pid = spawn(term, &so);
	if (ASSERT_GE(pid, 1, "spawn"))
		ASSERT_EQ(proc_wait(pid, -1, &ws), 128 + SIGTERM, "proc_wait: 128+SIGTERM");
	ASSERT_TRUE(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGTERM, "waitpid's status: signalled");
	pid = spawn(NULL, &so);
	if (ASSERT_GE(pid, 1, "spawn with no exec"))
		ASSERT_EQ(proc_wait(pid, -1, NULL), 0, "its status 0");
	ASSERT_EQ(ran, 1, "the setup ran in the child, not here");
	tap_case_end();
}

int main(void)
{
	test_deadline();
	test_capture_cap();
	test_missing();
	test_status();
	return tap_done();
}
