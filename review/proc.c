// SPDX-License-Identifier: GPL-2.0-only
/* The review's child processes: see proc.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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
 * The child's stdout and stderr (one pipe) to ours a line at a time: a
 * test's or a series' text never starts a line nor reaches the terminal
 * raw. A line over the buffer is cut into lines.
 */
static void quote_output(int fd, struct keep *k)
{
	char buf[4096];
	size_t n = 0;

	for (;;) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - n);
		size_t start = 0;
		char *nl;

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
	int fd = -1, p[2];
	pid_t pid;

	if (keep && keeplen)
		keep[0] = '\0';

	fflush(NULL);
	if (lock) {
		fd = lock_take(lock);
		if (fd < 0)
			return -1;
	}
	if (pipe2(p, O_CLOEXEC)) {
		pr_warn("pipe: %s", errno_str(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		pr_warn("fork: %s", errno_str(errno));
		close(p[0]);
		close(p[1]);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!pid) {
		if (dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(127);
		if (nice_inc && setpriority(PRIO_PROCESS, 0, nice_inc))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "bpfwire-review: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	quote_output(p[0], &k);
	close(p[0]);
	int st = wait_child(pid, argv[0]);

	if (fd >= 0)
		close(fd);	/* the lock goes with it */
	return st;
}

int proc_capture(char *const argv[], char *out, size_t len)
{
	int p[2];
	size_t n = 0;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		dup2(p[1], 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
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
	return wait_child(pid, argv[0]);
}
