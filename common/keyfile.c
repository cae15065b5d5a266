// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Root, or the user we run as: the two OpenSSH's StrictModes trust. */
static int trusted_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* The checks on the open file, before a byte of it is read. */
static int key_file_check(int fd, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st))
		ERR("couldn't stat key file %s: %s", path, errno_str(-errno));
	if (!S_ISREG(st.st_mode))
		ERR("key file %s is not a regular file", path);
	if (!trusted_owner(st.st_uid))
		ERR("key file %s is owned by uid %u, not root or you (uid %u)", path,
		    (unsigned)st.st_uid, (unsigned)geteuid());
	if (st.st_mode & (S_IRGRP | S_IROTH | S_IWGRP | S_IWOTH))
		ERR("key file %s can be %s by group or others (mode %04o): chmod 600 %s",
		    path, st.st_mode & (S_IRGRP | S_IROTH) ? "read" : "written",
		    (unsigned)(st.st_mode & 07777), path);
	return 0;
}

/* One directory of the key's path, held open. */
static int key_dir_check(int fd, const char *path, const char *dir, char *err,
			 size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st))
		ERR("key file %s: couldn't stat directory %s: %s", path, dir,
		    errno_str(-errno));
	if (!trusted_owner(st.st_uid))
		ERR("key file %s: directory %s is owned by uid %u, not root or you (uid %u)",
		    path, dir, (unsigned)st.st_uid, (unsigned)geteuid());
	/* A sticky bit does not help: OpenSSH refuses a key under /tmp too. */
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		ERR("key file %s: directory %s can be written by group or others (mode %04o): "
		    "keep the key where only root or you can write", path, dir,
		    (unsigned)(st.st_mode & 07777));
	return 0;
}

/*
 * OpenSSH's StrictModes (misc.c, safe_path()): whoever can write a directory
 * on the way can put another key in place, so every directory from / down
 * must be root's or ours and writable by no one else. The directories are
 * those of realpath() (symlinks in them resolved, as OpenSSH does), walked
 * from / with O_NOFOLLOW and checked on the descriptor held, so the file is
 * opened in the very directory that was checked. The last component is never
 * followed. Returns the file's descriptor, or -1 with err set.
 */
static int key_file_open(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir, *real = NULL, *comp, *save = NULL;
	int fd = -1, dfd, nfd;

	dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!dir)
		ERR("couldn't open key file %s: %s", path, errno_str(-ENOMEM));
	real = realpath(dir, NULL);
	nfd = errno;
	free(dir);
	if (!real)
		ERR("couldn't open key file %s: %s", path, errno_str(-nfd));
	dfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		snprintf(err, errlen, "key file %s: couldn't open directory /: %s", path,
			 errno_str(-errno));
		goto out;
	}
	if (key_dir_check(dfd, path, "/", err, errlen))
		goto out;
	for (comp = strtok_r(real, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		nfd = openat(dfd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		comp[-1] = '/';		/* real is the path so far again */
		if (nfd < 0) {
			snprintf(err, errlen, "key file %s: couldn't open directory %s: %s",
				 path, real, errno_str(-errno));
			goto out;
		}
		close(dfd);
		dfd = nfd;
		if (key_dir_check(dfd, path, real, err, errlen))
			goto out;
	}
	/* O_NONBLOCK: a FIFO must not hang the reader before fstat refuses it. */
	fd = openat(dfd, *base ? base : ".",
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			snprintf(err, errlen, "key file %s is a symbolic link: name the file itself",
				 path);
		else
			snprintf(err, errlen, "couldn't open key file %s: %s", path,
				 errno_str(-errno));
	}
out:
	if (dfd >= 0)
		close(dfd);
	free(real);
	return fd;
}

int key_file_read_pair(const char *path, struct key_pair *k, char *err,
		       size_t errlen)
{
	char buf[KEY_FILE_MAX + 1], why[160];
	ssize_t n;
	int fd, ret = -1;

	memset(k, 0, sizeof(*k));
	fd = key_file_open(path, err, errlen);
	if (fd < 0)
		return -1;
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
