/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The key file that bpfwire-agent and bpfwire-recv both read: 32 hex
 * digits, wire v2's SipHash-2-4 MAC key; or 64, the MAC key then wire v3's
 * AES-128 encryption key (bpf/README.md). The first pair is key byte 0,
 * whitespace anywhere between digits, nothing else.
 */
#ifndef BPFWIRE_COMMON_KEYFILE_H
#define BPFWIRE_COMMON_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#define KEY_FILE_KEY_LEN	16

/* A file's keys. Two distinct keys: a file whose halves are equal is refused. */
struct key_pair {
	uint8_t mac[KEY_FILE_KEY_LEN];
	uint8_t enc[KEY_FILE_KEY_LEN];
	int has_enc;		/* 64 digits: enc is the encryption key */
};

/* 0, or -1 with the reason in err; k is zeroed on failure. Messages name
 * positions, never the key's characters. */
int key_parse_pair(const char *text, struct key_pair *k, char *err, size_t errlen);

/*
 * A regular file, not a symlink, that neither group nor others can read or
 * write (a key others can read or replace is none), owned by root or the
 * caller, with every directory up to / owned by root or the caller and
 * writable by neither group nor others (OpenSSH's StrictModes; /tmp is
 * refused). The read buffer is wiped; on failure so is k.
 */
int key_file_read_pair(const char *path, struct key_pair *k, char *err,
		       size_t errlen);

/* The MAC key alone, from either form of file. */
int key_parse(const char *text, uint8_t key[KEY_FILE_KEY_LEN], char *err,
	      size_t errlen);
int key_file_read(const char *path, uint8_t key[KEY_FILE_KEY_LEN], char *err,
		  size_t errlen);

#endif /* BPFWIRE_COMMON_KEYFILE_H */
