// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errnames.h"
#include "escape.h"
#include "jsonchan.h"
#include "jsonget.h"
#include "qga.h"
#include "timeutil.h"
#include "util.h"

int qga_open(struct qga *g, const char *path, int timeout_ms)
{
	/* one deadline for all: a guest that keeps answering stale ids cannot hold us */
	double deadline = jchan_deadline(timeout_ms);
	json_object *req, *args, *resp, *ret;
	long long id = ((long long)getpid() << 20) ^ (long long)(now_s() * 1000);
	int r;

	r = jchan_connect(&g->ch, path, deadline);
	if (r)
		return r;
	/* 0xff resets qemu-ga's parser after a client that left mid-request */
	r = jchan_send_raw(&g->ch, "\xff", 1);
	req = json_object_new_object();
	args = json_object_new_object();
	json_object_object_add(args, "id", json_object_new_int64(id));
	json_object_object_add(req, "execute", json_object_new_string("guest-sync-delimited"));
	json_object_object_add(req, "arguments", args);
	if (!r)
		r = jchan_send(&g->ch, req);
	json_object_put(req);
	if (!r)
		r = jchan_skip_to(&g->ch, 0xff, deadline);
	while (!r) {
		resp = jchan_recv(&g->ch, deadline);
		if (!resp) {
			r = -errno;
			break;
		}
		ret = jget(resp, "return", json_type_int);
		if (ret && json_object_get_int64(ret) == id) {
			json_object_put(resp);
			return 0;
		}
		json_object_put(resp);	/* a stale answer to a previous client */
	}
	jchan_close(&g->ch);
	return r;
}

void qga_close(struct qga *g)
{
	jchan_close(&g->ch);
}

/*
 * What the guest sent, for err: its first 200 bytes, escaped. err reaches
 * pr_warn and a step's "why", and json-c leaves UTF-8 (C1, bidi) as it is.
 */
static const char *guest_text(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	esc_str(buf, len, s, n < 200 ? n : 200, 0);
	return buf;
}

/* qga_execute with an absolute deadline. */
static json_object *execute_until(struct qga *g, const char *cmd, json_object *args,
				  double deadline, char *err, size_t errlen)
{
	json_object *req = json_object_new_object(), *resp, *v;
	const char *what;
	char text[801];
	int r, failed;

	json_object_object_add(req, "execute", json_object_new_string(cmd));
	if (args)
		json_object_object_add(req, "arguments", args);
	r = jchan_send(&g->ch, req);
	json_object_put(req);
	if (r) {
		snprintf(err, errlen, "couldn't send %s to qemu-ga: %s", cmd, errno_str(r));
		return NULL;
	}
	resp = jchan_recv(&g->ch, deadline);
	if (!resp) {
		snprintf(err, errlen, "no answer from qemu-ga to %s: %s", cmd, errno_str(errno));
		return NULL;
	}
	v = jchan_qemu_return(resp, &failed, &what);
	if (!v)
		snprintf(err, errlen, failed ? "qemu-ga %s failed: %s" : "qemu-ga %s: unexpected answer %s", cmd,
			 guest_text(text, sizeof(text), what));
	json_object_put(resp);
	return v;
}

json_object *qga_execute(struct qga *g, const char *cmd, json_object *args,
			 int timeout_ms, char *err, size_t errlen)
{
	return execute_until(g, cmd, args, jchan_deadline(timeout_ms), err, errlen);
}

long qga_exec_start(struct qga *g, char *const argv[], const char *input,
		    char *err, size_t errlen)
{
	json_object *args = json_object_new_object(), *arr = json_object_new_array(), *env, *ret, *pid;
	char text[801];
	long p;

	json_object_object_add(args, "path", json_object_new_string(argv[0]));
	for (int i = 1; argv[i]; i++)
		json_object_array_add(arr, json_object_new_string(argv[i]));
	json_object_object_add(args, "arg", arr);
	env = json_object_new_array();
	json_object_array_add(env, json_object_new_string("PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"));
	json_object_array_add(env, json_object_new_string("HOME=/tmp"));
	json_object_array_add(env, json_object_new_string("TERM=dumb"));
	json_object_object_add(args, "env", env);
	json_object_object_add(args, "capture-output", json_object_new_boolean(1));
	if (input) {
		char *b = base64_encode(input, strlen(input));

		json_object_object_add(args, "input-data", json_object_new_string(b ? b : ""));
		free(b);
	}
	ret = qga_execute(g, "guest-exec", args, 10000, err, errlen);
	if (!ret)
		return -1;
	pid = jget(ret, "pid", json_type_int);
	if (!pid || json_object_get_int64(pid) <= 0 || json_object_get_int64(pid) > INT_MAX) {
		snprintf(err, errlen, "guest-exec answered without a pid: %s",
			 guest_text(text, sizeof(text), json_object_to_json_string(ret)));
		json_object_put(ret);
		return -1;
	}
	p = (long)json_object_get_int64(pid);
	json_object_put(ret);
	return p;
}

