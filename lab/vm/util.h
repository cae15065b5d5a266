/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef BPFWIRE_LAB_UTIL_H
#define BPFWIRE_LAB_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The file and time helpers are common/'s; lab/ gets them through here. */
#include "file.h"
#include "timeutil.h"

/*
 * The most the lab reads of a file a guest or a remote sized (a report, a
 * console, ssh's output), and the most QEMU may write to any one file (its
 * console, its log, a guest's file in its share): 32 MiB. Past it a read is
 * refused with a reason, never cut short in silence.
 */
#define LAB_DATA_MAX (32u << 20)
/*
 * For a spawn_opts.child_setup: files of at most max bytes (RLIMIT_FSIZE),
 * SIGXFSZ ignored so that a write past it fails with EFBIG and the process
 * lives on. 0 or -errno.
 */
int limit_file_size(size_t max);

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

/* Process identity: pid plus its start time (clock ticks since boot). */
unsigned long long proc_starttime(pid_t pid);
/* Alive and not a zombie, and (if start != 0) the same process. */
bool proc_alive(pid_t pid, unsigned long long start);
/*
 * SIGTERM, wait up to timeout_ms, then SIGKILL and wait. 0 when gone.
 * start 0: the process that has pid now (for pids just found alive, never
 * for recorded ones: lab_down refuses a recorded start of 0).
 */
int proc_kill(pid_t pid, unsigned long long start, int timeout_ms);
long proc_rss_kib(pid_t pid);

struct spawn_opts {
	const char *netns;	/* enter /run/netns/NAME first; NULL: stay */
	const char *out;	/* stdout file (appended, never through a link), NULL: /dev/null */
	const char *err;	/* stderr file (appended), NULL: same as out */
	bool setsid;		/* new session: survives the lab's terminal */
	/* in the child after the netns, before exec: 0 or -errno (fails the spawn) */
	int (*child_setup)(void *arg);
	void *child_arg;
};
/* fork + exec; returns the child's pid or -errno. */
pid_t spawn(char *const argv[], const struct spawn_opts *o);
/*
 * Run to completion. Returns the exit status (0..255), 128+signal, or
 * -errno. stderr and stdout are captured into out (NUL-terminated, may be
 * truncated) when out is given, otherwise inherited.
 */
int run_cmd(char *const argv[], const char *netns, char *out, size_t outlen);
/* Reap any of our children that ended (non-blocking). */
void reap_children(void);

/* base64 (RFC 4648); decode returns the length or -1. */
char *base64_encode(const void *data, size_t len);
ssize_t base64_decode(const char *in, void *out, size_t outlen);

/* An argv built one printf-formatted word at a time, NULL-terminated. */
struct argv {
	char *v[160];
	int n;
};
void argv_add(struct argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void argv_free(struct argv *a);

/* Quote s for a POSIX shell, into out. */
void shell_quote(const char *s, char *out, size_t outlen);

#endif
