// SPDX-License-Identifier: GPL-2.0-only
/* Child processes: see proc.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errnames.h"
#include "escape.h"
#include "lock.h"
#include "log.h"
#include "proc.h"
#include "timeutil.h"

void argv_add(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (a->n >= (int)(sizeof(a->v) / sizeof(a->v[0])) - 1)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void argv_free(struct argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
}

static int enter_netns(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (setns(fd, CLONE_NEWNET)) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

static void child_reset_signals(void)
{
	sigset_t all;

	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
}

static int open_out(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
}

/* stdin, stdout and stderr as spawn_opts says; ofd: the output pipe's write end or -1. */
static int child_stdio(const struct spawn_opts *o, int ofd)
{
	int fd;

	if (!o->inherit) {
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
	}
	if (ofd >= 0)
		return dup2(ofd, 1) < 0 || (!o->keep_stderr && dup2(ofd, 2) < 0) ? -errno : 0;
	if (o->inherit)
		return 0;
	fd = open_out(o->out ? o->out : "/dev/null");
	if (fd < 0)
		return -errno;
	dup2(fd, 1);
	close(fd);
	if (o->keep_stderr)
		return 0;
	if (o->err && o->err != o->out) {
		fd = open_out(o->err);
		if (fd < 0)
			return -errno;
		dup2(fd, 2);
		close(fd);
	} else {
		dup2(1, 2);
	}
	return 0;
}

/* What a child that could not exec tells its parent through the O_CLOEXEC pipe. */
struct spawn_fail {
	int err;
	enum spawn_step step;
};

static void __attribute__((noreturn))
spawn_child(char *const argv[], const struct spawn_opts *o, int efd, int ofd)
{
	struct spawn_fail f = { 0, SPAWN_NETNS };
	ssize_t n;

	/* out of the terminal's process group first: a Ctrl-C now is the parent's to pass on */
	if (o->setsid)
		setsid();
	if (o->pgroup)
		setpgid(0, 0);
	child_reset_signals();
	if (o->netns && (f.err = enter_netns(o->netns)))
		goto fail;
	f.step = SPAWN_SETUP;
	if (o->nice && setpriority(PRIO_PROCESS, 0, o->nice)) {
		f.err = -errno;
		goto fail;
	}
	if (o->child_setup && (f.err = o->child_setup(o->child_arg)))
		goto fail;
	f.step = SPAWN_STDIO;
	if ((f.err = child_stdio(o, ofd)))
		goto fail;
	if (!argv)
		_exit(0);
	f.step = SPAWN_EXEC;
	if (o->no_path)
		execv(argv[0], argv);
	else
		execvp(argv[0], argv);
	f.err = -errno;
fail:
	n = write(efd, &f, sizeof(f));
	(void)n;
	_exit(127);
}

pid_t spawn(char *const argv[], const struct spawn_opts *o)
{
	struct spawn_fail f = { 0, SPAWN_PIPE };
	int epfd[2], opfd[2] = { -1, -1 };
	pid_t pid;
	ssize_t n;

	if (o->failed)
		*o->failed = SPAWN_PIPE;
	if (pipe2(epfd, O_CLOEXEC))
		return -errno;
	if (o->out_pipe && pipe2(opfd, O_CLOEXEC)) {
		f.err = -errno;
		close(epfd[0]);
		close(epfd[1]);
		return f.err;
	}
	/* what we printed comes before what the child prints */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		f.err = -errno;
		if (o->failed)
			*o->failed = SPAWN_FORK;
		for (int i = 0; i < 2; i++) {
			close(epfd[i]);
			if (opfd[i] >= 0)
				close(opfd[i]);
		}
		return f.err;
	}
	if (pid == 0)
		spawn_child(argv, o, epfd[1], opfd[1]);
	/* both sides set it: whichever runs first, the group exists before a signal is sent to it */
	if (o->pgroup)
		setpgid(pid, pid);
	close(epfd[1]);
	if (opfd[1] >= 0)
		close(opfd[1]);
	do
		n = read(epfd[0], &f, sizeof(f));	/* EOF on successful exec */
	while (n < 0 && errno == EINTR);
	close(epfd[0]);
	if (n == sizeof(f) && f.err) {
		if (opfd[0] >= 0)
			close(opfd[0]);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		if (o->failed)
			*o->failed = f.step;
		return f.err;
	}
	if (o->out_pipe)
		*o->out_pipe = opfd[0];
	return pid;
}

