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

/* Far more than 64 digits and their spacing: anything longer is not a key. */
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

int key_parse_pair(const char *text, struct key_pair *k, char *err, size_t errlen)
{
	uint8_t raw[2 * KEY_FILE_KEY_LEN] = { 0 };
	size_t i, n = 0;

	memset(k, 0, sizeof(*k));
	for (i = 0; text[i]; i++) {
		int v = hex_value(text[i]);

		if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
		    text[i] == '\r')
			continue;
		if (v < 0) {
			explicit_bzero(raw, sizeof(raw));
			ERR("byte %zu is neither a hex digit nor whitespace; need 32 hex "
			    "digits (or 64)", i + 1);
		}
		if (n < 4 * KEY_FILE_KEY_LEN)
			raw[n / 2] |= v << (n % 2 ? 0 : 4);
		n++;
	}
	if (n != 2 * KEY_FILE_KEY_LEN && n != 4 * KEY_FILE_KEY_LEN) {
		explicit_bzero(raw, sizeof(raw));
		ERR("%zu hex digits; need 32 (a 128-bit MAC key) or 64 (the MAC key, "
		    "then the encryption key)", n);
	}
	memcpy(k->mac, raw, KEY_FILE_KEY_LEN);
	if (n == 4 * KEY_FILE_KEY_LEN) {
		memcpy(k->enc, raw + KEY_FILE_KEY_LEN, KEY_FILE_KEY_LEN);
		k->has_enc = 1;
	}
	explicit_bzero(raw, sizeof(raw));
	/* One key for both jobs is what the two halves exist to prevent. */
	if (k->has_enc && !memcmp(k->mac, k->enc, KEY_FILE_KEY_LEN)) {
		explicit_bzero(k, sizeof(*k));
		ERR("the encryption key (digits 33-64) equals the MAC key (digits 1-32): "
		    "give two distinct keys");
	}
	return 0;
}

/* The MAC key of k, which is then wiped; r passes through. */
static int mac_only(int r, struct key_pair *k, uint8_t key[KEY_FILE_KEY_LEN])
{
	memcpy(key, k->mac, KEY_FILE_KEY_LEN);
	explicit_bzero(k, sizeof(*k));
	return r;
}

int key_parse(const char *text, uint8_t key[KEY_FILE_KEY_LEN], char *err,
	      size_t errlen)
{
	struct key_pair k;

	return mac_only(key_parse_pair(text, &k, err, errlen), &k, key);
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

int key_file_read_pair(const char *path, struct key_pair *k, char *err,
		       size_t errlen)
{
	char buf[KEY_FILE_MAX + 1], why[160];
	ssize_t n;
	int fd, ret = -1;

	memset(k, 0, sizeof(*k));
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
		snprintf(err, errlen, "bad key in %s: over %d bytes; need 32 hex digits (or 64)",
			 path, KEY_FILE_MAX);
		goto out;
	}
	buf[n] = 0;
	if (strlen(buf) != (size_t)n) {
		snprintf(err, errlen, "bad key in %s: a NUL byte; need 32 hex digits (or 64)",
			 path);
		goto out;
	}
	if (key_parse_pair(buf, k, why, sizeof(why))) {
		snprintf(err, errlen, "bad key in %s: %s", path, why);
		goto out;
	}
	ret = 0;
out:
	explicit_bzero(buf, sizeof(buf));
	close(fd);
	return ret;
}

int key_file_read(const char *path, uint8_t key[KEY_FILE_KEY_LEN], char *err,
		  size_t errlen)
{
	struct key_pair k;

	return mac_only(key_file_read_pair(path, &k, err, errlen), &k, key);
}
