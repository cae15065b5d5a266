// SPDX-License-Identifier: GPL-2.0-only
/* The key file reader that bpfwire-agent and bpfwire-recv share. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keyfile.h"
#include "tap.h"

/* Writes text to dir/name with mode (chmod: the umask must not decide). */
static void put_file(char *path, size_t len, const char *dir, const char *name,
		     const char *text, mode_t mode)
{
	int fd;

	snprintf(path, len, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
			printf("# short write to %s\n", path);
		close(fd);
	}
	chmod(path, mode);
}

/* Refused with msg; owner other than -1 is chown'ed to first. */
static void key_bad_owned(const char *dir, const char *name, const char *text, mode_t mode,
			  uid_t owner, const char *msg)
{
	char path[512], err[512] = "", label[128];
	uint8_t key[KEY_FILE_KEY_LEN];

	put_file(path, sizeof(path), dir, name, text, mode);
	if (owner != (uid_t)-1 && chown(path, owner, (gid_t)-1))
		printf("# couldn't chown %s to %u\n", path, (unsigned)owner);
	snprintf(label, sizeof(label), "refuse key file %s", name);
	ASSERT_EQ(key_file_read(path, key, err, sizeof(err)), -1, label);
	snprintf(label, sizeof(label), "message for key file %s", name);
	ASSERT_HAS(err, msg, label);
	/* A refused key is never half read, and no message quotes it. */
	ASSERT_EQ(key[0] | key[7] | key[15], 0, "refused key left zero");
	ASSERT_EQ(strstr(err, "0123456789abcdef") == NULL, 1, "message does not quote the key");
}

static void key_bad(const char *dir, const char *name, const char *text, mode_t mode,
		    const char *msg)
{
	key_bad_owned(dir, name, text, mode, (uid_t)-1, msg);
}

static void test_key_file(void)
{
	static const uint8_t want[16] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
				       0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
	char dir[200], path[512], link[512], err[512];
	uint8_t key[KEY_FILE_KEY_LEN];

	if (!ASSERT_OK_PTR(tap_private_dir(dir, sizeof(dir), "bw-test-key"), "private dir"))
		return;
	put_file(path, sizeof(path), dir, "good", "00010203 04050607\n08090A0B 0c0d0e0f\n", 0600);
	if (!ASSERT_OK(key_file_read(path, key, err, sizeof(err)), "read a 0600 key file"))
		printf("#   %s\n", err);
	ASSERT_MEMEQ(key, want, 16, "key bytes, whitespace and case ignored");
	put_file(path, sizeof(path), dir, "owner-only", "000102030405060708090a0b0c0d0e0f", 0400);
	ASSERT_OK(key_file_read(path, key, err, sizeof(err)), "0400, no newline");

	key_bad(dir, "group-read", "0123456789abcdef0123456789abcdef\n", 0640,
		"can be read by group or others (mode 0640): chmod 600");
	key_bad(dir, "other-read", "0123456789abcdef0123456789abcdef\n", 0604,
		"can be read by group or others (mode 0604)");
	key_bad(dir, "group-write", "0123456789abcdef0123456789abcdef\n", 0620,
		"can be written by group or others (mode 0620)");
	key_bad(dir, "short", "0123456789abcdef0123456789abcde\n", 0600,
		"31 hex digits; need 32");
	key_bad(dir, "long", "0123456789abcdef0123456789abcdef00\n", 0600,
		"34 hex digits; need 32");
	key_bad(dir, "empty", "", 0600, "0 hex digits; need 32");
	key_bad(dir, "not-hex", "0123456789abcdef0123456789abcdeg\n", 0600,
		"byte 32 is neither a hex digit nor whitespace");
	key_bad(dir, "prefixed", "0x0123456789abcdef0123456789abcdef\n", 0600,
		"byte 2 is neither a hex digit nor whitespace");

	/* A symlink to a good file is still refused: name the file itself. */
	put_file(path, sizeof(path), dir, "target", "000102030405060708090a0b0c0d0e0f", 0600);
	snprintf(link, sizeof(link), "%s/link", dir);
	if (ASSERT_OK(symlink(path, link), "symlink"))
		ASSERT_EQ(key_file_read(link, key, err, sizeof(err)), -1,
			  "refuse a symlinked key file");
	ASSERT_HAS(err, "is a symbolic link: name the file itself", "message for a symlink");
	ASSERT_EQ(key_file_read(dir, key, err, sizeof(err)), -1, "refuse a directory");
	ASSERT_HAS(err, "is not a regular file", "message for a directory");
	snprintf(link, sizeof(link), "%s/absent", dir);
	ASSERT_EQ(key_file_read(link, key, err, sizeof(err)), -1, "refuse a missing file");
	ASSERT_HAS(err, "(ENOENT, -2)", "message for a missing file names the errno");

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		printf("# couldn't remove %s\n", dir);
}

