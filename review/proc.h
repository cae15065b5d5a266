/* SPDX-License-Identifier: GPL-2.0-only */
/* The review's child processes: meson and git, never through a shell. */
#ifndef BPFWIRE_REVIEW_PROC_H
#define BPFWIRE_REVIEW_PROC_H

#include <stddef.h>

#include "lock.h"

/*
 * Run argv (PATH lookup), its stdout and stderr to our stdout a line at a
 * time, each indented by PROC_INDENT and escaped (common/escape.h): meson
 * quotes tests, a kernel build quotes the series. lock: LOCK_KBUILD,
 * LOCK_GUEST or NULL, held for the child's whole life (lock_take); nice:
 * its niceness. The child leads a process group of its own, its stdin
 * /dev/null. Returns the exit status, 128+N for signal N, or -1 (said;
 * silent once the review is stopped: nothing is started then).
 */
#define PROC_INDENT "  "
int proc_run(char *const argv[], const char *lock, int nice_inc);
/* The same, keeping the child's lines (raw, whole lines up to keeplen) in keep. */
int proc_run_keep(char *const argv[], const char *lock, int nice_inc, char *keep, size_t keeplen);
/* Run argv and keep its stdout (at most len-1 bytes, trailing newline cut). Runs even when stopped: cleanup uses it. */
int proc_capture(char *const argv[], char *out, size_t len);

/*
 * SIGINT, SIGTERM and SIGHUP (unless inherited ignored) stop the review:
 * the running child's process group gets SIGTERM (meson test then cancels
 * every test, ninja and make stop their jobs, a sandbox's bwrap takes its
 * pid namespace with it), and SIGKILL PROC_GRACE_S seconds later or at a
 * second signal. proc_run waits for the child, so no lock is let go while
 * it still runs.
 */
#define PROC_GRACE_S 15
void proc_catch_signals(void);
/* The signal that stopped the review, or 0. */
int proc_stopped(void);

#endif
