// SPDX-License-Identifier: GPL-2.0-only
/* The machine-wide locks: see lock.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errnames.h"
#include "lock.h"
#include "log.h"

static const char *bad_dir(const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return "a symlink";
	if (!S_ISDIR(st->st_mode))
		return "not a directory";
	if (st->st_uid != 0)
		return "not root's";
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "writable by group or others";
	return NULL;
}

int lock_dir_open(const char *path, char *err, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	const char *bad;
	struct stat st;
	int fd;

	if (!slash || slash == path ||
	    snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path) >= (int)sizeof(dir)) {
		snprintf(err, len, "%s: not a lock file in a directory", path);
		return -1;
	}
	if (mkdir(dir, 0700) && errno != EEXIST) {
		snprintf(err, len, "couldn't create the lock directory %s: %s", dir, errno_str(errno));
		return -1;
	}
	/* O_PATH | O_NOFOLLOW: a link is opened itself, and seen as one */
	fd = open(dir, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, len, "the lock directory %s: %s", dir, errno_str(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	bad = bad_dir(&st);
	if (bad) {
		snprintf(err, len, "the lock directory %s is %s (uid %u, mode %04o): refusing it; "
			 "remove it and it is made anew, root's and 0700", dir, bad, (unsigned)st.st_uid,
			 (unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	return fd;
}

int lock_take(const char *path)
{
	return lock_take_until(path, NULL);
}

int lock_take_until(const char *path, const volatile sig_atomic_t *stop)
{
	char err[PATH_MAX + 256];
	int dfd = lock_dir_open(path, err, sizeof(err)), fd;

	if (dfd < 0) {
		pr_warn("%s", err);
		return -1;
	}
	fd = openat(dfd, strrchr(path, '/') + 1, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	close(dfd);
	if (fd < 0) {
		pr_warn("%s: %s", path, errno_str(errno));
		return -1;
	}
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	pr_info("waiting for %s (another kernel build or lab holds it)", path);
	/* with stop, a poll: a signal just before a blocking flock would be missed */
	while (flock(fd, stop ? LOCK_EX | LOCK_NB : LOCK_EX)) {
		if (errno != EINTR && errno != EWOULDBLOCK) {
			pr_warn("flock %s: %s", path, errno_str(errno));
			close(fd);
			return -1;
		}
		if (stop && *stop) {
			close(fd);
			return -1;
		}
		if (stop)
			usleep(200 * 1000);
	}
	return fd;
}
