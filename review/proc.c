// SPDX-License-Identifier: GPL-2.0-only
/* The review's child processes: see proc.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errnames.h"
#include "escape.h"
#include "log.h"
#include "proc.h"
#include "timeutil.h"

/* The first stopping signal, how many came, and the group of the child running now. */
static volatile sig_atomic_t stop_sig, stop_count;
static volatile sig_atomic_t child_pg;

static void on_stop(int sig)
{
	int e = errno;

	if (!stop_sig)
		stop_sig = sig;
	stop_count++;
	/* a second Ctrl-C means now */
	if (child_pg > 0)
		kill(-child_pg, stop_count > 1 ? SIGKILL : SIGTERM);
	errno = e;
}

void proc_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	/* no SA_RESTART: a wait for a lock or a child ends to look at stop_sig */
	struct sigaction sa = { .sa_handler = on_stop }, old;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		/* nohup's SIGHUP stays ignored */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int proc_stopped(void)
{
	return stop_sig;
}

static int wait_child(pid_t pid, const char *what)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			pr_warn("waitpid %s: %s", what, errno_str(errno));
			return -1;
		}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/*
 * fork argv with stdout (and stderr too when err_too) on out: a group of
 * its own, so that the review alone decides what a signal does to it
 * (a terminal's Ctrl-C reaches the review's group only), stdin
 * /dev/null (a background group reading the terminal would stop).
 */
static pid_t spawn(char *const argv[], int out, bool err_too, int nice_inc, bool stoppable)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		pr_warn("fork: %s", errno_str(errno));
		return -1;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || (err_too && dup2(out, 2) < 0))
			_exit(127);
		if (nice_inc && setpriority(PRIO_PROCESS, 0, nice_inc))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "bpfwire-review: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	/* both sides set it: whichever runs first, the group exists before a signal is sent to it */
	setpgid(pid, pid);
	child_pg = pid;
	/* a signal between fork and child_pg found no group to stop */
	if (stop_sig && stoppable)
		kill(-pid, SIGTERM);
	return pid;
}

/* Where a child's lines are also kept (proc_run_keep), raw. */
struct keep {
	char *buf;
	size_t len, n;
};

/* One line of a child's output to stdout: indented, escaped. */
static void quote_line(const char *s, size_t n, struct keep *k)
{
	fputs(PROC_INDENT, stdout);
	esc_fwrite(stdout, s, n, 0);
	fputc('\n', stdout);
	if (k && k->len && k->n + n + 2 <= k->len) {
		memcpy(k->buf + k->n, s, n);
		k->n += n;
		k->buf[k->n++] = '\n';
		k->buf[k->n] = '\0';
	}
}

/*
 * Once stopped, the child's group has PROC_GRACE_S seconds before
 * SIGKILL; then a few more for the pipe to close. A descendant that left
 * the group (a sandbox's inner session) and holds the pipe open does not
 * keep the review waiting past that.
 */
static bool give_up(pid_t pid, const char *what, double *stop_at, bool *killed)
{
	double t = now_s();

	if (!stop_sig)
		return false;
	if (!*stop_at)
		*stop_at = t;
	if (!*killed && (t - *stop_at > PROC_GRACE_S || stop_count > 1)) {
		if (stop_count < 2)
			pr_warn("%s still runs %d s after the signal: SIGKILL to its process group",
				what, PROC_GRACE_S);
		kill(-pid, SIGKILL);
		*killed = true;
		*stop_at = t;
	}
	return *killed && t - *stop_at > 5;
}

/*
 * The child's stdout and stderr (one pipe) to ours a line at a time: a
 * test's or a series' text never starts a line nor reaches the terminal
 * raw. A line over the buffer is cut into lines.
 */
static void quote_output(int fd, struct keep *k, pid_t pid, const char *what)
{
	double stop_at = 0;
	bool killed = false;
	char buf[4096];
	size_t n = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		size_t start = 0;
		ssize_t r;
		char *nl;

		/* a second at most, so that a stop is seen and a grace ends */
		if (give_up(pid, what, &stop_at, &killed))
			break;
		if (poll(&p, 1, 1000) <= 0)
			continue;
		r = read(fd, buf + n, sizeof(buf) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		while ((nl = memchr(buf + start, '\n', n - start))) {
			quote_line(buf + start, (size_t)(nl - buf) - start, k);
			start = (size_t)(nl - buf) + 1;
		}
		memmove(buf, buf + start, n - start);
		n -= start;
		if (n == sizeof(buf)) {
			quote_line(buf, n, k);
			n = 0;
		}
		fflush(stdout);
	}
	if (n)
		quote_line(buf, n, k);
	fflush(stdout);
}

int proc_run(char *const argv[], const char *lock, int nice_inc)
{
	return proc_run_keep(argv, lock, nice_inc, NULL, 0);
}

int proc_run_keep(char *const argv[], const char *lock, int nice_inc, char *keep, size_t keeplen)
{
	struct keep k = { keep, keeplen, 0 };
	int fd = -1, p[2], st;
	pid_t pid;

	if (keep && keeplen)
		keep[0] = '\0';
	if (stop_sig)
		return -1;
	if (lock) {
		fd = lock_take_until(lock, &stop_sig);
		if (fd < 0)
			return -1;
	}
	if (pipe2(p, O_CLOEXEC)) {
		pr_warn("pipe: %s", errno_str(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	pid = spawn(argv, p[1], true, nice_inc, true);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	quote_output(p[0], &k, pid, argv[0]);
	close(p[0]);
	st = wait_child(pid, argv[0]);
	child_pg = 0;
	if (fd >= 0)
		close(fd);	/* the lock goes with it */
	return st;
}

int proc_capture(char *const argv[], char *out, size_t len)
{
	int p[2], st;
	size_t n = 0;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = spawn(argv, p[1], false, 0, false);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	for (;;) {
		char buf[4096];
		ssize_t r = read(p[0], buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (ssize_t i = 0; i < r && n + 1 < len; i++)
			out[n++] = buf[i];
	}
	out[n] = '\0';
	while (n && out[n - 1] == '\n')
		out[--n] = '\0';
	close(p[0]);
	st = wait_child(pid, argv[0]);
	child_pg = 0;
	return st;
}
