// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"

int mkdir_p(const char *path, mode_t mode)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

static char *read_fd(int fd, size_t *len, size_t max)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t r;

	if (fd < 0)
		return NULL;
	for (;;) {
		if (n > max) {	/* refused whole, never cut short in silence */
			free(buf);
			close(fd);
			errno = EFBIG;
			return NULL;
		}
		if (cap - n < 4096) {
			size_t ncap = cap ? cap * 2 : 8192;
			char *nb = realloc(buf, ncap);

			if (!nb) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = ncap;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;	/* a signal is no end of file: read on */
		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *memdupz(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

char *read_file(const char *path, size_t *len)
{
	return read_fd(open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), len, SIZE_MAX);
}

char *read_file_max(const char *path, size_t *len, size_t max)
{
	/* O_NONBLOCK: opening a FIFO that someone planted returns at once. */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd >= 0) {
		int e = fstat(fd, &st) ? errno : S_ISREG(st.st_mode) ? 0 : EINVAL;

		if (e) {
			close(fd);
			errno = e;
			return NULL;
		}
	}
	return read_fd(fd, len, max);
}

char *read_user_file(const char *path, size_t *len)
{
	return read_fd(open(path, O_RDONLY | O_CLOEXEC), len, SIZE_MAX);
}

static int write_flags(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | flags, 0644);
	size_t n = strlen(text), off = 0;
	int ret = 0;

	if (fd < 0)
		return -errno;
	while (off < n) {
		ssize_t w = write(fd, text + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			ret = -errno;
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int write_file(const char *path, const char *text)
{
	return write_flags(path, text, O_TRUNC);
}

int write_file_new(const char *path, const char *text)
{
	return write_flags(path, text, O_EXCL);
}

int write_file_atomic(const char *path, const char *text)
{
	char tmp[4096];
	int ret;

	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, getpid());
	unlink(tmp);
	ret = write_file_new(tmp, text);
	if (ret)
		return ret;
	if (rename(tmp, path)) {
		ret = -errno;
		unlink(tmp);
	}
	return ret;
}

bool file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}
