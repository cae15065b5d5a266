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

static void key_bad(const char *dir, const char *name, const char *text, mode_t mode,
		    const char *msg)
{
	char path[512], err[512] = "", label[128];
	uint8_t key[KEY_FILE_KEY_LEN];

	put_file(path, sizeof(path), dir, name, text, mode);
	snprintf(label, sizeof(label), "refuse key file %s", name);
	ASSERT_EQ(key_file_read(path, key, err, sizeof(err)), -1, label);
	snprintf(label, sizeof(label), "message for key file %s", name);
	ASSERT_HAS(err, msg, label);
	/* A refused key is never half read, and no message quotes it. */
	ASSERT_EQ(key[0] | key[7] | key[15], 0, "refused key left zero");
	ASSERT_EQ(strstr(err, "0123456789abcdef") == NULL, 1, "message does not quote the key");
}

static void test_key_file(void)
{
	static const uint8_t want[16] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
				       0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
	char dir[] = "/tmp/bw-test-key.XXXXXX", path[512], link[512], err[512];
	uint8_t key[KEY_FILE_KEY_LEN];

	if (!ASSERT_OK_PTR(mkdtemp(dir), "mkdtemp"))
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

/* Issue 34: 64 digits are the MAC key, then the encryption key. */
static void test_key_pair(void)
{
	static const uint8_t mac[16] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
				      0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
	static const uint8_t enc[16] = { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
				      0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c };
	char dir[] = "/tmp/bw-test-key2.XXXXXX", path[512], err[512];
	uint8_t key[KEY_FILE_KEY_LEN];
	struct key_pair k;

	if (!ASSERT_OK_PTR(mkdtemp(dir), "mkdtemp"))
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

int main(void)
{
	test_key_file();
	test_key_pair();
	return tap_done();
}
