// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errnames.h"
#include "qga.h"
#include "util.h"

int qga_open(struct qga *g, const char *path, int timeout_ms)
{
	json_object *req, *args, *resp, *ret;
	long long id = ((long long)getpid() << 20) ^ (long long)(now_s() * 1000);
	int r;

	r = jchan_connect(&g->ch, path, timeout_ms);
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
		r = jchan_skip_to(&g->ch, 0xff, timeout_ms);
	while (!r) {
		resp = jchan_recv(&g->ch, timeout_ms);
		if (!resp) {
			r = -errno;
			break;
		}
		if (json_object_object_get_ex(resp, "return", &ret) &&
		    json_object_get_int64(ret) == id) {
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

json_object *qga_execute(struct qga *g, const char *cmd, json_object *args,
			 int timeout_ms, char *err, size_t errlen)
{
	json_object *req = json_object_new_object(), *resp, *v;
	int r;

	json_object_object_add(req, "execute", json_object_new_string(cmd));
	if (args)
		json_object_object_add(req, "arguments", args);
	r = jchan_send(&g->ch, req);
	json_object_put(req);
	if (r) {
		snprintf(err, errlen, "couldn't send %s to qemu-ga: %s", cmd, errno_str(r));
		return NULL;
	}
	resp = jchan_recv(&g->ch, timeout_ms);
	if (!resp) {
		snprintf(err, errlen, "no answer from qemu-ga to %s: %s", cmd, errno_str(errno));
		return NULL;
	}
	if (json_object_object_get_ex(resp, "return", &v)) {
		json_object_get(v);
		json_object_put(resp);
		return v;
	}
	if (json_object_object_get_ex(resp, "error", &v)) {
		json_object *desc = NULL;

		json_object_object_get_ex(v, "desc", &desc);
		snprintf(err, errlen, "qemu-ga %s failed: %s", cmd,
			 desc ? json_object_get_string(desc) : json_object_to_json_string(v));
	} else {
		snprintf(err, errlen, "qemu-ga %s: unexpected answer %s", cmd, json_object_to_json_string(resp));
	}
	json_object_put(resp);
	return NULL;
}

long qga_exec_start(struct qga *g, char *const argv[], const char *input,
		    char *err, size_t errlen)
{
	json_object *args = json_object_new_object(), *arr = json_object_new_array(), *env, *ret, *pid;
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
	if (!json_object_object_get_ex(ret, "pid", &pid)) {
		snprintf(err, errlen, "guest-exec answered without a pid");
		json_object_put(ret);
		return -1;
	}
	p = (long)json_object_get_int64(pid);
	json_object_put(ret);
	return p;
}

static char *decode_member(json_object *o, const char *key, size_t *len)
{
	json_object *v;
	const char *s;
	char *buf;
	ssize_t n;

	*len = 0;
	if (!json_object_object_get_ex(o, key, &v))
		return calloc(1, 1);
	s = json_object_get_string(v);
	buf = malloc(strlen(s) * 3 / 4 + 4);
	if (!buf)
		return NULL;
	n = base64_decode(s, buf, strlen(s) * 3 / 4 + 3);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

int qga_exec_status(struct qga *g, long pid, struct qga_result *r, char *err, size_t errlen)
{
	json_object *args = json_object_new_object(), *ret, *v;

	memset(r, 0, sizeof(*r));
	json_object_object_add(args, "pid", json_object_new_int64(pid));
	ret = qga_execute(g, "guest-exec-status", args, 10000, err, errlen);
	if (!ret)
		return -1;
	r->exited = json_object_object_get_ex(ret, "exited", &v) && json_object_get_boolean(v);
	if (json_object_object_get_ex(ret, "exitcode", &v))
		r->exitcode = json_object_get_int(v);
	if (json_object_object_get_ex(ret, "signal", &v))
		r->signal = json_object_get_int(v);
	if (r->exited) {
		r->out = decode_member(ret, "out-data", &r->out_len);
		r->err = decode_member(ret, "err-data", &r->err_len);
		r->truncated = (json_object_object_get_ex(ret, "out-truncated", &v) && json_object_get_boolean(v)) ||
			       (json_object_object_get_ex(ret, "err-truncated", &v) && json_object_get_boolean(v));
	}
	json_object_put(ret);
	return 0;
}

int qga_exec_wait(struct qga *g, long pid, int timeout_ms, struct qga_result *r,
		  char *err, size_t errlen)
{
	double deadline = now_s() + timeout_ms / 1000.0;
	int delay = 5;

	for (;;) {
		if (qga_exec_status(g, pid, r, err, errlen))
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
