// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire's sysctl helpers for a tree that has none (sysctl_helpers.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sysctl_helpers.h"
#include "test_progs.h"

static int sysctl_file(const char *sysctl_path, char *out, size_t len)
{
	size_t i;

	if (strncmp(sysctl_path, "/proc/sys/", 10) == 0) {
		snprintf(out, len, "%s", sysctl_path);
		return 0;
	}
	if (snprintf(out, len, "/proc/sys/%s", sysctl_path) >= (int)len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (i = 10; out[i]; i++)
		if (out[i] == '.')
			out[i] = '/';
	return 0;
}

int sysctl_set(const char *sysctl_path, char *old_val, const char *new_val)
{
	char path[256];
	ssize_t n;
	int fd;

	if (sysctl_file(sysctl_path, path, sizeof(path)))
		return -1;
	if (old_val) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		n = read(fd, old_val, 127);
		close(fd);
		if (n < 0)
			return -1;
		old_val[n] = 0;
		old_val[strcspn(old_val, "\n")] = 0;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, new_val, strlen(new_val));
	close(fd);
	if (n != (ssize_t)strlen(new_val)) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

int sysctl_set_or_fail(const char *sysctl_path, char *old_val, const char *new_val)
{
	int err = sysctl_set(sysctl_path, old_val, new_val);

	if (err)
		PRINT_FAIL("sysctl %s = %s: %s\n", sysctl_path, new_val, strerror(errno));
	return err;
}