/* 64 digits are the MAC key, then the encryption key. */
static void test_key_pair(void)
{
	static const uint8_t mac[16] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
				      0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
	static const uint8_t enc[16] = { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
				      0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c };
	char dir[200], path[512], err[512];
	uint8_t key[KEY_FILE_KEY_LEN];
	struct key_pair k;

	if (!ASSERT_OK_PTR(tap_private_dir(dir, sizeof(dir), "bw-test-key2"), "private dir"))
		return;
	put_file(path, sizeof(path), dir, "pair",
		 "000102030405060708090a0b0c0d0e0f\n2B7E1516 28AED2A6 ABF71588 09CF4F3C\n", 0600);
	if (!ASSERT_OK(key_file_read_pair(path, &k, err, sizeof(err)), "read a 64-digit file"))
		printf("#   %s\n", err);
	ASSERT_MEMEQ(k.mac, mac, 16, "digits 1-32: the MAC key");
	ASSERT_MEMEQ(k.enc, enc, 16, "digits 33-64: the encryption key");
	ASSERT_EQ(k.has_enc, 1, "64 digits: has an encryption key");
	ASSERT_OK(key_file_read(path, key, err, sizeof(err)), "a signer reads a 64-digit file");
	ASSERT_MEMEQ(key, mac, 16, "and takes the MAC key from it");

	put_file(path, sizeof(path), dir, "mac-only", "000102030405060708090a0b0c0d0e0f", 0600);
	ASSERT_OK(key_file_read_pair(path, &k, err, sizeof(err)), "read a 32-digit file as a pair");
	ASSERT_EQ(k.has_enc, 0, "32 digits: no encryption key");
	ASSERT_MEMEQ(k.mac, mac, 16, "32 digits: the MAC key as before");

	put_file(path, sizeof(path), dir, "same",
		 "000102030405060708090a0b0c0d0e0f 000102030405060708090a0b0c0d0e0f", 0600);
	ASSERT_EQ(key_file_read_pair(path, &k, err, sizeof(err)), -1, "refuse equal halves");
	ASSERT_HAS(err, "equals the MAC key (digits 1-32): give two distinct keys",
		   "message for equal halves");
	ASSERT_EQ(k.mac[1] | k.enc[1] | k.has_enc, 0, "equal halves: both keys left zero");
	ASSERT_EQ(key_file_read(path, key, err, sizeof(err)), -1,
		  "a signer refuses equal halves too");

	key_bad(dir, "sixty-three", "000102030405060708090a0b0c0d0e0f2b7e151628aed2a6abf7158809cf4f3\n",
		0600, "63 hex digits; need 32 (a 128-bit MAC key) or 64");
	key_bad(dir, "sixty-five", "000102030405060708090a0b0c0d0e0f2b7e151628aed2a6abf7158809cf4f3c0\n",
		0600, "65 hex digits; need 32");
	key_bad(dir, "pair-group-read",
		"000102030405060708090a0b0c0d0e0f2b7e151628aed2a6abf7158809cf4f3c\n", 0640,
		"can be read by group or others (mode 0640)");
	ASSERT_OK(key_parse_pair("000102030405060708090a0b0c0d0e0f"
				 "2b7e151628aed2a6abf7158809cf4f3c", &k, err, sizeof(err)),
		  "key_parse_pair of 64 digits");
	ASSERT_EQ(strstr(err, "2b7e") == NULL, 1, "no message quotes a key");

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		printf("# couldn't remove %s\n", dir);
}

/* A private directory dir/name made with mode (chmod: not the umask's). */
static void put_dir(char *path, size_t len, const char *dir, const char *name, mode_t mode)
{
	snprintf(path, len, "%s/%s", dir, name);
	if (mkdir(path, 0700) || chmod(path, mode))
		printf("# couldn't make %s\n", path);
}

/*
 * OpenSSH's StrictModes: what another local user would do to have the lab
 * use a key of theirs. The file or any directory on its way owned by
 * someone else, or writable by group or others, /tmp's sticky bit included.
 */