static int exit_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int proc_poll(pid_t pid, int *wstatus)
{
	pid_t w;
	int st;

	do
		w = waitpid(pid, &st, WNOHANG);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	if (w == 0)
		return -EAGAIN;
	if (wstatus)
		*wstatus = st;
	return exit_code(st);
}

int proc_wait(pid_t pid, int timeout_ms, int *wstatus)
{
	double end = now_s() + timeout_ms / 1000.0;
	int st, r;

	if (timeout_ms < 0) {
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR)
				return -errno;
		if (wstatus)
			*wstatus = st;
		return exit_code(st);
	}
	while ((r = proc_poll(pid, wstatus)) == -EAGAIN) {
		if (now_s() > end) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			return -ETIMEDOUT;
		}
		sleep_ms(10);
	}
	return r;
}

/* All of fd to its EOF, the first len-1 bytes kept, NUL-terminated, trailing newlines cut. */
static void read_capped(int fd, char *out, size_t len)
{
	char sink[512];
	size_t n = 0;
	ssize_t r;

	while ((r = read(fd, n + 1 < len ? out + n : sink,
			 n + 1 < len ? len - 1 - n : sizeof(sink))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (n + 1 < len)
			n += r;
	}
	out[n] = '\0';
	while (n && out[n - 1] == '\n')
		out[--n] = '\0';
}

/* A line of run_cmd's for what its child could not do: into out, or on stderr when not captured. */
static void __attribute__((format(printf, 3, 4)))
cmd_say(char *out, size_t outlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (out) {
		vsnprintf(out, outlen, fmt, ap);
	} else {
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

int run_cmd(char *const argv[], const char *netns, char *out, size_t outlen)
{
	enum spawn_step step;
	struct spawn_opts o = { .netns = netns, .inherit = true, .failed = &step };
	int fd = -1;
	pid_t pid;

	if (out)
		o.out_pipe = &fd;
	pid = spawn(argv, &o);
	if (pid < 0 && step == SPAWN_NETNS) {
		cmd_say(out, outlen, "couldn't enter netns %s", netns);
		return 126;
	}
	if (pid < 0 && step > SPAWN_FORK) {
		cmd_say(out, outlen, "couldn't run %s: %s", argv[0], errno_str(-pid));
		return 127;
	}
	if (pid < 0)
		return pid;
	if (out) {
		read_capped(fd, out, outlen);
		close(fd);
	}
	return proc_wait(pid, -1, NULL);
}

void reap_children(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

int limit_file_size(size_t max)
{
	struct rlimit rl = { .rlim_cur = max, .rlim_max = max };
	struct sigaction sa = { .sa_handler = SIG_IGN };

	/* the default of SIGXFSZ kills: QEMU would die at its cap without a word */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGXFSZ, &sa, NULL) || setrlimit(RLIMIT_FSIZE, &rl))
		return -errno;
	return 0;
}

static bool proc_stat(pid_t pid, char *state, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* comm may hold spaces */
	if (!p)
		return false;
	/* fields after comm: 3 state ... 22 starttime */
	if (sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
		   state, start) != 2)
		return false;
	return true;
}

unsigned long long proc_starttime(pid_t pid)
{
	char st;
	unsigned long long start;

	return proc_stat(pid, &st, &start) ? start : 0;
}

bool proc_alive(pid_t pid, unsigned long long start)
{
	char st;
	unsigned long long s;

	if (pid <= 0 || !proc_stat(pid, &st, &s))
		return false;
	if (st == 'Z' || st == 'X')
		return false;
	return !start || s == start;
}

int proc_kill(pid_t pid, unsigned long long start, int timeout_ms)
{
	double deadline;

	/* no identity given: take it now, so the SIGKILL seconds later can't hit a reused pid */
	if (!start)
		start = proc_starttime(pid);
	if (!proc_alive(pid, start))
		return 0;
	kill(pid, SIGTERM);
	for (deadline = now_s() + timeout_ms / 1000.0; now_s() < deadline;) {
		reap_children();
		if (!proc_alive(pid, start))
			return 0;
		sleep_ms(10);
	}
	pr_warn("pid %d ignored SIGTERM for %d ms: sending SIGKILL", pid, timeout_ms);
	kill(pid, SIGKILL);
	for (deadline = now_s() + 5; now_s() < deadline;) {
		reap_children();
		if (!proc_alive(pid, start))
			return 0;
		sleep_ms(10);
	}
	return -ETIMEDOUT;
}

long proc_rss_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* The quoted runs: the first stopping signal, how many came, and the group of the child running now. */
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
	int st = proc_wait(pid, -1, NULL);

	if (st < 0) {
		pr_warn("waitpid %s: %s", what, errno_str(-st));
		return -1;
	}
	return st;
}

