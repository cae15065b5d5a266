/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine-wide locks: one kernel build, one lab at a time. Their files
 * live in a directory only root can write: a lock file in /tmp is one that
 * any local user can hold forever, or make first so that root's O_CREAT
 * open of it fails (fs.protected_regular). Shell takes them with
 * bpfwire-lock NAME COMMAND (lock_main.c).
 */
#ifndef BPFWIRE_COMMON_LOCK_H
#define BPFWIRE_COMMON_LOCK_H

#include <signal.h>
#include <stddef.h>

/* Not under /run/bpfwire: every directory there is a lab run's. */
#define LOCK_DIR "/run/bpfwire-locks"
#define LOCK_KBUILD LOCK_DIR "/kbuild.lock"
#define LOCK_GUEST LOCK_DIR "/guest.lock"

/*
 * path's directory, made 0700 when missing, must be a directory (not a
 * link), root's, writable by no group or other: an O_PATH fd of it, or -1
 * with one line in err.
 */
int lock_dir_open(const char *path, char *err, size_t len);
/*
 * Open path in its checked directory and flock it, saying so when it must
 * wait. The fd (O_CLOEXEC; closing it unlocks), or -1 (said).
 */
int lock_take(const char *path);
/*
 * The same, giving up (-1, silent) once *stop is non-zero: a signal
 * handler installed without SA_RESTART sets it, and breaks the wait.
 */
int lock_take_until(const char *path, const volatile sig_atomic_t *stop);

#endif /* BPFWIRE_COMMON_LOCK_H */
