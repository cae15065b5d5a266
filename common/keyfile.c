// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errnames.h"
#include "keyfile.h"

#define ERR(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* Far more than 32 digits and their spacing: anything longer is not a key. */
#define KEY_FILE_MAX	1024

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int key_parse(const char *text, uint8_t key[KEY_FILE_KEY_LEN], char *err,
	      size_t errlen)
{
	size_t i, n = 0;

	memset(key, 0, KEY_FILE_KEY_LEN);
	for (i = 0; text[i]; i++) {
		int v = hex_value(text[i]);

		if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
		    text[i] == '\r')
			continue;
		if (v < 0) {
			memset(key, 0, KEY_FILE_KEY_LEN);
			ERR("byte %zu is neither a hex digit nor whitespace; need 32 hex "
			    "digits", i + 1);
		}
		if (n < 2 * KEY_FILE_KEY_LEN)
			key[n / 2] |= v << (n % 2 ? 0 : 4);
		n++;
	}
	if (n != 2 * KEY_FILE_KEY_LEN) {
		memset(key, 0, KEY_FILE_KEY_LEN);
		ERR("%zu hex digits; need 32 (a 128-bit key)", n);
	}
	return 0;
}

/* The checks on the open file, before a byte of it is read. */
static int key_file_check(int fd, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st))
		ERR("couldn't stat key file %s: %s", path, errno_str(-errno));
	if (!S_ISREG(st.st_mode))
		ERR("key file %s is not a regular file", path);
	if (st.st_mode & (S_IRGRP | S_IROTH | S_IWGRP | S_IWOTH))
		ERR("key file %s can be %s by group or others (mode %04o): chmod 600 %s",
		    path, st.st_mode & (S_IRGRP | S_IROTH) ? "read" : "written",
		    (unsigned)(st.st_mode & 07777), path);
	return 0;
}

int key_file_read(const char *path, uint8_t key[KEY_FILE_KEY_LEN], char *err,
		  size_t errlen)
{
	char buf[KEY_FILE_MAX + 1], why[160];
	ssize_t n;
	int fd, ret = -1;

	memset(key, 0, KEY_FILE_KEY_LEN);
	/* O_NONBLOCK: a FIFO must not hang the reader before fstat refuses it. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			ERR("key file %s is a symbolic link: name the file itself", path);
		ERR("couldn't open key file %s: %s", path, errno_str(-errno));
	}
	if (key_file_check(fd, path, err, errlen))
		goto out;
	n = read(fd, buf, KEY_FILE_MAX + 1);
	if (n < 0) {
		snprintf(err, errlen, "couldn't read key file %s: %s", path,
			 errno_str(-errno));
		goto out;
	}
	if (n > KEY_FILE_MAX) {
		snprintf(err, errlen, "bad key in %s: over %d bytes; need 32 hex digits",
			 path, KEY_FILE_MAX);
		goto out;
	}
	buf[n] = 0;
	if (strlen(buf) != (size_t)n) {
		snprintf(err, errlen, "bad key in %s: a NUL byte; need 32 hex digits", path);
		goto out;
	}
	if (key_parse(buf, key, why, sizeof(why))) {
		snprintf(err, errlen, "bad key in %s: %s", path, why);
		goto out;
	}
	ret = 0;
out:
	explicit_bzero(buf, sizeof(buf));
	close(fd);
	return ret;
}
