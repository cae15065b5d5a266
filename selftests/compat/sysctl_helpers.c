// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire's sysctl helpers for a tree that has none (sysctl_helpers.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sysctl_helpers.h"
#include "test_progs.h"

int sysctl_set(const char *sysctl_path, char *old_val, const char *new_val)
{
	ssize_t n;
	int fd;

	if (old_val) {
		fd = open(sysctl_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		n = read(fd, old_val, 127);
		close(fd);
		if (n < 0)
			return -errno;
		old_val[n] = 0;
		old_val[strcspn(old_val, "\n")] = 0;
	}
	fd = open(sysctl_path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, new_val, strlen(new_val));
	close(fd);
	if (n < 0)
		return -errno;
	return n == (ssize_t)strlen(new_val) ? 0 : -EIO;
}

int sysctl_set_or_fail(const char *sysctl_path, char *old_val, const char *new_val)
{
	int err = sysctl_set(sysctl_path, old_val, new_val);

	if (err)
		PRINT_FAIL("sysctl %s = %s: %s\n", sysctl_path, new_val, strerror(-err));
	return err;
}
