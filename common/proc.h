/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Child processes: the one place that forks, execs and waits. A spawn in
 * a netns with its output in files, a pipe or ours; a wait with a
 * deadline; a run to completion with its output captured; a process's
 * identity and its end; and the quoted runs of a tool that shows a
 * child's lines to a person and stops it on Ctrl-C.
 */
#ifndef BPFWIRE_COMMON_PROC_H
#define BPFWIRE_COMMON_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lock.h"

/* An argv built one printf-formatted word at a time, NULL-terminated. */
struct argv {
	char *v[160];
	int n;
};
void argv_add(struct argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void argv_free(struct argv *a);

/* Where a child failed before its exec, for a caller's message. */
enum spawn_step { SPAWN_PIPE, SPAWN_FORK, SPAWN_NETNS, SPAWN_SETUP, SPAWN_STDIO, SPAWN_EXEC };

/*
 * The child's stdin is /dev/null and its stdout the file out, or a pipe,
 * or ours (inherit); its stderr the same, or the file err, or ours.
 */
struct spawn_opts {
	const char *netns;	/* enter /run/netns/NAME first; NULL: stay */
	const char *out;	/* stdout file (appended, never through a link), NULL: /dev/null */
	const char *err;	/* stderr file (appended), NULL: same as out */
	bool setsid;		/* new session: survives the lab's terminal */
	/* in the child after the netns, before exec: 0 or -errno (fails the spawn) */
	int (*child_setup)(void *arg);
	void *child_arg;
	bool inherit;		/* stdin, and stdout and stderr unless piped, stay ours */
	int *out_pipe;		/* stdout and stderr into a new pipe, its read end (O_CLOEXEC) here */
	bool keep_stderr;	/* stderr stays ours whatever the rest */
	bool pgroup;		/* a process group of its own, set on both sides before any kill */
	int nice;		/* added to the child's niceness */
	bool no_path;		/* argv[0] is the file itself (execv): no PATH, no sh for a script */
	enum spawn_step *failed;	/* on -errno: the step that failed */
};
/*
 * fork + exec (PATH lookup unless no_path), signals reset to their
 * defaults in the child. Returns the child's pid once it ran its exec, or
 * -errno with the child reaped. argv NULL: no exec, the child ends with
 * status 0 once child_setup returned 0.
 */
pid_t spawn(char *const argv[], const struct spawn_opts *o);
/*
 * The child's exit status (0..255) or 128+signal, or -errno. proc_poll
 * returns -EAGAIN while it runs. proc_wait with timeout_ms >= 0 sends
 * SIGKILL at the deadline, reaps it and returns -ETIMEDOUT; < 0 waits as
 * long as it takes. wstatus (may be NULL): waitpid's raw status.
 */
int proc_poll(pid_t pid, int *wstatus);
int proc_wait(pid_t pid, int timeout_ms, int *wstatus);
/*
 * Run to completion. Returns the exit status (0..255), 128+signal, or
 * -errno. stderr and stdout are captured into out (NUL-terminated, may be
 * truncated, trailing newlines cut) when out is given, otherwise
 * inherited. A netns not entered is 126, a command not run 127, each
 * with its line in out.
 */
int run_cmd(char *const argv[], const char *netns, char *out, size_t outlen);
/* Reap any of our children that ended (non-blocking). */
void reap_children(void);
/*
 * For a spawn_opts.child_setup: files of at most max bytes (RLIMIT_FSIZE),
 * SIGXFSZ ignored so that a write past it fails with EFBIG and the process
 * lives on. 0 or -errno.
 */
int limit_file_size(size_t max);

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

/*
 * Run argv (PATH lookup), its stdout and stderr to our stdout a line at a
 * time, each indented by PROC_INDENT and escaped (common/escape.h): meson
 * quotes tests, a kernel build quotes the series. lock: LOCK_KBUILD,
 * LOCK_GUEST or NULL, held for the child's whole life (lock_take); nice:
 * its niceness. The child leads a process group of its own, its stdin
 * /dev/null. Returns the exit status, 128+N for signal N, or -1 (said;
 * silent once stopped: nothing is started then).
 */
#define PROC_INDENT "  "
int proc_run(char *const argv[], const char *lock, int nice_inc);
/* The same, keeping the child's lines (raw, whole lines up to keeplen) in keep. */
int proc_run_keep(char *const argv[], const char *lock, int nice_inc, char *keep, size_t keeplen);
/* Run argv and keep its stdout (at most len-1 bytes, trailing newline cut). Runs even when stopped: cleanup uses it. */
int proc_capture(char *const argv[], char *out, size_t len);

/*
 * SIGINT, SIGTERM and SIGHUP (unless inherited ignored) stop the tool:
 * the running child's process group gets SIGTERM (meson test then cancels
 * every test, ninja and make stop their jobs, a sandbox's bwrap takes its
 * pid namespace with it), and SIGKILL PROC_GRACE_S seconds later or at a
 * second signal. proc_run waits for the child, so no lock is let go while
 * it still runs.
 */
#define PROC_GRACE_S 15
void proc_catch_signals(void);
/* The signal that stopped the tool, or 0. */
int proc_stopped(void);

#endif
