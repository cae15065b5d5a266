// SPDX-License-Identifier: GPL-2.0-only
/* The MAC key file, read the same way by bpfwire-recv and the test sender. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errnames.h"
#include "keyfile.h"
#include "log.h"

#define pr_errno(err, fmt, ...) \
	pr_warn(fmt ": %s", ##__VA_ARGS__, errno_str(err))

/*
 * The key file: 32 hex digits, whitespace anywhere. Opened without following
 * a symlink and refused when group or others may read or write it, as
 * bpfwire-agent does.
 */
int bpfw_key_load(const char *path, uint8_t key[16])
{
	char buf[256];
	struct stat st;
	ssize_t n;
	int fd, i, nd = 0;

	/* O_NONBLOCK: a FIFO must not hang us before fstat refuses it. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			pr_warn("--key-file %s: is a symlink; name the key file itself", path);
		else
			pr_errno(errno, "couldn't open key file %s", path);
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		pr_warn("--key-file %s: not a regular file", path);
		close(fd);
		return -1;
	}
	/* The agent's rule (bpf/args.c): a key others can read or replace is none. */
	if (st.st_mode & (S_IRGRP | S_IROTH | S_IWGRP | S_IWOTH)) {
		pr_warn("--key-file %s: group or others can %s it (mode %04o); chmod 600 it",
			path, st.st_mode & (S_IRGRP | S_IROTH) ? "read" : "write",
			(unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0) {
		pr_errno(errno, "couldn't read key file %s", path);
		return -1;
	}
	if (n == sizeof(buf)) {
		pr_warn("--key-file %s: over %zu bytes, not a key", path, sizeof(buf) - 1);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (isspace((unsigned char)buf[i]))
			continue;
		if (!isxdigit((unsigned char)buf[i]) || nd == 32)
			break;
		key[nd / 2] = (uint8_t)(key[nd / 2] << 4 |
			(isdigit((unsigned char)buf[i]) ? buf[i] - '0' :
			 tolower((unsigned char)buf[i]) - 'a' + 10));
		nd++;
	}
	explicit_bzero(buf, sizeof(buf));
	if (i < n || nd != 32) {
		pr_warn("--key-file %s: not a key (32 hex digits, whitespace allowed)", path);
		explicit_bzero(key, 16);
		return -1;
	}
	return 0;
}

