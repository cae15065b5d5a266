/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * File helpers. Whole-file reads and writes never follow a symlink in the
 * last component (O_NOFOLLOW): the lab writes beside files a guest made.
 */
#ifndef BPFWIRE_COMMON_FILE_H
#define BPFWIRE_COMMON_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* 0, or -errno; existing directories are fine. */
int mkdir_p(const char *path, mode_t mode);
/* n bytes of s, NULs and all, then a NUL; malloc'd, NULL on ENOMEM. */
char *memdupz(const char *s, size_t n);
/* NUL-terminated and malloc'd; NULL with errno set. len may be NULL. */
char *read_file(const char *path, size_t *len);
/*
 * read_file for data a guest, a remote or a sandbox wrote: NULL with EFBIG
 * when the file holds more than max bytes (reading stops once past max),
 * EINVAL when it is no plain file (a FIFO would block the reader).
 */
char *read_file_max(const char *path, size_t *len, size_t max);
/* The same as read_file for a path the user named, which may well be a symlink. */
char *read_user_file(const char *path, size_t *len);
/* Create or truncate, then write; -errno. */
int write_file(const char *path, const char *text);
/* Like write_file, but the file must not exist yet (O_EXCL). */
int write_file_new(const char *path, const char *text);
/* Write PATH.tmpPID, then rename over path; -errno. */
int write_file_atomic(const char *path, const char *text);
bool file_exists(const char *path);

#endif /* BPFWIRE_COMMON_FILE_H */
