/* SPDX-License-Identifier: GPL-2.0-only */
/* ssh to a remote host (remote_ssh.c); lab-private, for remote.c. */
#ifndef BPFWIRE_LAB_REMOTE_SSH_H
#define BPFWIRE_LAB_REMOTE_SSH_H

#include <stdbool.h>
#include <stddef.h>

#include "run.h"

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

#endif