/*
 * spawn argv with stdout (and stderr too when err_too) into *rfd: a group
 * of its own, so that the tool alone decides what a signal does to it (a
 * terminal's Ctrl-C reaches the tool's group only), stdin /dev/null (a
 * background group reading the terminal would stop). A child that could
 * not exec is said as its own line would have said it: step SPAWN_EXEC.
 */
static pid_t spawn_group(char *const argv[], int *rfd, bool err_too, int nice_inc, bool stoppable,
			 enum spawn_step *step)
{
	struct spawn_opts o = { .out_pipe = rfd, .keep_stderr = !err_too, .pgroup = true,
				.nice = nice_inc, .failed = step };
	pid_t pid = spawn(argv, &o);

	if (pid < 0) {
		if (*step == SPAWN_FORK)
			pr_warn("fork: %s", errno_str(-pid));
		return pid;
	}
	child_pg = pid;
	/* a signal before child_pg was set found no group to stop */
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
 * keep the tool waiting past that.
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
	enum spawn_step step;
	int fd = -1, rfd, st;
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
	pid = spawn_group(argv, &rfd, true, nice_inc, true, &step);
	if (pid < 0) {
		char line[512];

		if (fd >= 0)
			close(fd);
		if (step == SPAWN_PIPE)
			pr_warn("pipe: %s", errno_str(-pid));
		if (step == SPAWN_PIPE || step == SPAWN_FORK)
			return -1;
		/* the child's line on the pipe, had it said it itself */
		if (step == SPAWN_EXEC) {
			snprintf(line, sizeof(line), "%s: %s: %s", log_prog_name(), argv[0], strerror(-pid));
			quote_line(line, strlen(line), &k);
			fflush(stdout);
		}
		return 127;
	}
	quote_output(rfd, &k, pid, argv[0]);
	close(rfd);
	st = wait_child(pid, argv[0]);
	child_pg = 0;
	if (fd >= 0)
		close(fd);	/* the lock goes with it */
	return st;
}

int proc_capture(char *const argv[], char *out, size_t len)
{
	enum spawn_step step;
	int rfd, st;
	pid_t pid;

	out[0] = '\0';
	pid = spawn_group(argv, &rfd, false, 0, false, &step);
	if (pid < 0) {
		if (step == SPAWN_PIPE || step == SPAWN_FORK)
			return -1;
		if (step == SPAWN_EXEC)
			fprintf(stderr, "%s: %s: %s\n", log_prog_name(), argv[0], strerror(-pid));
		return 127;
	}
	read_capped(rfd, out, len);
	close(rfd);
	st = wait_child(pid, argv[0]);
	child_pg = 0;
	return st;
}
