/* SPDX-License-Identifier: GPL-2.0-only */
/* qemu-guest-agent client: guest-sync-delimited, guest-exec (json-c). */
#ifndef BPFWIRE_LAB_QGA_H
#define BPFWIRE_LAB_QGA_H

#include <stdbool.h>
#include <stddef.h>

#include "jsonchan.h"

struct qga {
	struct jchan ch;
};

struct qga_result {
	bool exited;
	int exitcode;		/* valid when exited and !signal */
	int signal;		/* 0, or the signal that ended it */
	char *out, *err;	/* captured, NUL-terminated (malloc'd) */
	size_t out_len, err_len;
	bool truncated;
};

/* Connect and synchronise (0xff + guest-sync-delimited). 0 or -errno. */
int qga_open(struct qga *g, const char *path, int timeout_ms);
void qga_close(struct qga *g);
json_object *qga_execute(struct qga *g, const char *cmd, json_object *args,
			 int timeout_ms, char *err, size_t errlen);
/* Start argv[0] with argv (PATH-searched by qemu-ga); guest pid or -1. */
long qga_exec_start(struct qga *g, char *const argv[], const char *input,
		    char *err, size_t errlen);
/* One guest-exec-status. 0 (r filled; r->exited says whether it ended) or -1. */
int qga_exec_status(struct qga *g, long pid, struct qga_result *r, char *err, size_t errlen);
/* Poll guest-exec-status until exit or timeout (-1 with err "timed out"). */
int qga_exec_wait(struct qga *g, long pid, int timeout_ms, struct qga_result *r,
		  char *err, size_t errlen);
void qga_result_free(struct qga_result *r);

#endif
