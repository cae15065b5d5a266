// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errnames.h"
#include "log.h"
#include "timeutil.h"
#include "util.h"

volatile sig_atomic_t lab_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	lab_interrupted = 1;
}

void lab_install_signals(void)
{
	/* SA_RESTART: a read in progress is no place to end; the waits poll lab_interrupted */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
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

/*
 * Everything in the directory dfd (which it closes), by fd: a link is
 * unlinked, never followed, and a dir swapped for a link meanwhile fails
 * its O_NOFOLLOW open instead of being entered. The first error, or 0.
 */
static int empty_fd(int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		ret = -errno;
		close(dfd);
		return ret;
	}
	while ((e = readdir(d))) {
		int r = 0, sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!unlinkat(dirfd(d), e->d_name, 0))
			continue;
		if (errno != EISDIR) {
			r = errno == ENOENT ? 0 : -errno;
		} else {
			sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			r = sub < 0 ? -errno : empty_fd(sub);
			if (!r && unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR))
				r = -errno;
		}
		if (r && !ret)
			ret = r;
	}
	closedir(d);
	return ret;
}

int dir_empty(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : empty_fd(fd);
}

int rm_rf(const char *path)
{
	int r;

	if (!unlink(path) || errno == ENOENT)
		return 0;
	if (errno != EISDIR)
		return -errno;
	r = dir_empty(path);
	if (r)
		return r;
	return rmdir(path) ? -errno : 0;
}

bool find_program(const char *prog, char *out, size_t outlen)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(prog, '/')) {
		snprintf(out, outlen, "%s", prog);
		return access(prog, X_OK) == 0;
	}
	/* lab tools live in sbin; search it even when PATH lacks it */
	snprintf(buf, sizeof(buf), "%s:/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin",
		 path ? path : "");
	for (char *save, *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, outlen, "%s/%s", dir, prog);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
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

pid_t spawn(char *const argv[], const struct spawn_opts *o)
{
	int pfd[2];
	pid_t pid;
	int err = 0;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return err;
	}
	if (pid == 0) {
		int fd;

		child_reset_signals();
		if (o->setsid)
			setsid();
		if (o->netns && (err = enter_netns(o->netns)))
			goto fail;
		if (o->child_setup && (err = o->child_setup(o->child_arg)))
			goto fail;
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		fd = open(o->out ? o->out : "/dev/null", O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
		if (fd < 0) {
			err = -errno;
			goto fail;
		}
		dup2(fd, 1);
		close(fd);
		if (o->err && o->err != o->out) {
			fd = open(o->err, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
			if (fd < 0) {
				err = -errno;
				goto fail;
			}
			dup2(fd, 2);
			close(fd);
		} else {
			dup2(1, 2);
		}
		execvp(argv[0], argv);
		err = -errno;
fail:
		n = write(pfd[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], &err, sizeof(err));	/* EOF on successful exec */
	close(pfd[0]);
	if (n == sizeof(err) && err) {
		waitpid(pid, NULL, 0);
		return err;
	}
	return pid;
}

int run_cmd(char *const argv[], const char *netns, char *out, size_t outlen)
{
	int pfd[2] = { -1, -1 }, status;
	pid_t pid;
	size_t n = 0;

	if (out && pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		child_reset_signals();
		if (netns && enter_netns(netns)) {
			fprintf(stderr, "couldn't enter netns %s\n", netns);
			_exit(126);
		}
		if (out) {
			dup2(pfd[1], 1);
			dup2(pfd[1], 2);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "couldn't run %s: %s\n", argv[0], errno_str(errno));
		_exit(127);
	}
	if (out) {
		ssize_t r;
		char sink[512];

		close(pfd[1]);
		while ((r = read(pfd[0], n + 1 < outlen ? out + n : sink,
				 n + 1 < outlen ? outlen - 1 - n : sizeof(sink))) != 0) {
			if (r < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			if (n + 1 < outlen)
				n += r;
		}
		close(pfd[0]);
		out[n] = '\0';
		while (n && out[n - 1] == '\n')
			out[--n] = '\0';
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

void reap_children(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *base64_encode(const void *data, size_t len)
{
	const unsigned char *d = data;
	char *out = malloc(4 * ((len + 2) / 3) + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = d[i] << 16 | (i + 1 < len ? d[i + 1] << 8 : 0) | (i + 2 < len ? d[i + 2] : 0);

		*o++ = b64[v >> 18 & 63];
		*o++ = b64[v >> 12 & 63];
		*o++ = i + 1 < len ? b64[v >> 6 & 63] : '=';
		*o++ = i + 2 < len ? b64[v & 63] : '=';
	}
	*o = '\0';
	return out;
}

ssize_t base64_decode(const char *in, void *out, size_t outlen)
{
	unsigned char *o = out;
	unsigned v = 0;
	int bits = 0;
	size_t n = 0;

	for (; *in && *in != '='; in++) {
		const char *p = strchr(b64, *in);

		if (*in == '\n' || *in == '\r')
			continue;
		if (!p || !*in)
			return -1;
		v = v << 6 | (unsigned)(p - b64);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n == outlen)
				return -1;
			o[n++] = (unsigned char)(v >> bits);
		}
	}
	return (ssize_t)n;
}

void shell_quote(const char *s, char *out, size_t outlen)
{
	size_t n = 0;

	if (outlen < 3) {
		if (outlen)
			out[0] = '\0';
		return;
	}
	out[n++] = '\'';
	for (; *s && n + 5 < outlen; s++) {
		if (*s == '\'') {
			memcpy(out + n, "'\\''", 4);
			n += 4;
		} else {
			out[n++] = *s;
		}
	}
	out[n++] = '\'';
	out[n] = '\0';
}

void argv_add(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (a->n >= (int)ARRAY_SIZE(a->v) - 1)
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
