/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef BPFWIRE_LAB_UTIL_H
#define BPFWIRE_LAB_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The file, time and process helpers are common/'s; lab/ gets them through here. */

/*
 * The most the lab reads of a file a guest or a remote sized (a report, a
 * console, ssh's output), and the most QEMU may write to any one file (its
 * console, its log, a guest's file in its share): 32 MiB. Past it a read is
 * refused with a reason, never cut short in silence.
 */
#define LAB_DATA_MAX (32u << 20)

/* Set by SIGINT, SIGTERM and SIGHUP once lab_install_signals() ran. */
extern volatile sig_atomic_t lab_interrupted;
void lab_install_signals(void);

/*
 * rm -rf, and the same for what is in a dir (the dir stays): by fd, a link
 * is removed, never followed (a guest's share may hold any). 0 or -errno.
 */
int rm_rf(const char *path);
int dir_empty(const char *path);
/* First executable named prog in PATH (or prog itself if it has a '/'). */
bool find_program(const char *prog, char *out, size_t outlen);

/* base64 (RFC 4648); decode returns the length or -1. */
char *base64_encode(const void *data, size_t len);
ssize_t base64_decode(const char *in, void *out, size_t outlen);

/* Quote s for a POSIX shell, into out. */
void shell_quote(const char *s, char *out, size_t outlen);

#endif