static void test_key_path(void)
{
	static const char *hex = "0123456789abcdef0123456789abcdef\n";
	char dir[200], sub[320], link[320], path[512], err[512];
	uint8_t key[KEY_FILE_KEY_LEN];
	struct stat st;
	int fd;

	if (!ASSERT_OK_PTR(tap_private_dir(dir, sizeof(dir), "bw-test-keypath"), "private dir"))
		return;
	printf("# key files under %s and its subdirectories\n", dir);
	put_dir(sub, sizeof(sub), dir, "private", 0700);
	put_file(path, sizeof(path), sub, "good", hex, 0600);
	if (!ASSERT_OK(key_file_read(path, key, err, sizeof(err)), "a 0600 key in a 0700 dir"))
		printf("#   %s\n", err);

	key_bad(dir, "group-write-key", hex, 0660, "can be read by group or others (mode 0660)");
	key_bad(dir, "other-write-key", hex, 0602, "can be written by group or others (mode 0602)");

	put_dir(sub, sizeof(sub), dir, "world-writable", 0777);
	key_bad(sub, "key", hex, 0600, "/world-writable can be written by group or others "
		"(mode 0777): keep the key where only root or you can write");
	put_dir(sub, sizeof(sub), dir, "sticky", 01777);
	key_bad(sub, "key", hex, 0600, "/sticky can be written by group or others (mode 1777)");
	put_dir(sub, sizeof(sub), dir, "group-writable", 0770);
	key_bad(sub, "key", hex, 0600, "/group-writable can be written by group or others (mode 0770)");
	/* A safe dir below a writable one: whoever writes the upper one can rename it. */
	put_dir(sub, sizeof(sub), dir, "world-writable/inner", 0700);
	key_bad(sub, "key", hex, 0600, "/world-writable can be written by group or others");

	/* A symlinked directory is resolved, then walked as OpenSSH does. */
	snprintf(link, sizeof(link), "%s/to-private", dir);
	snprintf(sub, sizeof(sub), "%s/private", dir);
	if (ASSERT_OK(symlink(sub, link), "symlink to the private dir")) {
		snprintf(path, sizeof(path), "%s/good", link);
		ASSERT_OK(key_file_read(path, key, err, sizeof(err)),
			  "a key through a symlinked safe dir");
	}
	snprintf(link, sizeof(link), "%s/to-world-writable", dir);
	snprintf(sub, sizeof(sub), "%s/world-writable", dir);
	if (ASSERT_OK(symlink(sub, link), "symlink to the world-writable dir")) {
		snprintf(path, sizeof(path), "%s/key", link);
		ASSERT_EQ(key_file_read(path, key, err, sizeof(err)), -1,
			  "a key through a symlinked world-writable dir");
		ASSERT_HAS(err, "/world-writable can be written by group or others",
			   "message names the real dir");
	}

	/* The real /tmp, where keys used to be written. */
	if (!stat("/tmp", &st) && (st.st_mode & 07777) == 01777) {
		snprintf(path, sizeof(path), "/tmp/bw-test-key.XXXXXX");
		fd = mkstemp(path);
		if (ASSERT_GE(fd, 0, "mkstemp in /tmp")) {
			if (write(fd, hex, strlen(hex)) != (ssize_t)strlen(hex))
				printf("# short write to %s\n", path);
			close(fd);
			ASSERT_EQ(key_file_read(path, key, err, sizeof(err)), -1,
				  "a 0600 key in /tmp refused");
			ASSERT_HAS(err, "directory /tmp can be written by group or others (mode 1777)",
				   "message for a key in /tmp");
			unlink(path);
		}
	} else {
		printf("# /tmp is not mode 1777 here: that case left out\n");
	}

	if (geteuid() == 0) {
		key_bad_owned(dir, "nobody-key", hex, 0600, 65534,
			      "is owned by uid 65534, not root or you (uid 0)");
		put_dir(sub, sizeof(sub), dir, "nobody-dir", 0700);
		if (chown(sub, 65534, (gid_t)-1))
			printf("# couldn't chown %s\n", sub);
		key_bad(sub, "key", hex, 0600,
			"/nobody-dir is owned by uid 65534, not root or you (uid 0)");
	} else {
		printf("# not root: the chown cases (a key or its dir owned by uid 65534) left out\n");
	}

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		printf("# couldn't remove %s\n", dir);
}

int main(void)
{
	test_key_file();
	test_key_pair();
	test_key_path();
	return tap_done();
}
