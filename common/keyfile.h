/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MAC key file that bpfwire-agent and bpfwire-recv both read (wire v2's
 * SipHash-2-4 key): 32 hex digits, the first pair is key byte 0, whitespace
 * anywhere between them, nothing else.
 */
#ifndef BPFWIRE_COMMON_KEYFILE_H
#define BPFWIRE_COMMON_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#define KEY_FILE_KEY_LEN	16

/* 0, or -1 with the reason in err; key is zeroed on failure. Messages name
 * positions, never the key's characters. */
int key_parse(const char *text, uint8_t key[KEY_FILE_KEY_LEN], char *err,
	      size_t errlen);

/*
 * A regular file, not a symlink, that neither group nor others can read or
 * write (a key others can read or replace is none). The read buffer is
 * wiped; on failure so is key.
 */
int key_file_read(const char *path, uint8_t key[KEY_FILE_KEY_LEN], char *err,
		  size_t errlen);

#endif /* BPFWIRE_COMMON_KEYFILE_H */
