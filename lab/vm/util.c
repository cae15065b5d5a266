// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
