/* SPDX-License-Identifier: GPL-2.0-only */
/* ssh to a remote host (remote_ssh.c): for remote.c, guest.c and remote-unit. */
#ifndef BPFWIRE_LAB_REMOTE_SSH_H
#define BPFWIRE_LAB_REMOTE_SSH_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "proc.h"
#include "qga.h"

/* ssh [-F CONFIG] -o BatchMode=yes ... -p PORT -l USER ADDR, without a command. */
void ssh_argv(const struct lab_run *r, const struct lab_remote *m, struct argv *a);
/*
 * Runs cmd (a line for the remote's shell) in the underlay netns, killed
 * after timeout_ms. stdout goes to out_path when given, else into res->out.
 * 0 with res filled (exitcode 255: ssh's own failure, or the command's), or
 * -errno (-ETIMEDOUT).
 */
int ssh_run(const struct lab_run *r, const struct lab_remote *m, const char *cmd, int timeout_ms,
	    const char *out_path, struct qga_result *res);
/* Ends the run's shared connection to m (ControlMaster), if there is one. */
void ssh_stop_master(const struct lab_run *r, const struct lab_remote *m);
void ssh_last_line(const struct qga_result *res, char *out, size_t len);
/* shell_quote, false when out is too small for the worst case. */
bool remote_quote(const char *s, char *out, size_t len);

/* The argv as one line for the remote's shell; -1 if too long. */
int remote_join_argv(char *const argv[], char *out, size_t len);

/* What remote-side.sh exits with when it refuses the run's dir there (or a link in it). */
#define REMOTE_REFUSED 97
/* A path mktemp -d /tmp/bpfwire-ID.XXXXXXXX can have made (checked before it is used). */
bool remote_base_valid(const char *id, const char *base);
/* Room for any line below: remote-side.sh's text, quoted, and the arguments. */
#define REMOTE_LINE_MAX 65536
/*
 * The line ssh runs for remote-side.sh's subcommand a->v[0] with the rest
 * of a as its arguments, each quoted; -1 if too long or no script. Frees a.
 */
int remote_side_line(struct argv *a, char *out, size_t len);
/* The line ssh runs for remote_exec/remote_spawn: checks, cd to the share, pid, exec. */
int remote_cmd(const struct lab_remote *m, char *const argv[], char *out, size_t len);
/* The line that cats FILE of the share to stdout, refusing a link or a dir not the lab's. */
int remote_fetch_cmd(const struct lab_remote *m, const char *file, char *out, size_t len);

/* exec, spawn, wait and link on remote host m, over SSH: lab_exec's and the others' remote side. */
int remote_exec(struct lab_run *r, const struct lab_remote *m, char *const argv[], int timeout_ms,
		struct qga_result *res);
long remote_spawn(struct lab_run *r, const struct lab_remote *m, char *const argv[]);
int remote_wait(struct lab_run *r, const struct lab_remote *m, long pid, int timeout_ms,
		struct qga_result *res);
int remote_link(struct lab_run *r, const struct lab_remote *m, const char *iface, bool up,
		enum link_how how);
/* Copies FILE from a remote host's ${SHARE} into RUN/hosts/NAME/FILE. 0 or -1. */
int lab_fetch(struct lab_run *r, const char *host, const char *file);


#endif