/*
 * Member key of o: absent is fine (false), any other type than t is a
 * protocol error (true, with err).
 */
static bool wrong_type(json_object *o, const char *key, json_type t, json_object **v,
		       char *err, size_t errlen)
{
	char why[128];

	if (jget_typed(o, key, t, v, why, sizeof(why)) >= 0)
		return false;
	snprintf(err, errlen, "guest-exec-status: %s", why);
	return true;
}

/* A base64 member: 0 (buf malloc'd, "" when absent) or -1 with err. */
static int decode_member(json_object *o, const char *key, char **buf, size_t *len,
			 char *err, size_t errlen)
{
	json_object *v;
	size_t slen;
	ssize_t n;

	*len = 0;
	if (wrong_type(o, key, json_type_string, &v, err, errlen))
		return -1;
	slen = v ? (size_t)json_object_get_string_len(v) : 0;
	*buf = malloc(slen * 3 / 4 + 4);
	if (!*buf) {
		snprintf(err, errlen, "guest-exec-status: %s: %s", key, errno_str(-ENOMEM));
		return -1;
	}
	n = v ? base64_decode(json_object_get_string(v), *buf, slen * 3 / 4 + 3) : 0;
	if (n < 0) {
		snprintf(err, errlen, "guest-exec-status: %s is not base64", key);
		free(*buf);
		*buf = NULL;
		return -1;
	}
	(*buf)[n] = '\0';
	*len = (size_t)n;
	return 0;
}

/* qga_exec_status with an absolute deadline. */
static int exec_status_until(struct qga *g, long pid, double deadline, struct qga_result *r,
			     char *err, size_t errlen)
{
	json_object *args = json_object_new_object(), *ret, *v;
	bool bad;

	memset(r, 0, sizeof(*r));
	json_object_object_add(args, "pid", json_object_new_int64(pid));
	ret = execute_until(g, "guest-exec-status", args, deadline, err, errlen);
	if (!ret)
		return -1;
	/* every member the guest sent has the type the protocol gives it */
	bad = wrong_type(ret, "exited", json_type_boolean, &v, err, errlen);
	r->exited = v && json_object_get_boolean(v);
	bad = bad || wrong_type(ret, "exitcode", json_type_int, &v, err, errlen);
	if (v)
		r->exitcode = json_object_get_int(v);
	bad = bad || wrong_type(ret, "signal", json_type_int, &v, err, errlen);
	if (v)
		r->signal = json_object_get_int(v);
	bad = bad || wrong_type(ret, "out-truncated", json_type_boolean, &v, err, errlen);
	r->truncated = v && json_object_get_boolean(v);
	bad = bad || wrong_type(ret, "err-truncated", json_type_boolean, &v, err, errlen);
	r->truncated = r->truncated || (v && json_object_get_boolean(v));
	if (!bad && r->exited)
		bad = decode_member(ret, "out-data", &r->out, &r->out_len, err, errlen) ||
		      decode_member(ret, "err-data", &r->err, &r->err_len, err, errlen);
	json_object_put(ret);
	if (bad) {
		qga_result_free(r);
		r->exited = false;
		return -1;
	}
	return 0;
}

int qga_exec_status(struct qga *g, long pid, struct qga_result *r, char *err, size_t errlen)
{
	return exec_status_until(g, pid, jchan_deadline(10000), r, err, errlen);
}

int qga_exec_wait(struct qga *g, long pid, int timeout_ms, struct qga_result *r,
		  char *err, size_t errlen)
{
	double deadline = now_s() + timeout_ms / 1000.0;
	int delay = 5;

	for (;;) {
		/* each look within 10 s, and within a second past the whole wait's deadline */
		double until = now_s() + 10;

		if (timeout_ms >= 0 && until > deadline + 1)
			until = deadline + 1;
		if (exec_status_until(g, pid, until, r, err, errlen))
			return -1;
		if (r->exited)
			return 0;
		if (lab_interrupted) {
			snprintf(err, errlen, "interrupted while waiting for guest pid %ld", pid);
			return -1;
		}
		if (timeout_ms >= 0 && now_s() >= deadline) {
			snprintf(err, errlen, "guest pid %ld timed out after %d ms", pid, timeout_ms);
			return -1;
		}
		sleep_ms(delay);
		if (delay < 50)
			delay *= 2;
	}
}

void qga_result_free(struct qga_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}
